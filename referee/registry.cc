#include "referee/registry.h"

#include <algorithm>
#include <chrono>
#include <cstdio>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "recorder/display_text.h"
#include "referee/auth.h"
#include "referee/errors.h"
#include "referee/page_token.h"
#include "referee/wall_clock.h"
#include "rules/deal.h"

namespace cassino::service {
namespace {

constexpr int kMaxSeats = 6;  // California with 6 players
constexpr size_t kMaxNameLength = 64;
constexpr size_t kMaxLabelLength = 128;
constexpr int kMaxDecks = 64;
constexpr int64_t kMaxMillis = 3600 * 1000;
constexpr int64_t kMaxBankMillis = kMaxMillis * 24;
constexpr int kMaxIllegal = 1000;

// A game's info from its database summary: no clock, turn or round, and
// of its outcome only what the summary keeps.
GameInfo SummaryToInfo(const recorder::GameSummary& s) {
  GameInfo info;
  info.game_id = s.game_id;
  info.label = s.label;
  info.rules = s.rules;
  info.bots = s.bots;
  info.accounts = s.accounts;
  info.status = s.status;
  info.to_move = -1;
  info.totals = s.totals;
  if (s.status != recorder::GameStatus::kRunning) {
    GameOutcome outcome;
    outcome.winner = s.winner;
    outcome.reason = s.end_reason;
    outcome.totals = s.totals;
    info.outcome = std::move(outcome);
  }
  info.created_us = s.created_us;
  return info;
}

// The number a page token binds for a status filter: the API's
// (cassino.v1.GameStatus), so tokens read as before the core spoke its
// own types.
int StatusNumber(const std::optional<recorder::GameStatus>& status) {
  if (!status) return 0;
  switch (*status) {
    case recorder::GameStatus::kRunning:
      return 1;
    case recorder::GameStatus::kFinished:
      return 2;
    case recorder::GameStatus::kAborted:
      return 3;
  }
  return 0;
}

}  // namespace

absl::StatusOr<recorder::TimeControl> ClockOf(const ClockSpec& c,
                                              absl::string_view field) {
  // Unset: the default (TimeControl's); set: exactly that value, 0 refused
  // where it makes no sense (game.proto, Clock).
  recorder::TimeControl clock;
  auto refuse = [&](absl::string_view name, auto range, auto value) {
    const std::string path = absl::StrCat(field, ".", name);
    return InvalidField(
        path, absl::StrCat(path, " must be ", range, "; ", value, " given"));
  };
  if (c.per_move_ms.has_value()) {
    if (*c.per_move_ms < 1 || *c.per_move_ms > kMaxMillis) {
      return refuse("per_move_ms", absl::StrCat("1 to ", kMaxMillis),
                    *c.per_move_ms);
    }
    clock.per_move_ms = *c.per_move_ms;
  }
  if (c.bank_ms.has_value()) {
    if (*c.bank_ms > kMaxBankMillis) {
      return refuse("bank_ms", absl::StrCat("0 to ", kMaxBankMillis),
                    *c.bank_ms);
    }
    // (A negative bank is the deprecated spelling of no bank.)
    clock.bank_ms = std::max<int64_t>(0, *c.bank_ms);
  }
  if (c.max_illegal.has_value()) {
    if (*c.max_illegal < 1 || *c.max_illegal > kMaxIllegal) {
      return refuse("max_illegal", absl::StrCat("1 to ", kMaxIllegal),
                    *c.max_illegal);
    }
    clock.max_illegal = *c.max_illegal;
  }
  return clock;
}

absl::StatusOr<RuleSet> GameRules(const std::string& text, int seats) {
  std::string rules_text = text.empty() ? "standard" : text;
  if (rules_text.size() > 1024) {
    return absl::InvalidArgumentError("rules text is too long");
  }
  if (!absl::StrContains(rules_text, "players=")) {
    absl::StrAppend(&rules_text, " players=", seats);
  }
  absl::StatusOr<RuleSet> rules = RuleSet::Parse(rules_text);
  if (!rules.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("rules: ", rules.status().message()));
  }
  if (absl::Status s = rules->Validate(); !s.ok()) {
    return absl::InvalidArgumentError(absl::StrCat("rules: ", s.message()));
  }
  if (rules->players != seats) {
    return absl::InvalidArgumentError(
        absl::StrCat("the rules have ", rules->players, " players but ", seats,
                     " seats were given"));
  }
  return rules;
}

