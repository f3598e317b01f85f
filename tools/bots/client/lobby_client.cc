#include "tools/bots/client/lobby_client.h"

#include <algorithm>
#include <chrono>
#include <random>

#include "absl/strings/str_cat.h"
#include "absl/synchronization/notification.h"
#include "absl/time/time.h"

namespace cassino::bots {

LobbyClient::LobbyClient(LobbyOptions options, StrategyFactory strategies)
    : options_(std::move(options)), strategies_(std::move(strategies)) {
  absl::StatusOr<std::shared_ptr<grpc::Channel>> channel =
      MakeChannel(options_.bot);
  if (channel.ok()) {
    channel_ = *std::move(channel);
    stub_ = v1::RefereeService::NewStub(channel_);
  } else {
    Log(std::string(channel.status().message()));
  }
}

LobbyClient::~LobbyClient() {
  for (std::thread& t : players_) {
    if (t.joinable()) t.join();
  }
}

void LobbyClient::Log(const std::string& line) const {
  if (options_.bot.log != nullptr) {
    *options_.bot.log << "[lobby] " << line << std::endl;
  }
}

bool LobbyClient::Finished() const {
  return options_.max_games > 0 &&
         static_cast<int>(results_.size()) >= options_.max_games;
}

void LobbyClient::StartPlayer(const SeatKey& key, const std::string& token) {
  seats_[key].active = true;
  const int n = started_++;
  BotOptions bot = options_.bot;
  bot.token = token;
  bot.game_id = key.first;
  bot.unary = false;
  bot.seed = options_.bot.seed + n;
  Log(absl::StrCat("playing game ", key.first, " seat ", key.second));
  players_.emplace_back([this, key, bot = std::move(bot), n] {
    std::unique_ptr<Strategy> strategy = strategies_(n);
    BotClient client(channel_, bot, strategy.get());
    PlayerDone(key, client.Run());
  });
}

void LobbyClient::PlayerDone(const SeatKey& key,
                             absl::StatusOr<BotResult> result) {
  absl::MutexLock lock(&mu_);
  Seat& seat = seats_[key];
  seat.active = false;
  if (result.ok()) {
    seat.done = true;
    Log(result->Describe());
    results_.push_back(*std::move(result));
    if (Finished() && lobby_ctx_ != nullptr) lobby_ctx_->TryCancel();
    return;
  }
  Log(absl::StrCat("game ", key.first, " seat ", key.second, ": ",
                   result.status().ToString()));
  if (!seat.pending_token.empty()) {
    // The lobby re-offered the seat meanwhile: go on with the new token.
    std::string token = std::move(seat.pending_token);
    seat.pending_token.clear();
    StartPlayer(key, token);
    return;
  }
  // Ask for the seat again: a new lobby connection offers it afresh.
  reconnect_ = true;
  if (lobby_ctx_ != nullptr) lobby_ctx_->TryCancel();
}

absl::StatusOr<std::vector<BotResult>> LobbyClient::Run() {
  if (!stub_) return absl::InvalidArgumentError("no channel to the referee");
  std::mt19937_64 rng(options_.bot.seed);
  absl::Status error;
  int failures = 0;
  while (true) {
    grpc::ClientContext ctx;
    ctx.AddMetadata("authorization", "Bearer " + options_.key);
    {
      absl::MutexLock lock(&mu_);
      if (Finished()) break;
      lobby_ctx_ = &ctx;
      reconnect_ = false;
    }
    v1::LobbyRequest request;
    request.set_capacity(options_.capacity);
    request.set_ladder(options_.ladder);
    request.set_version(options_.version);
    // A probation timer: the stream is reopened when it has run out.
    std::unique_ptr<std::thread> probation;
    absl::Notification stream_done;
    std::unique_ptr<grpc::ClientReader<v1::LobbyResponse>> reader =
        stub_->Lobby(&ctx, request);
    v1::LobbyResponse msg;
    while (reader->Read(&msg)) {
      failures = 0;
      if (msg.has_welcome()) {
        Log(absl::StrCat("in the lobby as ", msg.welcome().account(),
                         ", capacity ", msg.welcome().capacity(), ", ",
                         msg.welcome().unfinished_seats(),
                         " unfinished seat(s)"));
        continue;
      }
      if (msg.has_ladder()) {
        const v1::LadderNotice& n = msg.ladder();
        Log(absl::StrCat("ladder ", n.ladder(), " (version ", n.version(),
                         "): ", v1::LadderNotice::State_Name(n.state()),
                         n.reason().empty() ? "" : ": ", n.reason()));
        if (n.state() == v1::LadderNotice::STATE_PROBATION && !probation) {
          const int64_t wait_ms =
              n.until_unix_ms() -
              std::chrono::duration_cast<std::chrono::milliseconds>(
                  std::chrono::system_clock::now().time_since_epoch())
                  .count();
          probation = std::make_unique<std::thread>([this, wait_ms,
                                                     &stream_done, &ctx] {
            if (!stream_done.WaitForNotificationWithTimeout(
                    absl::Milliseconds(std::max<int64_t>(wait_ms, 0) + 200))) {
              absl::MutexLock lock(&mu_);
              reconnect_ = true;
              ctx.TryCancel();
            }
          });
        }
        continue;
      }
      if (!msg.has_offer()) continue;
      const v1::GameOffer& offer = msg.offer();
      const SeatKey key{offer.game().game_id(), offer.game().seat()};
      absl::MutexLock lock(&mu_);
      Seat& seat = seats_[key];
      if (seat.done) continue;
      if (seat.active) {
        seat.pending_token = offer.token();
      } else {
        StartPlayer(key, offer.token());
      }
    }
    const grpc::Status status = reader->Finish();
    stream_done.Notify();
    if (probation) probation->join();
    bool reconnect = false;
    {
      absl::MutexLock lock(&mu_);
      lobby_ctx_ = nullptr;
      if (Finished()) break;
      reconnect = reconnect_;
    }
    if (reconnect) continue;
    if (status.error_code() == grpc::StatusCode::UNAUTHENTICATED ||
        status.error_code() == grpc::StatusCode::PERMISSION_DENIED ||
        status.error_code() == grpc::StatusCode::INVALID_ARGUMENT ||
        status.error_code() == grpc::StatusCode::NOT_FOUND ||
        status.error_code() == grpc::StatusCode::FAILED_PRECONDITION ||
        status.error_code() == grpc::StatusCode::UNIMPLEMENTED) {
      error = absl::Status(static_cast<absl::StatusCode>(status.error_code()),
                           absl::StrCat("lobby: ", status.error_message()));
      break;
    }
    if (++failures > options_.bot.max_retries) {
      error = absl::UnavailableError(
          absl::StrCat("lobby: gave up after ", failures - 1,
                       " retries: ", status.error_message()));
      break;
    }
    Log(absl::StrCat("lobby stream ended (", status.error_message(),
                     "); reconnecting"));
    const int shift = std::min(failures, 16);
    const auto base = std::min<std::chrono::milliseconds::rep>(
        options_.bot.max_backoff.count(), options_.bot.initial_backoff.count()
                                              << shift);
    std::uniform_int_distribution<long> jitter(base / 2,
                                               std::max<long>(base, 1));
    std::this_thread::sleep_for(std::chrono::milliseconds(jitter(rng)));
  }
  // Every player still running finishes its game (or fails).
  while (true) {
    std::vector<std::thread> players;
    {
      absl::MutexLock lock(&mu_);
      players.swap(players_);
    }
    if (players.empty()) break;
    for (std::thread& t : players) t.join();
  }
  if (!error.ok()) return error;
  absl::MutexLock lock(&mu_);
  return results_;
}

}  // namespace cassino::bots
