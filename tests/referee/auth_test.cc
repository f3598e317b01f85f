#include "referee/auth.h"

#include "gtest/gtest.h"
#include "referee/call_metadata.h"

namespace cassino::service {
namespace {

TEST(AuthTest, TokensAreFreshAndHashed) {
  const std::string a = NewToken(), b = NewToken();
  EXPECT_EQ(a.size(), 64u);
  EXPECT_NE(a, b);
  EXPECT_EQ(HashToken(a).size(), 64u);
  EXPECT_NE(HashToken(a), a);
  EXPECT_EQ(HashToken(a), HashToken(a));
  // SHA-256("abc").
  EXPECT_EQ(HashToken("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

TEST(AuthTest, ConstantTimeEquals) {
  EXPECT_TRUE(ConstantTimeEquals("abc", "abc"));
  EXPECT_FALSE(ConstantTimeEquals("abc", "abd"));
  EXPECT_FALSE(ConstantTimeEquals("abc", "abcd"));
}

TEST(AuthTest, BearerToken) {
  std::multimap<grpc::string_ref, grpc::string_ref> md;
  EXPECT_FALSE(BearerToken(md).has_value());
  md.emplace("authorization", "Bearer xyz");
  EXPECT_EQ(BearerToken(md).value_or(""), "xyz");
  std::multimap<grpc::string_ref, grpc::string_ref> basic;
  basic.emplace("authorization", "Basic xyz");
  EXPECT_FALSE(BearerToken(basic).has_value());
}

}  // namespace
}  // namespace cassino::service
