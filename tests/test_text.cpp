// How messages quote what the user gave (chaindem/text.hpp): text that cannot act on a terminal
// and reads as it was given where it is UTF-8, numbers a message computes in short form.
#include <gtest/gtest.h>

#include <string>

#include "chaindem/text.hpp"

using chaindem::quoted_text;
using chaindem::rounded_text;
using chaindem::terminal_text;

TEST(QuotedText, PrintableAsciiIsKept) {
  EXPECT_EQ(quoted_text("case.ini"), "case.ini");
  EXPECT_EQ(quoted_text("a b ~ 'x'"), "a b ~ 'x'");
}

TEST(QuotedText, ControlCharactersAreEscaped) {
  EXPECT_EQ(quoted_text("\x1b[2J/o.h5"), "\\x1B[2J/o.h5");
  EXPECT_EQ(quoted_text(std::string("a\0b", 3)), "a\\x00b");
  EXPECT_EQ(quoted_text("a\r\n\tb\x7f"), "a\\x0D\\x0A\\x09b\\x7F");
}

TEST(QuotedText, Utf8TextReadsAsItIsNamed) {
  EXPECT_EQ(quoted_text("\xC2\xB5.ini"), "\xC2\xB5.ini");                          // µ.ini
  EXPECT_EQ(quoted_text("\xE6\x97\xA5\xE6\x9C\xAC"), "\xE6\x97\xA5\xE6\x9C\xAC");  // 日本
  EXPECT_EQ(quoted_text("\xF0\x9F\x98\x80"), "\xF0\x9F\x98\x80");                  // an emoji
}

TEST(QuotedText, BytesThatAreNotUtf8AreEscaped) {
  EXPECT_EQ(quoted_text("\xB5.ini"), "\\xB5.ini");            // Latin-1 µ
  EXPECT_EQ(quoted_text("\xC2"), "\\xC2");                    // a sequence cut short
  EXPECT_EQ(quoted_text("\xC2x"), "\\xC2x");                  // a lead byte without its follower
  EXPECT_EQ(quoted_text("\xC0\xAF"), "\\xC0\\xAF");           // '/' written overlong
  EXPECT_EQ(quoted_text("\xED\xA0\x80"), "\\xED\\xA0\\x80");  // a UTF-16 surrogate
  EXPECT_EQ(quoted_text("\xF4\x90\x80\x80"), "\\xF4\\x90\\x80\\x80");  // beyond U+10FFFF
  EXPECT_EQ(quoted_text("\xFF\xFE"), "\\xFF\\xFE");
}

TEST(QuotedText, CharactersThatShowAsNothingAreEscaped) {
  // A key that begins with a byte-order mark or holds a zero-width space reads as the key it is
  // not; a no-break space as a plain blank; U+2028 breaks the line.
  EXPECT_EQ(quoted_text("\xEF\xBB\xBF"
                        "chain.count"),
            "\\xEF\\xBB\\xBFchain.count");
  EXPECT_EQ(quoted_text("a\xE2\x80\x8B"), "a\\xE2\\x80\\x8B");
  EXPECT_EQ(quoted_text("3\xE2\x80\xA8"), "3\\xE2\\x80\\xA8");
  EXPECT_EQ(quoted_text("a\xC2\xA0"
                        "b"),
            "a\\xC2\\xA0b");
  EXPECT_EQ(quoted_text("\xE2\x80\x90"), "\xE2\x80\x90");  // a hyphen, U+2010, is text
}

TEST(QuotedText, Utf8ControlsAndDirectionOverridesAreEscaped) {
  // U+009B is CSI, which some terminals obey as ESC [; U+202E reverses the text after it.
  EXPECT_EQ(quoted_text("\xC2\x9B"
                        "2J"),
            "\\xC2\\x9B"
            "2J");
  EXPECT_EQ(quoted_text("a\xE2\x80\xAE"
                        "b"),
            "a\\xE2\\x80\\xAE"
            "b");
  EXPECT_EQ(quoted_text("\xE2\x81\xA6"), "\\xE2\\x81\\xA6");  // U+2066, an isolate
}

TEST(QuotedText, AtMostSoManyCharactersNeverHalfOfOne) {
  EXPECT_EQ(quoted_text("abcdef", 3), "abc...");
  EXPECT_EQ(quoted_text("abc", 3), "abc");
  EXPECT_EQ(quoted_text("\xC2\xB5\xC2\xB5\xC2\xB5", 2), "\xC2\xB5\xC2\xB5...");
  EXPECT_EQ(quoted_text("\x1b\x1b\x1b", 2), "\\x1B\\x1B...");
  EXPECT_EQ(quoted_text(std::string(100, 'a')).size(), 64u + 3u);
  EXPECT_EQ(chaindem::quoted_excerpt(std::string(500, 'r')), std::string(32, 'r') + "...");
  EXPECT_EQ(chaindem::quoted_path(std::string(300, 'p')), std::string(300, 'p'));
}

TEST(TerminalText, OnlyControlCharactersChange) {
  EXPECT_EQ(terminal_text("line\n\tnext\r"), "line\n\tnext\r");
  EXPECT_EQ(terminal_text("\x1b]52;c;AAAA\x07"), "\\x1B]52;c;AAAA\\x07");
  EXPECT_EQ(terminal_text("\x7f"), "\\x7F");
  EXPECT_EQ(terminal_text("\xC2\xB5 \xFF"), "\xC2\xB5 \xFF");  // not its to judge: bytes >= 0x80
}

TEST(RoundedText, ShortWhateverTheMagnitude) {
  EXPECT_EQ(rounded_text(2.0917354065598140e306), "2.092e+306");
  EXPECT_EQ(rounded_text(1e-300), "1e-300");
  EXPECT_EQ(rounded_text(0.005), "0.005");
  EXPECT_EQ(rounded_text(2092.0), "2092");
  EXPECT_EQ(rounded_text(123456.0), "1.235e+05");
  EXPECT_EQ(rounded_text(1.23456789e-4, 6), "0.000123457");
}
