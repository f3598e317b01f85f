#include "tools/tournament/progress.h"

#include <cmath>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace cassino::tournament {
namespace {

// "45 s", "3:05", "1:02:03".
std::string Duration(double seconds) {
  const int64_t s = std::llround(std::max(0.0, seconds));
  if (s < 60) return absl::StrCat(s, " s");
  if (s < 3600) return absl::StrFormat("%d:%02d", s / 60, s % 60);
  return absl::StrFormat("%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60);
}

// The clear-line control sequence and a carriage return: the cursor back
// at the start of an empty line.
constexpr char kClear[] = "\r\x1b[2K";

}  // namespace

std::string GamesProgress(int done, int total, double seconds) {
  std::string out = absl::StrCat(done, "/", total, " games");
  if (done > 0 && seconds > 0) {
    const double rate = done / seconds;
    absl::StrAppendFormat(&out, ", %.2g games/s", rate);
    if (done < total) {
      absl::StrAppend(&out, ", ETA ", Duration((total - done) / rate));
    }
  }
  return out;
}

std::string SprtProgress(double llr, double lower, double upper, int pairs,
                         double seconds) {
  std::string out = absl::StrFormat("LLR %.2f (%.2f, %.2f), %d pairs", llr,
                                    lower, upper, pairs);
  if (pairs > 0 && seconds > 0) {
    absl::StrAppendFormat(&out, ", %.2g pairs/s", pairs / seconds);
  }
  return out;
}

void ProgressLine::Event(absl::string_view line) {
  if (live_ && !status_.empty()) std::fputs(kClear, out_);
  std::fprintf(out_, "%.*s\n", static_cast<int>(line.size()), line.data());
  if (live_ && !status_.empty()) std::fputs(status_.c_str(), out_);
  std::fflush(out_);
}

void ProgressLine::Status(absl::string_view status) {
  if (!live_) return;
  status_ = std::string(status);
  std::fprintf(out_, "%s%s", kClear, status_.c_str());
  std::fflush(out_);
}

void ProgressLine::Finish() {
  if (live_ && !status_.empty()) {
    std::fputs(kClear, out_);
    std::fflush(out_);
  }
  status_.clear();
}

}  // namespace cassino::tournament
