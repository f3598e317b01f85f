#include "recorder/signature.h"

#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "recorder/payload.h"
#include "recorder/recorder.h"
#include "recorder/replay.h"
#include "tests/recorder/test_game.h"

namespace cassino::recorder {
namespace {

using ::cassino::recorder::testing::MakeHeader;
using ::cassino::recorder::testing::PendingEvent;
using ::cassino::recorder::testing::PlayEvents;
using ::testing::HasSubstr;

// RFC 8032, section 7.1, TEST 1: its secret key and public key.
constexpr char kRfcPublic[] =
    "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a";
SigningKey RfcKey() {
  const std::string hex =
      "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60";
  std::array<uint8_t, 32> bytes{};
  for (size_t i = 0; i < 32; ++i) {
    bytes[i] =
        static_cast<uint8_t>(std::stoi(hex.substr(2 * i, 2), nullptr, 16));
  }
  absl::StatusOr<SigningKey> key = SigningKey::FromPrivateBytes(bytes);
  EXPECT_TRUE(key.ok()) << key.status();
  return *std::move(key);
}

class SignatureTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           absl::StrCat(
               "signature_test_", getpid(), "_",
               ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::filesystem::path dir_;
};

TEST_F(SignatureTest, RfcKeyHasItsPublicKey) {
  EXPECT_EQ(RfcKey().public_key(), kRfcPublic);
  EXPECT_TRUE(IsPublicKeyHex(kRfcPublic));
  EXPECT_FALSE(IsPublicKeyHex(absl::AsciiStrToUpper(kRfcPublic)));
}

// The known answer of docs/record_format.md, "Signatures".
TEST_F(SignatureTest, KnownAnswer) {
  const Digest previous{};
  const std::string unsigned_payload = AbortPayload("x");
  EXPECT_EQ(ToHex(UnsignedHead(previous, EventKind::kAbort, unsigned_payload)),
            ToHex(ChainHash(previous, EventKind::kAbort, unsigned_payload)));
  absl::StatusOr<std::string> signed_payload = SignLastPayload(
      RfcKey(), "g", previous, EventKind::kAbort, unsigned_payload);
  ASSERT_TRUE(signed_payload.ok()) << signed_payload.status();
  EXPECT_EQ(ToHex(UnsignedHead(previous, EventKind::kAbort, unsigned_payload)),
            "ba8cf869a622d439418d30d91c577a9f2b423325548bc6e3d1f3dc36ea007029");
  EXPECT_EQ(
      *signed_payload,
      absl::StrCat(
          "{\"detail\":\"x\",\"signature\":{\"key\":\"", kRfcPublic,
          "\",\"sig\":\"",
          "4ad68624b71168cd4c3344fb8520033176569e319b7340195b9ee3af35c20c18"
          "fad38e82ddd969a379f28d08edae55a8ce3fd5dc33e050e1d62fafeb846a2c0d",
          "\"}}"));
}

// Copies of a key share its secret (signature.cc): from several threads
// at once they sign exactly as one thread does.
TEST_F(SignatureTest, CopiesSignFromSeveralThreadsAsOne) {
  const SigningKey key = RfcKey();
  const std::string message = "cassino";
  const std::span<const uint8_t> bytes(
      reinterpret_cast<const uint8_t*>(message.data()), message.size());
  absl::StatusOr<std::string> expected = key.Sign(bytes);
  ASSERT_TRUE(expected.ok()) << expected.status();
  std::vector<std::thread> threads;
  std::atomic<int> same{0};
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([copy = key, bytes, &expected, &same] {
      for (int i = 0; i < 50; ++i) {
        absl::StatusOr<std::string> sig = copy.Sign(bytes);
        if (sig.ok() && *sig == *expected) ++same;
      }
    });
  }
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(same.load(), 4 * 50);
}

TEST_F(SignatureTest, SignSplitAndCheck) {
  SigningKey key = RfcKey();
  GameHeader h = MakeHeader("g1");
  Game final_state = *Game::Create(*HeaderRules(h), *HeaderDecks(h));
  PlayEvents(h, -1, &final_state);
  const std::string end = EndPayload(*final_state.result(), h.seed);
  Digest previous{};
  previous[0] = 7;
  absl::StatusOr<std::string> signed_end =
      SignLastPayload(key, "g1", previous, EventKind::kEnd, end);
  ASSERT_TRUE(signed_end.ok()) << signed_end.status();
  EXPECT_THAT(*signed_end, HasSubstr(absl::StrCat(
                               "\"seed\":\"", h.seed,
                               "\",\"signature\":{\"key\":\"", kRfcPublic)));

  // The payload readers take the signed payload and name the signature.
  EndFields fields;
  ASSERT_TRUE(ParseEndPayload(*signed_end, &fields).ok());
  ASSERT_TRUE(fields.signature.has_value());
  EXPECT_EQ(fields.signature->key, kRfcPublic);
  EXPECT_EQ(fields.winner, final_state.result()->winner);

  absl::StatusOr<SplitPayload> split = SplitSignature(*signed_end);
  ASSERT_TRUE(split.ok()) << split.status();
  EXPECT_EQ(split->unsigned_payload, end);
  ASSERT_TRUE(split->signature.has_value());
  EXPECT_TRUE(
      CheckSignature(*split->signature, "g1", previous, EventKind::kEnd, end)
          .ok());
  // Another game, another previous hash, another payload: refused.
  EXPECT_FALSE(
      CheckSignature(*split->signature, "g2", previous, EventKind::kEnd, end)
          .ok());
  Digest other = previous;
  other[31] ^= 1;
  EXPECT_FALSE(
      CheckSignature(*split->signature, "g1", other, EventKind::kEnd, end)
          .ok());
  std::string changed = end;
  changed[changed.size() - 2] ^= 1;  // the winner's digit
  EXPECT_FALSE(CheckSignature(*split->signature, "g1", previous,
                              EventKind::kEnd, changed)
                   .ok());
  // Another key over the same bytes.
  RecordSignature foreign = *split->signature;
  foreign.key = SigningKey::Generate()->public_key();
  EXPECT_FALSE(
      CheckSignature(foreign, "g1", previous, EventKind::kEnd, end).ok());

  // Signing twice, or another kind, is refused.
  EXPECT_FALSE(
      SignLastPayload(key, "g1", previous, EventKind::kEnd, *signed_end).ok());
  EXPECT_FALSE(SignLastPayload(key, "g1", previous, EventKind::kMove,
                               "{\"elapsed_ms\":1}")
                   .ok());
}

// The identity point as the key, R the identity and S = 0: the equation
// [S]B = R + [k]A holds for every message, so a check without libsodium's
// small-order test (OpenSSL 3.0's accepts it) takes it as a signature
// nobody made. It is refused.
TEST_F(SignatureTest, ASignatureEveryMessageSatisfiesIsRefused) {
  const std::string identity = "01" + std::string(62, '0');
  const RecordSignature forged{identity, identity + std::string(64, '0')};
  ASSERT_TRUE(IsPublicKeyHex(forged.key));
  ASSERT_EQ(forged.sig.size(), 128u);
  for (const char* detail : {"x", "anything"}) {
    const absl::Status s = CheckSignature(
        forged, "g", Digest{}, EventKind::kAbort, AbortPayload(detail));
    EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << detail;
    EXPECT_THAT(s.message(), HasSubstr("does not verify")) << detail;
  }
}

TEST_F(SignatureTest, MalformedSignaturesDoNotRead) {
  const std::string good = *SignLastPayload(
      RfcKey(), "g", Digest{}, EventKind::kAbort, AbortPayload("x"));
  AbortFields f;
  ASSERT_TRUE(ParseAbortPayload(good, &f).ok());
  ASSERT_TRUE(f.signature.has_value());
  // Upper-case hex, a short signature, two signatures, a misplaced one.
  std::string upper = good;
  upper[upper.find(kRfcPublic)] = 'D';
  EXPECT_FALSE(ParseAbortPayload(upper, &f).ok());
  std::string short_sig = good;
  short_sig.erase(short_sig.size() - 4, 1);
  EXPECT_FALSE(ParseAbortPayload(short_sig, &f).ok());
  const std::string member =
      good.substr(good.find(",\"signature\""),
                  good.size() - 1 - good.find(",\"signature\""));
  EXPECT_FALSE(
      ParseAbortPayload(
          absl::StrCat(good.substr(0, good.size() - 1), member, "}"), &f)
          .ok());
  EXPECT_FALSE(
      SplitSignature(absl::StrCat(good.substr(0, good.size() - 1), member, "}"))
          .ok());
  EndFields end;
  EXPECT_FALSE(
      ParseEndPayload(absl::StrCat("{\"detail\":\"d\"", member,
                                   ",\"forfeiting_seat\":-1,\"reason\":"
                                   "\"target\",\"seed\":\"\",\"totals\":[1,"
                                   "2],\"winner\":1}"),
                      &end)
          .ok());
  // Unsigned payloads read as before.
  ASSERT_TRUE(ParseAbortPayload(AbortPayload("x"), &f).ok());
  EXPECT_FALSE(f.signature.has_value());
}

TEST_F(SignatureTest, KeyFileIsCreatedOnceWithMode0600) {
  const std::string path = (dir_ / "games.db.key").string();
  bool created = false;
  absl::StatusOr<SigningKey> first = SigningKey::LoadOrCreate(path, &created);
  ASSERT_TRUE(first.ok()) << first.status();
  EXPECT_TRUE(created);
  struct stat st {};
  ASSERT_EQ(::stat(path.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600);
  std::ifstream in(path);
  std::string text((std::istreambuf_iterator<char>(in)),
                   std::istreambuf_iterator<char>());
  EXPECT_THAT(text, HasSubstr("-----BEGIN PRIVATE KEY-----"));

  absl::StatusOr<SigningKey> again = SigningKey::LoadOrCreate(path, &created);
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_FALSE(created);
  EXPECT_EQ(again->public_key(), first->public_key());
  EXPECT_EQ(first->WriteFile(path).code(), absl::StatusCode::kAlreadyExists);

  EXPECT_EQ(SigningKey::ReadFile((dir_ / "none").string()).status().code(),
            absl::StatusCode::kNotFound);
  std::ofstream((dir_ / "junk").string()) << "not a key\n";
  EXPECT_EQ(SigningKey::ReadFile((dir_ / "junk").string()).status().code(),
            absl::StatusCode::kInvalidArgument);
}

// The recorder signs the last event of every game it ends; the hash chain
// covers the signed payload as stored.
TEST_F(SignatureTest, RecorderSignsEndAndAbort) {
  const std::string path = (dir_ / "games.db").string();
  RecorderOptions options;
  options.signing_key = RfcKey();
  absl::StatusOr<std::unique_ptr<Recorder>> rec = Recorder::Open(path, options);
  ASSERT_TRUE(rec.ok()) << rec.status();
  EXPECT_EQ((*rec)->signing_public_key(), kRfcPublic);
  GameHeader h1 = MakeHeader("g1");
  ASSERT_TRUE((*rec)->CreateGameSync(h1).ok());
  for (const PendingEvent& e : PlayEvents(h1)) {
    ASSERT_TRUE((*rec)->AppendSync("g1", e.kind, e.at_us, e.payload).ok());
  }
  GameHeader h2 = MakeHeader("g2");
  ASSERT_TRUE((*rec)->CreateGameSync(h2).ok());
  for (const PendingEvent& e : PlayEvents(h2, 3)) {
    ASSERT_TRUE((*rec)->AppendSync("g2", e.kind, e.at_us, e.payload).ok());
  }
  ASSERT_TRUE((*rec)
                  ->AppendSync("g2", EventKind::kAbort, h2.created_us + 1,
                               AbortPayload("stop"))
                  .ok());
  for (const char* id : {"g1", "g2"}) {
    absl::StatusOr<GameRecord> r = (*rec)->Load(id);
    ASSERT_TRUE(r.ok()) << r.status();
    const size_t last = r->events.size() - 1;
    absl::StatusOr<SplitPayload> split =
        SplitSignature(r->events[last].payload);
    ASSERT_TRUE(split.ok()) << split.status();
    ASSERT_TRUE(split->signature.has_value()) << id;
    EXPECT_EQ(split->signature->key, kRfcPublic);
    const Digest previous = *ParseSeed(r->events[last - 1].hash);
    EXPECT_TRUE(CheckSignature(*split->signature, id, previous,
                               r->events[last].kind, split->unsigned_payload)
                    .ok())
        << id;
    EXPECT_EQ(r->events[last].hash,
              ToHex(ChainHash(previous, r->events[last].kind,
                              r->events[last].payload)));
    // Nothing but the last event is signed.
    for (size_t i = 0; i < last; ++i) {
      EXPECT_FALSE(SplitSignature(r->events[i].payload)->signature.has_value());
    }
  }
}

}  // namespace
}  // namespace cassino::recorder
