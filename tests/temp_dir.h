// A fresh directory per test, under the system's temporary directory,
// removed when the test ends.

#ifndef CASSINO_TESTS_TEMP_DIR_H_
#define CASSINO_TESTS_TEMP_DIR_H_

#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <mutex>
#include <random>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include "gtest/gtest.h"

namespace cassino::testing {

// Removes the directories it was given when the test that gave them ends
// (gtest's OnTestEnd: after the fixture's TearDown and destructor, so the
// databases and child processes a fixture owns are closed by then). A
// failed test's directories are kept, and named on stderr, for a look;
// so is every directory when CASSINO_KEEP_TEST_DIRS is set.
class TempDirRemover : public ::testing::EmptyTestEventListener {
 public:
  // The one remover of this test program, registered with gtest on first
  // use.
  static TempDirRemover& Get() {
    static TempDirRemover* const remover = [] {
      auto* r = new TempDirRemover;  // gtest's listener list owns it
      ::testing::UnitTest::GetInstance()->listeners().Append(r);
      return r;
    }();
    return *remover;
  }

  void Add(std::filesystem::path dir) {
    std::lock_guard<std::mutex> lock(mu_);
    dirs_.push_back(std::move(dir));
  }

  void OnTestEnd(const ::testing::TestInfo& info) override {
    std::vector<std::filesystem::path> dirs;
    {
      std::lock_guard<std::mutex> lock(mu_);
      dirs.swap(dirs_);
    }
    const bool keep = info.result()->Failed() ||
                      std::getenv("CASSINO_KEEP_TEST_DIRS") != nullptr;
    for (const std::filesystem::path& dir : dirs) {
      if (keep) {
        std::cerr << "test directory kept: " << dir.string() << "\n";
        continue;
      }
      std::error_code ignored;  // best effort: a leftover is no failure
      std::filesystem::remove_all(dir, ignored);
    }
  }

 private:
  TempDirRemover() = default;

  std::mutex mu_;
  std::vector<std::filesystem::path> dirs_;
};

// `dir` is removed with its contents when the current test ends (see
// TempDirRemover). Returns `dir`.
inline std::filesystem::path RemoveAtTestEnd(std::filesystem::path dir) {
  TempDirRemover::Get().Add(dir);
  return dir;
}

// A new directory named for the current test, removed when it ends.
inline std::filesystem::path TempDir() {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  std::filesystem::path dir =
      std::filesystem::temp_directory_path() /
      (std::string("cassino_") + info->test_suite_name() + "_" + info->name() +
       "_" + std::to_string(std::random_device{}()));
  std::filesystem::create_directories(dir);
  return RemoveAtTestEnd(std::move(dir));
}

}  // namespace cassino::testing

#endif  // CASSINO_TESTS_TEMP_DIR_H_
