#include "tools/viewer/page.h"

#include <cstdint>
#include <span>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "rules/deal.h"
#include "tools/viewer/assets.h"

namespace cassino::viewer {

namespace {

// (Debian's Abseil has its own string_view.)
absl::string_view AssetBody(std::string_view name) {
  const Asset* a = FindAsset(name);
  return a == nullptr ? absl::string_view()
                      : absl::string_view(a->body.data(), a->body.size());
}

constexpr char kHead[] =
    "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
    "<meta name=\"viewport\" content=\"width=device-width, "
    "initial-scale=1\">\n<title>Cassino viewer</title>\n";

}  // namespace

std::string ServedPageHtml() {
  return absl::StrCat(
      kHead,
      "<link rel=\"icon\" href=\"/assets/favicon.svg\">\n"
      "<link rel=\"stylesheet\" href=\"/assets/app.css\">\n"
      "<link rel=\"stylesheet\" href=\"/assets/ladder.css\">\n"
      "<script src=\"/assets/ladder.js\" defer></script>\n"
      "<script src=\"/assets/app.js\" defer></script>\n"
      "<script src=\"/assets/seat.js\" defer></script>\n</head>\n"
      "<body>\n<div id=\"app\"><noscript>The viewer needs JavaScript; the "
      "data is at /api/games.</noscript></div>\n</body>\n</html>\n");
}

std::string StandaloneGameHtml(const std::string& game_json) {
  const absl::string_view script = AssetBody("app.js");
  const Digest digest = Sha256(std::span<const uint8_t>(
      reinterpret_cast<const uint8_t*>(script.data()), script.size()));
  const std::string hash = absl::Base64Escape(absl::string_view(
      reinterpret_cast<const char*>(digest.data()), digest.size()));
  return absl::StrCat(
      kHead,
      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src "
      "'none'; style-src 'unsafe-inline'; img-src data:; script-src 'sha256-",
      hash, "'\">\n<style>\n", AssetBody("app.css"),
      "</style>\n</head>\n<body>\n<div id=\"app\"></div>\n"
      "<script type=\"application/json\" id=\"game-data\">",
      game_json, "</script>\n<script>", script,
      "</script>\n</body>\n</html>\n");
}

}  // namespace cassino::viewer
