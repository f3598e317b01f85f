#include "tools/verify/interchange.h"

#include <algorithm>
#include <ctime>
#include <map>
#include <memory>
#include <set>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "nlohmann/json.hpp"
#include "recorder/display_text.h"
#include "recorder/payload.h"
#include "recorder/record_set.h"
#include "recorder/recorder.h"
#include "recorder/signature.h"

namespace cassino::verify {
namespace {

// The key of the signature of the game's last event (recorder/signature.h);
// empty when it has none.
std::string SigningKeyOf(const recorder::StoredGame& g) {
  if (g.events.empty()) return "";
  const recorder::StoredEvent& last = g.events.back();
  if (last.kind != "end" && last.kind != "abort") return "";
  absl::StatusOr<recorder::SplitPayload> split =
      recorder::SplitSignature(last.payload);
  if (!split.ok() || !split->signature.has_value()) return "";
  return split->signature->key;
}

using recorder::StoredEvent;
using recorder::StoredGame;

using Json = nlohmann::json;

std::string Dump(const Json& json) {
  return json.dump(-1, ' ', /*ensure_ascii=*/false,
                   Json::error_handler_t::replace);
}

// Member access for possibly malformed JSON: defaults when absent or of
// another type.
std::string Str(const Json& j, const char* key, std::string def = "") {
  if (!j.is_object()) return def;
  auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : def;
}
int64_t Int(const Json& j, const char* key, int64_t def = 0) {
  if (!j.is_object()) return def;
  auto it = j.find(key);
  return it != j.end() && it->is_number_integer() ? it->get<int64_t>() : def;
}

// Text from a record, safe for a terminal (recorder/display_text.h): a
// record, imported ones included, may hold anything.
std::string Safe(absl::string_view text) {
  return recorder::EscapeDisplay(text);
}

// In double quotes, escaped (a quote as \").
std::string Quote(absl::string_view text) {
  std::string out = "\"";
  for (char c : Safe(text)) {
    if (c == '"') out.push_back('\\');
    out.push_back(c);
  }
  out.push_back('"');
  return out;
}

std::string UtcTime(int64_t us) {
  const std::time_t secs = static_cast<std::time_t>(us / 1000000);
  std::tm tm{};
  gmtime_r(&secs, &tm);
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%04d-%02d-%02dT%02d:%02d:%02d.%06dZ",
                tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour,
                tm.tm_min, tm.tm_sec, static_cast<int>(us % 1000000));
  return buf;
}

// A round's score breakdown (docs/export_format.md, "Text").
void AppendRoundText(const recorder::RoundFields& f, std::string* out) {
  absl::StrAppend(out, "  Score of round ", f.round, " (dealer seat ", f.dealer,
                  "):\n");
  for (const recorder::RoundFields::Item& item : f.items) {
    absl::StrAppend(out, "    ", Safe(item.kind), item.card.empty() ? "" : " ",
                    Safe(item.card), " +", item.points, " side ", item.side,
                    "\n");
  }
  for (size_t side = 0; side < f.sides.size(); ++side) {
    const recorder::RoundFields::Side& s = f.sides[side];
    absl::StrAppend(out, "    side ", side, ": ", s.cards, " cards, ", s.spades,
                    " spades, ", s.aces, " aces, ", s.sweeps, " sweeps, ",
                    s.points, " points\n");
  }
  if (f.leftovers != "-") {
    absl::StrAppend(out, "    leftovers ", Safe(f.leftovers), " to side ",
                    f.leftover_side, "\n");
  }
  absl::StrAppend(out, "    totals ", absl::StrJoin(f.totals_before, "-"),
                  " -> ", absl::StrJoin(f.totals_after, "-"), "\n");
}

// One event of the text form (docs/export_format.md, "Text"); `result` is
// the game's result line. A payload that does not read is named as such.
void AppendEventText(const StoredEvent& e, absl::string_view result,
                     std::string* out) {
  absl::Status read;
  if (e.kind == "deal") {
    recorder::DealFields f;
    if (read = recorder::ParseDealPayload(e.payload, &f); read.ok()) {
      absl::StrAppend(out, "Round ", f.round, "\n  deck ", Safe(f.deck), "\n");
    }
  } else if (e.kind == "move") {
    recorder::MoveFields f;
    if (read = recorder::ParseMovePayload(e.payload, &f); read.ok()) {
      absl::StrAppend(out, "  ", f.turn + 1, ". seat ", f.seat, ": ",
                      Safe(f.move), "  {", f.elapsed_ms, " ms}\n");
    }
  } else if (e.kind == "reject") {
    recorder::RejectFields f;
    if (read = recorder::ParseRejectPayload(e.payload, &f); read.ok()) {
      absl::StrAppend(out, "     (seat ", f.seat, " rejected ",
                      Quote(f.submitted), ": ", Safe(f.reason), ")\n");
    }
  } else if (e.kind == "round") {
    recorder::RoundFields f;
    if (read = recorder::ParseRoundPayload(e.payload, &f); read.ok()) {
      AppendRoundText(f, out);
    }
  } else if (e.kind == "forfeit") {
    recorder::ForfeitFields f;
    if (read = recorder::ParseForfeitPayload(e.payload, &f); read.ok()) {
      absl::StrAppend(out, "Forfeit: seat ", f.seat, " (", Safe(f.reason),
                      "): ", Safe(f.detail), "\n");
    }
  } else if (e.kind == "end") {
    recorder::EndFields f;
    if (read = recorder::ParseEndPayload(e.payload, &f); read.ok()) {
      absl::StrAppend(out, "End: ", Safe(result), ": ", Safe(f.detail), "\n");
    }
  } else if (e.kind == "abort") {
    recorder::AbortFields f;
    if (read = recorder::ParseAbortPayload(e.payload, &f); read.ok()) {
      absl::StrAppend(out, "Aborted: ", Safe(f.detail), "\n");
    }
  }
  if (!read.ok()) {
    absl::StrAppend(out, "  (event ", e.seq, ": ", Safe(read.message()), ")\n");
  }
}

}  // namespace

