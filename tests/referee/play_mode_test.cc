// The Play stream's two modes (referee_service.proto, Play): a compact
// stream is sent three messages a move in a two-player game (the move, its
// verdict, the next YourTurn carrying the moves since the seat's last), a
// full one five; an unknown mode is refused. A compact stream's YourTurn
// leaves the round's history out after the stream's first, and what the
// bot client keeps from since_last is the history GetTurn shows.

#include <algorithm>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "gtest/gtest.h"
#include "rules/rule_set.h"
#include "tests/referee/test_referee.h"
#include "tools/bots/client/round_history.h"

namespace cassino::testing {
namespace {

using ::grpc::StatusCode;

// A Play stream, cancelled and finished when it goes.
struct Stream {
  Stream() = default;
  Stream(Stream&&) = default;
  // Takes `other`'s call; this one's is cancelled and finished.
  Stream& operator=(Stream&& other) {
    Stream old(std::move(*this));
    ctx = std::move(other.ctx);
    rw = std::move(other.rw);
    return *this;
  }
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

// One game alone: once the recorder is quiet, the thread that read a move
// commits it and sends its verdict and the next turn (recorder.h,
// CommitHere); with --commit-here-after 0 the writer thread does. Either
// way every move is recorded before it is answered.
TEST(PlayModeTest, AGameAloneIsCommittedByTheThreadThatReadsItsMoves) {
  for (const int after : {8, 0}) {
    SCOPED_TRACE(after);
    const std::filesystem::path dir = TempDir();
    TestReferee referee(dir / "r.db", [after](service::ServerOptions& o) {
      o.commit_here_after = after;
    });
    const v1::CreateGameResponse g = referee.Create("standard", 2, kSeed);
    int mover = referee.Info(g.game_id()).to_move();
    std::vector<Stream> seats;
    for (int seat = 0; seat < 2; ++seat) {
      seats.push_back(Open(referee, g.tokens(seat).token(), "compact"));
      EXPECT_TRUE(seats[seat].Next().has_game_started());
    }
    v1::PlayResponse turn = seats[mover].Next();
    constexpr int kMoves = 30;
    for (int t = 0; t < kMoves; ++t) {
      ASSERT_TRUE(turn.has_your_turn()) << turn.ShortDebugString();
      v1::PlayRequest req;
      req.set_turn(t);
      *req.mutable_move() = turn.your_turn().legal_moves(0);
      ASSERT_TRUE(seats[mover].rw->Write(req));
      const v1::PlayResponse verdict = seats[mover].Next();
      ASSERT_TRUE(verdict.verdict().accepted()) << verdict.ShortDebugString();
      // Acknowledged: on disk, as another reader of the file sees it.
      absl::StatusOr<recorder::GameRecord> record =
          referee.server().recorder().Load(g.game_id());
      ASSERT_TRUE(record.ok()) << record.status();
      int moves = 0;
      for (const recorder::Event& e : record->events) {
        moves += e.kind == recorder::EventKind::kMove;
      }
      EXPECT_EQ(moves, t + 1);
      mover = 1 - mover;
      turn = seats[mover].Next();
    }
    const recorder::Recorder::Stats stats = referee.server().recorder().stats();
    if (after == 0) {
      EXPECT_EQ(stats.caller_transactions, 0);
    } else {
      // Not all of the moves after the eighth: a move that arrives while
      // the writer thread still runs the last commit's callbacks is the
      // writer's to commit (recorder_writer.cc), and on a busy machine the
      // writer can win that race for several moves in a row.
      EXPECT_GT(stats.caller_transactions, 0);
      // And never before eight single-write transactions in a row: the
      // game's creation and its first deal (two writes of the organiser's
      // call) may be the first two.
      EXPECT_LE(stats.caller_transactions, kMoves - (after - 2));
    }
  }
}

// The same through the unary calls (GetTurn + SubmitMove), a whole game.
TEST(PlayModeTest, AGameOfUnaryCallsAloneIsCommittedByTheSubmittingThread) {
  const std::filesystem::path dir = TempDir();
  TestReferee referee(dir / "r.db");
  const v1::CreateGameResponse g = referee.Create("standard", 2, kSeed);
  int moves[2] = {0, 0};
  std::thread other([&] {
    moves[1] =
        PlayUnarySeat(referee.stub(), g.tokens(1).token(), g.game_id(), 2);
  });
  moves[0] = PlayUnarySeat(referee.stub(), g.tokens(0).token(), g.game_id(), 1);
  other.join();
  absl::StatusOr<recorder::GameRecord> record =
      referee.server().recorder().Load(g.game_id());
  ASSERT_TRUE(record.ok()) << record.status();
  EXPECT_EQ(record->status, recorder::GameStatus::kFinished);
  int recorded = 0;
  for (const recorder::Event& e : record->events) {
    recorded += e.kind == recorder::EventKind::kMove;
  }
  EXPECT_EQ(recorded, moves[0] + moves[1]);
  EXPECT_GT(moves[0] + moves[1], 40);
  // One move at a time: committed by the handler's thread once the
  // recorder is quiet (how many depends on races with the writer thread;
  // see the test above).
  EXPECT_GT(referee.server().recorder().stats().caller_transactions, 0);
}

std::string HistoryText(const v1::Observation& o) {
  std::string text;
  for (const v1::PlayedMove& m : o.round_history()) {
    text += m.ShortDebugString() + ";";
  }
  return text;
}

v1::GetTurnResponse GetTurn(TestReferee& referee, const std::string& token) {
  v1::GetTurnResponse resp;
  const grpc::Status s = referee.stub().GetTurn(
      TestReferee::Context(token).get(), v1::GetTurnRequest(), &resp);
  EXPECT_TRUE(s.ok()) << s.error_message();
  return resp;
}

TEST(PlayModeTest, ACompactSeatKeepsTheRoundHistoryAcrossRoundsAndStreams) {
  const std::filesystem::path dir = TempDir();
  TestReferee referee(dir / "r.db");
  const v1::CreateGameResponse g = referee.Create("standard", 2, kSeed);
  std::vector<Stream> seats;
  // What each seat keeps (the bot client's RoundHistory).
  std::vector<bots::RoundHistory> kept(2);
  for (int seat = 0; seat < 2; ++seat) {
    seats.push_back(Open(referee, g.tokens(seat).token(), "compact"));
    EXPECT_TRUE(seats[seat].Next().has_game_started());
  }
  int mover = referee.Info(g.game_id()).to_move();
  std::vector<int> turns_seen(2, 0);
  int longest = 0;  // the longest round history kept
  const std::string rules_text = RuleSet::Parse("standard")->ToString();
  // A round of two players is 48 moves: 60 cross into the second round.
  constexpr int kMoves = 60;
  for (int t = 0; t < kMoves; ++t) {
    if (t == 30) {
      // The mover's stream is replaced: the new one starts over with the
      // whole round history.
      seats[mover] = Open(referee, g.tokens(mover).token(), "compact");
      EXPECT_TRUE(seats[mover].Next().has_game_started());
      turns_seen[mover] = 0;
    }
    v1::PlayResponse msg = seats[mover].Next();
    while (msg.has_round_ended()) msg = seats[mover].Next();
    ASSERT_TRUE(msg.has_your_turn())
        << "turn " << t << ": " << msg.ShortDebugString();
    const v1::YourTurn& turn = msg.your_turn();
    ASSERT_EQ(turn.turn(), t);
    // Left out in every YourTurn of a stream but its first.
    EXPECT_EQ(turn.round_history_omitted(), turns_seen[mover] > 0) << t;
    if (turn.round_history_omitted()) {
      EXPECT_EQ(turn.observation().round_history_size(), 0);
    }
    // The rules in every turn, on the stream and from GetTurn (the session
    // makes their text once and shares it between its turns).
    EXPECT_EQ(turn.observation().rules(), rules_text) << t;
    ++turns_seen[mover];
    v1::YourTurn completed = turn;
    kept[mover].Complete(&completed);
    EXPECT_FALSE(completed.round_history_omitted());
    // What the seat kept is what GetTurn (always whole) shows.
    const v1::GetTurnResponse whole = GetTurn(referee, g.tokens(mover).token());
    ASSERT_TRUE(whole.your_turn());
    EXPECT_FALSE(whole.turn().round_history_omitted());
    EXPECT_EQ(whole.turn().observation().rules(), rules_text) << t;
    EXPECT_EQ(whole.observation().rules(), rules_text) << t;
    EXPECT_EQ(HistoryText(completed.observation()),
              HistoryText(whole.turn().observation()))
        << "turn " << t;
    longest = std::max(longest, completed.observation().round_history_size());
    v1::PlayRequest req;
    req.set_turn(t);
    *req.mutable_move() = turn.legal_moves(0);
    ASSERT_TRUE(seats[mover].rw->Write(req));
    ASSERT_TRUE(seats[mover].Next().has_verdict());
    mover = referee.Info(g.game_id()).to_move();  // (a new round's leader)
  }
  EXPECT_EQ(referee.Info(g.game_id()).round(), 2);
  EXPECT_EQ(longest, 47);  // before round 1's last move (of 48)
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
