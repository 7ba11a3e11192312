// Case files: valid input, overrides, and every kind of invalid input naming its key.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "chaindem/commands/sweep_definition.hpp"
#include "chaindem/setup/case_file.hpp"
#include "chaindem/text.hpp"
#include "test_support.hpp"

using namespace chaindem;

namespace {

const std::string base =
    "[simulation]\nduration = 1e-3\n"
    "[contact]\nlaw = hunt_crossley\nrestitution = 0.8\n"
    "[material.steel]\nyoungs_modulus = 200e9\npoisson_ratio = 0.3\ndensity = 7800\n"
    "[chain]\ncount = 4\nmaterials = steel\nradii = 0.005\n"
    "[striker]\nvelocity = 1\n";

// The CaseError message for `ini` with `overrides`, or "" if it is valid.
std::string error_of(const std::string& ini, const std::vector<std::string>& overrides = {}) {
  try {
    test::setup_from(ini, overrides);
  } catch (const CaseError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST(CaseFile, ValidCaseResolvesDefaults) {
  const CaseConfig cfg = CaseConfig::parse(base, "base.ini");
  EXPECT_EQ(cfg.text("contact.tension"), "law");
  EXPECT_FALSE(cfg.given("contact.tension"));
  EXPECT_TRUE(cfg.given("chain.count"));
  EXPECT_EQ(cfg.integer("chain.count"), 4);
  const RunSetup run = build_run(cfg);
  EXPECT_EQ(run.scene.particles.size(), 5);
  EXPECT_EQ(run.settings.law->id, "hunt_crossley");
  EXPECT_EQ(run.settings.tension, TensionPolicy::clamp);  // the law's own policy
  // v0 of the hysteresis laws: the largest speed or the stored speed, no floor; second order.
  EXPECT_EQ(run.settings.impact_velocity, SimulationSettings::ImpactVelocity::energy);
  EXPECT_FALSE(run.settings.law_params.count("impact_velocity_floor"));
  EXPECT_TRUE(run.settings.static_origin);
  EXPECT_EQ(run.settings.integrator, SimulationSettings::Integrator::second_order);
  // The onset policy sets the automatic floor, 1 % of the largest relative speed (the striker's).
  const RunSetup onset = test::setup_from(base, {"contact.impact_velocity=onset"});
  EXPECT_DOUBLE_EQ(onset.settings.law_params.at("impact_velocity_floor"),
                   0.01 * onset.scene.particles.velocity.col(0).maxCoeff());
  // The reference policy takes the largest relative speed unless given.
  const RunSetup reference = test::setup_from(base, {"contact.impact_velocity=reference"});
  EXPECT_DOUBLE_EQ(reference.settings.reference_velocity,
                   reference.scene.particles.velocity.col(0).maxCoeff());
  EXPECT_GT(run.settings.time_step, 0.0);
  EXPECT_EQ(run.output_file, "");  // none given: the command chooses (out/...)
}

TEST(CaseFile, CommandLineOverridesWin) {
  const RunSetup run =
      test::setup_from(base, {"chain.count=7", "contact.restitution=0.5", "contact.tension=allow"});
  EXPECT_EQ(run.scene.chain_count, 7);
  EXPECT_EQ(run.settings.law_params.at("restitution"), 0.5);
  EXPECT_EQ(run.settings.tension, TensionPolicy::allow);
}

// A sweep reads its first case and makes the others from it with their own axis values: each
// must be what reading the files with those values gives, and be refused as that would be.
TEST(CaseFile, OtherValuesGiveWhatReadingThemGives) {
  const std::vector<std::string> sources{"s.ini [set]", "s.ini [axes]", "s.ini [axes]"};
  const CaseConfig first = CaseConfig::parse(
      base, "base.ini", {"chain.count=7", "contact.restitution=0.5", "striker.velocity=1"}, {},
      sources);
  const CaseConfig other = first.with_values({"contact.restitution= 0.25 ", "striker.velocity=2"},
                                             {"s.ini [axes]", "s.ini [axes]"});
  const CaseConfig read = CaseConfig::parse(
      base, "base.ini", {"chain.count=7", "contact.restitution= 0.25 ", "striker.velocity=2"}, {},
      sources);
  EXPECT_EQ(other.resolved(), read.resolved());
  EXPECT_EQ(other.text("contact.restitution"), "0.25");
  EXPECT_EQ(first.text("contact.restitution"), "0.5");  // the first case is left as it was
  for (const std::string key : {"contact.restitution", "chain.count", "contact.law"}) {
    EXPECT_EQ(other.where(key), read.where(key)) << key;
    EXPECT_EQ(other.given(key), read.given(key)) << key;
  }
  // A value refused as reading it refuses it, blamed on where it came from.
  auto refusal = [](auto&& make) {
    try {
      make();
    } catch (const CaseError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  const std::string message =
      refusal([&] { first.with_values({"striker.velocity=2e4"}, {"s.ini [axes]"}); });
  EXPECT_EQ(message, refusal([&] {
              CaseConfig::parse(
                  base, "base.ini",
                  {"chain.count=7", "contact.restitution=0.5", "striker.velocity=2e4"}, {},
                  sources);
            }));
  EXPECT_NE(message.find("s.ini [axes] striker.velocity: 2e4 is out of range"), std::string::npos)
      << message;
  // Only the values of keys an override of the same source set.
  EXPECT_THROW(first.with_values({"chain.gap=1e-5"}, {"s.ini [axes]"}), std::logic_error);
  EXPECT_THROW(first.with_values({"chain.count=8"}, {"s.ini [axes]"}), std::logic_error);
}

// The cases made of one with other values are each their own: forgetting keys of one (as `run`
// does with the keys its law ignores) leaves the others, and the case they were made of, whole.
TEST(CaseFile, ForgettingKeysOfOneCaseLeavesTheOthers) {
  const std::vector<std::string> sources{"s.ini [axes]", "s.ini [axes]"};
  const CaseConfig first = CaseConfig::parse(
      base, "base.ini", {"contact.restitution=0.5", "striker.velocity=1"}, {}, sources);
  const CaseConfig second = first.with_values({"contact.restitution=0.25"}, {"s.ini [axes]"});
  CaseConfig third = first.with_values({"contact.restitution=0.75"}, {"s.ini [axes]"});
  third.forget({"contact.restitution", "chain.count"});
  EXPECT_FALSE(third.has("contact.restitution"));
  EXPECT_FALSE(third.has("chain.count"));
  EXPECT_EQ(third.resolved().count("contact.restitution"), 0u);
  EXPECT_EQ(first.text("contact.restitution"), "0.5");
  EXPECT_EQ(second.text("contact.restitution"), "0.25");
  for (const CaseConfig* kept : {&first, &second}) {
    EXPECT_TRUE(kept->has("chain.count"));
    EXPECT_TRUE(kept->given("chain.count"));
    EXPECT_TRUE(kept->from_command_line("contact.restitution"));
    EXPECT_EQ(kept->resolved().size(), first.resolved().size());
  }
  EXPECT_EQ(third.resolved().size() + 2, first.resolved().size());
}

TEST(CaseFile, ChainBuilders) {
  const std::string mats =
      base + "[material.brass]\nyoungs_modulus = 100e9\npoisson_ratio = 0.34\ndensity = 8500\n";
  // Dimer pattern of materials and radii.
  RunSetup dimer =
      test::setup_from(mats, {"chain.materials=steel,brass", "chain.radii=0.005 0.003"});
  const auto& p = dimer.scene.particles;
  EXPECT_EQ(p.material[1], p.material[3]);
  EXPECT_NE(p.material[1], p.material[2]);
  EXPECT_DOUBLE_EQ(p.radius(2), 0.003);
  EXPECT_DOUBLE_EQ(p.radius(3), 0.005);
  // Touching beads: centre distance = sum of radii.
  EXPECT_NEAR(p.position(2, 0) - p.position(1, 0), 0.008, 1e-15);
  // Tapered chain: r_k = r_0 q^k.
  RunSetup taper = test::setup_from(base, {"chain.taper=0.9"});
  EXPECT_NEAR(taper.scene.particles.radius(4), 0.005 * 0.9 * 0.9 * 0.9, 1e-15);
  // Gap and overlap.
  RunSetup gap = test::setup_from(base, {"chain.gap=1e-4"});
  EXPECT_NEAR(gap.scene.particles.position(2, 0) - gap.scene.particles.position(1, 0), 0.0101,
              1e-12);
  RunSetup overlap = test::setup_from(base, {"chain.overlap=1e-6"});
  EXPECT_NEAR(overlap.scene.particles.position(2, 0) - overlap.scene.particles.position(1, 0),
              0.01 - 1e-6, 1e-12);
  // Explicit list of radii.
  RunSetup list = test::setup_from(base, {"chain.radii=1e-3,2e-3,3e-3,4e-3"});
  EXPECT_DOUBLE_EQ(list.scene.particles.radius(4), 4e-3);
  // Extra particle off the axis.
  RunSetup extra = test::setup_from(base, {"extra.particles=steel 0.002 0.03 0.02 0 0 -1 0"});
  EXPECT_EQ(extra.scene.particles.size(), 6);
  EXPECT_DOUBLE_EQ(extra.scene.particles.position(5, 1), 0.02);
}

TEST(CaseFile, InvalidInputNamesTheKey) {
  struct Bad {
    std::vector<std::string> overrides;
    std::string extra;
    std::string expected;  // substring of the message
  };
  const Bad cases[] = {
      {{}, "[chain]\ncont = 3\n", "unknown key 'chain.cont'"},
      {{"chain.radii=-0.01"}, "", "chain.radii: -0.01 is out of range: allowed [1e-09, 1000] m"},
      {{"contact.restitution=1.5"},
       "",
       "contact.restitution: 1.5 is out of range for law 'hunt_crossley': allowed [0, 1]"},
      {{"contact.law=flores", "contact.restitution=0"}, "", "allowed (0, 1]"},
      {{"chain.materials=stel"},
       "",
       "chain.materials: material 'stel' is not defined (defined: steel)"},
      {{"simulation.duration=0"}, "", "simulation.duration: 0 is out of range: allowed (0, inf) s"},
      {{"contact.law=hertzz"}, "", "contact.law: 'hertzz' is not a law of chaindem"},
      // A law chosen on the command line ignores the file's parameters it lacks (with a note),
      // not those given with it.
      {{"contact.law=hertz", "contact.restitution=0.5"},
       "",
       "--set contact.restitution: is not a parameter of law 'hertz'"},
      {{"contact.law=hooke", "contact.restitution=0.5"}, "", "not a parameter of law 'hooke'"},
      {{"chain.count=0"}, "", "chain.count: 0 is out of range"},
      {{"chain.count=2.5"}, "", "chain.count: '2.5' is not an integer"},
      {{"material.steel.poisson_ratio=0.7"},
       "",
       "material.steel.poisson_ratio: 0.7 is out of range"},
      {{"wall_end.enabled=true"}, "", "wall_end.material: is missing"},
      {{"simulation.duration=abc"}, "", "'abc' is not a number"},
      {{"contact.tension=sometimes"},
       "",
       "contact.tension: 'sometimes' is not one of: law, clamp, allow"},
  };
  for (const Bad& b : cases) {
    const std::string message = error_of(base + b.extra, b.overrides);
    EXPECT_NE(message.find(b.expected), std::string::npos)
        << "expected '" << b.expected << "' in '" << message << "'";
  }
  // A missing required key and a missing law parameter.
  EXPECT_NE(error_of("[contact]\nlaw = hertz\n").find("is missing"), std::string::npos);
  std::string no_restitution = base;
  no_restitution.replace(no_restitution.find("restitution = 0.8\n"), 18, "");
  EXPECT_NE(error_of(no_restitution)
                .find("contact.restitution: is missing: law 'hunt_crossley' requires it"),
            std::string::npos);
  // A key given twice.
  EXPECT_NE(error_of(base + "[chain]\ncount = 5\n").find("more than once"), std::string::npos);
}

// A line that holds the placeholder Boost.Program_options' message replaces ("%invalid_line%") is
// quoted as written; Boost's own message would replace it forever.
TEST(CaseFile, PlaceholdersInALineAreQuotedAsWritten) {
  const std::string line = "x %invalid_line% %value% 100%";
  EXPECT_NE(error_of("[simulation]\n" + line + "\n").find("invalid line '" + line + "'"),
            std::string::npos);
  // An override is one line: one that would add another is refused, the text quoted as given.
  const std::string two_lines = error_of(base, {"chain.count=4\n" + line});
  EXPECT_NE(two_lines.find("a value is one line"), std::string::npos) << two_lines;
  EXPECT_NE(two_lines.find(line), std::string::npos) << two_lines;
  const std::string sweep_line = "[sweep]\nbase = case.ini\n" + line + "\n";
  try {
    (void)sweep::parse_sweep(sweep_line, "sweep.ini", {});
    ADD_FAILURE() << "no CaseError";
  } catch (const CaseError& e) {
    EXPECT_NE(std::string(e.what()).find("invalid line '" + line + "'"), std::string::npos);
  }
}

// A key and a value given apart from the file's lines (--set, --unset, a sweep's [set] and
// [axes]) are one key and one line: what would start another line, section or key, or a comment,
// is refused naming the key; the same key and value without it are read.
TEST(CaseFile, SettingsAreOneKeyOnOneLine) {
  EXPECT_EQ(CaseConfig::parse(base, "base.ini", {" chain.count = 3"}).integer("chain.count"), 3);
  const std::string two = "steel 0.005 0 1 0 0 0 0; steel 0.005 0 2 0 0 0 0";  // ';' separates
  EXPECT_EQ(CaseConfig::parse(base, "base.ini", {"extra.particles=" + two}).text("extra.particles"),
            two);
  const std::vector<std::pair<std::string, std::string>> refused{
      {"chain.count=3\n[striker]\nvelocity=2", "--set 'chain.count': the value '3\\x0A[striker]"},
      {"chain.count=3\rstriker.velocity=2", "holds a line break (\\x0D)"},
      {"chain.count=3\t", "holds a control character (\\x09)"},
      {"output.file=a#b.h5", "--set 'output.file': the value 'a#b.h5' holds '#'"},
      {"chain.count #=3", "--set 'chain.count #': the key holds a blank"},
      {"chain.count#=3", "--set 'chain.count#': the key holds '#'"},
      {"[chain]count=3", "--set '[chain]count': the key holds '['"},
      {"chain]count=3", "the key holds ']'"},
      {"chain;count=3", "the key holds ';'"},
      {"\nchain.count=3", "--set '\\x0Achain.count': the key holds a line break (\\x0A)"},
      {"=3", "--set '=3': expected section.key=value"},
      {"chain.count", "--set 'chain.count': expected section.key=value"},
  };
  for (const auto& [setting, message] : refused) {
    const std::string error = error_of(base, {setting});
    EXPECT_NE(error.find(message), std::string::npos) << quoted_text(setting) << ": " << error;
  }
  try {
    (void)CaseConfig::parse(base, "base.ini", {}, {"chain.count\n[x]"});
    ADD_FAILURE() << "no CaseError";
  } catch (const CaseError& e) {
    EXPECT_NE(std::string(e.what()).find("--unset 'chain.count\\x0A[x]': the key holds a line"),
              std::string::npos);
  }
  const std::string sweep = "[sweep]\nbase = case.ini\n[set]\n";
  for (const auto& [text, message] : std::vector<std::pair<std::string, std::string>>{
           {sweep + "chain count = 3\n", "sweep.ini [set] 'chain count': the key holds a blank"},
           {sweep + "chain.count] = 3\n", "sweep.ini [set] 'chain.count]': the key holds ']'"},
           {sweep + "[axes]\nchain;count = 3, 4\n", "sweep.ini [axes] 'chain;count'"},
           {sweep + "output.file = a\x1b.h5\n", "the value 'a\\x1B.h5' is not text"}}) {
    try {
      (void)sweep::parse_sweep(text, "sweep.ini", {});
      ADD_FAILURE() << "no CaseError: " << quoted_text(text);
    } catch (const CaseError& e) {
      EXPECT_NE(std::string(e.what()).find(message), std::string::npos) << e.what();
    }
  }
}

// A case read with its lines ended by LF, CR LF or a lone CR (old Mac OS), with a byte-order mark
// or without, is the same case.
TEST(CaseFile, EveryLineEndReadsAlike) {
  const CaseConfig plain = CaseConfig::parse(base, "base.ini");
  auto ended = [](std::string text, const std::string& end) {
    for (auto at = text.find('\n'); at != std::string::npos; at = text.find('\n', at + end.size()))
      text.replace(at, 1, end);
    return text;
  };
  for (const std::string& text :
       {ended(base, "\r\n"), ended(base, "\r"), "\xEF\xBB\xBF" + ended(base, "\r")})
    EXPECT_EQ(CaseConfig::parse(text, "base.ini").resolved(), plain.resolved())
        << quoted_text(text);
  // Line ends mixed in one file: each ends its line.
  const CaseConfig mixed =
      CaseConfig::parse(ended(base, "\r") + "\n[extra]\r\nparticles = steel", "base.ini");
  EXPECT_EQ(mixed.integer("chain.count"), 4);
  EXPECT_EQ(mixed.text("extra.particles"), "steel");
  EXPECT_EQ(text_lines("a\rb\r\nc\n\rd\r"), "a\nb\nc\n\nd\n");
}

// What a law refuses for a pair of the case (here a line contact without a length, and a
// clearance on a wall contact) is invalid input, named under contact.law.
TEST(CaseFile, LawRefusingAPairIsInvalidInput) {
  EXPECT_NE(error_of(base, {"contact.law=johnson_cylindrical"})
                .find("contact.law: law 'johnson_cylindrical' is a line contact of cylinders"),
            std::string::npos);
  EXPECT_NE(
      error_of(base + "[wall_end]\nenabled = true\nmaterial = steel\n",
               {"contact.law=pereira_2011", "chain.cylinder_length=0.01", "contact.clearance=1e-4"})
          .find("contact.law: law 'pereira_2011': clearance (an internal contact) cannot "
                "apply to a wall contact"),
      std::string::npos);
}

// A base case whose name the system cannot look up (a component longer than any file system
// allows) is invalid input, not a filesystem error.
TEST(SweepFile, UnresolvableBaseIsInvalidInput) {
  const std::string text = "[sweep]\nbase = " + std::string(5000, 'b') + ".ini\n";
  try {
    (void)sweep::parse_sweep(text, "sweep.ini", {});
    ADD_FAILURE() << "no CaseError";
  } catch (const CaseError& e) {
    EXPECT_NE(std::string(e.what()).find("sweep.base: '"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("cannot be resolved"), std::string::npos);
  }
}

// docs/case-format.md is generated from the key table; it must not drift from the code.
TEST(CaseFile, DocumentationMatchesKeyTable) {
  std::ifstream in(std::string(CHAINDEM_SOURCE_DIR) + "/docs/case-format.md");
  ASSERT_TRUE(in) << "docs/case-format.md missing";
  std::stringstream s;
  s << in.rdbuf();
  EXPECT_EQ(s.str(), case_format_markdown())
      << "regenerate with: build/chaindem case-format > docs/case-format.md";
}
