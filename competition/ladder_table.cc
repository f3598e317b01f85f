#include "competition/ladder_table.h"

#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"
#include "competition/finishing_order.h"

namespace cassino::competition {

std::string LadderBotName(absl::string_view account,
                          absl::string_view version) {
  return absl::StrCat(account, "@", version);
}

std::optional<BotVersion> SplitBotName(absl::string_view bot) {
  const size_t at = bot.find('@');
  if (at == absl::string_view::npos || at == 0 || at + 1 >= bot.size()) {
    return std::nullopt;
  }
  return BotVersion{std::string(bot.substr(0, at)),
                    std::string(bot.substr(at + 1))};
}

namespace {

// The game's sides as sets of distinct names; empty when it is not rated.
std::vector<std::vector<std::string>> RatedSides(const LadderGame& game) {
  std::vector<std::vector<std::string>> sides;
  std::set<std::string> seen;
  for (const std::vector<std::string>& side : game.sides) {
    std::vector<std::string> names;
    for (const std::string& bot : side) {
      if (std::find(names.begin(), names.end(), bot) != names.end()) continue;
      if (seen.contains(bot)) return {};  // on two sides
      names.push_back(bot);
    }
    if (names.empty()) return {};
    for (const std::string& bot : names) seen.insert(bot);
    sides.push_back(std::move(names));
  }
  if (sides.size() < 2 || game.totals.size() != sides.size()) return {};
  return sides;
}

}  // namespace

LadderTable::LadderTable(RatingModel model, bool history)
    : model_(model), keep_history_(history) {}

void LadderTable::Apply(const LadderGame& game, State& state) const {
  const std::vector<std::vector<std::string>> sides = RatedSides(game);
  const std::vector<int> ranks = OutcomeRanks(game.winner, game.totals);
  std::vector<std::vector<Rating>> before(sides.size());
  for (size_t i = 0; i < sides.size(); ++i) {
    for (const std::string& bot : sides[i]) {
      auto it = state.bots.find(bot);
      before[i].push_back(it == state.bots.end() ? NewRating(model_)
                                                 : it->second.rating);
    }
  }
  const std::vector<std::vector<Rating>> after =
      RateGame(model_, before, ranks);
  const int winner =
      game.winner >= 0 && game.winner < static_cast<int>(sides.size())
          ? game.winner
          : -1;
  for (size_t i = 0; i < sides.size(); ++i) {
    for (size_t j = 0; j < sides[i].size(); ++j) {
      const std::string& bot = sides[i][j];
      auto [it, fresh] = state.bots.try_emplace(bot);
      Standing& s = it->second;
      if (fresh) {
        s.bot = bot;
        if (std::optional<BotVersion> v = SplitBotName(bot)) {
          s.account = v->account;
          s.version = v->version;
        } else {
          s.account = bot;
        }
        s.first_game_us = game.finished_us;
      }
      s.rating = after[i][j];
      s.conservative = Conservative(model_, s.rating);
      ++s.games;
      if (winner < 0) {
        ++s.draws;
      } else if (winner == static_cast<int>(i)) {
        ++s.wins;
      } else {
        ++s.losses;
      }
      s.last_game_us = game.finished_us;
      if (std::make_pair(game.created_us, game.game_id) >
          std::make_pair(s.last_created_us, s.last_created_game)) {
        s.last_created_us = game.created_us;
        s.last_created_game = game.game_id;
      }
      if (keep_history_) {
        state.history[bot].push_back(
            {game.game_id, game.finished_us, s.rating});
      }
    }
  }
  ++state.games;
}

LadderTable::Added LadderTable::Add(LadderGame game) {
  if (RatedSides(game).empty()) return Added::kNotRated;
  Key key{game.finished_us, game.game_id};
  if (settled_key_.has_value() && key <= *settled_key_) return Added::kStale;
  if (pending_.contains(key)) return Added::kAlreadyHere;
  const bool last = pending_.empty() || pending_.rbegin()->first < key;
  auto it = pending_.emplace(std::move(key), std::move(game)).first;
  if (last) {
    Apply(it->second, state_);
  } else {
    Refold();
  }
  return Added::kApplied;
}

void LadderTable::Settle(int64_t before_us) {
  while (!pending_.empty() && pending_.begin()->first.first <= before_us) {
    auto node = pending_.extract(pending_.begin());
    Apply(node.mapped(), settled_);
    settled_key_ = node.key();
  }
}

void LadderTable::Refold() {
  state_ = settled_;
  for (const auto& [key, game] : pending_) Apply(game, state_);
}

std::vector<Standing> LadderTable::Leaderboard(bool all_versions) const {
  // The current version of each account.
  std::map<std::string, const Standing*> current;
  for (const auto& [bot, s] : state_.bots) {
    const Standing*& c = current[s.account];
    if (c == nullptr ||
        std::make_pair(s.last_created_us, s.last_created_game) >
            std::make_pair(c->last_created_us, c->last_created_game)) {
      c = &s;
    }
  }
  std::vector<Standing> out;
  for (const auto& [bot, s] : state_.bots) {
    const bool is_current = current[s.account] == &s;
    if (!all_versions && !is_current) continue;
    out.push_back(s);
    out.back().current = is_current;
  }
  std::sort(out.begin(), out.end(), [](const Standing& a, const Standing& b) {
    if (a.conservative != b.conservative)
      return a.conservative > b.conservative;
    if (a.rating.mu != b.rating.mu) return a.rating.mu > b.rating.mu;
    return a.bot < b.bot;
  });
  for (size_t i = 0; i < out.size(); ++i) out[i].rank = static_cast<int>(i) + 1;
  return out;
}

std::optional<Standing> LadderTable::Find(const std::string& bot) const {
  auto it = state_.bots.find(bot);
  if (it == state_.bots.end()) return std::nullopt;
  return it->second;
}

Rating LadderTable::RatingOf(const std::string& bot) const {
  auto it = state_.bots.find(bot);
  return it == state_.bots.end() ? NewRating(model_) : it->second.rating;
}

}  // namespace cassino::competition
