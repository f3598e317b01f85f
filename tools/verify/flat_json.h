// A fast, allocation-reusing parser for the flat JSON objects of event
// payloads (move, reject, deal, forfeit, abort, end): string and integer
// values are decoded; any other value (arrays, objects, fractions, true,
// false, null) is validated and skipped. The whole text must be one valid
// JSON object (RFC 8259 syntax; nesting deeper than 64 is refused).
//
// Not thread-safe; reuse one per thread.

#ifndef CASSINO_TOOLS_VERIFY_FLAT_JSON_H_
#define CASSINO_TOOLS_VERIFY_FLAT_JSON_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace cassino::verify {

class FlatObject {
 public:
  enum class Type { kString, kInt, kOther };
  struct Field {
    std::string key;
    Type type = Type::kOther;
    int64_t number = 0;  // kInt
    std::string text;    // kString, decoded to UTF-8
  };

  // True if `json` is a valid JSON object; its fields are then available.
  bool Parse(std::string_view json);

  // The field named `key` (the last one, if repeated), or nullptr.
  const Field* Find(std::string_view key) const;
  // Typed lookups: nullptr when missing or of another type.
  const int64_t* Int(std::string_view key) const;
  const std::string* String(std::string_view key) const;

 private:
  void SkipSpace();
  bool ParseString(std::string* out);
  bool ParseNumber(Field* field);  // field may be null: validate only
  bool SkipValue(int depth);
  bool Literal(std::string_view word);

  std::string_view s_;
  size_t p_ = 0;
  std::vector<Field> fields_;
  size_t count_ = 0;
  std::string scratch_;
};

}  // namespace cassino::verify

#endif  // CASSINO_TOOLS_VERIFY_FLAT_JSON_H_
