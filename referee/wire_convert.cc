#include "referee/wire_convert.h"

#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "referee/errors.h"
#include "referee/game_session.h"
#include "referee/page_token.h"
#include "referee/session_messages.h"

namespace cassino::service {

ClockSpec ClockSpecOf(const v1::Clock& clock) {
  ClockSpec out;
  if (clock.has_per_move_ms()) out.per_move_ms = clock.per_move_ms();
  if (clock.has_bank_ms()) out.bank_ms = clock.bank_ms();
  if (clock.has_max_illegal()) out.max_illegal = clock.max_illegal();
  return out;
}

namespace {

void ClockSpecToProto(const ClockSpec& clock, v1::Clock* out) {
  if (clock.per_move_ms) out->set_per_move_ms(*clock.per_move_ms);
  if (clock.bank_ms) out->set_bank_ms(*clock.bank_ms);
  if (clock.max_illegal) out->set_max_illegal(*clock.max_illegal);
}

}  // namespace

GameSpec GameSpecOf(const v1::CreateGameRequest& request) {
  GameSpec spec;
  spec.rules = request.rules();
  spec.seats.reserve(request.seats_size());
  for (const v1::SeatSpec& seat : request.seats()) {
    spec.seats.push_back({seat.bot_name(), seat.account(), seat.human()});
  }
  spec.clock = ClockSpecOf(request.clock());
  spec.seed = request.seed();
  spec.decks.assign(request.decks().begin(), request.decks().end());
  spec.label = request.label();
  return spec;
}

void CreatedGameToProto(const CreatedGame& created,
                        v1::CreateGameResponse* out) {
  out->set_game_id(created.game_id);
  out->set_seed_commitment(created.seed_commitment);
  out->set_rules(created.rules);
  ClockToProto(created.clock, out->mutable_clock());
  for (const SeatGrant& grant : created.seats) {
    v1::SeatToken* t = out->add_tokens();
    t->set_seat(grant.seat);
    t->set_bot_name(grant.bot_name);
    t->set_account(grant.account);
    t->set_token(grant.token);
  }
}

absl::StatusOr<GameQuery> GameQueryOf(const v1::ListGamesRequest& request) {
  GameQuery query;
  switch (request.status()) {
    case v1::GAME_STATUS_UNSPECIFIED:
      break;
    case v1::GAME_STATUS_RUNNING:
      query.status = recorder::GameStatus::kRunning;
      break;
    case v1::GAME_STATUS_FINISHED:
      query.status = recorder::GameStatus::kFinished;
      break;
    case v1::GAME_STATUS_ABORTED:
      query.status = recorder::GameStatus::kAborted;
      break;
    default:
      // (The core checks the page size first: so does this refusal.)
      if (absl::StatusOr<int> size = PageSize(request.page_size());
          !size.ok()) {
        return size.status();
      }
      return InvalidField("status",
                          absl::StrCat("status: unknown game status ",
                                       static_cast<int>(request.status())));
  }
  query.label = request.label();
  query.page_size = request.page_size();
  query.page_token = request.page_token();
  return query;
}

void GamePageToProto(const GamePage& page, v1::ListGamesResponse* out) {
  for (const GameInfo& info : page.games) InfoToProto(info, out->add_games());
  out->set_next_page_token(page.next_page_token);
}

BotRegistration BotRegistrationOf(const v1::RegisterBotRequest& request) {
  return {request.name(), request.owner(), request.contact()};
}

BotQuery BotQueryOf(const v1::ListBotsRequest& request) {
  return {request.page_size(), request.page_token()};
}

void BotAccountToProto(const BotAccount& a, v1::BotAccount* out) {
  out->set_name(a.name);
  out->set_owner(a.owner);
  out->set_contact(a.contact);
  out->set_created_unix_ms(a.created_us / 1000);
  out->set_key_issued_unix_ms(a.key_issued_us / 1000);
  out->set_revoked(a.revoked);
  out->set_revoked_unix_ms(a.revoked_us / 1000);
  out->set_connected(a.connected);
  out->set_capacity(a.capacity);
  out->set_unfinished_seats(a.unfinished_seats);
  out->set_ladder(a.ladder.ladder);
  out->set_version(a.ladder.version);
}

void BotPageToProto(const BotPage& page, v1::ListBotsResponse* out) {
  for (const BotAccount& bot : page.bots) {
    BotAccountToProto(bot, out->add_bots());
  }
  out->set_next_page_token(page.next_page_token);
}

v1::LobbyResponse LobbyResponseOf(const LobbyEvent& event) {
  v1::LobbyResponse out;
  if (const auto* welcome = std::get_if<LobbyWelcome>(&event)) {
    v1::LobbyWelcome* w = out.mutable_welcome();
    w->set_account(welcome->account);
    w->set_capacity(welcome->capacity);
    w->set_unfinished_seats(welcome->unfinished_seats);
  } else if (const auto* offer = std::get_if<SeatOffer>(&event)) {
    v1::GameOffer* o = out.mutable_offer();
    GameStartedToProto(offer->game, o->mutable_game());
    o->set_token(offer->token);
    o->set_reoffer(offer->reoffer);
  } else if (const auto* notice = std::get_if<LadderNotice>(&event)) {
    v1::LadderNotice* n = out.mutable_ladder();
    n->set_ladder(notice->ladder);
    n->set_version(notice->version);
    switch (notice->state) {
      case LadderNotice::State::kActive:
        n->set_state(v1::LadderNotice::STATE_ACTIVE);
        break;
      case LadderNotice::State::kProbation:
        n->set_state(v1::LadderNotice::STATE_PROBATION);
        break;
      case LadderNotice::State::kPaused:
        n->set_state(v1::LadderNotice::STATE_PAUSED);
        break;
      case LadderNotice::State::kClosed:
        n->set_state(v1::LadderNotice::STATE_CLOSED);
        break;
    }
    n->set_reason(notice->reason);
    n->set_until_unix_ms(notice->until_us / 1000);
  }
  return out;
}

absl::StatusOr<TournamentSpec> TournamentSpecOf(const v1::TournamentSpec& in) {
  TournamentSpec spec;
  spec.name = in.name();
  spec.participants.assign(in.participants().begin(), in.participants().end());
  switch (in.format()) {
    case v1::TOURNAMENT_FORMAT_UNSPECIFIED:
    case v1::TOURNAMENT_FORMAT_ROUND_ROBIN:
      spec.format = TournamentFormat::kRoundRobin;
      break;
    case v1::TOURNAMENT_FORMAT_GAUNTLET:
      spec.format = TournamentFormat::kGauntlet;
      break;
    default:
      return InvalidField("spec.format",
                          absl::StrCat("spec.format: unknown format ",
                                       static_cast<int>(in.format())));
  }
  spec.games_per_pairing = in.games_per_pairing();
  spec.duplicate = in.duplicate();
  spec.rules = in.rules();
  spec.clock = ClockSpecOf(in.clock());
  spec.max_concurrent_games = in.max_concurrent_games();
  spec.seed = in.seed();
  spec.grace_ms = in.grace_ms();
  return spec;
}

void TournamentInfoToProto(const TournamentInfo& info,
                           v1::TournamentInfo* out) {
  const TournamentSpec& s = info.spec;
  v1::TournamentSpec* spec = out->mutable_spec();
  spec->set_name(s.name);
  for (const std::string& p : s.participants) spec->add_participants(p);
  spec->set_format(s.format == TournamentFormat::kGauntlet
                       ? v1::TOURNAMENT_FORMAT_GAUNTLET
                       : v1::TOURNAMENT_FORMAT_ROUND_ROBIN);
  spec->set_games_per_pairing(s.games_per_pairing);
  spec->set_duplicate(s.duplicate);
  spec->set_rules(s.rules);
  ClockSpecToProto(s.clock, spec->mutable_clock());
  spec->set_max_concurrent_games(s.max_concurrent_games);
  spec->set_grace_ms(s.grace_ms);
  spec->set_seed(s.seed);
  switch (info.status) {
    case TournamentStatus::kRunning:
      out->set_status(v1::TOURNAMENT_STATUS_RUNNING);
      break;
    case TournamentStatus::kFinished:
      out->set_status(v1::TOURNAMENT_STATUS_FINISHED);
      break;
    case TournamentStatus::kCancelled:
      out->set_status(v1::TOURNAMENT_STATUS_CANCELLED);
      break;
  }
  out->set_seed_commitment(info.seed_commitment);
  out->set_games_total(info.games_total);
  out->set_games_pending(info.games_pending);
  out->set_games_running(info.games_running);
  out->set_games_finished(info.games_finished);
  out->set_games_aborted(info.games_aborted);
  out->set_created_unix_ms(info.created_us / 1000);
  out->set_ended_unix_ms(info.ended_us / 1000);
  for (const recorder::Standing& s : info.standings) {
    v1::TournamentStanding* o = out->add_standings();
    o->set_rank(s.rank);
    o->set_bot(s.bot);
    o->set_games(s.games);
    o->set_wins(s.wins);
    o->set_losses(s.losses);
    o->set_draws(s.draws);
    o->set_forfeits(s.forfeits);
    o->set_score(s.score);
    o->set_points_for(static_cast<int32_t>(s.points_for));
    o->set_points_against(static_cast<int32_t>(s.points_against));
  }
  for (const TournamentGame& g : info.games) {
    v1::TournamentGame* o = out->add_games();
    o->set_index(g.index);
    for (const std::string& bot : g.bots) o->add_bots(bot);
    o->set_game_id(g.game_id);
    if (g.status) o->set_status(ProtoStatus(*g.status));
    if (g.result) {
      // (Winner, reason and totals: what the database's summary keeps.)
      v1::GameResult* r = o->mutable_result();
      r->set_winner(g.result->winner);
      r->set_reason(g.result->reason);
      for (int total : g.result->totals) r->add_totals(total);
    }
  }
}

}  // namespace cassino::service
