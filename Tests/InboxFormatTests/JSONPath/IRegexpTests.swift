import Testing

@testable import InboxFormat

/// RFC 9485: the I-Regexp dialect of `match()` and `search()`.
@Suite struct IRegexpTests {
  func whole(_ pattern: String, _ text: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> Bool {
    try #require(IRegexp(pattern), sourceLocation: sourceLocation).matchesWhole(text)
  }

  func part(_ pattern: String, _ text: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> Bool {
    try #require(IRegexp(pattern), sourceLocation: sourceLocation).matchesPart(of: text)
  }

  @Test func matchIsAnchoredSearchIsNot() throws {
    #expect(try whole("ab", "ab"))
    #expect(try !whole("ab", "xab"))
    #expect(try !whole("ab", "abx"))
    #expect(try part("ab", "xabx"))
    #expect(try !part("ab", "a b"))
    #expect(try whole("", ""))
    #expect(try part("", "anything"))
  }

  @Test func dotIsAnyScalarButLineBreaks() throws {
    #expect(try whole("a.c", "a☺c"))
    #expect(try whole("a.c", "a\u{1F600}c"))
    #expect(try !whole("a.c", "a\nc"))
    #expect(try !whole("a.c", "a\rc"))
    #expect(try whole("a.c", "a\u{2028}c"))
    // One scalar, not one grapheme cluster: "e" + U+0301 is two.
    #expect(try !whole(".", "e\u{301}"))
  }

  @Test func quantifiersAndAlternation() throws {
    #expect(try whole("a*", ""))
    #expect(try whole("a+b?", "aaab"))
    #expect(try whole("a{2,3}", "aaa"))
    #expect(try !whole("a{2,3}", "aaaa"))
    #expect(try whole("a{2}", "aa"))
    #expect(try whole("a{2,}", "aaaaa"))
    #expect(try whole("(ab|cd)+", "abcdab"))
    #expect(try !whole("(ab|cd)+", "abc"))
    #expect(try whole("x|", ""))
  }

  @Test func characterClassesAndEscapes() throws {
    #expect(try whole("[a-c]+", "abcba"))
    #expect(try !whole("[^a-c]", "b"))
    #expect(try whole("[-a]", "-"))
    #expect(try whole("[a-]", "-"))
    #expect(try whole(#"[\]\-]"#, "]"))
    #expect(try whole(#"\.\*\n\t"#, ".*\n\t"))
    #expect(try whole(#"\p{Lu}\p{Ll}+"#, "Ébc"))
    #expect(try !whole(#"\p{Lu}"#, "a"))
    #expect(try whole(#"\P{L}"#, "1"))
    #expect(try whole(#"[\p{Nd}x]+"#, "1x٣"))
    #expect(try whole(#"\p{L}"#, "ǅ"))
  }

  @Test func caretAndDollarAnchor() throws {
    #expect(try whole("^ab.*", "abc"))
    #expect(try !whole("^ab.*", "xab"))
    #expect(try part("^ab", "abc"))
    #expect(try !part("^ab", "cab"))
    #expect(try part("bc$", "abc"))
    #expect(try !part("bc$", "abcd"))
  }

  @Test(arguments: [
    "(", ")", "a)", "[", "[]", "[^]", "a{2,1}", "a{", "a{,2}", "*a", "a**", #"\d"#, #"\w"#, #"\s"#, #"\b"#,
    "(?:a)", #"\1"#, #"\p{Xx}"#, #"\p{IsBasicLatin}"#, #"\p{L"#, "[a-b-c]", "[z-a]", "a{1}{2}", #"\"#, "]", "}",
  ])
  func notIRegexp(pattern: String) {
    #expect(IRegexp(pattern) == nil)
  }

  @Test func hostilePatternsTakeLinearTime() throws {
    let subject = String(repeating: "a", count: 20_000)
    #expect(try !whole("(a|a)*b", subject))
    #expect(try !whole("(a*)*b", subject))
    #expect(try !part("(a+)+b", subject))
    #expect(try whole("(a|aa)*", subject))
  }

  @Test func patternsBeyondTheBoundsAreRefused() {
    #expect(IRegexp(String(repeating: "a", count: IRegexp.maximumPatternLength + 1)) == nil)
    #expect(IRegexp(String(repeating: "(", count: 100) + String(repeating: ")", count: 100)) == nil)
    #expect(IRegexp("a{1000000}") == nil)
    #expect(IRegexp("(a{200}){200}") == nil)
    #expect(IRegexp("a{100}") != nil)
  }
}
