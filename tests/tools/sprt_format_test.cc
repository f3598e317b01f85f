// tools/stats/sprt_format.h: the text and JSON forms of an SPRT result.

#include "tools/stats/sprt_format.h"

#include <string>

#include "gtest/gtest.h"

namespace cassino::stats {
namespace {

using competition::EloModel;
using competition::EvaluatePairs;
using competition::SprtParams;
using competition::SprtResult;

TEST(SprtFormatTest, TextAndJson) {
  SprtParams wide;
  wide.elo0 = -5;
  wide.elo1 = 20;
  wide.model = EloModel::kNormalized;
  const SprtResult r = EvaluatePairs(wide, {0, 0, 0, 0, 50});
  const std::string text = FormatSprtText(r, "new", "old");
  EXPECT_NE(text.find("H1 accepted"), std::string::npos) << text;
  EXPECT_NE(text.find("LLR      4.93 (-2.94, 2.94)"), std::string::npos)
      << text;
  EXPECT_NE(text.find("WW 50"), std::string::npos) << text;
  const std::string json = FormatSprtJson(r, "new", "old");
  EXPECT_NE(json.find("\"verdict\": \"H1\""), std::string::npos) << json;
  EXPECT_NE(json.find("\"WW\": 50"), std::string::npos) << json;
  // Infinite estimates are null in JSON.
  EXPECT_NE(json.find("\"value\": null"), std::string::npos) << json;
}

}  // namespace
}  // namespace cassino::stats
