#include "recorder/event_pack.h"

#include <cstring>
#include <limits>

#include "absl/strings/str_cat.h"

namespace cassino::recorder {
namespace {

constexpr size_t kHeaderBytes = 1 + 8 + 4;  // kind, at_us, length
constexpr size_t kHashBytes = 32;
constexpr int kKinds = static_cast<int>(EventKind::kAbort) + 1;

void PutLittleEndian(uint64_t value, int bytes, std::string* out) {
  for (int i = 0; i < bytes; ++i) {
    out->push_back(static_cast<char>((value >> (8 * i)) & 0xff));
  }
}

uint64_t GetLittleEndian(const char* in, int bytes) {
  uint64_t value = 0;
  for (int i = 0; i < bytes; ++i) {
    value |= static_cast<uint64_t>(static_cast<uint8_t>(in[i])) << (8 * i);
  }
  return value;
}

}  // namespace

absl::Status AppendPackedEvent(EventKind kind, int64_t at_us,
                               absl::string_view payload, const Digest& hash,
                               std::string* pack) {
  if (payload.size() > std::numeric_limits<uint32_t>::max()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "an event payload of ", payload.size(), " bytes is too long to pack"));
  }
  if (pack->empty()) pack->push_back(static_cast<char>(kEventPackVersion));
  pack->push_back(static_cast<char>(kind));
  PutLittleEndian(static_cast<uint64_t>(at_us), 8, pack);
  PutLittleEndian(payload.size(), 4, pack);
  pack->append(payload.data(), payload.size());
  pack->append(reinterpret_cast<const char*>(hash.data()), hash.size());
  return absl::OkStatus();
}

absl::StatusOr<std::string> PackEvents(std::span<const Event> events) {
  std::string pack;
  size_t bytes = 1;
  for (const Event& e : events) {
    bytes += kHeaderBytes + e.payload.size() + kHashBytes;
  }
  pack.reserve(bytes);
  for (size_t i = 0; i < events.size(); ++i) {
    const Event& e = events[i];
    if (e.seq != static_cast<int64_t>(i)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "cannot pack: event ", i, " has seq ", e.seq, " (a gap or repeat)"));
    }
    absl::StatusOr<Seed> hash = ParseSeed(e.hash);
    if (!hash.ok()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "cannot pack: the hash of event ", i, " is not 64 hex digits"));
    }
    if (absl::Status s =
            AppendPackedEvent(e.kind, e.at_us, e.payload, *hash, &pack);
        !s.ok()) {
      return s;
    }
  }
  if (pack.empty()) pack.push_back(static_cast<char>(kEventPackVersion));
  return pack;
}

EventPackReader::EventPackReader(absl::string_view pack) : pack_(pack) {
  if (pack_.empty()) {
    status_ = absl::DataLossError("the event pack is empty (no version byte)");
  } else if (static_cast<uint8_t>(pack_[0]) != kEventPackVersion) {
    status_ = absl::DataLossError(absl::StrCat(
        "the event pack has format version ", static_cast<uint8_t>(pack_[0]),
        ", expected ", kEventPackVersion));
  } else {
    offset_ = 1;
  }
}

bool EventPackReader::Next(PackedEvent* event) {
  if (!status_.ok() || offset_ == pack_.size()) return false;
  const size_t left = pack_.size() - offset_;
  const char* p = pack_.data() + offset_;
  auto fail = [&](absl::string_view what) {
    status_ = absl::DataLossError(
        absl::StrCat("the event pack is corrupt at event ", seq_, " (byte ",
                     offset_, "): ", what));
    return false;
  };
  if (left < kHeaderBytes) return fail("the event's header is cut short");
  const uint8_t kind = static_cast<uint8_t>(p[0]);
  if (kind >= kKinds) {
    return fail(absl::StrCat("unknown kind code ", kind));
  }
  const uint64_t length = GetLittleEndian(p + 9, 4);
  if (left - kHeaderBytes < length + kHashBytes) {
    return fail(absl::StrCat("the payload of ", length,
                             " bytes and its hash run past the end"));
  }
  event->seq = seq_++;
  event->kind = static_cast<EventKind>(kind);
  event->at_us = static_cast<int64_t>(GetLittleEndian(p + 1, 8));
  event->payload = absl::string_view(p + kHeaderBytes, length);
  event->hash = absl::string_view(p + kHeaderBytes + length, kHashBytes);
  offset_ += kHeaderBytes + length + kHashBytes;
  return true;
}

absl::StatusOr<std::vector<Event>> UnpackEvents(absl::string_view pack) {
  std::vector<Event> events;
  EventPackReader reader(pack);
  PackedEvent e;
  while (reader.Next(&e)) {
    events.push_back(
        Event{e.seq, e.kind, e.at_us, std::string(e.payload),
              ToHex(std::span(reinterpret_cast<const uint8_t*>(e.hash.data()),
                              e.hash.size()))});
  }
  if (!reader.status().ok()) return reader.status();
  return events;
}

}  // namespace cassino::recorder
