// Lobby clients for the referee's tests: registering bot accounts, reading
// a Lobby stream, and a bot in lobby mode that plays every offered seat
// (uniformly random legal moves) on its own thread.

#ifndef CASSINO_TESTS_REFEREE_SERVICE_LOBBY_CLIENT_H_
#define CASSINO_TESTS_REFEREE_SERVICE_LOBBY_CLIENT_H_

#include <atomic>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "gtest/gtest.h"
#include "tests/referee/test_referee.h"

namespace cassino::testing {

// A clock no test game runs out of.
inline v1::Clock SlowClock() {
  v1::Clock c;
  c.set_per_move_ms(60000);
  return c;
}

// Registers a bot; returns its key.
inline std::string Register(TestReferee& referee, const std::string& name) {
  v1::RegisterBotRequest req;
  req.set_name(name);
  req.set_owner("owner of " + name);
  req.set_contact(name + "@example.org");
  v1::RegisterBotResponse resp;
  grpc::Status s = referee.stub().RegisterBot(
      TestReferee::Context(kAdminToken).get(), req, &resp);
  EXPECT_TRUE(s.ok()) << s.error_message();
  EXPECT_EQ(resp.key().size(), 64u);
  EXPECT_EQ(resp.bot().name(), name);
  return resp.key();
}

inline grpc::Status CreateWithAccounts(TestReferee& referee,
                                       const std::vector<std::string>& accounts,
                                       v1::CreateGameResponse* resp,
                                       const std::string& token = kAdminToken) {
  v1::CreateGameRequest req;
  for (const std::string& a : accounts) req.add_seats()->set_account(a);
  *req.mutable_clock() = SlowClock();
  req.set_label("lobby-test");
  return referee.stub().CreateGame(TestReferee::Context(token).get(), req,
                                   resp);
}

inline v1::CreateGameResponse MustCreate(
    TestReferee& referee, const std::vector<std::string>& accounts) {
  v1::CreateGameResponse resp;
  grpc::Status s = CreateWithAccounts(referee, accounts, &resp);
  EXPECT_TRUE(s.ok()) << s.error_message();
  return resp;
}

inline v1::BotAccount GetBot(TestReferee& referee, const std::string& name) {
  v1::GetBotRequest req;
  req.set_name(name);
  v1::GetBotResponse resp;
  grpc::Status s = referee.stub().GetBot(
      TestReferee::Context(kAdminToken).get(), req, &resp);
  EXPECT_TRUE(s.ok()) << s.error_message();
  return resp.bot();
}

// One open Lobby stream, read message by message.
class LobbyStream {
 public:
  LobbyStream(v1::RefereeService::Stub& stub, const std::string& key,
              int capacity, int timeout_ms = 60000,
              const std::string& ladder = "", const std::string& version = "")
      : ctx_(TestReferee::Context(key, timeout_ms)) {
    v1::LobbyRequest req;
    req.set_capacity(capacity);
    req.set_ladder(ladder);
    req.set_version(version);
    reader_ = stub.Lobby(ctx_.get(), req);
  }
  ~LobbyStream() { Cancel(); }

  bool Read(v1::LobbyResponse* msg) { return reader_->Read(msg); }
  // The next offer (skipping the welcome); fails the test on end of stream.
  v1::GameOffer NextOffer() {
    v1::LobbyResponse msg;
    while (Read(&msg)) {
      if (msg.has_offer()) return msg.offer();
    }
    ADD_FAILURE() << "the lobby ended: " << Finish().error_message();
    return v1::GameOffer();
  }
  grpc::Status Finish() {
    if (!finished_) {
      finished_ = true;
      status_ = reader_->Finish();
    }
    return status_;
  }
  // Safe while another thread is in Read(), which then returns false.
  void TryCancel() { ctx_->TryCancel(); }
  // Cancels, drains and finishes; nobody else may be reading.
  void Cancel() {
    if (!finished_) {
      ctx_->TryCancel();
      v1::LobbyResponse msg;
      while (reader_->Read(&msg)) {
      }
      Finish();
    }
  }

