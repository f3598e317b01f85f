#include "tools/verify/flat_json.h"

#include <limits>

namespace cassino::verify {
namespace {

constexpr int kMaxDepth = 64;

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

void AppendUtf8(uint32_t cp, std::string* out) {
  if (cp < 0x80) {
    out->push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out->push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out->push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out->push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

}  // namespace

void FlatObject::SkipSpace() {
  while (p_ < s_.size() && (s_[p_] == ' ' || s_[p_] == '\t' || s_[p_] == '\n' ||
                            s_[p_] == '\r')) {
    ++p_;
  }
}

bool FlatObject::Literal(std::string_view word) {
  if (s_.substr(p_, word.size()) != word) return false;
  p_ += word.size();
  return true;
}

bool FlatObject::ParseString(std::string* out) {
  if (p_ >= s_.size() || s_[p_] != '"') return false;
  ++p_;
  out->clear();
  while (true) {
    // Copy the run of plain characters at once.
    const size_t start = p_;
    while (p_ < s_.size() && s_[p_] != '"' && s_[p_] != '\\' &&
           static_cast<unsigned char>(s_[p_]) >= 0x20) {
      ++p_;
    }
    out->append(s_.data() + start, p_ - start);
    if (p_ >= s_.size()) return false;
    const char c = s_[p_];
    if (c == '"') {
      ++p_;
      return true;
    }
    if (c != '\\') return false;  // a control character
    if (++p_ >= s_.size()) return false;
    const char e = s_[p_++];
    switch (e) {
      case '"':
      case '\\':
      case '/':
        out->push_back(e);
        break;
      case 'b':
        out->push_back('\b');
        break;
      case 'f':
        out->push_back('\f');
        break;
      case 'n':
        out->push_back('\n');
        break;
      case 'r':
        out->push_back('\r');
        break;
      case 't':
        out->push_back('\t');
        break;
      case 'u': {
        auto read4 = [&](uint32_t* v) {
          if (p_ + 4 > s_.size()) return false;
          *v = 0;
          for (int i = 0; i < 4; ++i) {
            const int h = HexValue(s_[p_ + i]);
            if (h < 0) return false;
            *v = *v * 16 + static_cast<uint32_t>(h);
          }
          p_ += 4;
          return true;
        };
        uint32_t cp;
        if (!read4(&cp)) return false;
        if (cp >= 0xD800 && cp <= 0xDBFF) {
          uint32_t low;
          if (p_ + 2 > s_.size() || s_[p_] != '\\' || s_[p_ + 1] != 'u') {
            return false;
          }
          p_ += 2;
          if (!read4(&low) || low < 0xDC00 || low > 0xDFFF) return false;
          cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
        } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
          return false;  // a lone low surrogate
        }
        AppendUtf8(cp, out);
        break;
      }
      default:
        return false;
    }
  }
}

bool FlatObject::ParseNumber(Field* field) {
  const size_t start = p_;
  bool negative = false;
  if (p_ < s_.size() && s_[p_] == '-') {
    negative = true;
    ++p_;
  }
  if (p_ >= s_.size() || s_[p_] < '0' || s_[p_] > '9') return false;
  bool overflow = false;
  // Accumulate as a negative number so that INT64_MIN fits.
  int64_t value = 0;
  if (s_[p_] == '0') {
    ++p_;
  } else {
    while (p_ < s_.size() && s_[p_] >= '0' && s_[p_] <= '9') {
      const int d = s_[p_] - '0';
      if (value < (std::numeric_limits<int64_t>::min() + d) / 10) {
        overflow = true;
      } else {
        value = value * 10 - d;
      }
      ++p_;
    }
  }
  bool integer = true;
  if (p_ < s_.size() && s_[p_] == '.') {
    integer = false;
    ++p_;
    if (p_ >= s_.size() || s_[p_] < '0' || s_[p_] > '9') return false;
    while (p_ < s_.size() && s_[p_] >= '0' && s_[p_] <= '9') ++p_;
  }
  if (p_ < s_.size() && (s_[p_] == 'e' || s_[p_] == 'E')) {
    integer = false;
    ++p_;
    if (p_ < s_.size() && (s_[p_] == '+' || s_[p_] == '-')) ++p_;
    if (p_ >= s_.size() || s_[p_] < '0' || s_[p_] > '9') return false;
    while (p_ < s_.size() && s_[p_] >= '0' && s_[p_] <= '9') ++p_;
  }
  (void)start;
  if (field == nullptr) return true;
  if (!integer || overflow ||
      (!negative && value == std::numeric_limits<int64_t>::min())) {
    field->type = Type::kOther;
    return true;
  }
  field->type = Type::kInt;
  field->number = negative ? value : -value;
  return true;
}

bool FlatObject::SkipValue(int depth) {
  SkipSpace();
  if (p_ >= s_.size()) return false;
  switch (s_[p_]) {
    case '"':
      return ParseString(&scratch_);
    case 't':
      return Literal("true");
    case 'f':
      return Literal("false");
    case 'n':
      return Literal("null");
    case '{':
    case '[': {
      if (depth >= kMaxDepth) return false;
      const bool object = s_[p_] == '{';
      const char close = object ? '}' : ']';
      ++p_;
      SkipSpace();
      if (p_ < s_.size() && s_[p_] == close) {
        ++p_;
        return true;
      }
      while (true) {
        if (object) {
          SkipSpace();
          if (!ParseString(&scratch_)) return false;
          SkipSpace();
          if (p_ >= s_.size() || s_[p_] != ':') return false;
          ++p_;
        }
        if (!SkipValue(depth + 1)) return false;
        SkipSpace();
        if (p_ >= s_.size()) return false;
        if (s_[p_] == ',') {
          ++p_;
          continue;
        }
        if (s_[p_] != close) return false;
        ++p_;
        return true;
      }
    }
    default:
      return ParseNumber(nullptr);
  }
}

bool FlatObject::Parse(std::string_view json) {
  s_ = json;
  p_ = 0;
  count_ = 0;
  SkipSpace();
  if (p_ >= s_.size() || s_[p_] != '{') return false;
  ++p_;
  SkipSpace();
  if (p_ < s_.size() && s_[p_] == '}') {
    ++p_;
  } else {
    while (true) {
      if (count_ == fields_.size()) fields_.emplace_back();
      Field& f = fields_[count_];
      SkipSpace();
      if (!ParseString(&f.key)) return false;
      SkipSpace();
      if (p_ >= s_.size() || s_[p_] != ':') return false;
      ++p_;
      SkipSpace();
      if (p_ >= s_.size()) return false;
      const char c = s_[p_];
      if (c == '"') {
        f.type = Type::kString;
        if (!ParseString(&f.text)) return false;
      } else if (c == '-' || (c >= '0' && c <= '9')) {
        if (!ParseNumber(&f)) return false;
      } else {
        f.type = Type::kOther;
        if (!SkipValue(1)) return false;
      }
      ++count_;
      SkipSpace();
      if (p_ >= s_.size()) return false;
      if (s_[p_] == ',') {
        ++p_;
        continue;
      }
      if (s_[p_] != '}') return false;
      ++p_;
      break;
    }
  }
  SkipSpace();
  return p_ == s_.size();
}

const FlatObject::Field* FlatObject::Find(std::string_view key) const {
  for (size_t i = count_; i-- > 0;) {
    if (fields_[i].key == key) return &fields_[i];
  }
  return nullptr;
}

const int64_t* FlatObject::Int(std::string_view key) const {
  const Field* f = Find(key);
  return f != nullptr && f->type == Type::kInt ? &f->number : nullptr;
}

const std::string* FlatObject::String(std::string_view key) const {
  const Field* f = Find(key);
  return f != nullptr && f->type == Type::kString ? &f->text : nullptr;
}

}  // namespace cassino::verify
