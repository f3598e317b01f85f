#include "tools/verify/verifier.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <deque>
#include <fstream>
#include <map>
#include <thread>
#include <utility>

#include "absl/base/thread_annotations.h"
#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/synchronization/mutex.h"
#include "recorder/record_set.h"
#include "recorder/signature.h"

namespace cassino::verify {

using recorder::StoredEvent;
using recorder::StoredGame;

void SignatureCounts::Add(const SignatureState& state) {
  switch (state.kind) {
    case SignatureState::kNotChecked:
      break;
    case SignatureState::kRunning:
      ++running;
      break;
    case SignatureState::kUnsigned:
      ++unsigned_games;
      break;
    case SignatureState::kSigned:
      ++signed_by[state.key];
      break;
  }
}

void SignatureCounts::Merge(const SignatureCounts& other) {
  for (const auto& [key, games] : other.signed_by) signed_by[key] += games;
  unsigned_games += other.unsigned_games;
  running += other.running;
}

// ---------------------------------------------------------------------------
// Verifying a database with several threads.

namespace {

constexpr size_t kBatchSize = 64;

struct Batch {
  std::vector<StoredGame> games = std::vector<StoredGame>(kBatchSize);
  size_t size = 0;
  int64_t first_index = 0;  // of games[0] in the reading order
};

// Batches travel reader -> workers (full) -> reader (free, reused).
class BatchQueue {
 public:
  void Push(std::unique_ptr<Batch> b) {
    {
      absl::MutexLock lock(&mu_);
      q_.push_back(std::move(b));
    }
    cv_.Signal();
  }
  // nullptr once closed and empty.
  std::unique_ptr<Batch> Pop() {
    absl::MutexLock lock(&mu_);
    while (!closed_ && q_.empty()) cv_.Wait(&mu_);
    if (q_.empty()) return nullptr;
    std::unique_ptr<Batch> b = std::move(q_.front());
    q_.pop_front();
    return b;
  }
  void Close() {
    {
      absl::MutexLock lock(&mu_);
      closed_ = true;
    }
    cv_.SignalAll();
  }

