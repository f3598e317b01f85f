#include "sdk/node/engine/napi.h"

#include <algorithm>
#include <exception>

namespace cassino::node_engine {

void Fail(const absl::Status& status, bool move) {
  const std::string message(status.message());
  switch (status.code()) {
    case absl::StatusCode::kInvalidArgument:
      throw JsError{move ? JsError::kIllegalMove : JsError::kInvalid, message};
    case absl::StatusCode::kUnimplemented:
      throw JsError{JsError::kUnsupported, message};
    case absl::StatusCode::kFailedPrecondition:
      throw JsError{JsError::kGameOver, message};
    default:
      throw JsError{JsError::kError, status.ToString()};
  }
}

AddonData& Data(napi_env env) {
  void* data = nullptr;
  napi_get_instance_data(env, &data);
  return *static_cast<AddonData*>(data);
}

napi_value Call::arg(size_t i) const {
  return i < args.size() ? args[i] : Undefined(env);
}

bool Call::has(size_t i) const {
  return i < args.size() && !IsUndefined(env, args[i]);
}

namespace {

void Throw(napi_env env, const JsError& e) {
  switch (e.kind) {
    case JsError::kType:
      napi_throw_type_error(env, nullptr, e.message.c_str());
      return;
    case JsError::kInvalid:
      napi_throw_error(env, "INVALID_ARGUMENT", e.message.c_str());
      return;
    case JsError::kIllegalMove:
    case JsError::kUnsupported:
    case JsError::kGameOver: {
      napi_ref ref = Data(env).errors[e.kind - JsError::kIllegalMove];
      napi_value cls, message, error;
      if (ref != nullptr &&
          napi_get_reference_value(env, ref, &cls) == napi_ok &&
          napi_create_string_utf8(env, e.message.c_str(), e.message.size(),
                                  &message) == napi_ok &&
          napi_new_instance(env, cls, 1, &message, &error) == napi_ok) {
        napi_throw(env, error);
        return;
      }
      napi_throw_error(env, nullptr, e.message.c_str());
      return;
    }
    case JsError::kError:
      napi_throw_error(env, nullptr, e.message.c_str());
      return;
  }
}

}  // namespace

napi_value Run(napi_env env, napi_callback_info info, Function f) {
  try {
    Call c{env, nullptr, {}};
    size_t argc = 8;
    c.args.resize(argc);
    Ok(napi_get_cb_info(env, info, &argc, c.args.data(), &c.self, nullptr));
    c.args.resize(std::min<size_t>(argc, 8));
    return f(c);
  } catch (const JsError& e) {
    Throw(env, e);
  } catch (const std::exception& e) {
    napi_throw_error(env, nullptr, e.what());
  }
  return nullptr;
}

void Ok(napi_status status) {
  if (status != napi_ok) {
    throw JsError{JsError::kType, "a value of the wrong type"};
  }
}

std::string ToString(napi_env env, napi_value v) {
  size_t size = 0;
  if (napi_get_value_string_utf8(env, v, nullptr, 0, &size) != napi_ok) {
    throw JsError{JsError::kType, "a string is expected"};
  }
  std::string out(size, '\0');
  napi_get_value_string_utf8(env, v, out.data(), size + 1, &size);
  return out;
}

double ToNumber(napi_env env, napi_value v) {
  double out = 0;
  if (napi_get_value_double(env, v, &out) != napi_ok) {
    throw JsError{JsError::kType, "a number is expected"};
  }
  return out;
}

int ToInt(napi_env env, napi_value v) {
  const double d = ToNumber(env, v);
  if (d != static_cast<int>(d)) {
    throw JsError{JsError::kType, "an integer is expected"};
  }
  return static_cast<int>(d);
}

bool IsString(napi_env env, napi_value v) {
  napi_valuetype type;
  return napi_typeof(env, v, &type) == napi_ok && type == napi_string;
}

bool IsUndefined(napi_env env, napi_value v) {
  napi_valuetype type;
  return napi_typeof(env, v, &type) == napi_ok &&
         (type == napi_undefined || type == napi_null);
}

napi_value Undefined(napi_env env) {
  napi_value v;
  napi_get_undefined(env, &v);
  return v;
}

napi_value Str(napi_env env, const std::string& s) {
  napi_value v;
  Ok(napi_create_string_utf8(env, s.data(), s.size(), &v));
  return v;
}

napi_value Num(napi_env env, double n) {
  napi_value v;
  Ok(napi_create_double(env, n, &v));
  return v;
}

napi_value Bool(napi_env env, bool b) {
  napi_value v;
  Ok(napi_get_boolean(env, b, &v));
  return v;
}

napi_value Null(napi_env env) {
  napi_value v;
  napi_get_null(env, &v);
  return v;
}

napi_value Array(napi_env env, const std::vector<napi_value>& items) {
  napi_value out;
  Ok(napi_create_array_with_length(env, items.size(), &out));
  for (size_t i = 0; i < items.size(); ++i) {
    Ok(napi_set_element(env, out, static_cast<uint32_t>(i), items[i]));
  }
  Ok(napi_object_freeze(env, out));
  return out;
}

napi_value Ints(napi_env env, const std::vector<int>& values) {
  std::vector<napi_value> items;
  items.reserve(values.size());
  for (int v : values) items.push_back(Num(env, v));
  return Array(env, items);
}

napi_value Cards(napi_env env, CardSet cards) {
  std::vector<napi_value> items;
  items.reserve(cards.size());
  for (Card c : cards) items.push_back(Str(env, c.ToString()));
  return Array(env, items);
}

napi_value Object(
    napi_env env,
    const std::vector<std::pair<const char*, napi_value>>& props) {
  napi_value out;
  Ok(napi_create_object(env, &out));
  for (const auto& [name, value] : props) {
    Ok(napi_set_named_property(env, out, name, value));
  }
  Ok(napi_object_freeze(env, out));
  return out;
}

napi_value Get(napi_env env, napi_value obj, const char* name) {
  napi_value v;
  Ok(napi_get_named_property(env, obj, name, &v));
  return v;
}

napi_property_descriptor Method(const char* name, napi_callback f) {
  return {name, nullptr, f, nullptr, nullptr, nullptr, napi_default, nullptr};
}

napi_property_descriptor Getter(const char* name, napi_callback f) {
  return {name, nullptr, nullptr, f, nullptr, nullptr, napi_default, nullptr};
}

napi_property_descriptor Static(const char* name, napi_callback f) {
  return {name, nullptr, f, nullptr, nullptr, nullptr, napi_static, nullptr};
}

void DefineClass(napi_env env, napi_value exports, const char* name,
                 napi_callback constructor,
                 const std::vector<napi_property_descriptor>& props,
                 napi_ref* ref) {
  napi_value cls;
  Ok(napi_define_class(env, name, NAPI_AUTO_LENGTH, constructor, nullptr,
                       props.size(), props.data(), &cls));
  Ok(napi_create_reference(env, cls, 1, ref));
  Ok(napi_set_named_property(env, exports, name, cls));
}

}  // namespace cassino::node_engine
