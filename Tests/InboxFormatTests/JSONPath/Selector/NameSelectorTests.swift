import Testing

@testable import InboxFormat

/// RFC 9535 §2.3.1: name selectors, their two quote styles and escapes.
@Suite struct NameSelectorTests {
  let document = #"{"o": {"j j": {"k.k": 3}}, "'": {"@": 2}}"#

  @Test func theRFCExamples() throws {
    #expect(try JSONPathTesting.values("$.o['j j']", in: document) == [#"{"k.k":3}"#])
    #expect(try JSONPathTesting.values("$.o['j j']['k.k']", in: document) == ["3"])
    #expect(try JSONPathTesting.values(#"$.o["j j"]["k.k"]"#, in: document) == ["3"])
    #expect(try JSONPathTesting.values(#"$["'"]["@"]"#, in: document) == ["2"])
  }

  @Test func escapesInBothQuoteStyles() throws {
    let json = #"{"a\"b": 1, "c'd": 2, "\u263A": 3, "\uD834\uDD1E": 4, "\n/\\": 5}"#
    #expect(try JSONPathTesting.values(#"$["a\"b"]"#, in: json) == ["1"])
    #expect(try JSONPathTesting.values(#"$['c\'d']"#, in: json) == ["2"])
    #expect(try JSONPathTesting.values(#"$["c'd"]"#, in: json) == ["2"])
    #expect(try JSONPathTesting.values(#"$['\u263a']"#, in: json) == ["3"])
    #expect(try JSONPathTesting.values(#"$['☺']"#, in: json) == ["3"])
    #expect(try JSONPathTesting.values(#"$['\uD834\uDD1E']"#, in: json) == ["4"])
    #expect(try JSONPathTesting.values(#"$['\n\/\\']"#, in: json) == ["5"])
  }

  @Test func invalidEscapesAndCharacters() {
    #expect(JSONPathTesting.error(#"$['\"']"#)?.position == 4)  // \" only in double quotes
    #expect(JSONPathTesting.error(#"$["\'"]"#)?.position == 4)
    #expect(JSONPathTesting.error(#"$['\uD834']"#)?.position == 4)  // lone high surrogate
    #expect(JSONPathTesting.error(#"$['\uDD1E']"#)?.position == 4)  // lone low surrogate
    #expect(JSONPathTesting.error(#"$['\uD834\u0041']"#) != nil)
    #expect(JSONPathTesting.error(#"$['\x41']"#)?.position == 4)
    #expect(JSONPathTesting.error("$['a\u{1}']")?.position == 5)
    // A raw U+0000 in either quote style (the compliance suite's two
    // selectors that no command-line argument can carry).
    #expect(JSONPathTesting.error("$['\u{0}']")?.position == 4)
    #expect(JSONPathTesting.error("$[\"\u{0}\"]")?.position == 4)
    #expect(JSONPathTesting.error("$['abc]")?.position == 8)
  }

  @Test func namesCompareByScalarsNotByCanonicalEquivalence() throws {
    // "é" precomposed (U+00E9) and decomposed (e, U+0301), in a small and a large object.
    let small = "{\"e\u{301}\": 1, \"\u{E9}\": 2}"
    #expect(try JSONPathTesting.values("$['\u{E9}']", in: small) == ["2"])
    #expect(try JSONPathTesting.values("$['e\u{301}']", in: small) == ["1"])
    let large = "{" + (0..<20).map { "\"k\($0)\": 0, " }.joined() + "\"e\u{301}\": 1}"
    #expect(try JSONPathTesting.values("$['\u{E9}']", in: large) == [])
    #expect(try JSONPathTesting.values("$['e\u{301}']", in: large) == ["1"])
  }

  @Test func memberNameShorthand() throws {
    let json = #"{"_x1": 1, "été": 2, "true": 3}"#
    #expect(try JSONPathTesting.values("$._x1", in: json) == ["1"])
    #expect(try JSONPathTesting.values("$.été", in: json) == ["2"])
    #expect(try JSONPathTesting.values("$.true", in: json) == ["3"])
    #expect(JSONPathTesting.error("$.1a")?.position == 3)
    #expect(JSONPathTesting.error("$. a")?.position == 3)
    #expect(JSONPathTesting.error("$.-")?.position == 3)
  }

  @Test func namesSelectNothingFromNonObjects() throws {
    #expect(try JSONPathTesting.values("$.a", in: #"["a"]"#) == [])
    #expect(try JSONPathTesting.values("$.a", in: #""a""#) == [])
  }
}
