#include "tools/tournament/sprt_match.h"

#include <algorithm>
#include <thread>
#include <utility>

#include "absl/status/status.h"
#include "absl/synchronization/mutex.h"
#include "grpcpp/grpcpp.h"
#include "rules/schedule.h"
#include "tools/tournament/run_game.h"

namespace cassino::tournament {
namespace {

bool Played(const GameOutcome& g) {
  return g.error.empty() && g.reason != "aborted";
}

// What the workers share.
struct MatchState {
  absl::Mutex mu;
  int next_pair ABSL_GUARDED_BY(mu) = 0;
  bool stop ABSL_GUARDED_BY(mu) = false;
  competition::Pentanomial counts ABSL_GUARDED_BY(mu){};
  SprtMatchResult result ABSL_GUARDED_BY(mu);
  std::vector<PairOutcome> pairs ABSL_GUARDED_BY(mu);
};

}  // namespace

int HalfPoints(const GameOutcome& game, int a_seat) {
  if (game.winner == a_seat) return 2;
  return game.winner < 0 ? 1 : 0;
}

absl::StatusOr<SprtMatchResult> RunSprtMatch(
    const SprtMatchOptions& o,
    const std::function<void(const PairOutcome&,
                             const competition::SprtResult&)>& progress) {
  const TournamentOptions& t = o.tournament;
  if (t.bots.size() != 2) {
    return absl::InvalidArgumentError("an SPRT match needs exactly two bots");
  }
  if (o.first_pair < 0 || o.max_pairs < 1) {
    return absl::InvalidArgumentError("bad pair range");
  }
  const int end_pair = std::max(o.first_pair, o.max_pairs);
  // The two-bot duplicate schedule through the last pair.
  const std::vector<ScheduledGame> schedule =
      TournamentSchedule(2, /*gauntlet=*/false, 2 * end_pair,
                         /*duplicate=*/true, t.seed);
  if (t.addresses.size() != 1) {
    return absl::InvalidArgumentError("an SPRT match runs on one referee");
  }
  const std::string& address = t.addresses.front();
  auto channel =
      grpc::CreateChannel(address, grpc::InsecureChannelCredentials());
  auto stub = v1::RefereeService::NewStub(channel);

  MatchState st;
  {
    absl::MutexLock lock(&st.mu);
    st.next_pair = o.first_pair;
    st.counts = o.resumed;
    // The resumed counts may already decide.
    const competition::Verdict now =
        competition::EvaluatePairs(o.params, st.counts).verdict;
    if (now != competition::Verdict::kContinue) {
      st.stop = true;
      st.result.verdict = now;
    }
  }
  auto work = [&] {
    while (true) {
      int k;
      {
        absl::MutexLock lock(&st.mu);
        if (st.stop || st.next_pair >= end_pair) return;
        k = st.next_pair++;
        ++st.result.pairs_started;
      }
      PairOutcome pair;
      pair.pair = k;
      for (int g = 0; g < 2; ++g) {
        const ScheduledGame& s = schedule[2 * k + g];
        pair.games[g] =
            RunGame(t, address, *stub,
                    GameSpec{s.index, {s.seat[0], s.seat[1]}, s.seed});
      }
      pair.counted = Played(pair.games[0]) && Played(pair.games[1]);
      pair.a_half_points =
          HalfPoints(pair.games[0], 0) + HalfPoints(pair.games[1], 1);
      absl::MutexLock lock(&st.mu);
      if (pair.counted) {
        ++st.counts[pair.a_half_points];
      } else {
        ++st.result.pairs_uncounted;
      }
      const competition::SprtResult now =
          competition::EvaluatePairs(o.params, st.counts);
      if (now.verdict != competition::Verdict::kContinue &&
          st.result.verdict == competition::Verdict::kContinue) {
        st.result.verdict = now.verdict;
        st.stop = true;
      }
      st.pairs.push_back(pair);
      if (progress) progress(pair, now);
    }
  };
  std::vector<std::thread> workers;
  const int k = std::clamp(t.concurrency, 1, std::max(1, end_pair));
  for (int w = 0; w < k; ++w) workers.emplace_back(work);
  for (std::thread& w : workers) w.join();

  absl::MutexLock lock(&st.mu);
  std::sort(st.pairs.begin(), st.pairs.end(),
            [](const PairOutcome& a, const PairOutcome& b) {
              return a.pair < b.pair;
            });
  SprtMatchResult result = std::move(st.result);
  for (const PairOutcome& p : st.pairs) {
    result.games.push_back(p.games[0]);
    result.games.push_back(p.games[1]);
  }
  result.sprt = competition::EvaluatePairs(o.params, st.counts);
  result.standings = ComputeStandings(t.bots, result.games);
  return result;
}

}  // namespace cassino::tournament
