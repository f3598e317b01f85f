// A table of statistics and its text and CSV renderings, shared by the
// formats of `cassino stats` (stats.h) and of `--ladder` (ladder.h).

#ifndef CASSINO_TOOLS_STATS_TABLE_FORMAT_H_
#define CASSINO_TOOLS_STATS_TABLE_FORMAT_H_

#include <cstddef>
#include <string>
#include <vector>

namespace cassino::stats {

struct Table {
  std::string name;   // CSV section name
  std::string title;  // for people
  std::vector<std::string> header;
  size_t left_columns = 1;  // columns aligned left (the rest right)
  std::vector<std::vector<std::string>> rows;
};

// The title, then the header and rows aligned, every cell escaped
// (recorder/display_text.h: names come from records); "(none)" for no rows.
std::string RenderText(const Table& table);
// RFC 4180 CSV: "# name", the header row, the rows.
std::string CsvField(const std::string& v);
std::string RenderCsv(const Table& table);

}  // namespace cassino::stats

#endif  // CASSINO_TOOLS_STATS_TABLE_FORMAT_H_