Registry::Registry(recorder::Recorder* recorder, DeadlineTimer* timer,
                   const std::string& admin_token, RateLimit seat_rate,
                   std::chrono::milliseconds keep_ended,
                   std::chrono::milliseconds token_retention,
                   const ClientLimits& limits)
    : token_retention_(token_retention),
      admin_token_hash_(HashToken(admin_token)),
      limits_(limits) {
  deps_.recorder = recorder;
  deps_.timer = timer;
  deps_.seat_rate = seat_rate;
  deps_.seeds = &seed_holds_;
  deps_.max_waiters_per_seat = limits.max_waiters_per_seat;
  deps_.max_watchers = limits.max_watchers_per_game;
  reads_ =
      std::make_unique<Executor>(limits.read_threads, limits.max_queued_reads);
  deps_.reads = reads_.get();
  // Called under the game's lock: takes only the registry's.
  deps_.on_broken = [this](const std::string& game_id) { NoteBroken(game_id); };
  // Ended games leave memory a while after their end; the timer thread does
  // the eviction, which takes only the registry's lock.
  // An ended game also frees its bots' lobby capacity: after the end
  // listeners have queued it, so that a matchmaking pass woken by the
  // freed room already sees the end (a bot's fault counted, its probation
  // begun) before it offers that room again.
  deps_.on_finished = [this, keep_ended](const std::string& game_id) {
    for (const auto& listener : end_listeners_) listener(game_id);
    lobby_->GameEnded(game_id);
    StartTokenRetention(game_id);
    deps_.timer->Schedule(deps_.timer->Now() + keep_ended,
                          [this, game_id] { Evict(game_id); });
  };
  lobby_ = std::make_unique<Lobby>(
      recorder,
      Lobby::Hooks{[this](const std::shared_ptr<GameSession>& game, int seat,
                          Lobby::TokenCallback done) {
                     MintSeatToken(game, seat, std::move(done));
                   },
                   [this](const std::shared_ptr<GameSession>& game, int seat) {
                     RevokeSeatToken(game, seat);
                   }});
}

void Registry::Evict(const std::string& game_id) {
  absl::MutexLock lock(&mu_);
  games_.erase(game_id);
  // Its lobby tokens stay in tokens_ (like seat tokens), so that they are
  // told the game is over.
  for (auto it = lobby_tokens_.lower_bound({game_id, 0});
       it != lobby_tokens_.end() && it->first.first == game_id;) {
    it = lobby_tokens_.erase(it);
  }
}

void Registry::StartTokenRetention(const std::string& game_id) {
  const int64_t expires =
      UnixMicros() +
      std::chrono::duration_cast<std::chrono::microseconds>(token_retention_)
          .count();
  {
    absl::MutexLock lock(&mu_);
    auto start =
        [&](const std::string& hash) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
          auto it = hash.empty() ? tokens_.end() : tokens_.find(hash);
          // (A game read back from its record keeps its first expiry.)
          if (it != tokens_.end() && it->second.expires_us == 0) {
            it->second.expires_us = expires;
          }
        };
    if (auto game = games_.find(game_id); game != games_.end()) {
      for (const recorder::SeatInfo& s : game->second->header().seats) {
        if (s.account.empty()) start(s.token_hash);
      }
    }
    for (auto it = lobby_tokens_.lower_bound({game_id, 0});
         it != lobby_tokens_.end() && it->first.first == game_id; ++it) {
      start(it->second);
    }
  }
  deps_.timer->Schedule(
      deps_.timer->Now() + token_retention_ + std::chrono::milliseconds(1),
      [this] { ForgetExpiredTokens(); });
}