std::string GameToJson(const StoredGame& g) {
  Json seats = Json::array();
  for (size_t i = 0; i < g.bots.size(); ++i) {
    Json seat = {{"bot_name", g.bots[i]}};
    // Only seats played by a bot account carry one: files of games without
    // accounts are what they were before schema 3.
    if (i < g.accounts.size() && !g.accounts[i].empty()) {
      seat["account"] = g.accounts[i];
    }
    seats.push_back(std::move(seat));
  }
  Json events = Json::array();
  for (const StoredEvent& e : g.events) {
    events.push_back({{"seq", e.seq},
                      {"kind", e.kind},
                      {"at_us", e.at_us},
                      {"payload", e.payload},
                      {"hash", e.hash}});
  }
  Json game = {
      {"game_id", g.game_id},
      {"label", g.label},
      {"rules", g.rules},
      {"seats", std::move(seats)},
      {"commitment", g.commitment},
      // The seed is public only once the game has ended.
      {"seed", g.status == "finished" ? g.seed : std::string()},
      {"explicit_decks", g.explicit_decks},
      {"clock",
       {{"per_move_ms", g.per_move_ms},
        {"bank_ms", g.bank_ms},
        {"max_illegal", g.max_illegal}}},
      {"created_us", g.created_us},
      {"status", g.status},
      {"events", std::move(events)},
  };
  // A copy of the last event's signature key, for readers (the payload is
  // what is verified); only signed games carry it.
  if (std::string key = SigningKeyOf(g); !key.empty()) {
    game["signing_key"] = std::move(key);
  }
  return Dump(game);
}

