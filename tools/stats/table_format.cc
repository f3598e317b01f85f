#include "tools/stats/table_format.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "recorder/display_text.h"

namespace cassino::stats {

std::string RenderText(const Table& table) {
  // Bot names come from the record, which may hold control characters
  // (an imported record, or one from before they were refused).
  Table t = table;
  t.title = recorder::EscapeDisplay(t.title);
  for (std::string& cell : t.header) cell = recorder::EscapeDisplay(cell);
  for (auto& row : t.rows) {
    for (std::string& cell : row) cell = recorder::EscapeDisplay(cell);
  }
  std::vector<size_t> width(t.header.size(), 0);
  for (size_t c = 0; c < t.header.size(); ++c) width[c] = t.header[c].size();
  for (const auto& row : t.rows) {
    for (size_t c = 0; c < row.size() && c < width.size(); ++c) {
      width[c] = std::max(width[c], row[c].size());
    }
  }
  std::string out = absl::StrCat(t.title, "\n");
  auto line = [&](const std::vector<std::string>& cells) {
    std::string l;
    for (size_t c = 0; c < cells.size(); ++c) {
      if (c > 0) l += "  ";
      const size_t pad = width[c] - std::min(width[c], cells[c].size());
      if (c < t.left_columns) {
        l += cells[c];
        if (c + 1 < cells.size()) l.append(pad, ' ');
      } else {
        l.append(pad, ' ');
        l += cells[c];
      }
    }
    out += l + "\n";
  };
  line(t.header);
  if (t.rows.empty()) out += "(none)\n";
  for (const auto& row : t.rows) line(row);
  return out;
}

std::string CsvField(const std::string& v) {
  if (v.find_first_of(",\"\n\r") == std::string::npos) return v;
  std::string out = "\"";
  for (char c : v) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

std::string RenderCsv(const Table& t) {
  std::string out = absl::StrCat("# ", t.name, "\n");
  auto line = [&](const std::vector<std::string>& cells) {
    for (size_t c = 0; c < cells.size(); ++c) {
      if (c > 0) out += ',';
      out += CsvField(cells[c]);
    }
    out += '\n';
  };
  line(t.header);
  for (const auto& row : t.rows) line(row);
  return out;
}

}  // namespace cassino::stats
