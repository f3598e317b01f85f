// Event packs (recorder/event_pack.h): the exact bytes of the encoding,
// round trips, and every way a pack can be cut short or corrupt.

#include "recorder/event_pack.h"

#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace cassino::recorder {
namespace {

using ::testing::HasSubstr;

Digest DigestOf(uint8_t fill) {
  Digest d;
  d.fill(fill);
  return d;
}

std::vector<Event> TwoEvents() {
  return {{0, EventKind::kCreate, 1700000000000001, "{\"a\":1}",
           ToHex(DigestOf(0xab))},
          {1, EventKind::kAbort, -5, "", ToHex(DigestOf(0x01))}};
}

// The encoding is documented byte for byte (docs/record_format.md): pin it.
TEST(EventPackTest, EncodingIsExactlyAsDocumented) {
  absl::StatusOr<std::string> pack = PackEvents(TwoEvents());
  ASSERT_TRUE(pack.ok()) << pack.status();
  std::string expected;
  expected += '\x01';  // version
  // create: kind 0, at_us little-endian, length 7, payload, hash.
  expected += '\x00';
  // 1700000000000001 = 0x00060A24181E4001.
  expected += std::string("\x01\x40\x1e\x18\x24\x0a\x06\x00", 8);
  expected += std::string("\x07\x00\x00\x00", 4);
  expected += "{\"a\":1}";
  expected += std::string(32, '\xab');
  // abort: kind 7, at_us -5 in two's complement, empty payload.
  expected += '\x07';
  expected += std::string("\xfb\xff\xff\xff\xff\xff\xff\xff", 8);
  expected += std::string("\x00\x00\x00\x00", 4);
  expected += std::string(32, '\x01');
  EXPECT_EQ(*pack, expected);
}

TEST(EventPackTest, RoundTripGivesTheSameEvents) {
  const std::vector<Event> events = TwoEvents();
  absl::StatusOr<std::string> pack = PackEvents(events);
  ASSERT_TRUE(pack.ok());
  absl::StatusOr<std::vector<Event>> back = UnpackEvents(*pack);
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(*back, events);
  // Every kind survives.
  std::string all;
  for (int k = 0; k <= static_cast<int>(EventKind::kAbort); ++k) {
    ASSERT_TRUE(
        AppendPackedEvent(static_cast<EventKind>(k), k, "{}", DigestOf(k), &all)
            .ok());
  }
  back = UnpackEvents(all);
  ASSERT_TRUE(back.ok());
  ASSERT_EQ(back->size(), 8u);
  for (int k = 0; k < 8; ++k) {
    EXPECT_EQ((*back)[k].seq, k);
    EXPECT_EQ((*back)[k].kind, static_cast<EventKind>(k));
    EXPECT_EQ((*back)[k].hash, ToHex(DigestOf(k)));
  }
}

TEST(EventPackTest, UpperCaseHashesArePackedAsTheirBytes) {
  std::vector<Event> events = TwoEvents();
  events[0].hash = std::string(64, 'A');
  absl::StatusOr<std::string> pack = PackEvents(events);
  ASSERT_TRUE(pack.ok());
  EXPECT_EQ((*UnpackEvents(*pack))[0].hash, std::string(64, 'a'));
}

TEST(EventPackTest, RowsThatCannotBePackedExactlyAreRefused) {
  std::vector<Event> gap = TwoEvents();
  gap[1].seq = 2;
  EXPECT_THAT(PackEvents(gap).status().message(),
              HasSubstr("event 1 has seq 2"));
  std::vector<Event> bad_hash = TwoEvents();
  bad_hash[1].hash = "zz";
  EXPECT_THAT(PackEvents(bad_hash).status().message(),
              HasSubstr("hash of event 1 is not 64 hex digits"));
  // No events: just the version byte, which reads as no events.
  absl::StatusOr<std::string> empty = PackEvents({});
  ASSERT_TRUE(empty.ok());
  EXPECT_EQ(*empty, "\x01");
  EXPECT_TRUE(UnpackEvents(*empty)->empty());
}

TEST(EventPackTest, CorruptPacksAreNamedByEventAndByte) {
  const std::string good = *PackEvents(TwoEvents());
  const size_t second = 1 + 13 + 7 + 32;  // where event 1 starts
  struct Case {
    std::string pack;
    std::string message;
  };
  std::string bad_kind = good;
  bad_kind[second] = '\x08';
  std::string long_payload = good;
  long_payload[second + 9] = '\x01';  // length 1, but only the hash follows
  const Case cases[] = {
      {"", "the event pack is empty"},
      {"\x02", "format version 2, expected 1"},
      {good.substr(0, good.size() - 1),
       "corrupt at event 1 (byte 53): the payload of 0 bytes and its hash run "
       "past the end"},
      {good.substr(0, second + 5),
       "corrupt at event 1 (byte 53): the event's header is cut short"},
      {bad_kind, "corrupt at event 1 (byte 53): unknown kind code 8"},
      {long_payload, "the payload of 1 bytes and its hash run past the end"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.message);
    absl::StatusOr<std::vector<Event>> events = UnpackEvents(c.pack);
    ASSERT_FALSE(events.ok());
    EXPECT_EQ(events.status().code(), absl::StatusCode::kDataLoss);
    EXPECT_THAT(events.status().message(), HasSubstr(c.message));
  }
  // The reader hands out the good events before the defect.
  EventPackReader reader(bad_kind);
  PackedEvent e;
  ASSERT_TRUE(reader.Next(&e));
  EXPECT_EQ(e.payload, "{\"a\":1}");
  EXPECT_FALSE(reader.Next(&e));
  EXPECT_FALSE(reader.status().ok());
}

}  // namespace
}  // namespace cassino::recorder
