// Where a game sends the messages of one open stream.
//
// A channel queues messages for one gRPC stream and writes them one at a
// time, in order. Send() only queues; Flush() starts writing what is queued
// (messages queued together go out together, coalesced on the wire), and
// Close() flushes and then ends the stream. None of them blocks or calls back
// into the game, so a game may call them while holding its own lock. After
// the stream is gone (client left, server shut down) they do nothing;
// `open()` tells whether anyone is still listening.

#ifndef CASSINO_REFEREE_CHANNEL_H_
#define CASSINO_REFEREE_CHANNEL_H_

#include <memory>

#include "absl/status/status.h"

namespace cassino::service {

template <typename Message>
class Channel {
 public:
  virtual ~Channel() = default;
  // Queues a message; it is written at the next Flush() or Close(). A
  // message sent to several streams is shared, not copied.
  virtual void Send(std::shared_ptr<const Message> message) = 0;
  void Send(Message message) {
    Send(std::make_shared<const Message>(std::move(message)));
  }
  // Starts writing everything queued.
  virtual void Flush() = 0;
  // Ends the stream with `status` once every queued message is written.
  virtual void Close(const absl::Status& status) = 0;
  virtual bool open() const = 0;
};

}  // namespace cassino::service

#endif  // CASSINO_REFEREE_CHANNEL_H_
