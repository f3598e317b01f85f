// GameSession, the referee's core, without a server: a game is created on a
// real recorder, driven through the session's own interface (domain
// submissions in, domain events out), its clock under the test's control.
// Links cassino_referee_core only: no gRPC, no protobuf.

#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "absl/synchronization/mutex.h"
#include "absl/synchronization/notification.h"
#include "absl/time/time.h"
#include "gtest/gtest.h"
#include "recorder/recorder.h"
#include "referee/channel.h"
#include "referee/deadline_timer.h"
#include "referee/errors.h"
#include "referee/game_session.h"
#include "rules/deal.h"
#include "rules/rule_set.h"
#include "tests/status_matchers.h"
#include "tests/temp_dir.h"

namespace cassino::service {
namespace {

using ::cassino::testing::TempDir;

constexpr char kSeed[] =
    "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff";
constexpr absl::Duration kPatience = absl::Seconds(20);

// A channel that keeps what it is sent, for the test to wait on.
template <typename Event>
class RecordingChannel : public Channel<Event> {
 public:
  using Channel<Event>::Send;
  void Send(std::shared_ptr<const Event> event) override {
    absl::MutexLock lock(&mu_);
    events_.push_back(std::move(event));
  }
  void Flush() override {}
  void Close(const absl::Status& status) override {
    absl::MutexLock lock(&mu_);
    closed_ = status;
  }
  bool open() const override {
    absl::MutexLock lock(&mu_);
    return !closed_.has_value();
  }

  // The first event of kind E sent at or after index `from`, waiting for
  // it; nullptr if none comes.
  template <typename E>
  const E* Await(size_t from = 0) {
    const E* found = nullptr;
    auto seen = [&]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
      for (size_t i = from; i < events_.size(); ++i) {
        if (const E* e = std::get_if<E>(&events_[i]->event)) {
          found = e;
          return true;
        }
      }
      return false;
    };
    absl::MutexLock lock(&mu_);
    mu_.AwaitWithTimeout(absl::Condition(&seen), kPatience);
    return found;
  }
  size_t size() const {
    absl::MutexLock lock(&mu_);
    return events_.size();
  }
  // The events of kind E sent so far (no waiting).
  template <typename E>
  int Count() const {
    absl::MutexLock lock(&mu_);
    int n = 0;
    for (const auto& e : events_) n += std::holds_alternative<E>(e->event);
    return n;
  }
  std::optional<absl::Status> AwaitClosed() {
    absl::MutexLock lock(&mu_);
    mu_.AwaitWithTimeout(
        absl::Condition(
            +[](std::optional<absl::Status>* c) { return c->has_value(); },
            &closed_),
        kPatience);
    return closed_;
  }

 private:
  mutable absl::Mutex mu_;
  std::vector<std::shared_ptr<const Event>> events_ ABSL_GUARDED_BY(mu_);
  std::optional<absl::Status> closed_ ABSL_GUARDED_BY(mu_);
};
using SeatChannel = RecordingChannel<SeatEvent>;
using Spectator = RecordingChannel<PublicEvent>;

// A reply kept for the test.
struct Answer {
  absl::Notification done;
  absl::Status status;
  Verdict verdict;
};

class SessionCoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    absl::StatusOr<std::unique_ptr<recorder::Recorder>> r =
        recorder::Recorder::Open((TempDir() / "games.db").string(),
                                 recorder::RecorderOptions());
    ASSERT_OK(r);
    recorder_ = std::move(*r);
    deps_.recorder = recorder_.get();
    deps_.timer = &timer_;
  }

  // A two-seat standard game dealt from kSeed, created and on disk.
  std::shared_ptr<GameSession> NewGame(int64_t per_move_ms = 1000,
                                       int64_t bank_ms = 0) {
    absl::StatusOr<RuleSet> rules = RuleSet::Parse("standard players=2");
    EXPECT_OK(rules);
    absl::StatusOr<Seed> seed = ParseSeed(kSeed);
    EXPECT_OK(seed);
    recorder::GameHeader header;
    header.game_id = "core-game";
    header.rules = rules->ToString();
    header.seats = {{"north", "", ""}, {"south", "", ""}};
    header.seed = kSeed;
    header.commitment = ToHex(SeedCommitment(*seed));
    header.clock = {per_move_ms, bank_ms, 3};
    absl::StatusOr<Game> game =
        Game::Create(*rules, DeckSource::FromSeed(*seed));
    EXPECT_OK(game);
    absl::Notification created;
    absl::Status status;
    std::shared_ptr<GameSession> session =
        GameSession::Create(deps_, header, std::move(*game),
                            [&](absl::Status s, std::shared_ptr<GameSession>) {
                              status = s;
                              created.Notify();
                            });
    EXPECT_TRUE(created.WaitForNotificationWithTimeout(kPatience));
    EXPECT_OK(status);
    return session;
  }

  // Submits and waits for the answer.
  std::unique_ptr<Answer> Submit(GameSession& game, int seat, int turn,
                                 const Submission& move) {
    auto answer = std::make_unique<Answer>();
    game.Submit(seat, turn, move,
                [a = answer.get()](const absl::Status& s, const Verdict& v) {
                  a->status = s;
                  a->verdict = v;
                  a->done.Notify();
                });
    EXPECT_TRUE(answer->done.WaitForNotificationWithTimeout(kPatience));
    return answer;
  }

  std::unique_ptr<recorder::Recorder> recorder_;
  DeadlineTimer timer_{DeadlineTimer::kManualTime};
  SessionDeps deps_;
};