void Registry::ForgetExpiredTokens() {
  const int64_t now = UnixMicros();
  absl::MutexLock lock(&mu_);
  for (auto it = tokens_.begin(); it != tokens_.end();) {
    const TokenSeat& t = it->second;
    if (t.expires_us != 0 && t.expires_us <= now) {
      tokens_.erase(it++);
    } else {
      ++it;
    }
  }
}

absl::StatusOr<std::shared_ptr<GameSession>> Registry::Revive(
    const std::string& game_id) {
  absl::StatusOr<recorder::GameRecord> record = deps_.recorder->Load(game_id);
  if (!record.ok()) return record.status();
  // Ended: no clock starts; its end is published at once, which schedules
  // its eviction again.
  absl::StatusOr<std::shared_ptr<GameSession>> game =
      GameSession::Resume(deps_, *record);
  if (!game.ok()) return game.status();
  {
    absl::MutexLock lock(&mu_);
    // Another call may have brought it back first: one session per game.
    if (auto it = games_.find(game_id); it != games_.end()) return it->second;
  }
  Register(*game);
  return game;
}

void Registry::MintSeatToken(const std::shared_ptr<GameSession>& game, int seat,
                             Lobby::TokenCallback done) {
  const std::string& game_id = game->header().game_id;
  std::string token = NewToken();
  const std::string hash = HashToken(token);
  {
    absl::MutexLock lock(&mu_);
    std::string& current = lobby_tokens_[{game_id, seat}];
    if (!current.empty()) tokens_.erase(current);
    current = hash;
    tokens_[hash] = {game_id, seat, 0};
  }
  // Offered only once on disk, so that it survives a restart.
  deps_.recorder->SetSeatToken(
      game_id, seat, hash,
      [token = std::move(token), done = std::move(done)](absl::Status s) {
        if (s.ok()) {
          done(token);
        } else {
          done(s);
        }
      });
}

void Registry::RevokeSeatToken(const std::shared_ptr<GameSession>& game,
                               int seat) {
  const std::string& game_id = game->header().game_id;
  {
    absl::MutexLock lock(&mu_);
    auto it = lobby_tokens_.find({game_id, seat});
    if (it == lobby_tokens_.end() || it->second.empty()) return;
    // Kept, marked, so that its bot is told why (KEY_REVOKED, not
    // UNKNOWN_TOKEN), until the retention ends.
    if (auto t = tokens_.find(it->second); t != tokens_.end()) {
      t->second.revoked = true;
      t->second.expires_us =
          UnixMicros() + std::chrono::duration_cast<std::chrono::microseconds>(
                             token_retention_)
                             .count();
    }
    it->second.clear();
  }
  deps_.recorder->SetSeatToken(game_id, seat, "", nullptr);
  game->CloseSeat(seat,
                  Error(absl::StatusCode::kUnauthenticated, Reason::kKeyRevoked,
                        "this bot's key was revoked"));
}

void Registry::AddToLobby(const std::shared_ptr<GameSession>& game) {
  const recorder::GameHeader& h = game->header();
  for (size_t seat = 0; seat < h.seats.size(); ++seat) {
    if (!h.seats[seat].account.empty()) {
      lobby_->AddSeat(game, static_cast<int>(seat));
    }
  }
}

absl::Status Registry::ConnectLobby(
    const Credential& key, int capacity,
    std::shared_ptr<Lobby::LobbyChannel> channel, std::string* account,
    const LadderJoin& join) {
  if (!key) {
    return Error(absl::StatusCode::kUnauthenticated,
                 Reason::kMissingCredentials,
                 "the lobby needs your bot key as "
                 "'authorization: Bearer <key>' metadata");
  }
  const std::string hash = HashToken(*key);
  const absl::Status status =
      lobby_->Connect(hash, capacity, std::move(channel), account, join);
  if (!absl::IsUnauthenticated(status)) return status;
  if (ConstantTimeEquals(hash, admin_token_hash_)) {
    return Error(absl::StatusCode::kPermissionDenied, Reason::kWrongCredential,
                 "the admin token is not a bot key");
  }
  absl::MutexLock lock(&mu_);
  if (tokens_.contains(hash)) {
    return Error(absl::StatusCode::kPermissionDenied, Reason::kWrongCredential,
                 "a seat token is not a bot key");
  }
  return status;
}

