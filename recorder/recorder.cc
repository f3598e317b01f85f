#include "recorder/recorder.h"

#include <memory>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "recorder/recorder_impl.h"

namespace cassino::recorder {

absl::StatusOr<Durability> ParseDurability(absl::string_view name) {
  const std::string lower = absl::AsciiStrToLower(name);
  if (lower == "normal") return Durability::kNormal;
  if (lower == "full") return Durability::kFull;
  return absl::InvalidArgumentError(
      absl::StrCat("unknown durability '", name, "' (normal or full)"));
}

absl::StatusOr<std::unique_ptr<Recorder>> Recorder::Open(
    const std::string& path, Durability durability) {
  RecorderOptions options;
  options.durability = durability;
  return Open(path, options);
}

absl::StatusOr<std::unique_ptr<Recorder>> Recorder::Open(
    const std::string& path, const RecorderOptions& options) {
  auto impl = std::make_unique<Impl>(options);
  if (absl::Status s = impl->Init(path); !s.ok()) return s;
  return std::unique_ptr<Recorder>(new Recorder(std::move(impl)));
}

StorageHealth Recorder::health() const { return impl_->health(); }

void Recorder::OnHealthChange(
    std::function<void(const StorageHealth&)> listener) {
  impl_->OnHealthChange(std::move(listener));
}

Recorder::Recorder(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Recorder::~Recorder() = default;

namespace {

// The innermost CommitHere scope open on this thread, if any. Only the
// scopes set it (and restore the one they were opened in), so it is state of
// the thread's call stack, not shared.
thread_local Recorder::CommitHere* innermost_scope = nullptr;

}  // namespace

Recorder::CommitHere::CommitHere(Recorder& recorder)
    : impl_(recorder.impl_.get()), outer_(innermost_scope) {
  innermost_scope = this;
}

Recorder::CommitHere::~CommitHere() {
  // Writes that this commit's callbacks queue belong to an outer scope, or
  // to the committer (CommitQueuedHere).
  innermost_scope = outer_;
  if (owed_) impl_->CommitQueuedHere();
}

template <typename W>
void Recorder::EnqueueHere(W write, DoneCallback done) {
  CommitHere* here = innermost_scope;
  if (here != nullptr && here->impl_ != impl_.get()) here = nullptr;
  if (impl_->Enqueue({std::move(write), std::move(done)}, here != nullptr)) {
    here->owed_ = true;
  }
}

void Recorder::WaitIdle() { impl_->WaitIdle(); }

void Recorder::CreateGame(const GameHeader& header, DoneCallback done) {
  EnqueueHere(Impl::CreateWrite{header}, std::move(done));
}

void Recorder::Append(const std::string& game_id, EventKind kind, int64_t at_us,
                      std::string payload, DoneCallback done) {
  std::vector<NewEvent> events;
  events.push_back({kind, at_us, std::move(payload)});
  Append(game_id, std::move(events), std::move(done));
}

void Recorder::Append(const std::string& game_id, std::vector<NewEvent> events,
                      DoneCallback done) {
  EnqueueHere(Impl::AppendWrite{game_id, std::move(events)}, std::move(done));
}

absl::Status Recorder::CreateGameSync(const GameHeader& header) {
  return impl_->EnqueueAndWait(Impl::CreateWrite{header});
}

absl::Status Recorder::AppendSync(const std::string& game_id, EventKind kind,
                                  int64_t at_us, std::string payload) {
  std::vector<NewEvent> events;
  events.push_back({kind, at_us, std::move(payload)});
  return impl_->EnqueueAndWait(Impl::AppendWrite{game_id, std::move(events)});
}

absl::StatusOr<GameRecord> Recorder::Load(const std::string& game_id) const {
  return impl_->Load(game_id);
}

absl::StatusOr<std::vector<GameSummary>> Recorder::List(
    const ListFilter& filter) const {
  return impl_->List(filter);
}

absl::StatusOr<std::vector<std::string>> Recorder::Unfinished() const {
  return impl_->Unfinished();
}

absl::StatusOr<std::vector<Recorder::SeatTokenRow>> Recorder::EndedSeatTokens(
    int64_t since_us) const {
  return impl_->EndedSeatTokens(since_us);
}

absl::Status Recorder::Import(const GameRecord& record) {
  return impl_->EnqueueAndWait(Impl::ImportWrite{&record});
}

void Recorder::InsertAccount(const BotAccountRow& account, DoneCallback done) {
  impl_->Enqueue({Impl::AccountWrite{account, true}, std::move(done)});
}

void Recorder::UpdateAccount(const BotAccountRow& account, DoneCallback done) {
  impl_->Enqueue({Impl::AccountWrite{account, false}, std::move(done)});
}

void Recorder::SetSeatToken(const std::string& game_id, int seat,
                            const std::string& token_hash, DoneCallback done) {
  impl_->Enqueue(
      {Impl::SeatTokenWrite{game_id, seat, token_hash}, std::move(done)});
}

absl::StatusOr<std::vector<BotAccountRow>> Recorder::Accounts() const {
  return impl_->Accounts();
}

void Recorder::InsertTournament(const TournamentRow& tournament,
                                const std::vector<TournamentGameRow>& games,
                                DoneCallback done) {
  impl_->Enqueue(
      {Impl::TournamentWrite{tournament, games, false}, std::move(done)});
}

void Recorder::InsertTournamentGames(
    const std::string& tournament, const std::vector<TournamentGameRow>& games,
    DoneCallback done) {
  TournamentRow row;
  row.name = tournament;
  impl_->Enqueue({Impl::TournamentWrite{row, games, true}, std::move(done)});
}

void Recorder::SetTournamentGame(const std::string& tournament, int index,
                                 const std::string& game_id,
                                 DoneCallback done) {
  impl_->Enqueue(
      {Impl::TournamentGameWrite{tournament, index, game_id}, std::move(done)});
}

void Recorder::EndTournament(const std::string& tournament,
                             const std::string& status,
                             const std::string& reason, int64_t ended_us,
                             DoneCallback done) {
  impl_->Enqueue(
      {Impl::TournamentEndWrite{tournament, status, reason, ended_us},
       std::move(done)});
}

absl::StatusOr<std::map<std::string, std::vector<int>>>
Recorder::ForfeitsByLabel(const std::string& label) const {
  return impl_->ForfeitsByLabel(label);
}

absl::StatusOr<std::vector<TournamentRow>> Recorder::Tournaments() const {
  return impl_->Tournaments();
}

absl::StatusOr<std::vector<TournamentGameRow>> Recorder::TournamentGames(
    const std::string& tournament) const {
  return impl_->TournamentGames(tournament);
}

std::string Recorder::signing_public_key() const {
  return impl_->signing_public_key();
}

Recorder::Stats Recorder::stats() const { return impl_->stats(); }

}  // namespace cassino::recorder