Submission Notation(const std::string& text) {
  Submission s;
  s.notation = text;
  return s;
}

TEST_F(SessionCoreTest, EachSeatIsToldWhatItMaySeeAndAMoveReachesEveryone) {
  std::shared_ptr<GameSession> game = NewGame();
  auto seats = std::vector{std::make_shared<SeatChannel>(),
                           std::make_shared<SeatChannel>()};
  auto spectator = std::make_shared<Spectator>();
  ASSERT_TRUE(game->Watch(spectator));
  for (int seat = 0; seat < 2; ++seat) game->Connect(seat, seats[seat]);

  // Both are told the game; only the seat to move is asked for a move.
  for (int seat = 0; seat < 2; ++seat) {
    const auto* started = seats[seat]->Await<GameStartedEvent>();
    ASSERT_NE(started, nullptr);
    EXPECT_EQ(started->seat, seat);
    EXPECT_EQ(started->bots, (std::vector<std::string>{"north", "south"}));
  }
  const GameInfo info = game->Info();
  ASSERT_GE(info.to_move, 0);
  const int mover = info.to_move;
  const auto* turn = seats[mover]->Await<YourTurnEvent>();
  ASSERT_NE(turn, nullptr);
  EXPECT_EQ(turn->turn, 0);
  EXPECT_EQ(turn->observation.seat, mover);
  EXPECT_EQ(turn->observation.hand.size(), 4);
  EXPECT_EQ(turn->illegal_left, 3);
  ASSERT_FALSE(turn->legal_moves.empty());
  const size_t other_seen = seats[1 - mover]->size();

  // The spectator has the game's start and its first deal, nothing else.
  ASSERT_NE(spectator->Await<GameStartedEvent>(), nullptr);
  const auto* deal = spectator->Await<DealEvent>();
  ASSERT_NE(deal, nullptr);
  EXPECT_EQ(deal->round, 1);
  EXPECT_EQ(deal->deal, 1);

  const Move move = turn->legal_moves.front();
  std::unique_ptr<Answer> a =
      Submit(*game, mover, 0, Notation(move.ToString()));
  ASSERT_OK(a->status);
  EXPECT_TRUE(a->verdict.accepted);
  EXPECT_EQ(std::get<Move>(a->verdict.move), move);
  EXPECT_EQ(a->verdict.next_to_move, 1 - mover);

  // Both seats and the spectator see the move as the public may; the other
  // seat is asked for turn 1.
  for (const auto& seat : seats) {
    const auto* played = seat->Await<MovePlayedEvent>();
    ASSERT_NE(played, nullptr);
    EXPECT_EQ(played->move.move, move);
    EXPECT_EQ(played->viewer, -1);
  }
  ASSERT_NE(spectator->Await<MovePlayedEvent>(), nullptr);
  const auto* next = seats[1 - mover]->Await<YourTurnEvent>(other_seen);
  ASSERT_NE(next, nullptr);
  EXPECT_EQ(next->turn, 1);
  EXPECT_EQ(next->observation.seat, 1 - mover);

  // The record has the move.
  absl::StatusOr<recorder::GameRecord> record = recorder_->Load("core-game");
  ASSERT_OK(record);
  EXPECT_EQ(record->events.back().kind, recorder::EventKind::kMove);
}