void Registry::NoteBroken(const std::string& game_id) {
  absl::MutexLock lock(&mu_);
  broken_.insert(game_id);
  if (recovery_scheduled_) return;
  recovery_scheduled_ = true;
  deps_.timer->Schedule(deps_.timer->Now() + limits_.recover_interval,
                        [this] { RecoverBroken(); });
}

void Registry::RecoverBroken() {
  if (reads_->Post([this] { RecoverBrokenNow(); })) return;
  // (The executor is full or stopping: try again later.)
  deps_.timer->Schedule(deps_.timer->Now() + limits_.recover_interval,
                        [this] { RecoverBroken(); });
}

void Registry::RecoverBrokenNow() {
  std::vector<std::string> ids;
  {
    absl::MutexLock lock(&mu_);
    recovery_scheduled_ = false;
    ids.assign(broken_.begin(), broken_.end());
  }
  std::vector<std::string> left;
  if (deps_.recorder->health().writable) {
    for (const std::string& id : ids) {
      std::shared_ptr<GameSession> game = Find(id);
      if (!game) continue;  // evicted meanwhile
      absl::StatusOr<recorder::GameRecord> record = deps_.recorder->Load(id);
      absl::Status s = record.ok() ? game->Recover(*record) : record.status();
      if (!s.ok()) {
        left.push_back(id);
      } else {
        std::fprintf(stderr,
                     "cassino-referee: game %s resumed after a "
                     "failed write\n",
                     id.c_str());
      }
    }
  } else {
    left = std::move(ids);
  }
  absl::MutexLock lock(&mu_);
  for (const std::string& id : ids) {
    if (std::find(left.begin(), left.end(), id) == left.end()) {
      broken_.erase(id);
    }
  }
  if (broken_.empty() || recovery_scheduled_) return;
  recovery_scheduled_ = true;
  deps_.timer->Schedule(deps_.timer->Now() + limits_.recover_interval,
                        [this] { RecoverBroken(); });
}

void Registry::Stop() {
  std::vector<std::shared_ptr<GameSession>> games;
  {
    absl::MutexLock lock(&mu_);
    games.reserve(games_.size());
    for (const auto& [id, game] : games_) games.push_back(game);
  }
  const absl::Status stopping =
      Error(absl::StatusCode::kUnavailable, Reason::kShuttingDown,
            "the referee is shutting down; reconnect to the referee that "
            "resumes the game");
  for (const auto& game : games) game->Stop(stopping);
  reads_->Stop();
}

bool Registry::AdmitWatcher() {
  if (watchers_.fetch_add(1) >= limits_.max_watchers) {
    watchers_.fetch_sub(1);
    return false;
  }
  return true;
}

void Registry::ReleaseWatcher() { watchers_.fetch_sub(1); }

