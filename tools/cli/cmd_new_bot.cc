// cassino new-bot: writes a starter kit (tools/cli/starter_kits.h).

#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <memory>
#include <string>

#include "tools/cli/build_paths.h"
#include "tools/cli/commands.h"
#include "tools/cli/starter_kits.h"

#ifndef CASSINO_SOURCE_DIR
#error "CASSINO_SOURCE_DIR must name the repository (tools/CMakeLists.txt)"
#endif

namespace cassino::cli {
namespace {

namespace fs = std::filesystem;

struct NewBotOptions {
  std::string language;
  std::string dir;
  std::string name = "mybot";
  std::string sdk_dir = CASSINO_SOURCE_DIR "/sdk";
};

// This binary's build: the reference bot beside it (build/tools/bots/),
// and for C++ the client library the build exports
// (build/cassino-bot-client/) and the library's example bot.
KitPaths PathsOf(const NewBotOptions& opt) {
  KitPaths paths;
  paths.sdk_dir = fs::absolute(opt.sdk_dir).lexically_normal().string();
  paths.cassino = ThisProgram();
  paths.cassino_bot = BesideThisProgram({"bots/cassino-bot"}, "cassino-bot");
  if (opt.language == "cpp") {
    const std::string config = BesideThisProgram(
        {"../cassino-bot-client/CassinoBotClientConfig.cmake"}, "");
    if (!config.empty()) {
      paths.cpp_client_dir = fs::path(config).parent_path().string();
    }
    const fs::path bots = fs::path(CASSINO_SOURCE_DIR) / "tools" / "bots";
    paths.cpp_readme = (bots / "README.md").string();
    std::ifstream example(bots / "example_bot.cc", std::ios::binary);
    paths.cpp_example.assign(std::istreambuf_iterator<char>(example), {});
  }
  return paths;
}

int RunNewBot(const NewBotOptions& opt) {
  absl::StatusOr<std::vector<KitFile>> kit =
      StarterKit(opt.language, opt.name, PathsOf(opt));
  if (!kit.ok()) {
    std::cerr << "cassino new-bot: " << kit.status().message() << "\n";
    return 2;
  }
  const fs::path dir(opt.dir);
  std::error_code ec;
  if (fs::exists(dir, ec) && !fs::is_empty(dir, ec)) {
    std::cerr << "cassino new-bot: " << dir << " exists and is not empty\n";
    return 2;
  }
  fs::create_directories(dir, ec);
  if (ec) {
    std::cerr << "cassino new-bot: cannot create " << dir << ": "
              << ec.message() << "\n";
    return 1;
  }
  for (const KitFile& f : *kit) {
    const fs::path path = dir / f.path;
    std::ofstream out(path, std::ios::binary);
    out << f.contents;
    out.close();
    if (!out) {
      std::cerr << "cassino new-bot: cannot write " << path << "\n";
      return 1;
    }
    if (f.executable) {
      fs::permissions(path,
                      fs::perms::owner_exec | fs::perms::group_exec |
                          fs::perms::others_exec,
                      fs::perm_options::add, ec);
    }
  }
  std::cout << "wrote a " << opt.language << " bot '" << opt.name << "' in "
            << dir.string() << "\nplay it against greedy: " << dir.string()
            << "/play.sh\n";
  return 0;
}

}  // namespace

void AddNewBotCommand(CLI::App& app, int* exit_code) {
  auto opt = std::make_shared<NewBotOptions>();
  CLI::App* cmd = app.add_subcommand(
      "new-bot",
      "Write a starter kit: a minimal bot project on the SDK of a language "
      "(the bot, a README, and play.sh, which plays it against the "
      "reference bot greedy on a local referee with one command). "
      "Example: cassino new-bot --lang python mybot && mybot/play.sh");
  cmd->add_option("--lang", opt->language, "python, node or cpp")->required();
  cmd->add_option("DIR", opt->dir, "the folder to write (new, or empty)")
      ->required();
  cmd->add_option("--name", opt->name,
                  "the bot's name in standings (letters, digits, - and _; "
                  "default mybot)");
  cmd->add_option("--sdk-dir", opt->sdk_dir,
                  "the SDKs' folder (default: this repository's sdk/)");
  cmd->callback([opt, exit_code] { *exit_code = RunNewBot(*opt); });
}

}  // namespace cassino::cli
