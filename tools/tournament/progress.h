// Progress reports of a running tournament on standard error.
//
// On a terminal (live mode) the last line is a status line redrawn in
// place — games done / total, rate and ETA, or for an SPRT match the LLR
// against its bounds and the rate — and each event line (a game or pair
// that ended) is printed above it. Otherwise (a pipe, a file, a CI log)
// only the event lines are printed, one per line, with no control
// characters.
//
// Lifetimes: a ProgressLine writes to the FILE it is given, which must
// outlive it; it is not thread-safe (the runners call their progress
// callbacks one at a time).

#ifndef CASSINO_TOOLS_TOURNAMENT_PROGRESS_H_
#define CASSINO_TOOLS_TOURNAMENT_PROGRESS_H_

#include <cstdio>
#include <string>

#include "absl/strings/string_view.h"

namespace cassino::tournament {

// "12/40 games, 2.5 games/s, ETA 11 s" (ETA in s, then m:ss, then h:mm:ss;
// no rate or ETA before the first game or after `seconds` <= 0).
std::string GamesProgress(int done, int total, double seconds);

// "LLR 1.23 (-2.94, 2.94), 24 pairs, 0.8 pairs/s".
std::string SprtProgress(double llr, double lower, double upper, int pairs,
                         double seconds);

class ProgressLine {
 public:
  // Live when `live` (normally isatty(fileno(out))).
  ProgressLine(FILE* out, bool live) : out_(out), live_(live) {}
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;
  ~ProgressLine() { Finish(); }

  // A line that stays: printed above the status line when live.
  void Event(absl::string_view line);
  // The status line (live mode only; ignored otherwise).
  void Status(absl::string_view status);
  // Clears the status line (live mode).
  void Finish();

 private:
  FILE* out_;
  bool live_;
  std::string status_;
};

}  // namespace cassino::tournament

#endif  // CASSINO_TOOLS_TOURNAMENT_PROGRESS_H_