absl::StatusOr<Registry::Resumed> Registry::ResumeAll() {
  if (absl::Status s = lobby_->Load(); !s.ok()) return s;
  // The seat tokens of games ended within the retention keep working.
  const int64_t retention_us =
      std::chrono::duration_cast<std::chrono::microseconds>(token_retention_)
          .count();
  absl::StatusOr<std::vector<recorder::Recorder::SeatTokenRow>> ended =
      deps_.recorder->EndedSeatTokens(UnixMicros() - retention_us);
  if (!ended.ok()) return ended.status();
  {
    absl::MutexLock lock(&mu_);
    for (const recorder::Recorder::SeatTokenRow& t : *ended) {
      tokens_[t.token_hash] = {t.game_id, t.seat, t.finished_us + retention_us};
    }
  }
  if (!ended->empty()) {
    deps_.timer->Schedule(deps_.timer->Now() + token_retention_,
                          [this] { ForgetExpiredTokens(); });
  }
  absl::StatusOr<std::vector<std::string>> ids = deps_.recorder->Unfinished();
  if (!ids.ok()) return ids.status();
  Resumed resumed;
  for (const std::string& id : *ids) {
    absl::StatusOr<recorder::GameRecord> record = deps_.recorder->Load(id);
    absl::StatusOr<std::shared_ptr<GameSession>> game =
        record.ok()
            ? GameSession::Resume(deps_, *record)
            : absl::StatusOr<std::shared_ptr<GameSession>>(record.status());
    if (!game.ok()) {
      resumed.damaged.push_back(
          absl::StrCat("game ", id, ": ", game.status().message()));
      continue;
    }
    Register(*game);
    AddToLobby(*game);
    // A game that ended (on time) before it joined the queues leaves them.
    if ((*game)->over()) lobby_->GameEnded(id);
    ++resumed.games;
  }
  return resumed;
}

void Registry::Register(const std::shared_ptr<GameSession>& game) {
  absl::MutexLock lock(&mu_);
  const recorder::GameHeader& h = game->header();
  games_[h.game_id] = game;
  for (size_t seat = 0; seat < h.seats.size(); ++seat) {
    const recorder::SeatInfo& s = h.seats[seat];
    if (!s.account.empty())
      lobby_tokens_[{h.game_id, static_cast<int>(seat)}] = s.token_hash;
    // (An account seat not yet offered has no token.)
    if (s.token_hash.empty()) continue;
    TokenSeat& t = tokens_[s.token_hash];  // (keeps an expiry already set)
    t.game_id = h.game_id;
    t.seat = static_cast<int>(seat);
  }
}

absl::Status Registry::AuthorizeAdmin(const Credential& token) const {
  if (!token) {
    return Error(absl::StatusCode::kUnauthenticated,
                 Reason::kMissingCredentials,
                 "this call needs the admin token as "
                 "'authorization: Bearer <token>' metadata");
  }
  const std::string hash = HashToken(*token);
  if (ConstantTimeEquals(hash, admin_token_hash_)) return absl::OkStatus();
  // (The lobby first: its lock is never taken under the registry's.)
  if (lobby_->IsKey(hash)) {
    return Error(absl::StatusCode::kPermissionDenied, Reason::kWrongCredential,
                 "a bot key may not make organiser calls");
  }
  absl::MutexLock lock(&mu_);
  if (tokens_.contains(hash)) {
    return Error(absl::StatusCode::kPermissionDenied, Reason::kWrongCredential,
                 "a seat token may not make organiser calls");
  }
  return Error(absl::StatusCode::kUnauthenticated, Reason::kUnknownToken,
               "unknown token");
}

