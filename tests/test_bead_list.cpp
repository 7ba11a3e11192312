// Lists along the chain as a case writes them (chain.materials, chain.radii, chain.velocity):
// each written form against the beads it must give, spelt out by hand.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "chaindem/setup/bead_list.hpp"

using namespace chaindem;

namespace {

// Beads 0 .. count-1 of `text` for a chain of `count`.
std::vector<std::string> beads(const std::string& text, long long count) {
  const BeadList<std::string> list = parse_bead_list(text).resolved(count);
  std::vector<std::string> out;
  for (long long k = 0; k < count; ++k) out.push_back(list.at(k));
  return out;
}

using Words = std::vector<std::string>;

}  // namespace

TEST(BeadList, PlainListsRepeatAlongTheChain) {
  EXPECT_EQ(beads("steel", 3), (Words{"steel", "steel", "steel"}));
  EXPECT_EQ(beads("a b", 5), (Words{"a", "b", "a", "b", "a"}));  // a dimer ending as it starts
  EXPECT_EQ(beads("a, b,,c", 3), (Words{"a", "b", "c"}));        // commas and blanks alike
}

TEST(BeadList, RepeatedItemsAndGroups) {
  EXPECT_EQ(beads("a*2, b*3", 5), (Words{"a", "a", "b", "b", "b"}));
  EXPECT_EQ(beads("a * 2 b", 6), (Words{"a", "a", "b", "a", "a", "b"}));
  EXPECT_EQ(beads("(a b)*2 c", 5), (Words{"a", "b", "a", "b", "c"}));
  EXPECT_EQ(beads("((a b*2)*2 c)*2", 14),
            (Words{"a", "b", "b", "a", "b", "b", "c", "a", "b", "b", "a", "b", "b", "c"}));
  EXPECT_EQ(parse_bead_list("((a b*2)*2 c)*2").period(), 14);
}

TEST(BeadList, BeadsSetApart) {
  EXPECT_EQ(beads("s 2=x", 4), (Words{"s", "s", "x", "s"}));
  EXPECT_EQ(beads("s -1=x 0=y", 4), (Words{"y", "s", "s", "x"}));
  EXPECT_EQ(beads("a*2 b*2 1 = x", 4), (Words{"a", "x", "b", "b"}));
  EXPECT_THROW(parse_bead_list("s 4=x").resolved(4), std::invalid_argument);   // past the end
  EXPECT_THROW(parse_bead_list("s -5=x").resolved(4), std::invalid_argument);  // before the start
  EXPECT_THROW(parse_bead_list("s 3=x -1=y").resolved(4), std::invalid_argument);  // twice
}

// A list of the longest chain is kept as written, not expanded.
TEST(BeadList, LongPatternsAreNotExpanded) {
  const BeadList<std::string> list = parse_bead_list("steel*25000000 ptfe*25000000");
  EXPECT_EQ(list.period(), 50'000'000);
  EXPECT_EQ(list.values(), (Words{"steel", "ptfe"}));
  const BeadList<std::string> chain = list.resolved(50'000'000);
  EXPECT_EQ(chain.at(24'999'999), "steel");
  EXPECT_EQ(chain.at(25'000'000), "ptfe");
  EXPECT_THROW(parse_bead_list("steel*50000001"), std::invalid_argument);
  EXPECT_THROW(parse_bead_list("(a*10000 b)*5000"), std::invalid_argument);  // 5.0005e7 beads
}

TEST(BeadList, NumbersReadAsEveryNumberIs) {
  const BeadList<double> r = parse_bead_numbers("0.005*3 4e-3 1=0.006").resolved(4);
  EXPECT_EQ(r.at(0), 0.005);
  EXPECT_EQ(r.at(1), 0.006);
  EXPECT_EQ(r.at(2), 0.005);
  EXPECT_EQ(r.at(3), 4e-3);
  EXPECT_THROW(parse_bead_numbers("0.005 x"), std::invalid_argument);
  EXPECT_THROW(parse_bead_numbers("0x10"), std::invalid_argument);
}

TEST(BeadList, WrongTextSaysWhatIsWrong) {
  auto message = [](const std::string& text) {
    try {
      parse_bead_list(text);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_NE(message("").find("empty list"), std::string::npos);
  EXPECT_NE(message("(a b").find("has no closing ')'"), std::string::npos);
  EXPECT_NE(message("a b)").find("closes no group"), std::string::npos);
  EXPECT_NE(message("()").find("empty group"), std::string::npos);
  EXPECT_NE(message("a*0").find("'0' is not a repeat count"), std::string::npos);
  EXPECT_NE(message("a*1.5").find("not a repeat count"), std::string::npos);
  EXPECT_NE(message("a*").find("not a repeat count"), std::string::npos);
  EXPECT_NE(message("*3").find("follows no item"), std::string::npos);
  EXPECT_NE(message("(a 1=b)").find("outside groups only"), std::string::npos);
  EXPECT_NE(message("a 1.5=b").find("not a bead index"), std::string::npos);
  EXPECT_NE(message("a 3=").find("set apart to nothing"), std::string::npos);
  EXPECT_NE(message("3=b").find("only beads set apart"), std::string::npos);
}
