// Fuzzes the referee's core without a server or a wire: one GameSession per
// input, on a Recorder over a temporary database and a DeadlineTimer whose
// time only the input moves. The input is a list of steps; each step's
// first byte picks what happens (low 2 bits) and who does it:
//
//   0  the seat to move plays legal move number `b` (mod the count)
//   1  seat `b & 1` submits, for turn current + (`b >> 1` % 3) - 1, the
//      notation in the next byte's length of the following bytes
//   2  seat `b & 1` submits a structured move: kind, card and table cards
//      from the following bytes (cards as two characters each)
//   3  the clock moves on by `b` * 20 ms (a deadline may forfeit the seat)
//
// Properties: every submission is answered exactly once; a move is
// accepted only if the engine (a shadow copy of the game, fed the accepted
// moves) finds it legal, and then the verdict names it; a refusal is never
// an acknowledgement; at the end the record on disk replays (CheckChain and
// Replay) to the same moves and, if the game ended, to the same result.

#include <unistd.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/synchronization/notification.h"
#include "absl/time/time.h"
#include "fuzz/fuzz_util.h"
#include "recorder/recorder.h"
#include "recorder/replay.h"
#include "referee/deadline_timer.h"
#include "referee/game_session.h"
#include "rules/deal.h"
#include "rules/rule_set.h"

namespace {

using cassino::Game;
using cassino::Move;
using cassino::Submission;
using cassino::fuzz::Fail;
using cassino::service::DeadlineTimer;
using cassino::service::GameSession;
using cassino::service::Verdict;

constexpr char kSeed[] =
    "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f";
constexpr size_t kMaxInput = 2048;

struct Fixture {
  std::filesystem::path dir;
  std::unique_ptr<cassino::recorder::Recorder> recorder;
  int games = 0;
};
Fixture* fixture = nullptr;

struct Answer {
  absl::Notification done;
  int calls = 0;
  absl::Status status;
  Verdict verdict;
};

}  // namespace

extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv) {
  fixture = new Fixture;
  char tmpl[] = "/tmp/cassino_session_fuzz_XXXXXX";
  if (mkdtemp(tmpl) == nullptr) Fail("mkdtemp failed", "");
  fixture->dir = tmpl;
  auto recorder =
      cassino::recorder::Recorder::Open((fixture->dir / "fuzz.db").string(),
                                        cassino::recorder::Durability::kNormal);
  if (!recorder.ok()) Fail("cannot open the database", "");
  fixture->recorder = std::move(*recorder);
  std::atexit([] {
    std::error_code ec;
    std::filesystem::remove_all(fixture->dir, ec);
  });
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > kMaxInput) return 0;
  const std::string input(reinterpret_cast<const char*>(data), size);
  auto rules = cassino::RuleSet::Parse("standard players=2");
  auto seed = cassino::ParseSeed(kSeed);
  auto dealt = Game::Create(*rules, cassino::DeckSource::FromSeed(*seed));
  Game shadow = *dealt;

  DeadlineTimer timer(DeadlineTimer::kManualTime);
  cassino::service::SessionDeps deps;
  deps.recorder = fixture->recorder.get();
  deps.timer = &timer;
  cassino::recorder::GameHeader header;
  header.game_id = absl::StrCat("fuzz-", fixture->games++);
  header.rules = rules->ToString();
  header.seats = {{"a", "", ""}, {"b", "", ""}};
  header.seed = kSeed;
  header.commitment = cassino::ToHex(cassino::SeedCommitment(*seed));
  header.clock = {1000, 1000, 3};
  absl::Notification created;
  absl::Status create_status;
  std::shared_ptr<GameSession> game =
      GameSession::Create(deps, header, std::move(*dealt),
                          [&](absl::Status s, std::shared_ptr<GameSession>) {
                            create_status = s;
                            created.Notify();
                          });
  if (!created.WaitForNotificationWithTimeout(absl::Seconds(5)) ||
      !create_status.ok()) {
    Fail("the game was not created", input);
  }

  auto submit = [&](int seat, int turn, const Submission& s) {
    auto a = std::make_shared<Answer>();
    game->Submit(seat, turn, s, [a](const absl::Status& st, const Verdict& v) {
      if (++a->calls != 1) Fail("a submission was answered twice", "");
      a->status = st;
      a->verdict = v;
      a->done.Notify();
    });
    if (!a->done.WaitForNotificationWithTimeout(absl::Seconds(5))) {
      Fail("a submission was not answered", input);
    }
    if (a->verdict.accepted != a->status.ok()) {
      Fail("a verdict's `accepted` disagrees with its status", input);
    }
    if (!a->status.ok()) return;
    // Accepted: the shadow must find it legal, and it is what was played.
    const Move& played = std::get<Move>(a->verdict.move);
    if (shadow.over() || turn != shadow.turn() || seat != shadow.to_move() ||
        !shadow.Validate(played).ok()) {
      Fail("an illegal move was accepted: " + played.ToString(), input);
    }
    shadow.PlayUnchecked(played);
  };

  size_t i = 0;
  auto next = [&]() -> uint8_t { return i < size ? data[i++] : 0; };
  while (i < size && !game->over()) {
    const uint8_t op = next();
    const uint8_t b = next();
    const int turn = game->Info().turn;
    switch (op & 3) {
      case 0: {
        if (shadow.over()) break;
        std::vector<Move> legal = shadow.LegalMoves();
        Submission s;
        s.notation = legal[b % legal.size()].ToString();
        submit(shadow.to_move(), turn, s);
        break;
      }
      case 1: {
        Submission s;
        const size_t n = std::min<size_t>(next(), size - i);
        s.notation = input.substr(i, n);
        i += n;
        submit(b & 1, turn + (b >> 1) % 3 - 1, s);
        break;
      }
      case 2: {
        Submission s;
        s.kind = next() % 6;
        s.card = input.substr(i, 2);
        i = std::min(size, i + 2);
        for (int k = next() % 4; k > 0 && i < size; --k) {
          s.table_cards.push_back(input.substr(i, 2));
          i = std::min(size, i + 2);
        }
        s.value = next() % 16;
        submit(b & 1, turn, s);
        break;
      }
      case 3:
        timer.Advance(std::chrono::milliseconds(20 * b));
        break;
    }
  }
  // Let every write land, then read the record back.
  absl::Notification aborted;
  if (!game->over()) {
    if (!game->Abort(
                 "fuzz",
                 [&](const absl::Status&, const cassino::service::GameInfo&) {
                   aborted.Notify();
                 })
             .ok()) {
      Fail("a running game refused its abort", input);
    }
    if (!aborted.WaitForNotificationWithTimeout(absl::Seconds(5))) {
      Fail("the abort was not recorded", input);
    }
  }
  timer.Stop();
  // The writer keeps the order: once a write queued now is done, so is
  // every write of the game (its end, a forfeit) queued before it. (Seat 0
  // has no token to set: the write changes nothing.)
  absl::Notification drained;
  fixture->recorder->SetSeatToken(header.game_id, 0, "",
                                  [&](absl::Status) { drained.Notify(); });
  if (!drained.WaitForNotificationWithTimeout(absl::Seconds(5))) {
    Fail("the recorder did not drain", input);
  }
  auto record = fixture->recorder->Load(header.game_id);
  if (!record.ok()) Fail("the record does not load", input);
  if (record->status == cassino::recorder::GameStatus::kRunning) {
    Fail("the game's end is not on disk", input);
  }
  if (!cassino::recorder::CheckChain(*record).ok()) {
    Fail("the record's hash chain is broken", input);
  }
  auto replayed = cassino::recorder::Replay(*record);
  if (!replayed.ok()) {
    Fail("the record does not replay: " +
             std::string(replayed.status().message()),
         input);
  }
  if (replayed->game.history().size() != shadow.history().size()) {
    Fail("the record has other moves than were accepted", input);
  }
  for (size_t m = 0; m < shadow.history().size(); ++m) {
    if (!(replayed->game.history()[m].move == shadow.history()[m].move)) {
      Fail("the record's move differs from the accepted one", input);
    }
  }
  return 0;
}