absl::Status Registry::AuthorizeSeat(const Credential& token,
                                     const std::string& game_id,
                                     SeatAccess* access) {
  if (!token) {
    return Error(absl::StatusCode::kUnauthenticated,
                 Reason::kMissingCredentials,
                 "this call needs your seat token as "
                 "'authorization: Bearer <token>' metadata");
  }
  // Looking the token up by its hash takes the same time whatever the token
  // shares with a real one.
  const std::string hash = HashToken(*token);
  std::string ended_game;  // the token's game, ended and out of memory
  int ended_seat = 0;
  {
    absl::MutexLock lock(&mu_);
    auto it = tokens_.find(hash);
    if (it != tokens_.end()) {
      if (it->second.expires_us != 0 && it->second.expires_us <= UnixMicros()) {
        const std::string expired_game = it->second.game_id;
        tokens_.erase(it);
        return Error(
            absl::StatusCode::kUnauthenticated, Reason::kTokenExpired,
            absl::StrCat("this seat token expired: game ", expired_game,
                         " ended more than ", RetentionText(token_retention_),
                         " ago (the organiser's GetGame has its result)"));
      }
      if (it->second.revoked) {
        return Error(absl::StatusCode::kUnauthenticated, Reason::kKeyRevoked,
                     "this lobby seat token was revoked with its bot's "
                     "key");
      }
      absl::Status s = SeatAccessLocked(it->second, game_id, access);
      if (!s.ok() || access->game != nullptr) return s;
      ended_game = it->second.game_id;
      ended_seat = it->second.seat;
    }
  }
  if (!ended_game.empty()) {
    // Ended and evicted, or ended before a restart: back from the record.
    absl::StatusOr<std::shared_ptr<GameSession>> revived = Revive(ended_game);
    if (!revived.ok()) {
      return Error(absl::StatusCode::kUnavailable, Reason::kRecordUnavailable,
                   absl::StrCat("game ", ended_game,
                                " has ended but its record cannot be "
                                "read: ",
                                revived.status().message()));
    }
    access->game = *std::move(revived);
    access->seat = ended_seat;
    return absl::OkStatus();
  }
  // Unknown: say why. (The lobby's lock is never taken under the
  // registry's.)
  if (ConstantTimeEquals(hash, admin_token_hash_)) {
    return Error(absl::StatusCode::kPermissionDenied, Reason::kWrongCredential,
                 "the admin token plays no seat");
  }
  if (lobby_->IsKey(hash)) {
    return Error(absl::StatusCode::kPermissionDenied, Reason::kWrongCredential,
                 "a bot key plays no seat directly: open the Lobby "
                 "and use the seat token it offers");
  }
  return Error(
      absl::StatusCode::kUnauthenticated, Reason::kUnknownToken,
      absl::StrCat("unknown token (a lobby seat token stops working when "
                   "the lobby offers the seat again; a seat token expires ",
                   RetentionText(token_retention_), " after its game ends)"));
}

absl::Status Registry::SeatAccessLocked(const TokenSeat& token_seat,
                                        const std::string& game_id,
                                        SeatAccess* access) const {
  access->game = nullptr;
  if (!game_id.empty() && game_id != token_seat.game_id) {
    // Whether `game_id` exists or not: a seat token says nothing of other
    // games.
    return Error(absl::StatusCode::kPermissionDenied,
                 Reason::kTokenForOtherGame,
                 absl::StrCat("this seat token is for game ",
                              token_seat.game_id, ", not ", Quote(game_id)),
                 {{"token_game_id", token_seat.game_id}});
  }
  auto game = games_.find(token_seat.game_id);
  if (game != games_.end()) {
    access->game = game->second;
    access->seat = token_seat.seat;
  }
  return absl::OkStatus();
}

std::string RetentionText(std::chrono::milliseconds retention) {
  const int64_t ms = retention.count();
  if (ms % 3600000 == 0) return absl::StrCat(ms / 3600000, " h");
  if (ms % 1000 == 0) return absl::StrCat(ms / 1000, " s");
  return absl::StrCat(ms, " ms");
}

std::string NewGameId() { return ToHex(RandomBytes32()).substr(0, 20); }

