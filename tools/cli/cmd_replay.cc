// cassino replay DB... GAME [--seat N | --all] [--round R] [--move K]
//                           [--format text|html] [--out FILE].

#include <unistd.h>

#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "recorder/display_text.h"
#include "recorder/event_fields.h"
#include "recorder/payload.h"
#include "recorder/record.h"
#include "recorder/record_reader.h"
#include "recorder/replay.h"
#include "rules/game.h"
#include "rules/observation.h"
#include "tools/cli/commands.h"
#include "tools/cli/record_args.h"
#include "tools/viewer/page.h"
#include "tools/viewer/viewer.h"

namespace cassino::cli {
namespace {

constexpr char kDescription[] =
    R"doc(Show a recorded game move by move, replayed through the rules engine.

For each turn: the table (loose cards, and builds as [cards]=value@controller,
`m` marking a multiple build), the hands the viewer may see, and the move in
notation with what it captured and whether it swept; rejected submissions;
after each round the itemised score per side and the totals; the result.

VIEWS
  (default)   the public view: no hands, no decks.
  --seat N    what seat N saw: its own hand only.
  --all       every hand, and each round's deck.

ARGUMENTS
  DB     the record database (SQLite file); several files, or directories
         of them, are searched in turn for the game
  GAME   the game id
  --round R   show only round R
  --move K    stop after turn K (turns count accepted moves from 0)

HTML
  --format html writes the web viewer's game page (`cassino serve`) as one
  self-contained file: the cards drawn in SVG, step/back/play, the move
  list, the round scores, the result and the "verified" badge, with the
  game's data inlined and no network access. It shows what the viewer
  shows: every hand and deck once the game has finished (unless a game
  dealt the same cards is unfinished), the public view otherwise; --seat,
  --all, --round and --move do not apply. --out FILE writes it there
  instead of to standard output.

The record is read with the recorder and replayed with the engine; a record
the engine cannot replay stops the display at the offending event (use
`cassino verify` for a full check).

EXIT STATUS
  0  shown
  1  the game does not exist, or the record cannot be replayed
  2  usage error or the database cannot be opened)doc";

struct Options {
  std::vector<std::string> args;  // DB... GAME
  int seat = -1;
  bool all = false;
  int round = 0;
  int move = -1;
  std::string format = "text";
  std::string out;
};

// --format html: the viewer's page of the game, self-contained.
int RunHtml(const Options& opt, const RecordArgs& args) {
  if (opt.seat >= 0 || opt.all || opt.round != 0 || opt.move >= 0) {
    std::cerr << "cassino replay: --seat, --all, --round and --move do not "
                 "apply to --format html\n";
    return 2;
  }
  if (args.games.size() != 1) {
    std::cerr << "cassino replay: name one game after the database(s)\n";
    return 2;
  }
  absl::StatusOr<std::unique_ptr<viewer::Viewer>> v =
      viewer::Viewer::Open(args.databases);
  if (!v.ok()) {
    std::cerr << "cassino replay: " << v.status().message() << "\n";
    return 2;
  }
  absl::StatusOr<std::string> json = (*v)->GameJson(args.games[0]);
  if (!json.ok()) {
    std::cerr << "cassino replay: " << json.status().message() << "\n";
    return absl::IsNotFound(json.status()) ? 1 : 2;
  }
  const std::string html = viewer::StandaloneGameHtml(*json);
  if (opt.out.empty()) {
    std::cout << html;
    return std::cout.good() ? 0 : 2;
  }
  std::ofstream file(opt.out, std::ios::binary | std::ios::trunc);
  file << html;
  file.close();
  if (!file) {
    std::cerr << "cassino replay: cannot write " << opt.out << "\n";
    return 2;
  }
  return 0;
}

std::string ScoreLines(const RoundResult& r) {
  std::string out;
  for (const ScoreItem& item : r.score.items) {
    absl::StrAppend(&out, "    ", ScoreItemName(item.kind),
                    ScoreItemHasCard(item.kind)
                        ? absl::StrCat(" ", item.card.ToString())
                        : "",
                    " +", item.points, " side ", item.side, "\n");
  }
  for (size_t s = 0; s < r.score.sides.size(); ++s) {
    const SideTally& t = r.score.sides[s];
    absl::StrAppend(&out, "    side ", s, ": ", t.cards, " cards, ", t.spades,
                    " spades, ", t.aces, " aces", t.big_cassino ? ", TD" : "",
                    t.little_cassino ? ", 2S" : "", ", ", t.sweeps,
                    " sweeps: ", t.points, " points\n");
  }
  if (!r.leftovers.empty()) {
    absl::StrAppend(&out, "    leftovers ", r.leftovers.ToString(),
                    r.leftover_side >= 0
                        ? absl::StrCat(" to side ", r.leftover_side)
                        : std::string(" to nobody"),
                    "\n");
  }
  absl::StrAppend(&out, "    totals ", absl::StrJoin(r.totals_before, "-"),
                  " -> ", absl::StrJoin(r.totals_after, "-"), "\n");
  return out;
}

int Run(const Options& opt) {
  RecordArgs args;
  if (absl::Status s = SplitRecordArgs(opt.args, &args); !s.ok()) {
    std::cerr << "cassino replay: " << s.message() << "\n";
    return 2;
  }
  if (opt.format == "html") return RunHtml(opt, args);
  if (!opt.out.empty()) {
    std::cerr << "cassino replay: --out applies to --format html\n";
    return 2;
  }
  if (args.games.size() != 1) {
    std::cerr << "cassino replay: name one game after the database(s)\n";
    return 2;
  }
  const std::string& game_id = args.games[0];
  // Read-only: replaying never changes (or migrates) a database.
  absl::StatusOr<recorder::GameRecord> record =
      absl::NotFoundError(absl::StrCat("no game ", game_id));
  for (const std::string& db : args.databases) {
    absl::StatusOr<std::unique_ptr<recorder::RecordReader>> reader =
        recorder::RecordReader::Open(db);
    if (!reader.ok()) {
      std::cerr << "cassino replay: " << reader.status().message() << "\n";
      return 2;
    }
    record = (*reader)->Load(game_id);
    if (!absl::IsNotFound(record.status())) break;
  }
  if (!record.ok()) {
    std::cerr << "cassino replay: " << record.status().message() << "\n";
    return 1;
  }
  const recorder::GameHeader& h = record->header;
  absl::StatusOr<RuleSet> rules = recorder::HeaderRules(h);
  if (!rules.ok()) {
    std::cerr << "cassino replay: " << rules.status().message() << "\n";
    return 1;
  }
  if (opt.seat >= rules->players) {
    std::cerr << "cassino replay: the game has " << rules->players
              << " seats\n";
    return 2;
  }
  // Decks: from the seed when the database holds it, else the deal events.
  absl::StatusOr<DeckSource> decks = recorder::HeaderDecks(h);
  if (!decks.ok()) {
    std::vector<Deck> dealt;
    recorder::DealFields deal;
    for (const recorder::Event& e : record->events) {
      if (e.kind != recorder::EventKind::kDeal ||
          !recorder::ParseDealPayload(e.payload, &deal).ok()) {
        continue;
      }
      if (absl::StatusOr<Deck> deck = ParseDeck(deal.deck, rules->Pack());
          deck.ok()) {
        dealt.push_back(*deck);
      }
    }
    if (dealt.empty()) {
      std::cerr << "cassino replay: " << decks.status().message() << "\n";
      return 1;
    }
    decks = DeckSource::Explicit(std::move(dealt));
  }
  absl::StatusOr<Game> created = Game::Create(*rules, *decks);
  if (!created.ok()) {
    std::cerr << "cassino replay: " << created.status().message() << "\n";
    return 1;
  }
  Game game = *std::move(created);

  std::ostream& out = std::cout;
  // Names, labels and texts from the record are escaped: a record (an
  // imported one, or one written before they were checked) may hold
  // control characters.
  using recorder::EscapeDisplay;
  out << "Game " << EscapeDisplay(h.game_id)
      << (h.label.empty() ? "" : " (" + EscapeDisplay(h.label) + ")")
      << "\n  rules: " << EscapeDisplay(h.rules) << "\n  seats:";
  for (size_t s = 0; s < h.seats.size(); ++s) {
    out << " " << s << "=" << EscapeDisplay(h.seats[s].bot_name);
  }
  out << "\n  view: "
      << (opt.all         ? std::string("every hand")
          : opt.seat >= 0 ? absl::StrCat("seat ", opt.seat)
                          : std::string("public"))
      << "\n";
  auto shown = [&](int round) { return opt.round == 0 || round == opt.round; };
  auto show_state = [&]() {
    if (!shown(game.round())) return;
    out << "\nTurn " << game.turn() << " (round " << game.round() << ", deal "
        << game.deal() << "), seat " << game.to_move() << " to move\n";
    out << "  table: " << game.position().table.ToString() << "\n";
    if (opt.all) {
      for (int s = 0; s < rules->players; ++s) {
        out << "  hand seat " << s << ": "
            << game.position().hands[s].ToString() << "\n";
      }
    } else if (opt.seat >= 0) {
      // Exactly what the seat was entitled to see.
      const Observation o = Observe(game, opt.seat);
      out << "  hand seat " << opt.seat << ": " << o.hand.ToString() << "\n";
    }
  };
  auto fail = [&](const recorder::Event& e, absl::string_view what) {
    std::cerr << "cassino replay: event " << e.seq << " ("
              << recorder::EventKindName(e.kind)
              << "): " << recorder::EscapeDisplay(what) << "\n";
    return 1;
  };
  bool state_shown = false;
  recorder::EventFields p;
  for (const recorder::Event& e : record->events) {
    if (e.kind == recorder::EventKind::kCreate) continue;
    if (absl::Status s = p.Read(e.kind, e.payload); !s.ok()) {
      return fail(e, s.message());
    }
    switch (e.kind) {
      case recorder::EventKind::kCreate:
      case recorder::EventKind::kEnd:
        break;
      case recorder::EventKind::kDeal:
        if (shown(game.round())) {
          out << "\n=== Round " << game.round() << ", dealer seat "
              << game.dealer() << " ===\n";
          if (opt.all) out << "  deck: " << DeckToString(game.deck()) << "\n";
        }
        break;
      case recorder::EventKind::kReject:
        if (!state_shown) show_state();
        state_shown = true;
        if (shown(game.round())) {
          out << "  rejected from seat " << p.reject.seat << ": \""
              << EscapeDisplay(p.reject.submitted) << "\" ("
              << EscapeDisplay(p.reject.reason) << ")\n";
        }
        break;
      case recorder::EventKind::kMove: {
        if (opt.move >= 0 && game.turn() > opt.move) return 0;
        if (!state_shown) show_state();
        state_shown = false;
        absl::StatusOr<Move> move = Move::Parse(p.move.move);
        if (!move.ok()) return fail(e, move.status().message());
        const int seat = game.to_move();
        const int round = game.round();
        if (absl::Status s = game.Play(*move); !s.ok()) {
          return fail(
              e, absl::StrCat("illegal move ", p.move.move, ": ", s.message()));
        }
        const PlayedMove& played = game.history().back();
        if (shown(round)) {
          out << "  seat " << seat << " plays " << move->ToString();
          if (move->kind == MoveKind::kCapture) {
            out << "  -> captures " << played.outcome.captured.ToString();
            if (played.outcome.sweep) out << ", SWEEP";
          }
          out << "  {" << p.move.elapsed_ms << " ms}\n";
        }
        if (opt.move >= 0 && played.turn >= opt.move) return 0;
        break;
      }
      case recorder::EventKind::kRound: {
        const int r = p.round.round;
        if (r >= 1 && r <= static_cast<int>(game.rounds().size()) && shown(r)) {
          out << "\n  Score of round " << r << ":\n"
              << ScoreLines(game.rounds()[r - 1]);
        }
        break;
      }
      case recorder::EventKind::kForfeit:
        if (p.forfeit.seat < 0 || p.forfeit.seat >= rules->players) {
          return fail(e, "bad seat");
        }
        game.Forfeit(p.forfeit.seat, p.forfeit.detail);
        out << "\nForfeit: seat " << p.forfeit.seat << ": "
            << EscapeDisplay(p.forfeit.detail) << "\n";
        break;
      case recorder::EventKind::kAbort:
        game.Abort("");
        out << "\nAborted: " << EscapeDisplay(p.abort.detail) << "\n";
        break;
    }
  }
  if (game.over()) {
    const GameResult& r = *game.result();
    out << "\nResult: "
        << (r.winner >= 0 ? absl::StrCat("side ", r.winner, " wins")
                          : std::string("no winner"))
        << " (" << GameEndReasonName(r.reason) << "), totals "
        << absl::StrJoin(r.totals, "-") << "\n  " << r.detail << "\n";
  } else {
    out << "\n(the game is not over)\n";
  }
  return 0;
}

}  // namespace

void AddReplayCommand(CLI::App& app, int* exit_code) {
  auto* cmd = app.add_subcommand("replay", kDescription);
  auto opt = std::make_shared<Options>();
  cmd->add_option("DB... GAME", opt->args,
                  "the record database(s) (SQLite files, or directories of "
                  "them), then the game id")
      ->required();
  auto* seat = cmd->add_option("--seat", opt->seat,
                               "show what seat N saw (its own hand)")
                   ->check(CLI::Range(0, 3));
  cmd->add_flag("--all", opt->all, "show every hand and each deck")
      ->excludes(seat);
  cmd->add_option("--round", opt->round, "show only round R")
      ->check(CLI::Range(1, 1 << 20));
  cmd->add_option("--move", opt->move, "stop after turn K")
      ->check(CLI::Range(0, 1 << 20));
  cmd->add_option("--format", opt->format,
                  "text (default) or html: the web viewer's page, one file")
      ->check(CLI::IsMember({"text", "html"}));
  cmd->add_option("--out", opt->out, "with --format html: write to FILE");
  cmd->callback([opt, exit_code] { *exit_code = Run(*opt); });
}

}  // namespace cassino::cli