std::string GameToText(const StoredGame& g) {
  std::string out;
  auto tag = [&](absl::string_view name, absl::string_view value) {
    absl::StrAppend(&out, "[", name, " ", Quote(value), "]\n");
  };
  tag("Game", g.game_id);
  tag("Label", g.label);
  tag("Rules", g.rules);
  for (size_t i = 0; i < g.bots.size(); ++i) {
    tag(absl::StrCat("Seat", i), g.bots[i]);
    if (i < g.accounts.size() && !g.accounts[i].empty()) {
      tag(absl::StrCat("Account", i), g.accounts[i]);
    }
  }
  tag("Clock", absl::StrCat("per_move_ms=", g.per_move_ms, " bank_ms=",
                            g.bank_ms, " max_illegal=", g.max_illegal));
  if (!g.commitment.empty()) tag("Commitment", g.commitment);
  if (g.status == "finished" && !g.seed.empty()) tag("Seed", g.seed);
  if (std::string key = SigningKeyOf(g); !key.empty()) tag("SigningKey", key);
  for (size_t i = 0; i < g.explicit_decks.size(); ++i) {
    tag(absl::StrCat("Deck", i + 1), g.explicit_decks[i]);
  }
  tag("Created", UtcTime(g.created_us));
  tag("Status", g.status);
  recorder::EndFields end;
  std::string result = "*";
  for (const StoredEvent& e : g.events) {
    if (e.kind == "end" && recorder::ParseEndPayload(e.payload, &end).ok()) {
      result = absl::StrCat(
          end.winner >= 0 ? absl::StrCat("side ", end.winner, " wins")
                          : std::string("no winner"),
          " (", end.reason, ") ", absl::StrJoin(end.totals, "-"));
    } else if (e.kind == "abort") {
      result = "aborted";
    }
  }
  tag("Result", result);
  if (!g.events.empty()) tag("FinalHash", g.events.back().hash);
  out += "\n";
  for (const StoredEvent& e : g.events) AppendEventText(e, result, &out);
  out += "\n";
  return out;
}

absl::Status ExportDatabase(const std::string& db_path,
                            std::vector<std::string> ids, ExportFormat format,
                            std::ostream& out) {
  return ExportRecordSet({db_path}, std::move(ids), format, out);
}

absl::Status ExportRecordSet(const std::vector<std::string>& paths,
                             std::vector<std::string> ids, ExportFormat format,
                             std::ostream& out) {
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  // Which database holds which game, in id order across the set (with one
  // database the reader streams every game in id order by itself).
  std::vector<std::unique_ptr<recorder::RecordReader>> readers;
  for (const std::string& path : paths) {
    absl::StatusOr<std::unique_ptr<recorder::RecordReader>> reader =
        recorder::RecordReader::Open(path);
    if (!reader.ok()) return reader.status();
    readers.push_back(*std::move(reader));
  }
  // A finished game's seed stays out while another game dealt from it is
  // unfinished (the twin of a duplicate pair), in any database of the set.
  std::set<std::string> held;
  for (const auto& reader : readers) {
    absl::StatusOr<std::set<std::string>> h = reader->HeldSeeds();
    if (!h.ok()) return h.status();
    held.merge(*h);
  }
  std::vector<std::pair<std::string, size_t>> order;  // (id, reader)
  if (paths.size() > 1) {
    absl::StatusOr<recorder::GameIndex> index = recorder::IndexGames(paths);
    if (!index.ok()) return index.status();
    if (!index->duplicates.empty()) {
      const auto& [id, others] = *index->duplicates.begin();
      return absl::FailedPreconditionError(
          absl::StrCat("game ", id, " is in more than one database (",
                       index->path_of.at(id), ", ", others.front(), ")"));
    }
    const std::map<std::string, size_t> reader_of = [&] {
      std::map<std::string, size_t> m;
      for (size_t i = 0; i < paths.size(); ++i) m.emplace(paths[i], i);
      return m;
    }();
    if (ids.empty()) {
      for (const auto& [id, path] : index->path_of) {
        order.emplace_back(id, reader_of.at(path));
      }
    } else {
      for (const std::string& id : ids) {
        auto it = index->path_of.find(id);
        if (it == index->path_of.end()) {
          return absl::NotFoundError(absl::StrCat("no such game '", id, "'"));
        }
        order.emplace_back(id, reader_of.at(it->second));
      }
    }
  }
  if (format == ExportFormat::kJson) {
    out << "{\"format\":\"" << kExportFormat
        << "\",\"version\":" << kExportVersion << ",\"games\":[\n";
  }
  bool first = true;
  absl::Status missing;
  auto write = [&](StoredGame& g) {
    if (g.missing_game_row) {
      if (missing.ok()) {
        missing =
            absl::NotFoundError(absl::StrCat("no such game '", g.game_id, "'"));
      }
      return;
    }
    if (held.contains(absl::AsciiStrToLower(g.seed))) g.seed.clear();
    if (format == ExportFormat::kJson) {
      if (!first) out << ",\n";
      out << GameToJson(g);
    } else {
      out << GameToText(g);
    }
    first = false;
  };
  absl::Status s;
  if (paths.size() == 1) {
    s = readers[0]->ForEach(ids, write);
  } else {
    for (size_t k = 0; k < order.size() && s.ok(); ++k) {
      s = readers[order[k].second]->ForEach({order[k].first}, write);
    }
  }
  if (format == ExportFormat::kJson) out << (first ? "" : "\n") << "]}\n";
  if (!s.ok()) return s;
  if (!missing.ok() && !ids.empty()) return missing;
  return out.good() ? absl::OkStatus()
                    : absl::UnavailableError("error writing the output");
}