void Registry::CreateGame(const GameSpec& spec, CreateCallback done,
                          const CreateOptions& options) {
  auto fail = [&](absl::Status s) { done(std::move(s)); };

  const int seats = static_cast<int>(spec.seats.size());
  if (seats < 2 || seats > kMaxSeats) {
    return fail(
        InvalidField("seats", absl::StrCat("a game has 2 to ", kMaxSeats,
                                           " seats; the request has ", seats)));
  }
  absl::StatusOr<RuleSet> rules = GameRules(spec.rules, seats);
  if (!rules.ok()) {
    return fail(BadField(rules.status(), "rules", rules.status().message()));
  }
  absl::StatusOr<recorder::TimeControl> clock = ClockOf(spec.clock, "clock");
  if (!clock.ok()) return fail(clock.status());
  if (absl::Status s =
          recorder::CheckDisplayText(spec.label, "label", kMaxLabelLength);
      !s.ok()) {
    return fail(InvalidField("label", s.message()));
  }
  if (!options.scheduled) {
    for (const auto& guard : label_guards_) {
      if (absl::Status s = guard(spec.label); !s.ok()) return fail(s);
    }
  }

  recorder::GameHeader header;
  header.rules = rules->ToString();
  header.clock = *clock;
  header.label = spec.label;
  header.created_us = UnixMicros();
  header.game_id = options.game_id.empty() ? NewGameId() : options.game_id;

  DeckSource decks;
  if (!spec.decks.empty()) {
    if (!spec.seed.empty()) {
      return fail(
          InvalidField("seed", "give a seed or explicit decks, not both"));
    }
    const int deck_count = static_cast<int>(spec.decks.size());
    if (deck_count > kMaxDecks) {
      return fail(
          InvalidField("decks", absl::StrCat("at most ", kMaxDecks, " decks; ",
                                             deck_count, " given")));
    }
    std::vector<Deck> parsed;
    for (int i = 0; i < deck_count; ++i) {
      absl::StatusOr<Deck> deck = ParseDeck(spec.decks[i], rules->Pack());
      if (!deck.ok()) {
        return fail(InvalidField(
            absl::StrCat("decks[", i, "]"),
            absl::StrCat("decks[", i, "]: ", deck.status().message())));
      }
      parsed.push_back(*deck);
      header.explicit_decks.push_back(DeckToString(*deck));
    }
    decks = DeckSource::Explicit(std::move(parsed));
  } else {
    Seed seed;
    if (spec.seed.empty()) {
      seed = RandomBytes32();
    } else {
      absl::StatusOr<Seed> parsed = ParseSeed(spec.seed);
      if (!parsed.ok()) {
        return fail(InvalidField(
            "seed", absl::StrCat("seed: ", parsed.status().message())));
      }
      seed = *parsed;
    }
    header.seed = ToHex(seed);
    header.commitment = ToHex(SeedCommitment(seed));
    decks = DeckSource::FromSeed(seed);
  }

  CreatedGame created;
  created.game_id = header.game_id;
  created.seed_commitment = header.commitment;
  created.rules = header.rules;
  created.clock = header.clock;
  bool has_accounts = false;
  for (int seat = 0; seat < seats; ++seat) {
    const std::string& account = spec.seats[seat].account;
    if (!account.empty()) {
      absl::Status s = lobby_->CheckSeatable(account);
      // (A scheduled game may seat a revoked account: it forfeits at once.)
      if (options.scheduled && absl::IsFailedPrecondition(s)) {
        s = absl::OkStatus();
      }
      if (!s.ok()) {
        return fail(Prefixed(s, absl::StrCat("seats[", seat, "].account: ")));
      }
      has_accounts = true;
    }
    const std::string& name =
        spec.seats[seat].bot_name.empty() ? account : spec.seats[seat].bot_name;
    const std::string field = absl::StrCat("seats[", seat, "].bot_name");
    if (name.empty()) {
      return fail(
          InvalidField(field, absl::StrCat(field, " must be 1 to ",
                                           kMaxNameLength, " characters")));
    }
    if (absl::Status s =
            recorder::CheckDisplayText(name, field, kMaxNameLength);
        !s.ok()) {
      return fail(InvalidField(field, s.message()));
    }
    SeatGrant grant;
    grant.seat = seat;
    grant.bot_name = name;
    grant.account = account;
    if (account.empty()) {
      grant.token = NewToken();
      header.seats.push_back(
          {name, HashToken(grant.token), "", spec.seats[seat].human});
    } else {
      // No token: the lobby mints one when it offers the seat.
      header.seats.push_back({name, "", account, spec.seats[seat].human});
    }
    created.seats.push_back(std::move(grant));
  }

  absl::StatusOr<Game> game = Game::Create(*rules, std::move(decks));
  if (!game.ok()) return fail(InvalidField("decks", game.status().message()));

  // Registered only once on disk, so no token works before the game exists.
  GameSession::Create(
      deps_, std::move(header), std::move(*game),
      [this, created = std::move(created), has_accounts,
       done = std::move(done)](absl::Status status,
                               std::shared_ptr<GameSession> session) {
        if (!status.ok()) {
          seed_holds_.Release(session->header().seed,
                              session->header().game_id);
        }
        if (absl::IsFailedPrecondition(status)) {
          // The recorder's own check of the request (a tournament's label),
          // made where concurrent calls are ordered.
          done(status);
          return;
        }
        if (!status.ok()) {
          done(Error(absl::StatusCode::kUnavailable, Reason::kRecordUnavailable,
                     absl::StrCat("the game could not be recorded: ",
                                  status.message())));
          return;
        }
        Register(session);
        // Under the session's lock, so before the game can end.
        if (has_accounts) AddToLobby(session);
        done(created);
      });
}