 private:
  absl::Mutex mu_;
  absl::CondVar cv_;
  std::deque<std::unique_ptr<Batch>> q_ ABSL_GUARDED_BY(mu_);
  bool closed_ ABSL_GUARDED_BY(mu_) = false;
};

// Every game: the ids are cut into ranges of about the same number of
// games, several per thread, and each thread takes the next range not yet
// taken and reads it through its own connection (reading costs about as
// much as verifying, so it is split too). Ranges rather than one half per
// thread keep both threads busy to the end even when one is slowed (a busy
// machine, or the part of a large file beyond SQLite's 2 GB memory map,
// which is read by copying pages). Failures are reported in range order,
// i.e. in game id order, whatever the thread count.
absl::StatusOr<VerifyReport> VerifyRanges(
    const std::string& path, recorder::RecordReader& first, int64_t total,
    int threads, const SignaturePolicy& policy,
    const std::function<void(int64_t, int64_t)>& progress) {
  if (total < 2 * threads) threads = 1;
  constexpr int64_t kRangesPerThread = 16;
  constexpr int64_t kMinRange = 256;
  // At least one range per thread; more, of at least kMinRange games, up to
  // kRangesPerThread per thread.
  const int64_t ranges = std::clamp<int64_t>(total / kMinRange, threads,
                                             kRangesPerThread * threads);
  std::vector<std::string> bounds = {""};
  if (ranges > 1) {
    absl::StatusOr<std::vector<std::string>> ids =
        first.GameIdsEvery((total + ranges - 1) / ranges);
    if (!ids.ok()) return ids.status();
    bounds.insert(bounds.end(), ids->begin(), ids->end());
  }
  bounds.push_back("");
  struct Part {
    std::vector<Failure> failures;
    SignatureCounts signatures;
    int64_t games = 0;
    absl::Status status;
  };
  std::vector<Part> parts(bounds.size() - 1);
  std::atomic<size_t> next{0};
  std::atomic<bool> failed{false};  // stop handing out ranges
  std::atomic<int64_t> done{0};
  std::atomic<int> running{threads};
  std::vector<std::thread> workers;
  for (int t = 0; t < threads; ++t) {
    workers.emplace_back([&] {
      absl::StatusOr<std::unique_ptr<recorder::RecordReader>> reader =
          recorder::RecordReader::Open(path);
      GameVerifier verifier(policy);
      for (size_t r;
           !failed.load() && (r = next.fetch_add(1)) < parts.size();) {
        Part& part = parts[r];
        if (!reader.ok()) {
          part.status = reader.status();
        } else {
          part.status = (*reader)->ForEachInRange(
              bounds[r], bounds[r + 1], [&](StoredGame& g) {
                if (std::optional<Failure> f = verifier.Verify(g)) {
                  part.failures.push_back(*std::move(f));
                }
                part.signatures.Add(verifier.signature());
                ++part.games;
                done.fetch_add(1, std::memory_order_relaxed);
              });
        }
        if (!part.status.ok()) failed.store(true);
      }
      running.fetch_sub(1);
    });
  }
  if (progress) {
    while (running.load() > 0) {
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
      progress(done.load(), total);
    }
  }
  for (std::thread& w : workers) w.join();
  if (progress) progress(done.load(), total);
  VerifyReport report;
  absl::Status status;
  for (Part& part : parts) {
    report.games += part.games;
    report.signatures[path].Merge(part.signatures);
    for (Failure& f : part.failures) report.failures.push_back(std::move(f));
    if (status.ok() && !part.status.ok()) status = part.status;
  }
  report.ok = report.games - static_cast<int64_t>(report.failures.size());
  if (!status.ok()) {
    Failure f;
    f.game_id = path;
    f.what = absl::StrCat("the database cannot be read (", report.games,
                          " games read): ", status.message());
    report.failures.push_back(std::move(f));
  }
  return report;
}

}  // namespace

absl::StatusOr<VerifyReport> VerifyDatabase(const std::string& path,
                                            const VerifyOptions& options) {
  absl::StatusOr<std::unique_ptr<recorder::RecordReader>> reader =
      recorder::RecordReader::Open(path);
  if (!reader.ok()) return reader.status();
  int64_t total = static_cast<int64_t>(options.games.size());
  if (options.games.empty()) {
    absl::StatusOr<int64_t> n = (*reader)->CountGames();
    if (!n.ok()) return n.status();
    total = *n;
  }

  const int threads = std::max(1, options.threads);
  if (options.games.empty()) {
    return VerifyRanges(path, **reader, total, threads, options.signatures,
                        options.progress);
  }
  BatchQueue work, free_batches;
  for (int i = 0; i < threads * 3; ++i) {
    free_batches.Push(std::make_unique<Batch>());
  }
  absl::Mutex results_mu;
  std::vector<std::pair<int64_t, Failure>> failures;
  SignatureCounts signatures;
  std::vector<std::thread> workers;
  for (int t = 0; t < threads; ++t) {
    workers.emplace_back([&] {
      GameVerifier verifier(options.signatures);
      SignatureCounts mine;
      while (std::unique_ptr<Batch> b = work.Pop()) {
        for (size_t i = 0; i < b->size; ++i) {
          if (std::optional<Failure> f = verifier.Verify(b->games[i])) {
            absl::MutexLock lock(&results_mu);
            failures.emplace_back(b->first_index + static_cast<int64_t>(i),
                                  *std::move(f));
          }
          mine.Add(verifier.signature());
        }
        b->size = 0;
        free_batches.Push(std::move(b));
      }
      absl::MutexLock lock(&results_mu);
      signatures.Merge(mine);
    });
  }

  int64_t read = 0;
  std::unique_ptr<Batch> batch;
  absl::Status status = (*reader)->ForEach(options.games, [&](StoredGame& g) {
    if (batch == nullptr) {
      batch = free_batches.Pop();
      batch->first_index = read;
    }
    std::swap(batch->games[batch->size++], g);
    ++read;
    if (batch->size == kBatchSize) work.Push(std::move(batch));
    if (options.progress && read % 256 == 0) options.progress(read, total);
  });
  if (batch != nullptr) work.Push(std::move(batch));
  work.Close();
  for (std::thread& t : workers) t.join();
  if (options.progress) options.progress(read, total);

  VerifyReport report;
  report.games = read;
  report.signatures[path] = std::move(signatures);
  std::sort(failures.begin(), failures.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  for (auto& [index, f] : failures) report.failures.push_back(std::move(f));
  report.ok = read - static_cast<int64_t>(report.failures.size());
  if (!status.ok()) {
    // A read error part-way (a corrupt or truncated file): what was read is
    // reported, and the error becomes a failure of its own.
    Failure f;
    f.game_id = path;
    f.what = absl::StrCat("the database cannot be read past game ", read, ": ",
                          status.message());
    report.failures.push_back(std::move(f));
  }
  return report;
}

absl::StatusOr<VerifyReport> VerifyRecordSet(
    const std::vector<std::string>& paths, const VerifyOptions& options) {
  if (paths.size() == 1) return VerifyDatabase(paths[0], options);
  absl::StatusOr<recorder::GameIndex> index = recorder::IndexGames(paths);
  if (!index.ok()) return index.status();
  // Which games each database is asked for (all of them when none named).
  std::map<std::string, std::vector<std::string>> wanted;
  VerifyReport merged;
  for (const std::string& id : options.games) {
    auto it = index->path_of.find(id);
    if (it == index->path_of.end()) {
      Failure f;
      f.game_id = id;
      f.what = "no such game in any of the databases";
      merged.failures.push_back(std::move(f));
      ++merged.games;
    } else {
      wanted[it->second].push_back(id);
    }
  }
  for (const auto& [id, others] : index->duplicates) {
    Failure f;
    f.game_id = id;
    f.what = absl::StrCat("the game id is in more than one database (",
                          index->path_of.at(id), ", ",
                          absl::StrJoin(others, ", "), ")");
    merged.failures.push_back(std::move(f));
  }
  const int64_t total = static_cast<int64_t>(
      options.games.empty() ? index->path_of.size() : options.games.size());
  int64_t done_before = 0;
  for (const std::string& path : paths) {
    VerifyOptions one = options;
    if (!options.games.empty()) {
      auto it = wanted.find(path);
      if (it == wanted.end()) continue;
      one.games = it->second;
    }
    if (options.progress) {
      one.progress = [&](int64_t done, int64_t) {
        options.progress(done_before + done, total);
      };
    }
    absl::StatusOr<VerifyReport> report = VerifyDatabase(path, one);
    if (!report.ok()) {
      return absl::Status(report.status().code(),
                          absl::StrCat(path, ": ", report.status().message()));
    }
    merged.games += report->games;
    merged.ok += report->ok;
    done_before += report->games;
    for (const auto& [db, counts] : report->signatures) {
      merged.signatures[db].Merge(counts);
    }
    for (Failure& f : report->failures) merged.failures.push_back(std::move(f));
  }
  // A duplicated game counted as verified in each database fails once.
  for (const auto& [id, others] : index->duplicates) {
    if (!options.games.empty() &&
        std::find(options.games.begin(), options.games.end(), id) ==
            options.games.end()) {
      continue;
    }
    merged.ok = std::max<int64_t>(0, merged.ok - 1);
  }
  std::stable_sort(
      merged.failures.begin(), merged.failures.end(),
      [](const Failure& a, const Failure& b) { return a.game_id < b.game_id; });
  return merged;
}

absl::StatusOr<std::vector<std::string>> ReadTrustedKeys(
    const std::string& path) {
  std::ifstream in(path);
  if (!in) {
    return absl::NotFoundError(
        absl::StrCat("cannot read the trusted keys file ", path));
  }
  std::vector<std::string> keys;
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    const absl::string_view text = absl::StripAsciiWhitespace(line);
    if (text.empty() || text.front() == '#') continue;
    const std::string key = absl::AsciiStrToLower(
        text.substr(0, std::min(text.find_first_of(" \t"), text.size())));
    if (!recorder::IsPublicKeyHex(key)) {
      return absl::InvalidArgumentError(absl::StrCat(
          path, " line ", number, ": not a public key (64 hex digits): '",
          text.substr(0, 80), "'"));
    }
    keys.push_back(key);
  }
  if (keys.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat(path, " holds no public key"));
  }
  return keys;
}

}  // namespace cassino::verify
