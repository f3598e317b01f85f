// The engine's value types written straight in protobuf's wire format, for
// the message a seat is sent most: a turn's observation and legal moves.
//
// Building that message as cassino.v1 objects costs about a hundred
// strings on an arena, a pass to serialise them and a pass to free them:
// together about 14% of the referee's CPU at 16 games (docs/performance.md,
// "`YourTurn` written straight to the wire"). The functions here write the
// same bytes without the objects, in less than half the time.
//
// Contract: each Append* appends exactly the bytes that the matching
// convert::ToProto (convert.h) followed by SerializeToString gives: fields
// in field-number order, proto3 defaults left out, repeated scalars packed,
// a sub-message that ToProto sets (mutable_*) written even when empty. So a
// client cannot tell which of the two made a message.
// tests/referee/play_frame_test.cc holds a whole YourTurn byte-equal to the
// message serialised on every turn of seeded games of every preset, so a
// field that ToProto fills and this file does not fails there: a field
// added to one of the messages below is added in both places. Field
// numbers come from the generated code (k*FieldNumber), never written here.

#ifndef CASSINO_PROTO_WIRE_ENCODE_H_
#define CASSINO_PROTO_WIRE_ENCODE_H_

#include <cstdint>
#include <string>

#include "absl/strings/string_view.h"
#include "rules/game.h"
#include "rules/observation.h"

namespace cassino::convert {

// Appends protobuf wire format to a string. Each field's value is written
// only when it is not its proto3 default, as generated code does.
class WireWriter {
 public:
  explicit WireWriter(std::string* out) : out_(out) {}

  // An int32, int64 or enum field (a negative int32 takes ten bytes, as
  // protobuf sign-extends it).
  void Int(int field, int64_t value) {
    if (value == 0) return;
    char bytes[2 * kMaxVarint];
    char* end =
        PutVarint(PutTag(bytes, field, kVarint), static_cast<uint64_t>(value));
    out_->append(bytes, end - bytes);
  }
  void Bool(int field, bool value) {
    if (!value) return;
    char bytes[kMaxVarint + 1];
    char* end = PutTag(bytes, field, kVarint);
    *end++ = 1;
    out_->append(bytes, end - bytes);
  }
  void String(int field, absl::string_view value) {
    if (value.empty()) return;
    char bytes[2 * kMaxVarint];
    char* end = PutVarint(PutTag(bytes, field, kLengthDelimited), value.size());
    out_->append(bytes, end - bytes);
    out_->append(value.data(), value.size());
  }
  // A repeated string field of cards, canonical order (CardsToProto).
  void Cards(int field, CardSet cards);
  // A packed repeated int32 field (nothing when empty).
  template <typename Ints>
  void PackedInts(int field, const Ints& values);
  // A sub-message: `body` writes its fields with this writer. Written even
  // when `body` writes nothing, as a message ToProto set is.
  template <typename Body>
  void Message(int field, Body&& body);

 private:
  static constexpr int kVarint = 0;  // wire types
  static constexpr int kLengthDelimited = 2;
  static constexpr int kMaxVarint = 10;  // bytes

  // Each writes at `p` and returns the end of what it wrote. (Bytes are
  // gathered on the stack and appended at once: std::string's push_back
  // is a call a byte.)
  static char* PutVarint(char* p, uint64_t value) {
    while (value >= 0x80) {
      *p++ = static_cast<char>(value | 0x80);
      value >>= 7;
    }
    *p++ = static_cast<char>(value);
    return p;
  }
  static char* PutTag(char* p, int field, int wire_type) {
    return PutVarint(p, static_cast<uint64_t>(field) << 3 | wire_type);
  }
  void Tag(int field, int wire_type) {
    char bytes[kMaxVarint];
    out_->append(bytes, PutTag(bytes, field, wire_type) - bytes);
  }
  void Varint(uint64_t value) {
    char bytes[kMaxVarint];
    out_->append(bytes, PutVarint(bytes, value) - bytes);
  }
  static int VarintSize(uint64_t value) {
    int n = 1;
    while (value >= 0x80) {
      value >>= 7;
      ++n;
    }
    return n;
  }
  // Writes at out_[at] the length of what follows out_[at] (one byte was
  // kept there), inserting the bytes a longer length needs.
  void PatchLength(size_t at);

  std::string* out_;
};

template <typename Ints>
void WireWriter::PackedInts(int field, const Ints& values) {
  if (values.empty()) return;
  size_t bytes = 0;
  for (auto v : values) {
    bytes += VarintSize(static_cast<uint64_t>(static_cast<int64_t>(v)));
  }
  Tag(field, kLengthDelimited);
  Varint(bytes);
  for (auto v : values) Varint(static_cast<uint64_t>(static_cast<int64_t>(v)));
}

template <typename Body>
void WireWriter::Message(int field, Body&& body) {
  char bytes[kMaxVarint + 1];
  char* end = PutTag(bytes, field, kLengthDelimited);
  *end++ = 0;  // the length, once known
  out_->append(bytes, end - bytes);
  const size_t at = out_->size() - 1;
  body();
  PatchLength(at);
}

// The fields of each message, as convert::ToProto fills them (the same
// arguments, the same meaning).
void AppendMove(const Move& move, absl::string_view notation, WireWriter& w);
void AppendTable(const Table& table, WireWriter& w);
void AppendPlayedMove(const PlayedMove& move, int viewer, WireWriter& w);
void AppendInitialCapture(const InitialCapture& capture, WireWriter& w);
void AppendRoundResult(const RoundResult& round, WireWriter& w);
void AppendObservation(const Observation& obs, absl::string_view rules_text,
                       WireWriter& w);

}  // namespace cassino::convert

#endif  // CASSINO_PROTO_WIRE_ENCODE_H_
