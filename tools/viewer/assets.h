// The viewer's static files (tools/viewer/assets: the page's script, style
// sheet and icon), compiled into the binary by CMake (embed_assets.cmake
// writes assets.cc), so `cassino serve` and `cassino replay --format html`
// need nothing beside the executable.
//
// Lifetimes: static; the views are valid for the whole program.

#ifndef CASSINO_TOOLS_VIEWER_ASSETS_H_
#define CASSINO_TOOLS_VIEWER_ASSETS_H_

#include <span>
#include <string_view>

namespace cassino::viewer {

struct Asset {
  std::string_view name;  // file name, e.g. "app.js"
  std::string_view content_type;
  std::string_view body;
};

std::span<const Asset> Assets();
// nullptr when there is no asset of that name.
const Asset* FindAsset(std::string_view name);

}  // namespace cassino::viewer

#endif  // CASSINO_TOOLS_VIEWER_ASSETS_H_