absl::StatusOr<std::vector<StoredGame>> ParseExport(const std::string& text) {
  const Json doc = Json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded() || !doc.is_object()) {
    return absl::InvalidArgumentError("the file is not a JSON object");
  }
  if (Str(doc, "format") != kExportFormat) {
    return absl::InvalidArgumentError(
        absl::StrCat("the file's format is not '", kExportFormat, "'"));
  }
  if (Int(doc, "version", -1) != kExportVersion) {
    return absl::InvalidArgumentError(absl::StrCat(
        "unsupported version (this build reads version ", kExportVersion, ")"));
  }
  auto games = doc.find("games");
  if (games == doc.end() || !games->is_array()) {
    return absl::InvalidArgumentError("'games' is missing or not an array");
  }
  std::vector<StoredGame> out;
  for (size_t i = 0; i < games->size(); ++i) {
    const Json& j = (*games)[i];
    auto bad = [&](absl::string_view what) {
      return absl::InvalidArgumentError(
          absl::StrCat("game ", i + 1, " ('", Str(j, "game_id"), "'): ", what));
    };
    if (!j.is_object()) return bad("not an object");
    StoredGame g;
    g.has_summary = false;
    for (auto [key, field] :
         {std::pair{"game_id", &g.game_id}, std::pair{"label", &g.label},
          std::pair{"rules", &g.rules}, std::pair{"commitment", &g.commitment},
          std::pair{"seed", &g.seed}, std::pair{"status", &g.status}}) {
      auto it = j.find(key);
      if (it == j.end() || !it->is_string()) {
        return bad(absl::StrCat("'", key, "' is missing or not a string"));
      }
      *field = it->get<std::string>();
    }
    if (g.game_id.empty()) return bad("empty game_id");
    auto seats = j.find("seats");
    if (seats == j.end() || !seats->is_array()) return bad("no seats array");
    for (const Json& s : *seats) {
      auto name = s.is_object() ? s.find("bot_name") : s.end();
      if (!s.is_object() || name == s.end() || !name->is_string()) {
        return bad("a seat without a bot_name string");
      }
      std::string account;
      if (auto it = s.find("account"); it != s.end()) {
        if (!it->is_string() || it->get_ref<const std::string&>().empty()) {
          return bad(absl::StrCat("seat ", g.bots.size(),
                                  ": 'account' is not a non-empty string"));
        }
        account = it->get<std::string>();
      }
      g.seat_numbers.push_back(static_cast<int64_t>(g.bots.size()));
      g.bots.push_back(name->get<std::string>());
      g.accounts.push_back(std::move(account));
    }
    auto decks = j.find("explicit_decks");
    if (decks == j.end() || !decks->is_array()) {
      return bad("no explicit_decks array");
    }
    for (const Json& d : *decks) {
      if (!d.is_string()) return bad("an explicit deck is not a string");
      g.explicit_decks.push_back(d.get<std::string>());
    }
    auto clock = j.find("clock");
    if (clock == j.end() || !clock->is_object()) return bad("no clock object");
    for (auto [key, field] : {std::pair{"per_move_ms", &g.per_move_ms},
                              std::pair{"bank_ms", &g.bank_ms},
                              std::pair{"max_illegal", &g.max_illegal}}) {
      auto it = clock->find(key);
      if (it == clock->end() || !it->is_number_integer()) {
        return bad(absl::StrCat("clock '", key, "' is not an integer"));
      }
      *field = it->get<int64_t>();
    }
    auto created = j.find("created_us");
    if (created == j.end() || !created->is_number_integer()) {
      return bad("'created_us' is not an integer");
    }
    g.created_us = created->get<int64_t>();
    auto events = j.find("events");
    if (events == j.end() || !events->is_array()) return bad("no events array");
    for (size_t k = 0; k < events->size(); ++k) {
      const Json& e = (*events)[k];
      StoredEvent ev;
      auto str = [&](const char* key, std::string* field) {
        auto it = e.is_object() ? e.find(key) : e.end();
        if (!e.is_object() || it == e.end() || !it->is_string()) return false;
        *field = it->get<std::string>();
        return true;
      };
      auto num = [&](const char* key, int64_t* field) {
        auto it = e.is_object() ? e.find(key) : e.end();
        if (!e.is_object() || it == e.end() || !it->is_number_integer()) {
          return false;
        }
        *field = it->get<int64_t>();
        return true;
      };
      if (!num("seq", &ev.seq) || !num("at_us", &ev.at_us) ||
          !str("kind", &ev.kind) || !str("payload", &ev.payload) ||
          !str("hash", &ev.hash)) {
        return bad(absl::StrCat("event ", k,
                                " lacks seq, kind, at_us, payload or hash"));
      }
      g.events.push_back(std::move(ev));
    }
    if (auto key = j.find("signing_key"); key != j.end()) {
      if (!key->is_string() || key->get<std::string>() != SigningKeyOf(g)) {
        return bad(
            "'signing_key' is not the key of the last event's signature");
      }
    }
    out.push_back(std::move(g));
  }
  return out;
}

