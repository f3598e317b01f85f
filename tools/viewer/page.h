// The viewer's HTML: the shell `cassino serve` answers for every page (the
// script in assets/app.js reads the URL and draws Home, Live, Game or
// Tournament from the JSON endpoints), and the self-contained page of one
// game (`cassino replay --format html`): the same script and style sheet
// inlined with the game's JSON, no network access at all.
//
// Both pages are locked down by a Content-Security-Policy: the served one
// by the header kServedCsp (scripts and styles only from the server's own
// /assets), the standalone one by a <meta> policy allowing exactly the
// inlined script (by its SHA-256) and nothing from the network.
//
// Lifetimes: values.

#ifndef CASSINO_TOOLS_VIEWER_PAGE_H_
#define CASSINO_TOOLS_VIEWER_PAGE_H_

#include <string>

namespace cassino::viewer {

inline constexpr char kServedCsp[] =
    "default-src 'none'; script-src 'self'; style-src 'self'; "
    "img-src 'self'; connect-src 'self'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'";

std::string ServedPageHtml();

// `game_json` is a game view as DumpJson wrote it (so it cannot close the
// <script> element that holds it).
std::string StandaloneGameHtml(const std::string& game_json);

}  // namespace cassino::viewer

#endif  // CASSINO_TOOLS_VIEWER_PAGE_H_