TEST_F(SessionCoreTest, AMalformedSubmissionIsRefusedNamingItsField) {
  std::shared_ptr<GameSession> game = NewGame();
  const int mover = game->Info().to_move;
  Submission bad;
  bad.kind = kSubmittedTrail;
  bad.card = "ZZ";
  std::unique_ptr<Answer> a = Submit(*game, mover, 0, bad);
  EXPECT_EQ(a->status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(ReasonOf(a->status), "MALFORMED_MOVE");
  const ErrorDetails details = DetailsOf(a->status);
  ASSERT_EQ(details.fields.size(), 1u);
  EXPECT_EQ(details.fields[0].first, "move.card");
  EXPECT_FALSE(a->verdict.accepted);
  EXPECT_EQ(a->verdict.illegal_left, 2);
  EXPECT_EQ(a->verdict.error_reason, "MALFORMED_MOVE");
  // Echoed as sent.
  EXPECT_EQ(std::get<Submission>(a->verdict.move), bad);

  // Another seat's submission is refused without counting against it.
  std::unique_ptr<Answer> other = Submit(*game, 1 - mover, 0, bad);
  EXPECT_EQ(ReasonOf(other->status), "NOT_YOUR_TURN");
  EXPECT_EQ(other->verdict.illegal_left, 3);
}

TEST_F(SessionCoreTest, TheClockForfeitsASeatThatDoesNotMove) {
  std::shared_ptr<GameSession> game = NewGame(/*per_move_ms=*/1000,
                                              /*bank_ms=*/500);
  const int mover = game->Info().to_move;
  auto channel = std::make_shared<SeatChannel>();
  game->Connect(mover, channel);
  ASSERT_NE(channel->Await<YourTurnEvent>(), nullptr);

  // One millisecond short of the allowance and the bank: nothing happens.
  timer_.Advance(std::chrono::milliseconds(1499));
  EXPECT_FALSE(game->over());
  timer_.Advance(std::chrono::milliseconds(1));
  const auto* ended = channel->Await<GameEndedEvent>();
  ASSERT_NE(ended, nullptr);
  ASSERT_TRUE(ended->result.has_value());
  EXPECT_EQ(ended->result->reason, GameEndReason::kForfeit);
  EXPECT_EQ(ended->result->forfeiting_seat, mover);
  EXPECT_EQ(ended->result->winner, 1 - mover);
  EXPECT_EQ(ended->seed, kSeed);  // revealed: nothing else holds it
  EXPECT_EQ(channel->AwaitClosed(), absl::OkStatus());

  // A late move is told the time ran out.
  std::unique_ptr<Answer> late = Submit(*game, mover, 0, Notation("trail 2C"));
  EXPECT_EQ(ReasonOf(late->status), "TIME_EXPIRED");
}

// The referee's timer holds one move clock per game, not one per move
// played: a fast game on long clocks must not pile up stale deadlines
// (deadline_timer.h, *Bound*).
TEST_F(SessionCoreTest, TheTimerHoldsOneMoveClockHoweverManyMovesArePlayed) {
  std::shared_ptr<GameSession> game = NewGame(/*per_move_ms=*/3600 * 1000);
  auto seats = std::vector{std::make_shared<SeatChannel>(),
                           std::make_shared<SeatChannel>()};
  for (int seat = 0; seat < 2; ++seat) game->Connect(seat, seats[seat]);
  std::vector<size_t> from = {0, 0};
  for (int t = 0; t < 30; ++t) {
    const int mover = game->Info().to_move;
    const auto* turn = seats[mover]->Await<YourTurnEvent>(from[mover]);
    ASSERT_NE(turn, nullptr) << "turn " << t;
    ASSERT_EQ(turn->turn, t);
    // The turn's clock started before its YourTurn was sent.
    EXPECT_EQ(timer_.pending(), 1) << "turn " << t;
    from = {seats[0]->size(), seats[1]->size()};
    const Move move = turn->legal_moves.front();
    std::unique_ptr<Answer> a =
        Submit(*game, mover, t, Notation(move.ToString()));
    ASSERT_OK(a->status);
    ASSERT_TRUE(a->verdict.accepted) << "turn " << t;
  }
}

// Issue #27, part 5: nobody ever used the game's seats, so when the clock
// runs out nobody is credited or debited: the game is aborted.
TEST_F(SessionCoreTest, AGameNobodyShowedUpToIsAbortedWhenTheClockRunsOut) {
  std::shared_ptr<GameSession> game = NewGame(/*per_move_ms=*/1000);
  auto spectator = std::make_shared<Spectator>();
  ASSERT_TRUE(game->Watch(spectator));  // (a spectator is not a seat)
  EXPECT_EQ(game->Info().shown_up, (std::vector<bool>{false, false}));
  timer_.Advance(std::chrono::milliseconds(1000));
  const auto* ended = spectator->Await<GameEndedEvent>();
  ASSERT_NE(ended, nullptr);
  ASSERT_TRUE(ended->result.has_value());
  EXPECT_EQ(ended->result->reason, GameEndReason::kAborted);
  EXPECT_EQ(ended->result->winner, -1);
  EXPECT_EQ(ended->result->forfeiting_seat, -1);
  EXPECT_EQ(game->Info().status, recorder::GameStatus::kAborted);
  absl::StatusOr<recorder::GameRecord> record = recorder_->Load("core-game");
  ASSERT_OK(record);
  ASSERT_FALSE(record->events.empty());
  EXPECT_EQ(record->events.back().kind, recorder::EventKind::kAbort);
  EXPECT_NE(record->events.back().payload.find("no seat's bot connected"),
            std::string::npos)
      << record->events.back().payload;
}

// One seat asked for its turn (GetTurn), the other never came: the seat to
// move forfeits on time as always, whichever it is.
TEST_F(SessionCoreTest, OnceASeatHasShownUpTheClockForfeitsAsAlways) {
  for (int present = 0; present < 2; ++present) {
    SetUp();  // a fresh database: the game id is fixed
    std::shared_ptr<GameSession> game = NewGame(/*per_move_ms=*/1000);
    const int mover = game->Info().to_move;
    absl::Notification answered;
    game->GetTurn(
        present, /*wait=*/false,
        [&](const absl::Status&, const TurnView&) { answered.Notify(); });
    ASSERT_TRUE(answered.WaitForNotificationWithTimeout(kPatience));
    EXPECT_TRUE(game->Info().shown_up[present]);
    EXPECT_FALSE(game->Info().shown_up[1 - present]);
    auto spectator = std::make_shared<Spectator>();
    ASSERT_TRUE(game->Watch(spectator));
    timer_.Advance(std::chrono::milliseconds(1000));
    const auto* ended = spectator->Await<GameEndedEvent>();
    ASSERT_NE(ended, nullptr);
    ASSERT_TRUE(ended->result.has_value());
    EXPECT_EQ(ended->result->reason, GameEndReason::kForfeit) << present;
    EXPECT_EQ(ended->result->forfeiting_seat, mover) << present;
  }
}

// After a restart the record tells who had shown up: a seat with a move in
// it; a game whose seats had made no submission is aborted when the clock
// runs out after the restart, one with a move is forfeited.
TEST_F(SessionCoreTest, AResumedGameKnowsFromItsRecordWhoHadShownUp) {
  std::shared_ptr<GameSession> game = NewGame(/*per_move_ms=*/1000);
  absl::StatusOr<recorder::GameRecord> unplayed = recorder_->Load("core-game");
  ASSERT_OK(unplayed);
  const int mover = game->Info().to_move;
  absl::Notification answered;
  TurnView view;
  game->GetTurn(mover, false, [&](const absl::Status&, const TurnView& v) {
    view = v;
    answered.Notify();
  });
  ASSERT_TRUE(answered.WaitForNotificationWithTimeout(kPatience));
  ASSERT_TRUE(view.your_turn.has_value());
  ASSERT_FALSE(view.your_turn->legal_notations.empty());
  Submission first;
  first.notation = view.your_turn->legal_notations[0];
  ASSERT_OK(Submit(*game, mover, 0, first)->status);
  absl::StatusOr<recorder::GameRecord> played = recorder_->Load("core-game");
  ASSERT_OK(played);
  game.reset();

  // (The record as it stood before the move, and after it.)
  absl::StatusOr<std::shared_ptr<GameSession>> before =
      GameSession::Resume(deps_, *unplayed);
  ASSERT_OK(before);
  EXPECT_EQ((*before)->Info().shown_up, (std::vector<bool>{false, false}));
  (*before)->Stop(absl::CancelledError("not this one"));
  absl::StatusOr<std::shared_ptr<GameSession>> after =
      GameSession::Resume(deps_, *played);
  ASSERT_OK(after);
  std::vector<bool> expected(2, false);
  expected[mover] = true;
  EXPECT_EQ((*after)->Info().shown_up, expected);
  auto spectator = std::make_shared<Spectator>();
  ASSERT_TRUE((*after)->Watch(spectator));
  timer_.Advance(std::chrono::milliseconds(1000));
  const auto* ended = spectator->Await<GameEndedEvent>();
  ASSERT_NE(ended, nullptr);
  ASSERT_TRUE(ended->result.has_value());
  EXPECT_EQ(ended->result->reason, GameEndReason::kForfeit);
  EXPECT_EQ(ended->result->forfeiting_seat, 1 - mover);
}

TEST_F(SessionCoreTest, AnAbortIsAnsweredOnceItIsOnDisk) {
  std::shared_ptr<GameSession> game = NewGame();
  auto spectator = std::make_shared<Spectator>();
  ASSERT_TRUE(game->Watch(spectator));
  absl::Notification recorded;
  GameInfo info;
  absl::Status status = absl::UnknownError("not called");
  ASSERT_OK(game->Abort("test", [&](const absl::Status& s, const GameInfo& i) {
    status = s;
    info = i;
    recorded.Notify();
  }));
  ASSERT_TRUE(recorded.WaitForNotificationWithTimeout(kPatience));
  EXPECT_OK(status);
  EXPECT_EQ(info.status, recorder::GameStatus::kAborted);
  EXPECT_EQ(info.seed, "");  // an aborted game's seed stays secret
  // On disk before the answer.
  absl::StatusOr<recorder::GameRecord> record = recorder_->Load("core-game");
  ASSERT_OK(record);
  EXPECT_EQ(record->status, recorder::GameStatus::kAborted);
  EXPECT_EQ(record->events.back().kind, recorder::EventKind::kAbort);
  // The spectator was told, and its stream ended without the record.
  ASSERT_NE(spectator->Await<GameEndedEvent>(), nullptr);
  EXPECT_EQ(spectator->AwaitClosed(), absl::OkStatus());
  EXPECT_EQ(spectator->Count<recorder::Event>(), 0);
  // A second abort is refused.
  EXPECT_EQ(game->Abort("again").code(), absl::StatusCode::kFailedPrecondition);
}

TEST_F(SessionCoreTest, ACompactStreamGetsAVerdictAndTurnsCarryingTheMoves) {
  std::shared_ptr<GameSession> game = NewGame();
  auto seats = std::vector{std::make_shared<SeatChannel>(),
                           std::make_shared<SeatChannel>()};
  for (int seat = 0; seat < 2; ++seat) {
    game->Connect(seat, seats[seat], PlayMode::kCompact);
  }
  const int first = game->Info().to_move;
  const int second = 1 - first;
  const auto* turn0 = seats[first]->Await<YourTurnEvent>();
  ASSERT_NE(turn0, nullptr);
  EXPECT_TRUE(turn0->since_last.empty());  // nothing since it connected
  const size_t first_seen = seats[first]->size();
  const size_t second_seen = seats[second]->size();

  // Turn 0: the mover is answered (the verdict names the move); the other
  // seat is sent one message, its YourTurn, carrying that move.
  const Move m0 = turn0->legal_moves.front();
  std::unique_ptr<Answer> a0 = Submit(*game, first, 0, Notation(m0.ToString()));
  ASSERT_OK(a0->status);
  EXPECT_EQ(std::get<Move>(a0->verdict.move), m0);
  const auto* turn1 = seats[second]->Await<YourTurnEvent>(second_seen);
  ASSERT_NE(turn1, nullptr);
  ASSERT_EQ(turn1->since_last.size(), 1u);
  EXPECT_EQ(turn1->since_last[0].move, m0);
  EXPECT_EQ(turn1->since_last[0].seat, first);
  EXPECT_EQ(seats[second]->size(), second_seen + 1);
  EXPECT_EQ(seats[first]->size(), first_seen);
  EXPECT_EQ(seats[first]->Count<MovePlayedEvent>(), 0);
  EXPECT_EQ(seats[second]->Count<MovePlayedEvent>(), 0);

  // Turn 1: the first seat's next YourTurn has both moves since its last.
  const Move m1 = turn1->legal_moves.front();
  std::unique_ptr<Answer> a1 =
      Submit(*game, second, 1, Notation(m1.ToString()));
  ASSERT_OK(a1->status);
  const auto* turn2 = seats[first]->Await<YourTurnEvent>(first_seen);
  ASSERT_NE(turn2, nullptr);
  EXPECT_EQ(turn2->turn, 2);
  ASSERT_EQ(turn2->since_last.size(), 2u);
  EXPECT_EQ(turn2->since_last[0].move, m0);
  EXPECT_EQ(turn2->since_last[1].move, m1);

  // A full stream on the same game is still sent every move.
  auto full = std::make_shared<SeatChannel>();
  game->Connect(second, full, PlayMode::kFull);
  const Move m2 = turn2->legal_moves.front();
  ASSERT_OK(Submit(*game, first, 2, Notation(m2.ToString()))->status);
  const auto* played = full->Await<MovePlayedEvent>();
  ASSERT_NE(played, nullptr);
  EXPECT_EQ(played->move.move, m2);
  const auto* turn3 = full->Await<YourTurnEvent>();
  ASSERT_NE(turn3, nullptr);
  EXPECT_TRUE(turn3->since_last.empty());
}

}  // namespace
}  // namespace cassino::service