 private:
  std::unique_ptr<grpc::ClientContext> ctx_;
  std::unique_ptr<grpc::ClientReader<v1::LobbyResponse>> reader_;
  bool finished_ = false;
  grpc::Status status_;
};

// The first status a stream ends with when it has nothing to say.
inline grpc::Status LobbyStatus(TestReferee& referee, const std::string& key) {
  LobbyStream lobby(referee.stub(), key, 1, 5000);
  v1::LobbyResponse msg;
  while (lobby.Read(&msg)) {
  }
  return lobby.Finish();
}

// Plays one seat with GetTurn(wait) + SubmitMove, at most `max_moves` moves;
// returns the game's status when it stopped.
inline v1::GameStatus PlayUnary(v1::RefereeService::Stub& stub,
                                const std::string& token,
                                const std::string& game_id, uint64_t seed,
                                int max_moves = 1 << 20) {
  std::mt19937_64 rng(seed);
  for (int moves = 0;; ++moves) {
    v1::GetTurnRequest req;
    req.set_game_id(game_id);
    req.set_wait(moves < max_moves);
    v1::GetTurnResponse turn;
    grpc::Status s =
        stub.GetTurn(TestReferee::Context(token, 30000).get(), req, &turn);
    EXPECT_TRUE(s.ok()) << s.error_message();
    if (!s.ok()) return v1::GAME_STATUS_UNSPECIFIED;
    if (turn.status() != v1::GAME_STATUS_RUNNING || moves >= max_moves) {
      return turn.status();
    }
    EXPECT_TRUE(turn.your_turn());
    const v1::YourTurn& t = turn.turn();
    v1::SubmitMoveRequest sub;
    sub.set_game_id(game_id);
    sub.set_turn(t.turn());
    *sub.mutable_move() = t.legal_moves(rng() % t.legal_moves_size());
    v1::SubmitMoveResponse resp;
    s = stub.SubmitMove(TestReferee::Context(token).get(), sub, &resp);
    EXPECT_TRUE(s.ok()) << s.error_message();
    if (!s.ok()) return v1::GAME_STATUS_UNSPECIFIED;
  }
}

// Plays one seat over the Play stream to the end; true if GameEnded came.
// `ctx` carries the seat token. A stream cancelled while `stopping` (if
// given) is set is not a failure: the bot was stopped on purpose.
inline bool PlayStream(v1::RefereeService::Stub& stub, grpc::ClientContext* ctx,
                       uint64_t seed,
                       const std::atomic<bool>* stopping = nullptr) {
  std::mt19937_64 rng(seed);
  auto stream = stub.Play(ctx);
  v1::PlayResponse msg;
  bool ended = false;
  while (stream->Read(&msg)) {
    if (msg.has_your_turn()) {
      const v1::YourTurn& t = msg.your_turn();
      v1::PlayRequest req;
      req.set_turn(t.turn());
      *req.mutable_move() = t.legal_moves(rng() % t.legal_moves_size());
      stream->Write(req);
    } else if (msg.has_game_ended()) {
      ended = true;
    }
  }
  stream->WritesDone();
  grpc::Status s = stream->Finish();
  const bool stopped = stopping != nullptr && stopping->load() &&
                       s.error_code() == grpc::StatusCode::CANCELLED;
  EXPECT_TRUE(s.ok() || stopped) << s.error_message();
  return ended;
}

// A bot in lobby mode: reads offers on a thread and plays each on its own
// thread over the Play stream, as the example bots do.
class LobbyBot {
 public:
  // `on_offer` is called with each offer (on the reader thread) before it
  // is played.
  LobbyBot(v1::RefereeService::Stub& stub, const std::string& key, int capacity,
           std::function<void(const v1::GameOffer&)> on_offer = nullptr,
           const std::string& ladder = "", const std::string& version = "")
      : stub_(stub),
        on_offer_(std::move(on_offer)),
        lobby_(stub, key, capacity, 600000, ladder, version) {
    reader_ = std::thread([this] { Run(); });
  }
  ~LobbyBot() { Stop(); }

  void Stop() {
    stopping_ = true;
    lobby_.TryCancel();
    if (reader_.joinable()) reader_.join();
    lobby_.Cancel();
    std::vector<std::thread> players;
    {
      // (A failed test may stop bots whose games cannot go on.)
      std::lock_guard<std::mutex> lock(mu_);
      players.swap(players_);
      for (const auto& ctx : contexts_) ctx->TryCancel();
    }
    for (std::thread& t : players) t.join();
  }
  // Waits until `n` games have been played to their end.
  bool WaitFinished(int n) {
    std::unique_lock<std::mutex> lock(mu_);
    return cv_.wait_for(lock, std::chrono::seconds(60),
                        [&] { return finished_ >= n; });
  }
  std::vector<v1::GameOffer> offers() {
    std::lock_guard<std::mutex> lock(mu_);
    return offers_;
  }
  // The ladder notices received (ladder mode).
  std::vector<v1::LadderNotice> notices() {
    std::lock_guard<std::mutex> lock(mu_);
    return notices_;
  }

 private:
  void Run() {
    v1::LobbyResponse msg;
    while (lobby_.Read(&msg)) {
      if (msg.has_ladder()) {
        std::lock_guard<std::mutex> lock(mu_);
        notices_.push_back(msg.ladder());
        continue;
      }
      if (!msg.has_offer()) continue;
      const v1::GameOffer offer = msg.offer();
      if (on_offer_) on_offer_(offer);
      std::lock_guard<std::mutex> lock(mu_);
      offers_.push_back(offer);
      std::shared_ptr<grpc::ClientContext> ctx =
          TestReferee::Context(offer.token(), 60000);
      contexts_.push_back(ctx);
      players_.emplace_back([this, offer, ctx] {
        const bool ended =
            PlayStream(stub_, ctx.get(), offer.game().seat() + 17, &stopping_);
        std::lock_guard<std::mutex> lock(mu_);
        finished_ += ended;
        cv_.notify_all();
      });
    }
  }

  v1::RefereeService::Stub& stub_;
  const std::function<void(const v1::GameOffer&)> on_offer_;
  LobbyStream lobby_;
  std::atomic<bool> stopping_{false};
  std::thread reader_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::vector<std::thread> players_;
  std::vector<std::shared_ptr<grpc::ClientContext>> contexts_;
  std::vector<v1::GameOffer> offers_;
  std::vector<v1::LadderNotice> notices_;
  int finished_ = 0;
};

}  // namespace cassino::testing

#endif  // CASSINO_TESTS_REFEREE_SERVICE_LOBBY_CLIENT_H_
