#include "tools/cli/build_paths.h"

#include <filesystem>
#include <system_error>

namespace cassino::cli {

namespace fs = std::filesystem;

std::string ThisProgram() {
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  return ec ? "cassino" : self.string();
}

std::string BesideThisProgram(std::initializer_list<const char*> relative,
                              const std::string& fallback) {
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  if (ec) return fallback;
  for (const char* r : relative) {
    const fs::path candidate = (self.parent_path() / r).lexically_normal();
    if (fs::exists(candidate, ec)) return candidate.string();
  }
  return fallback;
}

}  // namespace cassino::cli
