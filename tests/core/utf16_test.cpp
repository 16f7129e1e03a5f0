#include "loopcheck/core/text/utf16.hpp"
#include "support/catch.hpp"

#include <string>

using namespace loopcheck;

TEST_CASE("ASCII passes through", "[utf16]") {
    CHECK(utf16_to_utf8(u"") == "");
    CHECK(utf16_to_utf8(u"WSAECONNREFUSED 10061") == "WSAECONNREFUSED 10061");
}

TEST_CASE("a localized Winsock message keeps its letters", "[utf16]") {
    // WSAECONNREFUSED as French and Japanese Windows word it (FormatMessageW
    // returns UTF-16; FormatMessageA gave the ANSI code page instead).
    CHECK(utf16_to_utf8(u"Aucune connexion n\u2019a pu \u00eatre \u00e9tablie car "
                        u"l\u2019ordinateur cible l\u2019a express\u00e9ment refus\u00e9e.") ==
          "Aucune connexion n\xe2\x80\x99"
          "a pu \xc3\xaatre \xc3\xa9tablie car "
          "l\xe2\x80\x99ordinateur cible l\xe2\x80\x99"
          "a express\xc3\xa9ment refus\xc3\xa9"
          "e.");
    CHECK(utf16_to_utf8(u"\u5bfe\u8c61\u306e\u30b3\u30f3\u30d4\u30e5\u30fc\u30bf\u30fc") ==
          "\xe5\xaf\xbe\xe8\xb1\xa1\xe3\x81\xae\xe3\x82\xb3\xe3\x83\xb3\xe3\x83\x94\xe3\x83\xa5"
          "\xe3\x83\xbc\xe3\x82\xbf\xe3\x83\xbc");
}

TEST_CASE("each UTF-8 length, and a surrogate pair", "[utf16]") {
    CHECK(utf16_to_utf8(u"\u007f") == "\x7f");
    CHECK(utf16_to_utf8(u"\u0080") == "\xc2\x80");
    CHECK(utf16_to_utf8(u"\u07ff") == "\xdf\xbf");
    CHECK(utf16_to_utf8(u"\u0800") == "\xe0\xa0\x80");
    CHECK(utf16_to_utf8(u"\uffff") == "\xef\xbf\xbf");
    // U+1F600 as D83D DE00; U+10FFFF as DBFF DFFF.
    CHECK(utf16_to_utf8(std::u16string{0xD83D, 0xDE00}) == "\xf0\x9f\x98\x80");
    CHECK(utf16_to_utf8(std::u16string{0xDBFF, 0xDFFF}) == "\xf4\x8f\xbf\xbf");
}

TEST_CASE("lone surrogates become U+FFFD", "[utf16]") {
    const std::string fffd = "\xef\xbf\xbd";
    // A process name with a lone high surrogate at the end, one in the
    // middle, a lone low surrogate, and two highs in a row.
    CHECK(utf16_to_utf8(std::u16string{u'a', 0xD800}) == "a" + fffd);
    CHECK(utf16_to_utf8(std::u16string{0xD800, u'b'}) == fffd + "b");
    CHECK(utf16_to_utf8(std::u16string{0xDC00, u'c'}) == fffd + "c");
    CHECK(utf16_to_utf8(std::u16string{0xD83D, 0xD83D, 0xDE00}) == fffd + "\xf0\x9f\x98\x80");
    CHECK(utf16_to_utf8(std::u16string{0xDE00, 0xD83D}) == fffd + fffd);
}

TEST_CASE("an embedded U+0000 is kept", "[utf16]") {
    const std::u16string with_nul{u'a', 0, u'b'};
    CHECK(utf16_to_utf8(with_nul) == std::string("a\0b", 3));
}
