// A thin layer over Node-API (the C API of node_api.h, version 8, which is
// ABI-stable across Node versions) for the forward model's addon
// (addon.cc): callbacks written as C++ functions that throw JsError, value
// conversions, plain frozen objects, and the addon's per-environment data
// (so it also loads in worker threads).

#ifndef CASSINO_SDK_NODE_ENGINE_NAPI_H_
#define CASSINO_SDK_NODE_ENGINE_NAPI_H_

#define NAPI_VERSION 8
#include <node_api.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "rules/card.h"

namespace cassino::node_engine {

// An error to throw in JavaScript. kIllegalMove, kUnsupported and
// kGameOver are thrown as the classes engine.js registers
// (IllegalMoveError, UnsupportedRulesError, GameOverError); kInvalid is an
// Error with code 'INVALID_ARGUMENT'.
struct JsError {
  enum Kind { kType, kInvalid, kIllegalMove, kUnsupported, kGameOver, kError };
  Kind kind;
  std::string message;
};

// Throws the JsError for a failed status; `move`: an InvalidArgument is a
// refused move (kIllegalMove), not malformed input (kInvalid).
[[noreturn]] void Fail(const absl::Status& status, bool move = false);
inline void Check(const absl::Status& status) {
  if (!status.ok()) Fail(status);
}
template <typename T>
T Value(absl::StatusOr<T> value) {
  if (!value.ok()) Fail(value.status());
  return *std::move(value);
}

// What the addon keeps per environment (napi_set_instance_data).
struct AddonData {
  napi_ref game = nullptr;         // the Game class
  napi_ref position = nullptr;     // the Position class
  napi_ref observation = nullptr;  // the Observation class
  napi_ref errors[3] = {};         // IllegalMove, Unsupported, GameOver
};
AddonData& Data(napi_env env);

// One callback's arguments.
struct Call {
  napi_env env;
  napi_value self;
  std::vector<napi_value> args;
  // The i-th argument; undefined when missing.
  napi_value arg(size_t i) const;
  bool has(size_t i) const;  // given and not undefined
};

using Function = napi_value (*)(const Call&);
// The napi_callback that runs F and turns a thrown JsError into a
// JavaScript exception.
napi_value Run(napi_env env, napi_callback_info info, Function f);
template <Function F>
napi_value Entry(napi_env env, napi_callback_info info) {
  return Run(env, info, F);
}

// Throws a TypeError unless the N-API call succeeded.
void Ok(napi_status status);

// Conversions (TypeError for the wrong type).
std::string ToString(napi_env env, napi_value v);
double ToNumber(napi_env env, napi_value v);
int ToInt(napi_env env, napi_value v);
bool IsString(napi_env env, napi_value v);
bool IsUndefined(napi_env env, napi_value v);
napi_value Undefined(napi_env env);
napi_value Str(napi_env env, const std::string& s);
napi_value Num(napi_env env, double n);
napi_value Bool(napi_env env, bool b);
napi_value Null(napi_env env);
// A frozen array.
napi_value Array(napi_env env, const std::vector<napi_value>& items);
napi_value Ints(napi_env env, const std::vector<int>& values);
// Cards as a frozen array of strings, deck order.
napi_value Cards(napi_env env, CardSet cards);
// A frozen plain object.
napi_value Object(napi_env env,
                  const std::vector<std::pair<const char*, napi_value>>& props);
// obj[name].
napi_value Get(napi_env env, napi_value obj, const char* name);

// The C++ object a class instance wraps.
template <typename T>
T& Unwrap(napi_env env, napi_value obj) {
  void* p = nullptr;
  if (napi_unwrap(env, obj, &p) != napi_ok || p == nullptr) {
    throw JsError{JsError::kType, "not an instance of this class"};
  }
  return *static_cast<T*>(p);
}

// Wraps `object` (owned from now on) into `self`.
template <typename T>
void Wrap(napi_env env, napi_value self, T* object) {
  Ok(napi_wrap(
      env, self, object,
      [](napi_env, void* p, void*) { delete static_cast<T*>(p); }, nullptr,
      nullptr));
}

// A new instance of the class at `ref` made from a C++ object: the
// constructor gets one External argument holding it (see TakeExternal).
template <typename T>
napi_value NewInstance(napi_env env, napi_ref ref, T object) {
  napi_value cls, external, out;
  Ok(napi_get_reference_value(env, ref, &cls));
  T* p = new T(std::move(object));
  if (napi_create_external(env, p, nullptr, nullptr, &external) != napi_ok) {
    delete p;
    throw JsError{JsError::kError, "cannot create an instance"};
  }
  if (napi_new_instance(env, cls, 1, &external, &out) != napi_ok) {
    throw JsError{JsError::kError, "cannot create an instance"};
  }
  return out;
}
// In a constructor: the C++ object NewInstance passed (now the caller's),
// or nullptr when JavaScript called the constructor.
template <typename T>
T* TakeExternal(const Call& c) {
  napi_valuetype type;
  if (c.args.size() != 1 || napi_typeof(c.env, c.args[0], &type) != napi_ok ||
      type != napi_external) {
    return nullptr;
  }
  void* p = nullptr;
  Ok(napi_get_value_external(c.env, c.args[0], &p));
  return static_cast<T*>(p);
}

// A method, getter or static function of a class.
napi_property_descriptor Method(const char* name, napi_callback f);
napi_property_descriptor Getter(const char* name, napi_callback f);
napi_property_descriptor Static(const char* name, napi_callback f);
// Defines a class, sets it on `exports` and keeps a reference in *ref.
void DefineClass(napi_env env, napi_value exports, const char* name,
                 napi_callback constructor,
                 const std::vector<napi_property_descriptor>& props,
                 napi_ref* ref);

}  // namespace cassino::node_engine

#endif  // CASSINO_SDK_NODE_ENGINE_NAPI_H_
