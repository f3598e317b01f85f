#include "referee/ladder_wire.h"

#include "referee/wire_convert.h"

namespace cassino::service {

LadderSpec LadderSpecOf(const v1::LadderSpec& in) {
  LadderSpec spec;
  spec.name = in.name();
  spec.rules = in.rules();
  spec.clock = ClockSpecOf(in.clock());
  spec.duplicate = in.duplicate();
  const v1::LadderSettings& s = in.settings();
  spec.settings.max_concurrent_games = s.max_concurrent_games();
  spec.settings.max_games_per_bot = s.max_games_per_bot();
  spec.settings.period_ms = s.period_ms();
  spec.settings.max_pair_games = s.max_pair_games();
  spec.settings.max_bot_games = s.max_bot_games();
  spec.settings.provisional_games = s.provisional_games();
  spec.settings.probation_faults = s.probation_faults();
  spec.settings.probation_ms = s.probation_ms();
  return spec;
}

void LadderInfoToProto(const LadderInfo& info, v1::LadderInfo* out) {
  v1::LadderSpec* spec = out->mutable_spec();
  spec->set_name(info.spec.name);
  spec->set_rules(info.spec.rules);
  v1::Clock* clock = spec->mutable_clock();
  if (info.spec.clock.per_move_ms) {
    clock->set_per_move_ms(*info.spec.clock.per_move_ms);
  }
  if (info.spec.clock.bank_ms) clock->set_bank_ms(*info.spec.clock.bank_ms);
  if (info.spec.clock.max_illegal) {
    clock->set_max_illegal(*info.spec.clock.max_illegal);
  }
  spec->set_duplicate(info.spec.duplicate);
  const LadderSettings& s = info.spec.settings;
  v1::LadderSettings* settings = spec->mutable_settings();
  settings->set_max_concurrent_games(s.max_concurrent_games);
  settings->set_max_games_per_bot(s.max_games_per_bot);
  settings->set_period_ms(s.period_ms);
  settings->set_max_pair_games(s.max_pair_games);
  settings->set_max_bot_games(s.max_bot_games);
  settings->set_provisional_games(s.provisional_games);
  settings->set_probation_faults(s.probation_faults);
  settings->set_probation_ms(s.probation_ms);
  switch (info.status) {
    case LadderStatus::kOpen:
      out->set_status(v1::LADDER_STATUS_OPEN);
      break;
    case LadderStatus::kPaused:
      out->set_status(v1::LADDER_STATUS_PAUSED);
      break;
    case LadderStatus::kClosed:
      out->set_status(v1::LADDER_STATUS_CLOSED);
      break;
  }
  out->set_reason(info.reason);
  out->set_created_unix_ms(info.created_us / 1000);
  out->set_changed_unix_ms(info.changed_us / 1000);
  out->set_bots_connected(info.bots_connected);
  out->set_games_running(info.games_running);
  out->set_games_rated(info.games_rated);
  out->set_games_unrated(info.games_unrated);
  out->set_versions(info.versions);
  out->set_on_probation(info.on_probation);
}

LeaderboardQuery LeaderboardQueryOf(const v1::GetLeaderboardRequest& request) {
  LeaderboardQuery query;
  query.ladder = request.ladder();
  query.page_size = request.page_size();
  query.page_token = request.page_token();
  query.all_versions = request.all_versions();
  return query;
}

void LeaderboardPageToProto(const LeaderboardPage& page,
                            v1::GetLeaderboardResponse* out) {
  for (const LeaderboardRow& row : page.rows) {
    const competition::Standing& s = row.standing;
    v1::LeaderboardEntry* e = out->add_entries();
    e->set_rank(s.rank);
    e->set_bot(s.bot);
    e->set_account(s.account);
    e->set_version(s.version);
    e->set_mu(s.rating.mu);
    e->set_sigma(s.rating.sigma);
    e->set_conservative(s.conservative);
    e->set_games(s.games);
    e->set_wins(s.wins);
    e->set_losses(s.losses);
    e->set_draws(s.draws);
    e->set_provisional(row.provisional);
    e->set_current(s.current);
    e->set_connected(row.connected);
    e->set_on_probation(row.on_probation);
    e->set_probation_reason(row.probation_reason);
    e->set_probation_until_unix_ms(row.probation_until_us / 1000);
    e->set_last_game_unix_ms(s.last_game_us / 1000);
  }
  out->set_next_page_token(page.next_page_token);
  out->set_total_entries(page.total);
  out->set_games_rated(page.games_rated);
}

}  // namespace cassino::service
