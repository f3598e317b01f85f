// The Play stream's two modes (referee_service.proto, Play): a compact
// stream is sent three messages a move in a two-player game (the move, its
// verdict, the next YourTurn carrying the moves since the seat's last), a
// full one five; an unknown mode is refused.

#include <memory>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tests/referee/test_referee.h"

namespace cassino::testing {
namespace {

using ::grpc::StatusCode;

// A Play stream, cancelled and finished when it goes.
struct Stream {
  Stream() = default;
  Stream(Stream&&) = default;
  ~Stream() {
    if (rw == nullptr) return;
    ctx->TryCancel();
    rw->Finish();
  }
  // Ends the call (the referee's status); the destructor then does nothing.
  grpc::Status Finish() {
    const grpc::Status status = rw->Finish();
    rw.reset();
    return status;
  }
  std::unique_ptr<grpc::ClientContext> ctx;
  std::unique_ptr<grpc::ClientReaderWriter<v1::PlayRequest, v1::PlayResponse>>
      rw;
  v1::PlayResponse Next() {
    v1::PlayResponse msg;
    EXPECT_TRUE(rw->Read(&msg));
    return msg;
  }
};

Stream Open(TestReferee& referee, const std::string& token,
            const std::string& mode) {
  Stream s;
  s.ctx = TestReferee::Context(token);
  if (!mode.empty()) s.ctx->AddMetadata("cassino-play-mode", mode);
  s.rw = referee.stub().Play(s.ctx.get());
  return s;
}

TEST(PlayModeTest, ACompactStreamIsSentThreeMessagesAMove) {
  const std::filesystem::path dir = TempDir();
  TestReferee referee(dir / "r.db");
  const v1::CreateGameResponse g = referee.Create("standard", 2, kSeed);
  const int first = referee.Info(g.game_id()).to_move();
  std::vector<Stream> seats;
  for (int seat = 0; seat < 2; ++seat) {
    seats.push_back(Open(referee, g.tokens(seat).token(), "compact"));
    EXPECT_TRUE(seats[seat].Next().has_game_started());
  }
  v1::PlayResponse turn = seats[first].Next();
  ASSERT_TRUE(turn.has_your_turn());
  EXPECT_EQ(turn.your_turn().since_last_size(), 0);
  int mover = first;
  std::string previous;  // the move before this one, in notation
  for (int t = 0; t < 6; ++t) {
    ASSERT_EQ(turn.your_turn().turn(), t);
    const v1::Move move = turn.your_turn().legal_moves(0);
    v1::PlayRequest req;
    req.set_turn(t);
    *req.mutable_move() = move;
    ASSERT_TRUE(seats[mover].rw->Write(req));
    // The mover: its verdict, naming the move as applied.
    const v1::PlayResponse verdict = seats[mover].Next();
    ASSERT_TRUE(verdict.has_verdict()) << verdict.ShortDebugString();
    EXPECT_TRUE(verdict.verdict().accepted());
    EXPECT_EQ(verdict.verdict().move().notation(), move.notation());
    // The other seat: its YourTurn, nothing before it, carrying the moves
    // since its last one (its own before this one, then this one).
    mover = 1 - mover;
    turn = seats[mover].Next();
    ASSERT_TRUE(turn.has_your_turn()) << turn.ShortDebugString();
    const auto& since = turn.your_turn().since_last();
    ASSERT_EQ(since.size(), t == 0 ? 1 : 2);
    EXPECT_EQ(since[since.size() - 1].move().notation(), move.notation());
    EXPECT_EQ(since[since.size() - 1].turn(), t);
    if (t > 0) {
      EXPECT_EQ(since[0].move().notation(), previous);
    }
    previous = move.notation();
  }
}

TEST(PlayModeTest, AFullStreamIsSentEveryMoveAndNoSinceLast) {
  const std::filesystem::path dir = TempDir();
  TestReferee referee(dir / "r.db");
  const v1::CreateGameResponse g = referee.Create("standard", 2, kSeed);
  const int first = referee.Info(g.game_id()).to_move();
  // "full" named, and no metadata at all: the same.
  std::vector<Stream> seats;
  seats.push_back(Open(referee, g.tokens(0).token(), "full"));
  seats.push_back(Open(referee, g.tokens(1).token(), ""));
  for (Stream& s : seats) EXPECT_TRUE(s.Next().has_game_started());
  const v1::PlayResponse turn = seats[first].Next();
  ASSERT_TRUE(turn.has_your_turn());
  v1::PlayRequest req;
  req.set_turn(0);
  *req.mutable_move() = turn.your_turn().legal_moves(0);
  ASSERT_TRUE(seats[first].rw->Write(req));
  EXPECT_TRUE(seats[first].Next().has_verdict());
  EXPECT_TRUE(seats[first].Next().has_move_played());
  EXPECT_TRUE(seats[1 - first].Next().has_move_played());
  const v1::PlayResponse next = seats[1 - first].Next();
  ASSERT_TRUE(next.has_your_turn());
  EXPECT_EQ(next.your_turn().since_last_size(), 0);
}

TEST(PlayModeTest, AnUnknownModeIsRefused) {
  const std::filesystem::path dir = TempDir();
  TestReferee referee(dir / "r.db");
  const v1::CreateGameResponse g = referee.Create("standard", 2, kSeed);
  Stream s = Open(referee, g.tokens(0).token(), "terse");
  v1::PlayResponse msg;
  EXPECT_FALSE(s.rw->Read(&msg));
  const grpc::Status status = s.Finish();
  EXPECT_EQ(status.error_code(), StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(ReasonOf(status), "INVALID_REQUEST");
  EXPECT_NE(status.error_message().find("'terse'"), std::string::npos);
}

}  // namespace
}  // namespace cassino::testing
