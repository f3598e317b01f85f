#include "referee/ladder_spec.h"

#include <algorithm>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "nlohmann/json.hpp"
#include "referee/errors.h"

namespace cassino::service {
namespace {

using Json = nlohmann::json;

constexpr int64_t kDayMs = 24 * 3600 * 1000;

// One setting: 0 means `fallback`; else `min` to `max`.
template <typename T>
absl::Status Fill(T& value, const char* field, T min, T max, T fallback) {
  if (value == 0) {
    value = fallback;
    return absl::OkStatus();
  }
  if (value < min || value > max) {
    const std::string path = absl::StrCat("spec.settings.", field);
    return InvalidField(
        path, absl::StrCat(path, " must be ", min, " to ", max, " (0 means ",
                           fallback, "); ", value, " given"));
  }
  return absl::OkStatus();
}

}  // namespace

std::string LadderStatusName(LadderStatus status) {
  switch (status) {
    case LadderStatus::kOpen:
      return "open";
    case LadderStatus::kPaused:
      return "paused";
    case LadderStatus::kClosed:
      return "closed";
  }
  return "open";
}

absl::StatusOr<LadderSettings> SettingsOf(const LadderSettings& requested) {
  LadderSettings s = requested;
  absl::Status st;
  for (absl::Status one :
       {Fill(s.max_concurrent_games, "max_concurrent_games", 1, 1024, 16),
        Fill(s.max_games_per_bot, "max_games_per_bot", 1, 64, 4),
        Fill<int64_t>(s.period_ms, "period_ms", 60'000, 7 * kDayMs, 3'600'000),
        Fill(s.max_pair_games, "max_pair_games", 1, 100'000, 20),
        Fill(s.max_bot_games, "max_bot_games", 1, 1'000'000, 240),
        Fill(s.provisional_games, "provisional_games", 1, 1000, 10),
        Fill(s.probation_faults, "probation_faults", 1, 100, 3),
        Fill<int64_t>(s.probation_ms, "probation_ms", 1000, 7 * kDayMs,
                      600'000)}) {
    if (!one.ok()) return one;
  }
  return s;
}

std::string SettingsJson(const LadderSettings& s) {
  Json j = Json::object();
  j["max_concurrent_games"] = s.max_concurrent_games;
  j["max_games_per_bot"] = s.max_games_per_bot;
  j["period_ms"] = s.period_ms;
  j["max_pair_games"] = s.max_pair_games;
  j["max_bot_games"] = s.max_bot_games;
  j["provisional_games"] = s.provisional_games;
  j["probation_faults"] = s.probation_faults;
  j["probation_ms"] = s.probation_ms;
  return j.dump();
}

absl::StatusOr<LadderSettings> ParseSettingsJson(const std::string& json) {
  const Json j = Json::parse(json, nullptr, /*allow_exceptions=*/false);
  if (!j.is_object()) {
    return absl::DataLossError("a ladder's settings are not a JSON object");
  }
  LadderSettings s;
  auto get = [&](const char* key, auto& out) {
    auto it = j.find(key);
    if (it != j.end() && it->is_number_integer()) {
      out = it->get<std::remove_reference_t<decltype(out)>>();
    }
  };
  get("max_concurrent_games", s.max_concurrent_games);
  get("max_games_per_bot", s.max_games_per_bot);
  get("period_ms", s.period_ms);
  get("max_pair_games", s.max_pair_games);
  get("max_bot_games", s.max_bot_games);
  get("provisional_games", s.provisional_games);
  get("probation_faults", s.probation_faults);
  get("probation_ms", s.probation_ms);
  // (Missing keys, from a later version's removal, take the defaults.)
  return SettingsOf(s);
}

competition::MatchSettings MatchSettingsOf(const LadderSettings& settings,
                                           int players, bool partnerships) {
  competition::MatchSettings m;
  m.players = players;
  m.partnerships = partnerships;
  m.period_ms = settings.period_ms;
  m.max_pair_games = settings.max_pair_games;
  m.max_bot_games = settings.max_bot_games;
  m.provisional_games = settings.provisional_games;
  return m;
}

bool ValidVersionName(const std::string& version) {
  if (version.empty() || version.size() > kMaxVersionName) return false;
  return std::all_of(version.begin(), version.end(), [](char c) {
    return absl::ascii_isalnum(static_cast<unsigned char>(c)) || c == '-' ||
           c == '_' || c == '.';
  });
}

competition::RatingModel LadderRatingModel() {
  return competition::RatingModel();
}

}  // namespace cassino::service
