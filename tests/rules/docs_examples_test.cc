// The examples of docs/rules.md and docs/cli.md, checked against the rules
// engine so that the documents cannot drift from it:
//   - every position text (a code span or code line starting `table:`)
//     parses, and so does every position a `$ cassino moves '...'` line
//     gives;
//   - the lines printed under `$ cassino moves [--count] '...'` are exactly
//     what the engine lists (sorted as strings, as the tool prints them);
//   - every rule set written as a preset followed by options (`diamond
//     players=3`), given to `--rules '...'` or `cassino rules '...'`, parses
//     and validates;
//   - every lone option word (`remove=2H+2D+2C`) names a real option with a
//     value it accepts (alone it may be an invalid combination: the pages
//     show `players=5` as refused);
//   - every move written in a code span (`take 8C 8H 6D 2C`) parses and is
//     in canonical form.

#include <algorithm>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "gtest/gtest.h"
#include "rules/game_moves.h"
#include "rules/move.h"
#include "rules/position.h"
#include "rules/rule_set.h"

namespace cassino {
namespace {

struct Doc {
  std::string name;  // e.g. docs/rules.md
  std::vector<std::string> lines;
};

Doc ReadDoc(const std::string& relative) {
  std::ifstream in(std::string(CASSINO_SOURCE_DIR) + "/" + relative);
  EXPECT_TRUE(in.good()) << relative;
  Doc doc{relative, {}};
  for (std::string line; std::getline(in, line);) doc.lines.push_back(line);
  return doc;
}

const std::vector<Doc>& Docs() {
  static const auto* docs =
      new std::vector<Doc>{ReadDoc("docs/rules.md"), ReadDoc("docs/cli.md")};
  return *docs;
}

// Inline code spans of the prose (code blocks excluded).
std::vector<std::string> CodeSpans(const Doc& doc) {
  std::vector<std::string> spans;
  static const std::regex kSpan("`([^`]+)`");
  for (const std::string& line : doc.lines) {
    if (absl::StartsWith(line, "    ")) continue;
    for (std::sregex_iterator it(line.begin(), line.end(), kSpan), end;
         it != end; ++it) {
      spans.push_back((*it)[1].str());
    }
  }
  return spans;
}

// The lines of indented code blocks, without the indent.
std::vector<std::string> CodeLines(const Doc& doc) {
  std::vector<std::string> out;
  for (const std::string& line : doc.lines) {
    if (absl::StartsWith(line, "    ")) out.push_back(line.substr(4));
  }
  return out;
}

bool IsPreset(absl::string_view word) {
  for (const PresetDoc& p : PresetDocs()) {
    if (p.name == word) return true;
  }
  return false;
}

TEST(DocsExamplesTest, EveryPositionTextParses) {
  int checked = 0;
  for (const Doc& doc : Docs()) {
    std::vector<std::string> texts = CodeSpans(doc);
    for (const std::string& l : CodeLines(doc)) texts.push_back(l);
    for (const std::string& text : texts) {
      if (!absl::StartsWith(text, "table:")) continue;
      ++checked;
      absl::StatusOr<Position> pos = Position::Parse(text);
      EXPECT_TRUE(pos.ok())
          << doc.name << ": `" << text << "`: " << pos.status();
    }
  }
  EXPECT_GE(checked, 1);
}

// `$ cassino moves [--count] 'POSITION'` and the lines printed under it.
struct MovesExample {
  std::string where;
  bool count = false;
  std::string position;
  std::vector<std::string> printed;
};

std::vector<MovesExample> MovesExamples() {
  static const std::regex kCommand(
      R"(^    \$ cassino moves( --count)? '([^']*)'\s*$)");
  std::vector<MovesExample> out;
  for (const Doc& doc : Docs()) {
    for (size_t i = 0; i < doc.lines.size(); ++i) {
      std::smatch m;
      if (!std::regex_match(doc.lines[i], m, kCommand)) continue;
      MovesExample ex{
          absl::StrCat(doc.name, ":", i + 1), m[1].matched, m[2].str(), {}};
      for (size_t j = i + 1;
           j < doc.lines.size() && absl::StartsWith(doc.lines[j], "    ") &&
           !absl::StartsWith(doc.lines[j], "    $");
           ++j) {
        ex.printed.push_back(doc.lines[j].substr(4));
      }
      out.push_back(ex);
    }
  }
  return out;
}

TEST(DocsExamplesTest, MovesExamplesPrintWhatTheEngineLists) {
  const std::vector<MovesExample> examples = MovesExamples();
  EXPECT_GE(examples.size(), 8u);
  for (const MovesExample& ex : examples) {
    absl::StatusOr<Position> pos = Position::Parse(ex.position);
    ASSERT_TRUE(pos.ok()) << ex.where << ": " << pos.status();
    std::vector<std::string> lines;
    for (const Move& m : GameLegalMoves(*pos)) lines.push_back(m.ToString());
    std::sort(lines.begin(), lines.end());
    if (ex.count) lines = {std::to_string(lines.size())};
    EXPECT_EQ(absl::StrJoin(ex.printed, "\n"), absl::StrJoin(lines, "\n"))
        << ex.where << ": cassino moves '" << ex.position << "'";
  }
}

TEST(DocsExamplesTest, EveryRuleSetExampleParses) {
  static const std::regex kQuoted(R"((?:--rules|cassino rules) '([^']*)')");
  int checked = 0;
  for (const Doc& doc : Docs()) {
    std::vector<std::string> rule_sets;
    for (const std::string& span : CodeSpans(doc)) {
      const std::vector<std::string> words =
          absl::StrSplit(span, ' ', absl::SkipEmpty());
      if (words.size() >= 2 && IsPreset(words[0]) &&
          std::all_of(words.begin() + 1, words.end(), [](const auto& w) {
            return absl::StrContains(w, '=');
          })) {
        rule_sets.push_back(span);
      }
    }
    for (const std::string& line : doc.lines) {
      for (std::sregex_iterator it(line.begin(), line.end(), kQuoted), end;
           it != end; ++it) {
        rule_sets.push_back((*it)[1].str());
      }
    }
    for (const std::string& text : rule_sets) {
      ++checked;
      absl::StatusOr<RuleSet> rules = RuleSet::Parse(text);
      EXPECT_TRUE(rules.ok())
          << doc.name << ": `" << text << "`: " << rules.status();
    }
  }
  EXPECT_GE(checked, 3);
}

TEST(DocsExamplesTest, EveryOptionWordNamesAnOptionAndAValueItAccepts) {
  static const std::regex kWord(R"(^([a-z_]+)=(\S+)$)");
  int checked = 0;
  for (const Doc& doc : Docs()) {
    for (const std::string& span : CodeSpans(doc)) {
      std::smatch m;
      if (!std::regex_match(span, m, kWord)) continue;
      const std::string name = m[1].str();
      bool known = false;
      for (const OptionDoc& o : OptionDocs()) known |= o.name == name;
      if (!known) continue;  // e.g. `AC=1`, a declared value
      // Templates: `defaults_cost=N`, `game=callabra|tablanette`.
      if (std::regex_match(m[2].str(), std::regex("[A-Z]|.*[|].*"))) continue;
      ++checked;
      RuleSet rules;
      absl::Status s = rules.Set(name, m[2].str());
      EXPECT_TRUE(s.ok()) << doc.name << ": `" << span << "`: " << s;
    }
  }
  EXPECT_GE(checked, 20);
}

// A move in a code span parses and is written in canonical form (the
// pages show the notation the referee prints and records store).
TEST(DocsExamplesTest, EveryMoveInACodeSpanParsesAndIsCanonical) {
  int checked = 0;
  for (const Doc& doc : Docs()) {
    for (const std::string& span : CodeSpans(doc)) {
      if (!absl::StartsWith(span, "trail ") &&
          !absl::StartsWith(span, "take ") &&
          !absl::StartsWith(span, "build ") &&
          !absl::StartsWith(span, "pluck ")) {
        continue;
      }
      // Notation templates such as `take <played> <every card taken>`.
      if (absl::StrContains(span, '<') || absl::StrContains(span, "…")) {
        continue;
      }
      ++checked;
      absl::StatusOr<Move> move = Move::Parse(span);
      ASSERT_TRUE(move.ok())
          << doc.name << ": `" << span << "`: " << move.status();
      EXPECT_EQ(move->ToString(), span) << doc.name;
    }
  }
  EXPECT_GE(checked, 20);
}

}  // namespace
}  // namespace cassino
