// The bounds on what one client can make the referee hold: parked calls,
// spectators, unread messages. Each is a named option of cassino-referee
// (referee/main.cc) with the default below, documented in docs/referee.md
// (*Bounds*). Beyond a bound a call or stream is refused or ended with
// RESOURCE_EXHAUSTED (reason LIMIT_REACHED); nothing else is affected.

#ifndef CASSINO_REFEREE_LIMITS_H_
#define CASSINO_REFEREE_LIMITS_H_

#include <chrono>

namespace cassino::service {

struct ClientLimits {
  // GetTurn(wait=true) calls one seat may have parked at once (a parked
  // call is dropped as soon as its client cancels it or its deadline
  // passes).
  int max_waiters_per_seat = 4;
  // WatchGame streams of one running game, and of the whole referee.
  int max_watchers_per_game = 64;
  int max_watchers = 1024;
  // Messages a server stream (Play, WatchGame, Lobby) may have queued and
  // not yet taken by its client; a stream over it is ended. A Play stream
  // stops reading its client's requests while more than
  // `stream_read_pause` of its messages wait, so a bot that sends without
  // reading is slowed down by HTTP/2 flow control instead of growing the
  // queue.
  int stream_queue_max = 4096;
  int stream_read_pause = 32;
  // Threads that run database reads (GetGame, ListGames, WatchGame of an
  // older game, the tournament calls) off gRPC's threads, and how many
  // reads may wait for them; beyond that a read is refused.
  int read_threads = 2;
  int max_queued_reads = 256;
  // How often games whose record write failed are tried again once the
  // storage takes writes (the recorder probes it as often).
  std::chrono::milliseconds recover_interval = std::chrono::seconds(1);
};

}  // namespace cassino::service

#endif  // CASSINO_REFEREE_LIMITS_H_
