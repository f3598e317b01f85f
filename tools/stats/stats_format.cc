// The output formats of Stats: text, CSV, JSON and a self-contained HTML
// page with inline SVG charts.

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "nlohmann/json.hpp"
#include "recorder/display_text.h"
#include "tools/stats/stats.h"
#include "tools/stats/table_format.h"

namespace cassino::stats {
namespace {

using OrderedJson = nlohmann::ordered_json;

std::string Num(double v, int decimals) {
  if (std::isnan(v)) return "nan";
  return absl::StrFormat("%.*f", decimals, v);
}
std::string Int(int64_t v) { return absl::StrCat(v); }

std::string Date(int64_t us) {
  const std::chrono::sys_days day(std::chrono::days(
      static_cast<int>(std::floor(static_cast<double>(us) / kDayUs))));
  const std::chrono::year_month_day ymd(day);
  return absl::StrFormat("%04d-%02d-%02d", static_cast<int>(ymd.year()),
                         static_cast<unsigned>(ymd.month()),
                         static_cast<unsigned>(ymd.day()));
}

std::string FilterText(const Filter& f) {
  std::vector<std::string> parts;
  if (!f.tournament.empty()) parts.push_back("tournament " + f.tournament);
  if (!f.bot.empty()) parts.push_back("bot " + f.bot);
  if (f.from_us != 0) parts.push_back("from " + Date(f.from_us));
  if (f.to_us != 0) parts.push_back("to " + Date(f.to_us - 1));
  if (!f.rules.empty()) parts.push_back("rules " + f.rules);
  return parts.empty() ? "all games" : absl::StrJoin(parts, ", ");
}

// One table of a report: what text, CSV and HTML print.

Table RuleSetsTable(const Stats& s) {
  Table t{"rule_sets", "Rule sets", {"rules", "games"}, 1, {}};
  for (const RuleSetCount& r : s.rule_sets) {
    t.rows.push_back({r.rules, absl::StrCat(r.games)});
  }
  return t;
}

Table SummaryTable(const Stats& s) {
  Table t{"summary", "Summary", {"key", "value"}, 2, {}};
  const Summary& m = s.summary;
  t.rows = {{"filter", FilterText(s.filter)},
            {"games", Int(m.games)},
            {"finished", Int(m.finished)},
            {"running", Int(m.running)},
            {"aborted", Int(m.aborted)},
            {"skipped_games", Int(m.skipped_games)},
            {"rounds", Int(m.rounds)},
            {"moves", Int(m.moves)},
            {"bots", Int(static_cast<int64_t>(s.bots.size()))},
            {"duplicate_pairs", Int(m.duplicate_pairs)},
            {"bad_events", Int(m.bad_events)},
            {"move_times", s.move_times ? "yes" : "no"},
            {"rating_iterations", Int(s.rating_iterations)},
            {"rating_converged", s.rating_converged ? "yes" : "no"}};
  return t;
}

Table BotsTable(const Stats& s) {
  Table t{"bots",
          "Bots by rating (win rate with 95% Wilson interval; Bradley-Terry "
          "rating on the Elo scale, mean 1500, with its 95% interval)",
          {"bot", "games", "wins", "losses", "draws", "self_play", "win_rate",
           "win_low", "win_high", "rating", "rating_low", "rating_high",
           "rating_se"},
          1,
          {}};
  for (const BotStats& b : s.bots) {
    t.rows.push_back({b.name, Int(b.games), Int(b.wins), Int(b.losses),
                      Int(b.draws), Int(b.self_play), Num(b.win_rate.rate, 4),
                      Num(b.win_rate.low, 4), Num(b.win_rate.high, 4),
                      Num(b.rating, 1), Num(b.rating - 1.96 * b.rating_se, 1),
                      Num(b.rating + 1.96 * b.rating_se, 1),
                      Num(b.rating_se, 1)});
  }
  return t;
}

Table PointsTable(const Stats& s) {
  Table t{"points", "Mean points per round by item", {"bot", "rounds"}, 1, {}};
  for (int k = 0; k < kItemKinds; ++k) t.header.emplace_back(ItemName(k));
  t.header.push_back("total");
  for (const BotStats& b : s.bots) {
    std::vector<std::string> row = {b.name, Int(b.rounds)};
    for (int k = 0; k < kItemKinds; ++k) {
      row.push_back(Num(b.points_per_round[k], 3));
    }
    row.push_back(Num(b.total_per_round, 3));
    t.rows.push_back(std::move(row));
  }
  return t;
}

Table ConductTable(const Stats& s) {
  Table t{"conduct",
          s.move_times ? "Conduct (move time percentiles, rejected "
                         "submissions, forfeits)"
                       : "Conduct (move events not read: no move times)",
          {"bot", "moves", "move_p50_ms", "move_p95_ms", "rejects", "forfeits",
           "timeouts"},
          1,
          {}};
  for (const BotStats& b : s.bots) {
    t.rows.push_back({b.name, Int(b.moves), Num(b.move_p50_ms, 0),
                      Num(b.move_p95_ms, 0), Int(b.rejects), Int(b.forfeits),
                      Int(b.timeouts)});
  }
  return t;
}

// Long form: one row per ordered pair that met.
Table HeadToHeadTable(const Stats& s) {
  Table t{"head_to_head",
          "Head to head (pairwise results; los: likelihood that bot is "
          "stronger than opponent)",
          {"bot", "opponent", "wins", "losses", "draws", "los"},
          2,
          {}};
  for (size_t i = 0; i < s.bots.size(); ++i) {
    for (size_t j = 0; j < s.bots.size(); ++j) {
      if (i == j) continue;
      const HeadToHead& h = s.head_to_head[i][j];
      t.rows.push_back({s.bots[i].name, s.bots[j].name, Int(h.wins),
                        Int(h.losses), Int(h.draws), Num(s.los[i][j], 4)});
    }
  }
  return t;
}

// Matrix forms for text and HTML.
Table HeadToHeadMatrix(const Stats& s) {
  Table t{"head_to_head_matrix",
          "Head to head: row against column, wins-losses-draws",
          {"bot"},
          1,
          {}};
  for (const BotStats& b : s.bots) t.header.push_back(b.name);
  for (size_t i = 0; i < s.bots.size(); ++i) {
    std::vector<std::string> row = {s.bots[i].name};
    for (size_t j = 0; j < s.bots.size(); ++j) {
      const HeadToHead& h = s.head_to_head[i][j];
      row.push_back(i == j ? "-"
                           : absl::StrCat(h.wins, "-", h.losses, "-", h.draws));
    }
    t.rows.push_back(std::move(row));
  }
  return t;
}

Table LosMatrix(const Stats& s) {
  Table t{"los_matrix",
          "Likelihood of superiority: P(row is stronger than column), %",
          {"bot"},
          1,
          {}};
  for (const BotStats& b : s.bots) t.header.push_back(b.name);
  for (size_t i = 0; i < s.bots.size(); ++i) {
    std::vector<std::string> row = {s.bots[i].name};
    for (size_t j = 0; j < s.bots.size(); ++j) {
      row.push_back(i == j ? "-" : Num(100 * s.los[i][j], 1));
    }
    t.rows.push_back(std::move(row));
  }
  return t;
}

Table SeatsTable(const Stats& s) {
  Table t{"seats",
          "Seat advantage: how often the side holding the seat won",
          {"players", "sides", "seat", "games", "wins", "win_rate", "win_low",
           "win_high", "expected"},
          0,
          {}};
  for (const SeatStats& x : s.seats) {
    t.rows.push_back({Int(x.players), Int(x.sides), Int(x.seat),
                      Int(x.win_rate.trials), Int(x.win_rate.successes),
                      Num(x.win_rate.rate, 4), Num(x.win_rate.low, 4),
                      Num(x.win_rate.high, 4), Num(x.expected, 4)});
  }
  return t;
}

Table DuplicatesTable(const Stats& s) {
  Table t{"duplicates",
          absl::StrCat("Duplicate pairs (same decks, sides swapped; ",
                       s.summary.duplicate_pairs, " pairs)"),
          {"bot_a", "bot_b", "pairs", "a_wins", "b_wins", "draws"},
          2,
          {}};
  for (const DuplicateResult& d : s.duplicates) {
    t.rows.push_back({s.bots[d.a].name, s.bots[d.b].name, Int(d.pairs),
                      Int(d.a_wins), Int(d.b_wins), Int(d.draws)});
  }
  return t;
}

std::string Html(const std::string& v) {
  std::string out;
  out.reserve(v.size());
  for (char c : v) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string RenderHtmlTable(const Table& t) {
  std::string out = absl::StrCat("<h2>", Html(t.title), "</h2>\n<table>\n<tr>");
  for (size_t c = 0; c < t.header.size(); ++c) {
    absl::StrAppend(&out, "<th>", Html(t.header[c]), "</th>");
  }
  out += "</tr>\n";
  for (const auto& row : t.rows) {
    out += "<tr>";
    for (size_t c = 0; c < row.size(); ++c) {
      absl::StrAppend(&out, c < t.left_columns ? "<td>" : "<td class=\"n\">",
                      Html(row[c]), "</td>");
    }
    out += "</tr>\n";
  }
  if (t.rows.empty()) {
    absl::StrAppend(&out, "<tr><td colspan=\"", t.header.size(),
                    "\">(none)</td></tr>\n");
  }
  return out + "</table>\n";
}

// ---------------------------------------------------------------------------
// SVG charts.

constexpr const char* kPalette[] = {"#4e79a7", "#f28e2b", "#e15759", "#76b7b2",
                                    "#59a14f", "#edc948", "#b07aa1", "#ff9da7",
                                    "#9c755f", "#bab0ac"};

// A "nice" tick step giving about `ticks` ticks over `span`.
double NiceStep(double span, int ticks) {
  if (span <= 0) return 1;
  const double raw = span / ticks;
  const double mag = std::pow(10, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 2.5, 5.0, 10.0}) {
    if (m * mag >= raw) return m * mag;
  }
  return 10 * mag;
}

std::string F(double v) { return absl::StrFormat("%.1f", v); }

// Room for the longest bot name as a chart label (about 7 px a character
// at 12 px), within bounds.
double LabelWidth(const Stats& s) {
  size_t longest = 4;
  for (const BotStats& b : s.bots) longest = std::max(longest, b.name.size());
  return 16 + 7.0 * std::min<size_t>(longest, 32);
}

}  // namespace

std::string RatingsChart(const Stats& s) {
  const size_t n = s.bots.size();
  if (n == 0) return "<p>No rated bots.</p>\n";
  const double left = LabelWidth(s), right = 90, top = 30, row = 26;
  const double width = 860, plot = width - left - right;
  const double height = top + row * n + 40;
  double lo = 1500, hi = 1500;
  for (const BotStats& b : s.bots) {
    const double e = std::isnan(b.rating_se) ? 0 : 1.96 * b.rating_se;
    lo = std::min(lo, b.rating - e);
    hi = std::max(hi, b.rating + e);
  }
  const double step = NiceStep(std::max(hi - lo, 20.0), 6);
  lo = std::floor(lo / step) * step;
  hi = std::ceil(hi / step) * step;
  if (hi <= lo) hi = lo + step;
  auto x = [&](double v) { return left + (v - lo) / (hi - lo) * plot; };
  std::string out = absl::StrCat(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" "
      "role=\"img\" aria-label=\"ratings\" width=\"",
      F(width), "\" height=\"", F(height), "\" viewBox=\"0 0 ", F(width), " ",
      F(height), "\">\n");
  // Grid and axis.
  for (double v = lo; v <= hi + step / 2; v += step) {
    absl::StrAppend(&out, "<line x1=\"", F(x(v)), "\" y1=\"", F(top - 8),
                    "\" x2=\"", F(x(v)), "\" y2=\"", F(top + row * n),
                    "\" stroke=\"#ddd\"/>\n<text x=\"", F(x(v)), "\" y=\"",
                    F(top + row * n + 18),
                    "\" text-anchor=\"middle\" class=\"tick\">", Num(v, 0),
                    "</text>\n");
  }
  absl::StrAppend(&out, "<line x1=\"", F(x(1500)), "\" y1=\"", F(top - 8),
                  "\" x2=\"", F(x(1500)), "\" y2=\"", F(top + row * n),
                  "\" stroke=\"#888\" stroke-dasharray=\"4 3\"/>\n");
  absl::StrAppend(&out, "<text x=\"", F(left + plot / 2), "\" y=\"",
                  F(height - 4),
                  "\" text-anchor=\"middle\" class=\"axis\">rating (Elo "
                  "scale, mean 1500), bars: 95% interval</text>\n");
  for (size_t i = 0; i < n; ++i) {
    const BotStats& b = s.bots[i];
    const double y = top + row * i + row / 2;
    const double e = std::isnan(b.rating_se) ? 0 : 1.96 * b.rating_se;
    const char* color = kPalette[i % 10];
    absl::StrAppend(&out, "<text x=\"", F(left - 8), "\" y=\"", F(y + 4),
                    "\" text-anchor=\"end\" class=\"label\">", Html(b.name),
                    "</text>\n");
    absl::StrAppend(&out, "<line x1=\"", F(x(b.rating - e)), "\" y1=\"", F(y),
                    "\" x2=\"", F(x(b.rating + e)), "\" y2=\"", F(y),
                    "\" stroke=\"", color, "\" stroke-width=\"2\"/>\n");
    for (double v : {b.rating - e, b.rating + e}) {
      absl::StrAppend(&out, "<line x1=\"", F(x(v)), "\" y1=\"", F(y - 6),
                      "\" x2=\"", F(x(v)), "\" y2=\"", F(y + 6), "\" stroke=\"",
                      color, "\" stroke-width=\"2\"/>\n");
    }
    absl::StrAppend(&out, "<circle cx=\"", F(x(b.rating)), "\" cy=\"", F(y),
                    "\" r=\"5\" fill=\"", color, "\"><title>", Html(b.name),
                    ": ", Num(b.rating, 0), " ± ", Num(e, 0),
                    "</title></circle>\n");
    absl::StrAppend(&out, "<text x=\"", F(left + plot + 8), "\" y=\"", F(y + 4),
                    "\" class=\"value\">", Num(b.rating, 0), " ± ", Num(e, 0),
                    "</text>\n");
  }
  return out + "</svg>\n";
}

namespace {

// Red (0) through light grey (0.5) to green (1).
std::string HeatColor(double score) {
  struct Rgb {
    double r, g, b;
  };
  const Rgb red{215, 48, 39}, mid{247, 247, 247}, green{26, 152, 80};
  const Rgb& a = score < 0.5 ? red : mid;
  const Rgb& b = score < 0.5 ? mid : green;
  const double t = score < 0.5 ? score * 2 : (score - 0.5) * 2;
  return absl::StrFormat("rgb(%d,%d,%d)",
                         static_cast<int>(a.r + (b.r - a.r) * t),
                         static_cast<int>(a.g + (b.g - a.g) * t),
                         static_cast<int>(a.b + (b.b - a.b) * t));
}

std::string HeatMap(const Stats& s) {
  const size_t n = s.bots.size();
  if (n == 0) return "<p>No games.</p>\n";
  const double cell = std::clamp(640.0 / n, 14.0, 72.0);
  const double left = LabelWidth(s), top = 10 + 0.8 * LabelWidth(s);
  const double width = left + cell * n + 20, height = top + cell * n + 20;
  std::string out = absl::StrCat(
      "<svg class=\"chart\" role=\"img\" aria-label=\"head to head\" "
      "width=\"",
      F(width), "\" height=\"", F(height), "\" viewBox=\"0 0 ", F(width), " ",
      F(height), "\">\n");
  for (size_t j = 0; j < n; ++j) {
    const double cx = left + cell * j + cell / 2;
    absl::StrAppend(&out, "<text transform=\"translate(", F(cx + 4), ",",
                    F(top - 8), ") rotate(-50)\" class=\"label\">",
                    Html(s.bots[j].name), "</text>\n");
  }
  for (size_t i = 0; i < n; ++i) {
    const double y = top + cell * i;
    absl::StrAppend(&out, "<text x=\"", F(left - 8), "\" y=\"",
                    F(y + cell / 2 + 4),
                    "\" text-anchor=\"end\" "
                    "class=\"label\">",
                    Html(s.bots[i].name), "</text>\n");
    for (size_t j = 0; j < n; ++j) {
      const double x = left + cell * j;
      const HeadToHead& h = s.head_to_head[i][j];
      const int64_t games = h.wins + h.losses + h.draws;
      std::string fill = "#e6e6e6";
      std::string tip =
          absl::StrCat(s.bots[i].name, " vs ", s.bots[j].name, ": no games");
      if (i != j && games > 0) {
        const double score = (h.wins + 0.5 * h.draws) / games;
        fill = HeatColor(score);
        tip = absl::StrCat(s.bots[i].name, " vs ", s.bots[j].name, ": ", h.wins,
                           "-", h.losses, "-", h.draws, " (",
                           Num(100 * score, 1), "%)");
      }
      if (i == j) fill = "#bdbdbd";
      absl::StrAppend(&out, "<rect x=\"", F(x), "\" y=\"", F(y), "\" width=\"",
                      F(cell - 1), "\" height=\"", F(cell - 1), "\" fill=\"",
                      fill, "\"><title>", Html(tip), "</title></rect>\n");
      if (i != j && games > 0 && cell >= 44) {
        absl::StrAppend(&out, "<text x=\"", F(x + cell / 2), "\" y=\"",
                        F(y + cell / 2 + 4),
                        "\" text-anchor=\"middle\" class=\"cell\">", h.wins,
                        "-", h.losses, "-", h.draws, "</text>\n");
      }
    }
  }
  return out + "</svg>\n";
}

std::string PointsChart(const Stats& s) {
  const size_t n = s.bots.size();
  if (n == 0) return "<p>No rounds.</p>\n";
  const double left = 50, top = 20 + 18 * ((n + 3) / 4), bottom = 40;
  const double plot_h = 260;
  const double group = std::max(110.0, 14.0 * n + 30);
  const double width = left + group * static_cast<int>(kItemKinds) + 20;
  const double height = top + plot_h + bottom;
  double max = 0;
  for (const BotStats& b : s.bots) {
    for (double v : b.points_per_round) max = std::max(max, v);
  }
  const double step = NiceStep(std::max(max, 0.5), 5);
  const double ymax = std::ceil(std::max(max, 0.5) / step) * step;
  auto y = [&](double v) { return top + plot_h - v / ymax * plot_h; };
  std::string out = absl::StrCat(
      "<svg class=\"chart\" role=\"img\" aria-label=\"points by item\" "
      "width=\"",
      F(width), "\" height=\"", F(height), "\" viewBox=\"0 0 ", F(width), " ",
      F(height), "\">\n");
  // Legend.
  for (size_t i = 0; i < n; ++i) {
    const double lx = left + 200 * (i % 4), ly = 8 + 18 * (i / 4);
    absl::StrAppend(&out, "<rect x=\"", F(lx), "\" y=\"", F(ly),
                    "\" width=\"12\" height=\"12\" fill=\"", kPalette[i % 10],
                    "\"/><text x=\"", F(lx + 16), "\" y=\"", F(ly + 11),
                    "\" class=\"label\">", Html(s.bots[i].name), "</text>\n");
  }
  for (double v = 0; v <= ymax + step / 2; v += step) {
    absl::StrAppend(&out, "<line x1=\"", F(left), "\" y1=\"", F(y(v)),
                    "\" x2=\"", F(width - 10), "\" y2=\"", F(y(v)),
                    "\" stroke=\"#ddd\"/><text x=\"", F(left - 6), "\" y=\"",
                    F(y(v) + 4), "\" text-anchor=\"end\" class=\"tick\">",
                    Num(v, step < 0.1 ? 2
                           : step < 1 ? 1
                                      : 0),
                    "</text>\n");
  }
  const double bar = (group - 30) / n;
  for (int k = 0; k < kItemKinds; ++k) {
    const double gx = left + group * k + 15;
    for (size_t i = 0; i < n; ++i) {
      const double v = s.bots[i].points_per_round[k];
      absl::StrAppend(&out, "<rect x=\"", F(gx + bar * i), "\" y=\"", F(y(v)),
                      "\" width=\"", F(std::max(bar - 1, 1.0)), "\" height=\"",
                      F(y(0) - y(v)), "\" fill=\"", kPalette[i % 10],
                      "\"><title>", Html(s.bots[i].name), " ", ItemName(k),
                      ": ", Num(v, 3), "</title></rect>\n");
    }
    absl::StrAppend(&out, "<text x=\"", F(gx + (group - 30) / 2), "\" y=\"",
                    F(y(0) + 18), "\" text-anchor=\"middle\" class=\"label\">",
                    ItemName(k), "</text>\n");
  }
  absl::StrAppend(&out, "<line x1=\"", F(left), "\" y1=\"", F(y(0)), "\" x2=\"",
                  F(width - 10), "\" y2=\"", F(y(0)), "\" stroke=\"#444\"/>\n");
  return out + "</svg>\n";
}

constexpr const char kCss[] = R"css(
body { font-family: "DejaVu Sans", Helvetica, Arial, sans-serif; margin: 24px;
       color: #222; background: #fff; }
h1 { font-size: 22px; margin: 0 0 4px 0; }
h2 { font-size: 16px; margin: 26px 0 8px 0; }
p.meta { color: #555; margin: 0 0 12px 0; }
table { border-collapse: collapse; font-size: 13px; }
th, td { border: 1px solid #ccc; padding: 3px 8px; }
th { background: #f0f0f0; text-align: left; }
td.n { text-align: right; font-variant-numeric: tabular-nums; }
tr:nth-child(even) td { background: #fafafa; }
svg.chart { display: block; margin: 6px 0 10px 0; }
svg .label { font-size: 12px; fill: #222; }
svg .tick { font-size: 11px; fill: #555; }
svg .axis { font-size: 12px; fill: #444; }
svg .value { font-size: 11px; fill: #333; }
svg .cell { font-size: 11px; fill: #111; }
)css";

}  // namespace

std::string FormatText(const Stats& s) {
  std::string out = absl::StrCat(
      "cassino stats: ", FilterText(s.filter), "\n", s.summary.games,
      " games (", s.summary.finished, " finished, ", s.summary.running,
      " running, ", s.summary.aborted, " aborted), ", s.summary.rounds,
      " rounds, ", s.summary.moves, " moves, ", s.bots.size(), " bots, ",
      s.summary.duplicate_pairs, " duplicate pairs\n");
  if (s.summary.bad_events > 0 || s.summary.skipped_games > 0) {
    absl::StrAppend(&out, "warning: ", s.summary.bad_events,
                    " unreadable events, ", s.summary.skipped_games,
                    " unreadable games (skipped)\n");
  }
  absl::StrAppend(&out, "ratings: Bradley-Terry maximum likelihood, ",
                  s.rating_iterations, " Newton iterations",
                  s.rating_converged ? "" : " (NOT converged)", "\n");
  if (s.rule_sets.size() > 1) {
    absl::StrAppend(&out, "note: the ratings mix ", s.rule_sets.size(),
                    " rule sets; --rules selects one\n");
  }
  for (const Table& t :
       {RuleSetsTable(s), BotsTable(s), HeadToHeadMatrix(s), LosMatrix(s),
        PointsTable(s), ConductTable(s), SeatsTable(s), DuplicatesTable(s)}) {
    absl::StrAppend(&out, "\n", RenderText(t));
  }
  return out;
}

std::string FormatCsv(const Stats& s) {
  std::vector<std::string> parts;
  for (const Table& t : {SummaryTable(s), RuleSetsTable(s), BotsTable(s),
                         PointsTable(s), ConductTable(s), HeadToHeadTable(s),
                         SeatsTable(s), DuplicatesTable(s)}) {
    parts.push_back(RenderCsv(t));
  }
  return absl::StrJoin(parts, "\n");
}

std::string FormatJson(const Stats& s) {
  OrderedJson j;
  j["filter"] = {{"tournament", s.filter.tournament},
                 {"bot", s.filter.bot},
                 {"from_us", s.filter.from_us},
                 {"to_us", s.filter.to_us},
                 {"rules", s.filter.rules}};
  const Summary& m = s.summary;
  j["summary"] = {{"games", m.games},
                  {"finished", m.finished},
                  {"running", m.running},
                  {"aborted", m.aborted},
                  {"skipped_games", m.skipped_games},
                  {"rounds", m.rounds},
                  {"moves", m.moves},
                  {"bots", s.bots.size()},
                  {"duplicate_pairs", m.duplicate_pairs},
                  {"bad_events", m.bad_events},
                  {"move_times", s.move_times}};
  OrderedJson rule_sets = OrderedJson::array();
  for (const RuleSetCount& r : s.rule_sets) {
    rule_sets.push_back({{"rules", r.rules}, {"games", r.games}});
  }
  j["rule_sets"] = rule_sets;
  j["rating_model"] = {{"model", "bradley-terry"},
                       {"scale", "elo"},
                       {"mean", 1500},
                       {"interval", "rating +- 1.96 * rating_se"},
                       {"iterations", s.rating_iterations},
                       {"converged", s.rating_converged}};
  OrderedJson bots = OrderedJson::array();
  for (const BotStats& b : s.bots) {
    OrderedJson points;
    for (int k = 0; k < kItemKinds; ++k) {
      points[std::string(ItemName(k))] = b.points_per_round[k];
    }
    points["total"] = b.total_per_round;
    bots.push_back({{"name", b.name},
                    {"games", b.games},
                    {"wins", b.wins},
                    {"losses", b.losses},
                    {"draws", b.draws},
                    {"self_play", b.self_play},
                    {"win_rate", b.win_rate.rate},
                    {"win_rate_low", b.win_rate.low},
                    {"win_rate_high", b.win_rate.high},
                    {"rating", b.rating},
                    {"rating_se", b.rating_se},
                    {"rating_low", b.rating - 1.96 * b.rating_se},
                    {"rating_high", b.rating + 1.96 * b.rating_se},
                    {"rounds", b.rounds},
                    {"points_per_round", std::move(points)},
                    {"moves", b.moves},
                    {"move_p50_ms", b.move_p50_ms},
                    {"move_p95_ms", b.move_p95_ms},
                    {"rejects", b.rejects},
                    {"forfeits", b.forfeits},
                    {"timeouts", b.timeouts},
                    {"duplicate",
                     {{"pairs", b.dup_pairs},
                      {"wins", b.dup_wins},
                      {"losses", b.dup_losses},
                      {"draws", b.dup_draws}}}});
  }
  j["bots"] = std::move(bots);
  OrderedJson h2h = OrderedJson::array();
  for (size_t i = 0; i < s.bots.size(); ++i) {
    for (size_t k = 0; k < s.bots.size(); ++k) {
      if (i == k) continue;
      const HeadToHead& h = s.head_to_head[i][k];
      h2h.push_back({{"bot", s.bots[i].name},
                     {"opponent", s.bots[k].name},
                     {"wins", h.wins},
                     {"losses", h.losses},
                     {"draws", h.draws},
                     {"los", s.los[i][k]}});
    }
  }
  j["head_to_head"] = std::move(h2h);
  OrderedJson seats = OrderedJson::array();
  for (const SeatStats& x : s.seats) {
    seats.push_back({{"players", x.players},
                     {"sides", x.sides},
                     {"seat", x.seat},
                     {"games", x.win_rate.trials},
                     {"wins", x.win_rate.successes},
                     {"win_rate", x.win_rate.rate},
                     {"win_rate_low", x.win_rate.low},
                     {"win_rate_high", x.win_rate.high},
                     {"expected", x.expected}});
  }
  j["seats"] = std::move(seats);
  OrderedJson dups = OrderedJson::array();
  for (const DuplicateResult& d : s.duplicates) {
    dups.push_back({{"bot_a", s.bots[d.a].name},
                    {"bot_b", s.bots[d.b].name},
                    {"pairs", d.pairs},
                    {"a_wins", d.a_wins},
                    {"b_wins", d.b_wins},
                    {"draws", d.draws}});
  }
  j["duplicates"] = std::move(dups);
  return j.dump(2, ' ', false, OrderedJson::error_handler_t::replace) + "\n";
}

std::string FormatHtml(const Stats& s) {
  std::string out = absl::StrCat(
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta "
      "charset=\"utf-8\">\n<title>Cassino stats</title>\n<style>",
      kCss, "</style>\n</head>\n<body>\n<h1>Cassino bot statistics</h1>\n");
  absl::StrAppend(&out, "<p class=\"meta\">", Html(FilterText(s.filter)),
                  " &middot; ", s.summary.finished, " finished games of ",
                  s.summary.games, " (", s.summary.running, " running, ",
                  s.summary.aborted, " aborted) &middot; ", s.summary.rounds,
                  " rounds &middot; ", s.summary.moves, " moves &middot; ",
                  s.summary.duplicate_pairs, " duplicate pairs</p>\n");
  out += "<h2>Ratings (Bradley-Terry, Elo scale, 95% intervals)</h2>\n";
  out += RatingsChart(s);
  out += "<h2>Head to head (row vs column; green: row scores more)</h2>\n";
  out += HeatMap(s);
  out += "<h2>Mean points per round by item</h2>\n";
  out += PointsChart(s);
  for (const Table& t :
       {BotsTable(s), HeadToHeadMatrix(s), LosMatrix(s), PointsTable(s),
        ConductTable(s), SeatsTable(s), DuplicatesTable(s), RuleSetsTable(s),
        SummaryTable(s)}) {
    out += RenderHtmlTable(t);
  }
  out += "</body>\n</html>\n";
  return out;
}

}  // namespace cassino::stats
