// Conversions between the rules engine's value types and the API messages
// of proto/cassino/v1. Everything a seat is sent is built here from an
// engine Observation, so what leaves the referee is exactly what the engine
// says the seat may see.
//
// This is its own library beside the messages (cassino_convert: rules +
// generated messages, no gRPC server, no recorder), shared by the referee
// and the bot client, so both sides of the API read and write the messages
// the same way, and the bot client needs nothing of the service.

#ifndef CASSINO_PROTO_CONVERT_H_
#define CASSINO_PROTO_CONVERT_H_

#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "cassino/v1/game.pb.h"
#include "grpcpp/support/status.h"
#include "rules/game.h"
#include "rules/observation.h"
#include "rules/submission.h"

namespace cassino::convert {

namespace v1 = ::cassino::v1;

// A move's kind as the API names it.
v1::MoveKind KindToProto(MoveKind kind);

// A move as the referee sends it: every field filled, notation canonical.
void ToProto(const Move& move, v1::Move* out);
// The same, with the move's notation (move.ToString()) already made.
void ToProto(const Move& move, std::string notation, v1::Move* out);
void ToProto(const Table& table, v1::Table* out);
// A played move as `viewer` is sent it: a seat, or kSpectator for what is
// public (sent to every seat, spectators and the public log). With
// draw=on the drawn card is filled in only when SeesDrawnCard allows it.
inline constexpr int kSpectator = -1;
void ToProto(const PlayedMove& move, int viewer, v1::PlayedMove* out);
void ToProto(const InitialCapture& capture, v1::InitialCapture* out);
// The round result; initial_capture only when something was taken.
void ToProto(const RoundResult& round, v1::RoundResult* out);
void ToProto(const GameResult& result, v1::GameResult* out);
// The observation; round_history holds the current round's moves only, as
// `obs.seat` may see them.
void ToProto(const Observation& obs, v1::Observation* out);
// The same, with `rules_text` (which must be obs.rules.ToString()) made by a
// caller that renders many observations of one game and makes it once.
void ToProto(const Observation& obs, absl::string_view rules_text,
             v1::Observation* out);

// A submitted move's fields, as they came, each cut one unit past its
// limit (rules/submission.h, ClipSubmission): a huge field is never copied.
Submission SubmissionOf(const v1::Move& move);
// A submitted move: Interpret(SubmissionOf(move)) (rules/submission.h).
// Either the notation or the structured fields; if both are given they
// must agree in every field. InvalidArgument says what is malformed.
absl::StatusOr<Move> FromProto(const v1::Move& move);

// Cards given as two-character strings; a malformed or repeated card is
// InvalidArgument naming it.
absl::StatusOr<CardSet> CardsFromProto(
    const google::protobuf::RepeatedPtrField<std::string>& cards);

// The name of a status code as MoveVerdict.code carries it, e.g.
// "INVALID_ARGUMENT".
absl::string_view StatusCodeName(grpc::StatusCode code);

// The cards of a set as strings, canonical order.
void CardsToProto(CardSet cards,
                  google::protobuf::RepeatedPtrField<std::string>* out);

}  // namespace cassino::convert

#endif  // CASSINO_PROTO_CONVERT_H_