std::shared_ptr<GameSession> Registry::Find(const std::string& game_id) const {
  absl::MutexLock lock(&mu_);
  auto it = games_.find(game_id);
  return it == games_.end() ? nullptr : it->second;
}

absl::StatusOr<GameInfo> Registry::GetGame(const std::string& game_id) const {
  if (std::shared_ptr<GameSession> game = Find(game_id)) return game->Info();
  absl::StatusOr<recorder::GameRecord> record = deps_.recorder->Load(game_id);
  if (!record.ok()) {
    if (absl::IsNotFound(record.status())) return NoGame(game_id);
    return record.status();
  }
  recorder::ListFilter filter;
  filter.game_id = game_id;
  absl::StatusOr<std::vector<recorder::GameSummary>> list =
      deps_.recorder->List(filter);
  if (!list.ok()) return list.status();
  for (const recorder::GameSummary& s : *list) {
    if (s.game_id == game_id) {
      GameInfo info = SummaryToInfo(s);
      info.seed_commitment = record->header.commitment;
      // Secret for an aborted game, and while another game dealt from it
      // is unfinished (a duplicate twin).
      if (s.status == recorder::GameStatus::kFinished &&
          !seed_holds_.HeldByOthers(record->header.seed, game_id)) {
        info.seed = record->header.seed;
      }
      return info;
    }
  }
  return NoGame(game_id);
}

absl::StatusOr<GamePage> Registry::ListGames(const GameQuery& query) const {
  recorder::ListFilter filter;
  // Out of range is refused, not defaulted (issue #14, Low 10).
  absl::StatusOr<int> page_size = PageSize(query.page_size);
  if (!page_size.ok()) return page_size.status();
  filter.status = query.status;
  filter.label = query.label;
  filter.newest_first = true;
  // The page token is bound to the filters; its key is the last game of
  // the previous page, (created_us, game_id), newest first.
  const std::vector<std::string> bound = {
      absl::StrCat(StatusNumber(query.status)), query.label};
  if (!query.page_token.empty()) {
    absl::StatusOr<std::vector<std::string>> key =
        PageKey(query.page_token, "games", bound, 2);
    if (!key.ok()) return key.status();
    if (!absl::SimpleAtoi((*key)[0], &filter.before_created_us) ||
        (*key)[1].empty()) {
      return InvalidField("page_token",
                          "page_token: not a page token of games");
    }
    filter.before_game_id = (*key)[1];
  }
  // One more than a page tells whether another page follows.
  filter.limit = *page_size + 1;
  absl::StatusOr<std::vector<recorder::GameSummary>> list =
      deps_.recorder->List(filter);
  if (!list.ok()) return list.status();
  GamePage page;
  if (list->size() > static_cast<size_t>(*page_size)) {
    list->resize(*page_size);
    const recorder::GameSummary& last = list->back();
    page.next_page_token = PageToken(
        "games", bound, {absl::StrCat(last.created_us), last.game_id});
  }
  page.games.reserve(list->size());
  for (const recorder::GameSummary& s : *list) {
    if (std::shared_ptr<GameSession> game = Find(s.game_id)) {
      page.games.push_back(game->Info());
    } else {
      page.games.push_back(SummaryToInfo(s));
    }
  }
  return page;
}

}  // namespace cassino::service
