#include "referee/lobby.h"

#include <algorithm>
#include <chrono>
#include <tuple>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "recorder/display_text.h"
#include "referee/auth.h"
#include "referee/errors.h"
#include "referee/page_token.h"
#include "referee/wall_clock.h"

namespace cassino::service {
namespace {

constexpr size_t kMaxOwner = 128;
constexpr size_t kMaxContact = 256;
constexpr int kMaxCapacity = 64;

absl::Status NoAccount(const std::string& name) {
  return Error(absl::StatusCode::kNotFound, Reason::kBotNotFound,
               absl::StrCat("no bot account ", Quote(name)));
}

absl::Status Unrecorded(const absl::Status& s) {
  return Error(
      absl::StatusCode::kUnavailable, Reason::kRecordUnavailable,
      absl::StrCat("the bot account could not be recorded: ", s.message()));
}

}  // namespace

bool ValidAccountName(const std::string& name) {
  if (name.empty() || name.size() > kMaxAccountName) return false;
  return std::all_of(name.begin(), name.end(), [](char c) {
    return absl::ascii_isalnum(static_cast<unsigned char>(c)) || c == '-' ||
           c == '_' || c == '.';
  });
}

absl::Status CheckName(const std::string& name, absl::string_view field) {
  if (ValidAccountName(name)) return absl::OkStatus();
  return InvalidField(
      field, absl::StrCat(field, " must be 1 to ", kMaxAccountName,
                          " characters, each a letter, a digit, '-', '_' or "
                          "'.'"));
}

Lobby::Lobby(recorder::Recorder* recorder, Hooks hooks)
    : recorder_(recorder),
      hooks_(std::move(hooks)),
      started_us_(UnixMicros()) {}

void Lobby::Changed() const {
  for (const auto& listener : listeners_) listener();
}

Lobby::Presence Lobby::PresenceOf(const std::string& name) const {
  absl::MutexLock lock(&mu_);
  Presence p;
  p.absent_since_us = started_us_;
  auto it = accounts_.find(name);
  if (it == accounts_.end() || it->second.row.key_us == 0) return p;
  const Account& a = it->second;
  p.seatable = a.row.revoked_us == 0;
  p.connected = a.channel != nullptr;
  if (p.connected) {
    p.free_slots = a.capacity - static_cast<int>(a.queue.size());
  }
  p.absent_since_us = std::max(started_us_, a.absent_since_us);
  if (p.connected) {
    p.connected_us = a.connected_us;
    p.ladder = a.ladder;
  }
  return p;
}

std::vector<std::pair<std::string, Lobby::Presence>> Lobby::LadderMembers(
    const std::string& ladder) const {
  std::vector<std::pair<std::string, Presence>> out;
  absl::MutexLock lock(&mu_);
  for (const auto& [name, a] : accounts_) {
    if (a.channel == nullptr || a.ladder.ladder != ladder) continue;
    Presence p;
    p.seatable = a.row.revoked_us == 0;
    p.connected = true;
    p.free_slots = a.capacity - static_cast<int>(a.queue.size());
    p.absent_since_us = std::max(started_us_, a.absent_since_us);
    p.connected_us = a.connected_us;
    p.ladder = a.ladder;
    out.emplace_back(name, std::move(p));
  }
  return out;
}

void Lobby::Notify(const std::string& account, const LadderNotice& notice) {
  absl::MutexLock lock(&mu_);
  auto it = accounts_.find(account);
  if (it == accounts_.end()) return;
  Account& a = it->second;
  if (a.channel == nullptr || a.ladder.ladder != notice.ladder) return;
  a.channel->Send(LobbyEvent(notice));
  a.channel->Flush();
}

absl::Status Lobby::Load() {
  absl::StatusOr<std::vector<recorder::BotAccountRow>> rows =
      recorder_->Accounts();
  if (!rows.ok()) return rows.status();
  absl::MutexLock lock(&mu_);
  for (recorder::BotAccountRow& row : *rows) {
    if (!row.key_hash.empty()) by_key_[row.key_hash] = row.name;
    const std::string name = row.name;
    accounts_[name].row = std::move(row);
  }
  return absl::OkStatus();
}

// ---------------------------------------------------------------------------
// Organiser calls.

void Lobby::Register(const BotRegistration& registration, AccountReply reply) {
  auto invalid = [&](absl::string_view field, absl::string_view message) {
    reply(InvalidField(field, message));
  };
  if (!ValidAccountName(registration.name)) {
    return invalid(
        "name",
        absl::StrCat("name must be 1 to ", kMaxAccountName,
                     " characters, each a letter, a digit, '-', '_' or '.'"));
  }
  for (const auto& [field, text, max] :
       {std::tuple{"owner", &registration.owner, kMaxOwner},
        std::tuple{"contact", &registration.contact, kMaxContact}}) {
    if (absl::Status s = recorder::CheckDisplayText(*text, field, max);
        !s.ok()) {
      return invalid(field, s.message());
    }
  }
  const std::string key = NewToken();
  recorder::BotAccountRow row;
  row.name = registration.name;
  row.owner = registration.owner;
  row.contact = registration.contact;
  row.key_hash = HashToken(key);
  row.created_us = UnixMicros();
  row.key_us = row.created_us;
  {
    absl::MutexLock lock(&mu_);
    auto [it, inserted] = accounts_.try_emplace(row.name);
    if (!inserted) {
      reply(Error(absl::StatusCode::kAlreadyExists, Reason::kBotExists,
                  absl::StrCat("bot account '", row.name, "' already exists")));
      return;
    }
    // A placeholder until the insert commits: not seatable, no key.
    it->second.row.name = row.name;
    it->second.row.revoked_us = row.created_us;
    it->second.changing = true;
  }
  recorder_->InsertAccount(row, [this, row, key,
                                 reply = std::move(reply)](absl::Status s) {
    AccountChange out;
    {
      absl::MutexLock lock(&mu_);
      if (!s.ok()) {
        accounts_.erase(row.name);
      } else {
        Account& a = accounts_[row.name];
        a.row = row;
        a.changing = false;
        by_key_[row.key_hash] = row.name;
        out.account = View(a);
      }
    }
    if (!s.ok()) {
      reply(absl::IsAlreadyExists(s) ? Error(absl::StatusCode::kAlreadyExists,
                                             Reason::kBotExists, s.message())
                                     : Unrecorded(s));
      return;
    }
    out.key = key;
    reply(std::move(out));
  });
}

absl::Status Lobby::BeginChange(const std::string& name,
                                recorder::BotAccountRow* row) {
  auto it = accounts_.find(name);
  if (it == accounts_.end() || it->second.row.key_us == 0) {
    return NoAccount(name);
  }
  if (it->second.changing) {
    return Error(absl::StatusCode::kAborted, Reason::kConcurrentChange,
                 absl::StrCat("another change to bot account ", Quote(name),
                              " is being recorded; try again"));
  }
  it->second.changing = true;
  *row = it->second.row;
  return absl::OkStatus();
}

void Lobby::Rotate(const std::string& name, AccountReply reply) {
  const std::string key = NewToken();
  recorder::BotAccountRow row;
  {
    absl::MutexLock lock(&mu_);
    if (absl::Status s = BeginChange(name, &row); !s.ok()) {
      reply(s);
      return;
    }
  }
  row.key_hash = HashToken(key);
  row.key_us = UnixMicros();
  row.revoked_us = 0;
  Commit(std::move(row), /*revoke=*/false, key, std::move(reply));
}

void Lobby::Revoke(const std::string& name, AccountReply reply) {
  recorder::BotAccountRow row;
  {
    absl::MutexLock lock(&mu_);
    if (absl::Status s = BeginChange(name, &row); !s.ok()) {
      reply(s);
      return;
    }
  }
  row.key_hash.clear();
  if (row.revoked_us == 0) row.revoked_us = UnixMicros();
  Commit(std::move(row), /*revoke=*/true, "", std::move(reply));
}

void Lobby::Commit(recorder::BotAccountRow row, bool revoke, std::string key,
                   AccountReply reply) {
  recorder_->UpdateAccount(
      row, [this, row, revoke, key, reply = std::move(reply)](absl::Status s) {
        AccountChange out;
        std::shared_ptr<LobbyChannel> closed;
        std::vector<QueuedSeat> revoked;
        {
          absl::MutexLock lock(&mu_);
          Account& a = accounts_[row.name];
          a.changing = false;
          if (s.ok()) {
            // The old key stops working now, and so does its stream.
            if (!a.row.key_hash.empty()) by_key_.erase(a.row.key_hash);
            a.row = row;
            if (!row.key_hash.empty()) by_key_[row.key_hash] = row.name;
            closed = std::move(a.channel);
            a.channel = nullptr;
            a.capacity = 0;
            a.offered.clear();
            if (closed) a.absent_since_us = UnixMicros();
            if (revoke) revoked = a.queue;
            out.account = View(a);
            Changed();
          }
        }
        // (Outside the lobby's lock: this takes the games' locks.)
        for (const QueuedSeat& q : revoked) hooks_.revoke_seat(q.game, q.seat);
        if (closed) {
          closed->Close(Error(
              absl::StatusCode::kUnauthenticated, Reason::kKeyRevoked,
              revoke ? "this bot's key was revoked"
                     : "this bot's key was rotated; connect with the new key"));
        }
        if (!s.ok()) {
          reply(Unrecorded(s));
          return;
        }
        out.key = key;
        reply(std::move(out));
      });
}

absl::StatusOr<BotAccount> Lobby::Get(const std::string& name) const {
  absl::MutexLock lock(&mu_);
  auto it = accounts_.find(name);
  // (key_us is 0 only while the account is being registered.)
  if (it == accounts_.end() || it->second.row.key_us == 0) {
    return NoAccount(name);
  }
  return View(it->second);
}

absl::StatusOr<BotPage> Lobby::List(const BotQuery& query) const {
  absl::StatusOr<int> page_size = PageSize(query.page_size);
  if (!page_size.ok()) return page_size.status();
  // The token's key is the last name of the previous page.
  std::string after;
  if (!query.page_token.empty()) {
    absl::StatusOr<std::vector<std::string>> key =
        PageKey(query.page_token, "bots", {}, 1);
    if (!key.ok()) return key.status();
    after = (*key)[0];
  }
  BotPage page;
  absl::MutexLock lock(&mu_);
  auto it = query.page_token.empty() ? accounts_.begin()
                                     : accounts_.upper_bound(after);
  for (; it != accounts_.end(); ++it) {
    const Account& account = it->second;
    if (account.row.key_us == 0) continue;  // being registered
    if (static_cast<int>(page.bots.size()) == *page_size) {
      page.next_page_token = PageToken("bots", {}, {page.bots.back().name});
      break;
    }
    page.bots.push_back(View(account));
  }
  return page;
}

BotAccount Lobby::View(const Account& a) const {
  BotAccount out;
  out.name = a.row.name;
  out.owner = a.row.owner;
  out.contact = a.row.contact;
  out.created_us = a.row.created_us;
  out.key_issued_us = a.row.key_us;
  out.revoked = a.row.revoked_us != 0;
  out.revoked_us = a.row.revoked_us;
  out.connected = a.channel != nullptr;
  out.capacity = a.channel != nullptr ? a.capacity : 0;
  out.unfinished_seats = static_cast<int>(a.queue.size());
  if (a.channel != nullptr) out.ladder = a.ladder;
  return out;
}

// ---------------------------------------------------------------------------
// Seating.

absl::Status Lobby::CheckSeatable(const std::string& account) const {
  absl::MutexLock lock(&mu_);
  auto it = accounts_.find(account);
  if (it == accounts_.end() || it->second.row.key_us == 0) {
    return Error(absl::StatusCode::kNotFound, Reason::kBotNotFound,
                 absl::StrCat("no bot account ", Quote(account)));
  }
  if (it->second.row.revoked_us != 0) {
    return Error(absl::StatusCode::kFailedPrecondition, Reason::kBotRevoked,
                 absl::StrCat("bot account '", account, "' is revoked"));
  }
  return absl::OkStatus();
}

void Lobby::AddSeat(const std::shared_ptr<GameSession>& game, int seat) {
  const recorder::SeatInfo& info = game->header().seats[seat];
  absl::MutexLock lock(&mu_);
  auto it = accounts_.find(info.account);
  // (An account is never deleted, and a seat names only a recorded one.)
  if (it == accounts_.end()) return;
  Account& a = it->second;
  const std::string& id = game->header().game_id;
  for (const QueuedSeat& q : a.queue) {
    if (q.game->header().game_id == id && q.seat == seat) return;
  }
  // A seat whose token was offered before a restart is a re-offer.
  a.queue.push_back({game, seat, !info.token_hash.empty()});
  // Creation order, so that older games are offered first.
  std::stable_sort(a.queue.begin(), a.queue.end(),
                   [](const QueuedSeat& x, const QueuedSeat& y) {
                     return x.game->header().created_us <
                            y.game->header().created_us;
                   });
  OfferMore(a);
}

void Lobby::GameEnded(const std::string& game_id) {
  absl::MutexLock lock(&mu_);
  for (auto& [name, a] : accounts_) {
    auto gone = [&](const auto& id) { return id == game_id; };
    const size_t before = a.queue.size();
    std::erase_if(a.queue, [&](const QueuedSeat& q) {
      return gone(q.game->header().game_id);
    });
    if (a.queue.size() == before) continue;
    std::erase_if(a.offered, [&](const auto& o) { return gone(o.first); });
    OfferMore(a);
  }
  Changed();
}

// ---------------------------------------------------------------------------
// Streams.

bool Lobby::IsKey(const std::string& key_hash) const {
  absl::MutexLock lock(&mu_);
  return by_key_.contains(key_hash);
}

absl::Status Lobby::Connect(const std::string& key_hash, int capacity,
                            std::shared_ptr<LobbyChannel> channel,
                            std::string* account, const LadderJoin& join) {
  if (capacity < 0 || capacity > kMaxCapacity) {
    return InvalidField("capacity",
                        absl::StrCat("capacity must be 1 to ", kMaxCapacity,
                                     " (0 means 1); ", capacity, " given"));
  }
  if (capacity == 0) capacity = 1;
  auto unknown = [] {
    return Error(absl::StatusCode::kUnauthenticated, Reason::kUnknownToken,
                 "unknown, rotated or revoked bot key");
  };
  // Ladder mode: the ladders say whether the account may join (outside the
  // lobby's lock: they take their own first).
  std::optional<LadderNotice> notice;
  if (!join.ladder.empty() || !join.version.empty()) {
    if (join.ladder.empty()) {
      return InvalidField("ladder", "a version is given without a ladder");
    }
    std::string name;
    {
      absl::MutexLock lock(&mu_);
      auto key = by_key_.find(key_hash);
      if (key == by_key_.end()) return unknown();
      name = key->second;
    }
    if (!join_check_) {
      return Error(absl::StatusCode::kNotFound, Reason::kLadderNotFound,
                   absl::StrCat("no ladder ", Quote(join.ladder)));
    }
    absl::StatusOr<LadderNotice> checked = join_check_(name, join);
    if (!checked.ok()) return checked.status();
    notice = *std::move(checked);
  }
  std::shared_ptr<LobbyChannel> replaced;
  {
    absl::MutexLock lock(&mu_);
    auto key = by_key_.find(key_hash);
    if (key == by_key_.end()) return unknown();
    Account& a = accounts_[key->second];
    *account = a.row.name;
    replaced = std::move(a.channel);
    a.channel = channel;
    ++a.connection;
    a.capacity = capacity;
    a.connected_us = UnixMicros();
    a.ladder = join;
    // Everything is offered afresh on a new connection.
    for (const auto& [id, seat] : a.offered) {
      for (QueuedSeat& q : a.queue) {
        if (q.game->header().game_id == id && q.seat == seat) {
          q.offered_before = true;
        }
      }
    }
    a.offered.clear();
    channel->Send(LobbyEvent(
        LobbyWelcome{a.row.name, capacity, static_cast<int>(a.queue.size())}));
    if (notice.has_value()) channel->Send(LobbyEvent(*std::move(notice)));
    channel->Flush();
    OfferMore(a);
    Changed();
  }
  if (replaced) {
    replaced->Close(Error(absl::StatusCode::kAborted, Reason::kStreamReplaced,
                          "replaced by a newer lobby connection"));
  }
  return absl::OkStatus();
}

void Lobby::Disconnect(const std::string& account,
                       const LobbyChannel* channel) {
  absl::MutexLock lock(&mu_);
  auto it = accounts_.find(account);
  if (it == accounts_.end() || it->second.channel.get() != channel) return;
  DropConnection(it->second);
}

void Lobby::DropConnection(Account& a) {
  for (const auto& [id, seat] : a.offered) {
    for (QueuedSeat& q : a.queue) {
      if (q.game->header().game_id == id && q.seat == seat) {
        q.offered_before = true;
      }
    }
  }
  a.channel = nullptr;
  a.capacity = 0;
  a.offered.clear();
  a.absent_since_us = UnixMicros();
  a.ladder = LadderJoin();
  Changed();
}

void Lobby::CloseAll(const absl::Status& status) {
  std::vector<std::shared_ptr<LobbyChannel>> open;
  {
    absl::MutexLock lock(&mu_);
    for (auto& [name, a] : accounts_) {
      if (!a.channel) continue;
      open.push_back(a.channel);
      DropConnection(a);
    }
  }
  for (const auto& channel : open) channel->Close(status);
}

void Lobby::OfferMore(Account& a) {
  if (!a.channel) return;
  for (QueuedSeat& q : a.queue) {
    if (static_cast<int>(a.offered.size()) >= a.capacity) return;
    const std::pair<std::string, int> key{q.game->header().game_id, q.seat};
    if (std::find(a.offered.begin(), a.offered.end(), key) != a.offered.end()) {
      continue;
    }
    a.offered.push_back(key);
    const bool reoffer = q.offered_before;
    q.offered_before = true;
    hooks_.mint(
        q.game, q.seat,
        [this, name = a.row.name, connection = a.connection, game = q.game,
         seat = q.seat, reoffer](absl::StatusOr<std::string> token) {
          Deliver(name, connection, game, seat, reoffer, std::move(token));
        });
  }
}

void Lobby::Deliver(const std::string& name, uint64_t connection,
                    const std::shared_ptr<GameSession>& game, int seat,
                    bool reoffer, absl::StatusOr<std::string> token) {
  absl::MutexLock lock(&mu_);
  auto it = accounts_.find(name);
  if (it == accounts_.end()) return;
  Account& a = it->second;
  if (!a.channel || a.connection != connection) return;  // offered afresh
  const std::pair<std::string, int> key{game->header().game_id, seat};
  if (std::find(a.offered.begin(), a.offered.end(), key) == a.offered.end()) {
    return;  // the game ended meanwhile
  }
  if (!token.ok()) {
    // The seat cannot be offered (the record is failing): end the stream so
    // that the bot reconnects and is offered it again.
    a.channel->Close(Error(absl::StatusCode::kUnavailable,
                           Reason::kRecordUnavailable,
                           absl::StrCat("a seat token could not be recorded: ",
                                        token.status().message())));
    a.channel = nullptr;
    a.offered.clear();
    a.absent_since_us = UnixMicros();
    Changed();
    return;
  }
  a.channel->Send(LobbyEvent(
      SeatOffer{game->GameStarted(seat), *std::move(token), reoffer}));
  a.channel->Flush();
}

}  // namespace cassino::service
