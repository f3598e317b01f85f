// The second pass of `cassino stats`: each finished game's tally, or its
// events where it has no usable tally, added into per-bot counts. Internal
// to tools/stats.
//
// Events are tallied exactly as the recorder tallies them (recorder/tally.h,
// with the payload readers of recorder/payload.h) and the tally added as a
// stored one is, so the two paths give the same statistics by construction.
// A payload that does not read is counted in Partial::bad_events, never
// fatal.

#ifndef CASSINO_TOOLS_STATS_EVENT_SCAN_H_
#define CASSINO_TOOLS_STATS_EVENT_SCAN_H_

#include <sqlite3.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <map>
#include <span>
#include <vector>

#include "absl/status/status.h"
#include "tools/stats/game_table.h"
#include "tools/stats/stats.h"

namespace cassino::stats::internal {

// An exact histogram of move times (milliseconds, clamped to 0..INT32_MAX):
// dense counts for the usual small values, a map beyond.
class MoveHist {
 public:
  void Add(int64_t ms, int64_t count) {
    const int64_t v = std::clamp<int64_t>(ms, 0, INT32_MAX);
    total_ += count;
    if (v < kDense) {
      if (static_cast<size_t>(v) >= dense_.size()) {
        dense_.resize(std::max<size_t>(v + 1, dense_.size() * 2), 0);
      }
      dense_[v] += count;
    } else {
      sparse_[static_cast<int32_t>(v)] += count;
    }
  }
  void Merge(const MoveHist& other) {
    if (dense_.size() < other.dense_.size()) dense_.resize(other.dense_.size());
    for (size_t v = 0; v < other.dense_.size(); ++v) {
      dense_[v] += other.dense_[v];
    }
    for (const auto& [v, n] : other.sparse_) sparse_[v] += n;
    total_ += other.total_;
  }
  int64_t total() const { return total_; }
  // Nearest rank: the smallest value with at least ceil(p * total) values
  // at or below it.
  double Percentile(double p) const {
    if (total_ == 0) return 0;
    const int64_t rank = std::clamp<int64_t>(
        static_cast<int64_t>(std::ceil(p * static_cast<double>(total_))), 1,
        total_);
    int64_t seen = 0;
    for (size_t v = 0; v < dense_.size(); ++v) {
      seen += dense_[v];
      if (seen >= rank) return static_cast<double>(v);
    }
    for (const auto& [v, n] : sparse_) {
      seen += n;
      if (seen >= rank) return v;
    }
    return 0;  // unreachable: the counts add up to total_
  }

 private:
  static constexpr int64_t kDense = 1 << 16;
  std::vector<int64_t> dense_;
  std::map<int32_t, int64_t> sparse_;
  int64_t total_ = 0;
};

// What the event scan accumulates; one per thread, merged afterwards.
struct Partial {
  explicit Partial(size_t bots)
      : move_ms(bots),
        rejects(bots),
        forfeits(bots),
        timeouts(bots),
        rounds(bots),
        points(bots) {}
  std::vector<MoveHist> move_ms;
  std::vector<int64_t> rejects, forfeits, timeouts, rounds;
  std::vector<std::array<int64_t, kItemKinds + 1>> points;  // + total
  int64_t bad_events = 0;
  int64_t round_events = 0;
  int64_t move_events = 0;
  int64_t tallied_games = 0;  // read from game_tallies
  absl::Status status;

  // Adds `other`'s counts (and its first error, if this has none).
  void Merge(const Partial& other);
};

// Adds the games of `segment` (games()[segment.first, segment.last), all
// from the database `db`, opened read-only at segment.path) into `total`
// (sized for every bot of `table`): their tallies, or events, read by up to
// Options::threads threads over disjoint ranges of game ids, each with its
// own connection. An error names the database.
absl::Status ScanSegment(sqlite3* db, const GameTable& table,
                         const Segment& segment, const Options& options,
                         Partial* total);

}  // namespace cassino::stats::internal

#endif  // CASSINO_TOOLS_STATS_EVENT_SCAN_H_
