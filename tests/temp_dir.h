// A fresh directory per test, under the system's temporary directory.

#ifndef CASSINO_TESTS_TEMP_DIR_H_
#define CASSINO_TESTS_TEMP_DIR_H_

#include <filesystem>
#include <random>
#include <string>

#include "gtest/gtest.h"

namespace cassino::testing {

inline std::filesystem::path TempDir() {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  std::filesystem::path dir =
      std::filesystem::temp_directory_path() /
      (std::string("cassino_") + info->test_suite_name() + "_" + info->name() +
       "_" + std::to_string(std::random_device{}()));
  std::filesystem::create_directories(dir);
  return dir;
}

}  // namespace cassino::testing

#endif  // CASSINO_TESTS_TEMP_DIR_H_