absl::StatusOr<ImportResult> ImportExport(const std::string& db_path,
                                          const std::string& text) {
  absl::StatusOr<std::vector<StoredGame>> games = ParseExport(text);
  if (!games.ok()) return games.status();
  absl::StatusOr<std::unique_ptr<recorder::Recorder>> rec =
      recorder::Recorder::Open(db_path, recorder::Durability::kNormal);
  if (!rec.ok()) return rec.status();
  ImportResult result;
  GameVerifier verifier;
  for (const StoredGame& g : *games) {
    if (std::optional<Failure> f = verifier.Verify(g)) {
      ++result.refused;
      result.messages.push_back(absl::StrCat(
          "refused ", g.game_id, ": it does not verify: ", f->ToString()));
      continue;
    }
    absl::StatusOr<recorder::GameRecord> record = recorder::ToRecord(g);
    absl::Status s = record.ok() ? (*rec)->Import(*record) : record.status();
    if (absl::IsAlreadyExists(s)) {
      ++result.skipped;
      result.messages.push_back(
          absl::StrCat("skipped ", g.game_id, ": already in the database"));
    } else if (!s.ok()) {
      ++result.refused;
      result.messages.push_back(
          absl::StrCat("refused ", g.game_id, ": ", s.message()));
    } else {
      ++result.imported;
    }
  }
  return result;
}

}  // namespace cassino::verify
