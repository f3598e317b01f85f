// Fuzzes the record importer (`cassino import`): the input is read as a JSON
// export file (ParseExport) and every game that parses is re-adjudicated by
// the verifier, in memory (GameVerifier::Verify on the StoredGame, as
// ImportExport does before inserting; no database is needed for that).
// Properties: nothing crashes, hangs or leaks; a game that verifies converts
// to a record (ToRecord, what would be inserted) whose stored form verifies
// again; and GameToJson of a parsed game parses back to a game that prints
// the same (export -> import -> export is stable).

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "fuzz/fuzz_util.h"
#include "tools/verify/interchange.h"
#include "tools/verify/verifier.h"

namespace {
constexpr size_t kMaxInput = 64 * 1024;
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > kMaxInput) return 0;
  const std::string input(reinterpret_cast<const char*>(data), size);
  absl::StatusOr<std::vector<cassino::recorder::StoredGame>> games =
      cassino::verify::ParseExport(input);
  if (!games.ok()) return 0;
  static cassino::verify::GameVerifier* verifier =
      new cassino::verify::GameVerifier();
  for (const cassino::recorder::StoredGame& game : *games) {
    const std::string json = cassino::verify::GameToJson(game);
    absl::StatusOr<std::vector<cassino::recorder::StoredGame>> again =
        cassino::verify::ParseExport(
            std::string("{\"format\":\"cassino-record\",\"version\":1,"
                        "\"games\":[\n") +
            json + "\n]}\n");
    if (!again.ok() || again->size() != 1) {
      cassino::fuzz::Fail(
          "GameToJson of a parsed game does not parse: " + json + ": " +
              (again.ok() ? "not one game" : again.status().ToString()),
          input);
    }
    // The seed of an unfinished game is not exported, so compare the
    // second print with the first.
    if (cassino::verify::GameToJson((*again)[0]) != json) {
      cassino::fuzz::Fail("GameToJson is not stable: " + json, input);
    }

    std::optional<cassino::verify::Failure> failure = verifier->Verify(game);
    if (failure) {
      (void)failure->ToString();
      continue;
    }
    absl::StatusOr<cassino::recorder::GameRecord> record =
        cassino::recorder::ToRecord(game);
    if (!record.ok()) {
      cassino::fuzz::Fail(
          "a game that verifies has no record: " + record.status().ToString(),
          input);
    }
    if (std::optional<cassino::verify::Failure> f =
            cassino::verify::VerifyRecord(*record)) {
      cassino::fuzz::Fail(
          "the record of a verified game does not verify: " + f->ToString(),
          input);
    }
  }
  return 0;
}
