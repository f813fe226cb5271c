//===- JsonTest.cpp - The manifest JSON reader ----------------------------===//

#include "Json.h"

#include <gtest/gtest.h>

using namespace fa4::json;

namespace {

std::string parseError(const std::string &text) {
  try {
    parse(text);
  } catch (const ParseError &error) {
    return error.what();
  }
  return "no error";
}

TEST(JsonTest, ReadsEveryKind) {
  Value value = parse(R"( {"a": [1, -2.5e1, true, false, null], "b": "x",
                           "c": {}} )");
  ASSERT_EQ(value.kind, Value::Kind::Object);
  const Value *array = value.find("a");
  ASSERT_TRUE(array);
  ASSERT_EQ(array->array.size(), 5u);
  EXPECT_EQ(array->array[0].number, 1);
  EXPECT_EQ(array->array[1].number, -25);
  EXPECT_TRUE(array->array[2].boolean);
  EXPECT_EQ(array->array[3].kind, Value::Kind::Bool);
  EXPECT_EQ(array->array[4].kind, Value::Kind::Null);
  EXPECT_EQ(value.find("b")->string, "x");
  EXPECT_EQ(value.find("c")->kind, Value::Kind::Object);
  EXPECT_EQ(value.find("d"), nullptr);
}

TEST(JsonTest, KeepsMemberOrder) {
  Value value = parse(R"({"z": 1, "a": 2})");
  EXPECT_EQ(value.object[0].first, "z");
  EXPECT_EQ(value.object[1].first, "a");
}

TEST(JsonTest, DecodesEscapes) {
  EXPECT_EQ(parse(R"("a\"b\\c\/d\n\t")").string, "a\"b\\c/d\n\t");
  EXPECT_EQ(parse(R"("\u00e9")").string, "\xC3\xA9");
  EXPECT_EQ(parse(R"("\ud83d\ude00")").string, "\xF0\x9F\x98\x80");
}

TEST(JsonTest, IntegersAreExact) {
  EXPECT_TRUE(parse("200000").isInteger());
  EXPECT_TRUE(parse("-1").isInteger());
  EXPECT_FALSE(parse("0.5").isInteger());
  EXPECT_FALSE(parse("\"1\"").isInteger());
  EXPECT_FALSE(parse("1e300").isInteger());
}

TEST(JsonTest, ReportsLineAndColumn) {
  EXPECT_EQ(parseError("{\n  \"a\": tru\n}"), "2:8: invalid literal");
  EXPECT_EQ(parseError("[1, 2"), "1:6: expected ']'");
}

TEST(JsonTest, RejectsMalformedInput) {
  EXPECT_NE(parseError(""), "no error");
  EXPECT_EQ(parseError("{\"a\": 1, \"a\": 2}"), "1:13: duplicate key \"a\"");
  EXPECT_EQ(parseError("[1,]"), "1:4: invalid value");
  EXPECT_EQ(parseError("01"), "1:2: unexpected text after the JSON value");
  EXPECT_EQ(parseError("1."), "1:3: expected a digit after '.'");
  EXPECT_EQ(parseError("\"abc"), "1:5: unterminated string");
  EXPECT_EQ(parseError("\"\\x\""), "1:4: invalid escape '\\x'");
  EXPECT_EQ(parseError("\"\\ud800\""), "1:8: unpaired UTF-16 surrogate");
  EXPECT_EQ(parseError("{1: 2}"), "1:2: expected a string key");
  EXPECT_EQ(parseError("[] []"), "1:4: unexpected text after the JSON value");
  EXPECT_EQ(parseError(std::string(100, '[')), "1:66: nesting deeper than 64");
}

} // namespace

TEST(JsonTest, RendersCompactly) {
  EXPECT_EQ(render(parse(R"({"a": [1, 2.5, true, null], "b": "x"})")),
            R"({"a":[1,2.5,true,null],"b":"x"})");
  EXPECT_EQ(render(parse(R"([1, 2, 3, 4])"), 4), "[1,2...");
}

TEST(JsonTest, FindsTheFirstDifference) {
  Value a = parse(R"({"x": [1, {"y": 2}], "z": "s"})");
  EXPECT_EQ(firstDifference(a, a), std::nullopt);
  // Members in another order are equal.
  EXPECT_EQ(firstDifference(a, parse(R"({"z": "s", "x": [1, {"y": 2}]})")),
            std::nullopt);
  EXPECT_EQ(firstDifference(a, parse(R"({"x": [1, {"y": 3}], "z": "s"})")),
            "x[1].y");
  EXPECT_EQ(firstDifference(a, parse(R"({"x": [1], "z": "s"})")), "x");
  EXPECT_EQ(firstDifference(a, parse(R"({"x": [1, {"y": 2}]})")), "z");
  EXPECT_EQ(
      firstDifference(a, parse(R"({"x": [1, {"y": 2}], "z": "s", "w": 0})")),
      "w");
  EXPECT_EQ(firstDifference(a, parse(R"({"x": [1, {"y": 2}], "z": 1})")), "z");
  EXPECT_EQ(firstDifference(parse("1"), parse("2")), "");
  EXPECT_EQ(firstDifference(parse("[[1, 2]]"), parse("[[1, 3]]")), "[0][1]");
}

TEST(JsonTest, FollowsAPath) {
  Value a = parse(R"({"x": [1, {"y": 2}], "z": "s"})");
  ASSERT_NE(atPath(a, "x[1].y"), nullptr);
  EXPECT_EQ(atPath(a, "x[1].y")->number, 2);
  EXPECT_EQ(atPath(a, ""), &a);
  EXPECT_EQ(atPath(a, "x[2]"), nullptr);
  EXPECT_EQ(atPath(a, "w"), nullptr);
  EXPECT_EQ(atPath(a, "z[0]"), nullptr);
}
