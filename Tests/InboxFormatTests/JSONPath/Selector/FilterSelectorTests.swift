import Testing

@testable import InboxFormat

/// RFC 9535 §2.3.5: filter selectors, comparisons (Table 11) and the
/// examples of §2.3.5.3 (Table 12).
@Suite struct FilterSelectorTests {
  let document = """
    {
      "a": [3, 5, 1, 2, 4, 6, {"b": "j"}, {"b": "k"}, {"b": {}}, {"b": "kilo"}],
      "o": {"p": 1, "q": 2, "r": 3, "s": 5, "t": {"u": 6}},
      "e": "f"
    }
    """

  func values(_ query: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> [String] {
    try JSONPathTesting.values(query, in: document, sourceLocation: sourceLocation)
  }

  @Test func theRFCExamples() throws {
    #expect(try values("$.a[?@.b == 'kilo']") == [#"{"b":"kilo"}"#])
    #expect(try values("$.a[?(@.b == 'kilo')]") == [#"{"b":"kilo"}"#])
    #expect(try values("$.a[?@>3.5]") == ["5", "4", "6"])
    #expect(try values("$.a[?@.b]") == [#"{"b":"j"}"#, #"{"b":"k"}"#, #"{"b":{}}"#, #"{"b":"kilo"}"#])
    #expect(try values("$[?@.*]").count == 2)
    #expect(try values("$[?@[?@.b]]").count == 1)
    #expect(try values("$.o[?@<3, ?@<3]") == ["1", "2", "1", "2"])
    #expect(try values(#"$.a[?@<2 || @.b == "k"]"#) == ["1", #"{"b":"k"}"#])
    #expect(try values(#"$.a[?match(@.b, "[jk]")]"#) == [#"{"b":"j"}"#, #"{"b":"k"}"#])
    #expect(try values(#"$.a[?search(@.b, "[jk]")]"#) == [#"{"b":"j"}"#, #"{"b":"k"}"#, #"{"b":"kilo"}"#])
    #expect(try values("$.o[?@>1 && @<4]") == ["2", "3"])
    #expect(try values("$.o[?@.u || @.x]") == [#"{"u":6}"#])
    #expect(try values("$.a[?@.b == $.x]") == ["3", "5", "1", "2", "4", "6"])
    #expect(try values("$.a[?@ == @]").count == 10)
  }

  /// Table 11: `$[?expression]` on this document selects both members
  /// when the comparison holds, none otherwise.
  @Test(arguments: [
    ("$.absent1 == $.absent2", true), ("$.absent1 <= $.absent2", true), ("$.absent == 'g'", false),
    ("$.absent1 != $.absent2", false), ("$.absent != 'g'", true), ("1 <= 2", true), ("1 > 2", false),
    ("13 == '13'", false), ("'a' <= 'b'", true), ("'a' > 'b'", false), ("$.obj == $.arr", false),
    ("$.obj != $.arr", true), ("$.obj == $.obj", true), ("$.obj != $.obj", false), ("$.arr == $.arr", true),
    ("$.arr != $.arr", false), ("$.obj == 17", false), ("$.obj != 17", true), ("$.obj <= $.arr", false),
    ("$.obj < $.arr", false), ("$.obj <= $.obj", true), ("$.arr <= $.arr", true), ("1 <= $.arr", false),
    ("1 >= $.arr", false), ("1 > $.arr", false), ("1 < $.arr", false), ("true <= true", true),
    ("true > true", false),
  ])
  func comparisons(expression: String, holds: Bool) throws {
    let selected = try JSONPathTesting.values("$[?\(expression)]", in: #"{"obj": {"x": "y"}, "arr": [2, 3]}"#)
    #expect(selected.count == (holds ? 2 : 0))
  }

  @Test func numbersCompareByValueAndStringsByScalars() throws {
    #expect(try JSONPathTesting.values("$[?@ == 1]", in: "[1, 1.0, 10e-1, 100e-2, true, \"1\"]").count == 4)
    #expect(try JSONPathTesting.values("$[?@ == -0]", in: "[0, -0, 0.0]").count == 3)
    #expect(
      try JSONPathTesting.values("$[?@ < 'b']", in: #"["a", "B", "b", "é", "ab"]"#)
        == [#""a""#, #""B""#, #""ab""#])
    // "é" precomposed (U+00E9) and decomposed (e, U+0301) are different scalars.
    #expect(try JSONPathTesting.values("$[?@ == '\u{E9}']", in: "[\"e\u{301}\", \"\u{E9}\"]") == ["\"\u{E9}\""])
  }

  @Test func deepEqualityOfArraysAndObjects() throws {
    let json = #"{"x": [1, {"a": [2.0]}], "y": [1, {"a": [2]}], "z": [{"a": [2]}, 1]}"#
    #expect(try JSONPathTesting.values("$[?@ == $.x]", in: json).count == 2)
    let objects = #"{"o": {"a": 1, "b": 2}, "p": {"b": 2, "a": 1}}"#
    #expect(try JSONPathTesting.values("$[?@ == $.o]", in: objects).count == 2)
  }

  @Test func negationAndPrecedence() throws {
    #expect(try values("$.a[?!@.b]") == ["3", "5", "1", "2", "4", "6"])
    #expect(try values("$.o[?!(@ > 1 && @ < 4)]") == ["1", "5", #"{"u":6}"#])
    #expect(try values("$.o[?@ == 1 || @ == 2 && @ == 3]") == ["1"])
    #expect(try values("$.o[?(@ == 1 || @ == 2) && @ == 2]") == ["2"])
  }

  @Test func filtersSelectNothingFromPrimitives() throws {
    #expect(try values("$.e[?@]") == [])
  }

  @Test func invalidFilters() {
    #expect(JSONPathTesting.error("$[?@.a == 1")?.position == 12)
    #expect(JSONPathTesting.error("$[?1]")?.position == 4)  // a literal is not a test
    #expect(JSONPathTesting.error("$[?@.* == 1]")?.position == 4)  // not a singular query
    #expect(JSONPathTesting.error("$[?@..a == 1]")?.position == 4)
    #expect(JSONPathTesting.error("$[?@.a === 1]")?.position == 10)
    #expect(JSONPathTesting.error("$[?!@.a == 1]")?.position == 9)
    #expect(JSONPathTesting.error("$[?@.a == 01]")?.position == 11)
    #expect(JSONPathTesting.error("$[?@.a == .5]")?.position == 11)
    #expect(JSONPathTesting.error("$[?@.a == True]")?.position == 11)
    #expect(JSONPathTesting.error("$[?(@.a]")?.position == 8)
  }

  @Test func literalsAsTheABNFWritesThem() throws {
    let json = #"[{"n": 1000}, {"n": -0.5}, {"n": "x"}, {"n": null}, {"n": false}]"#
    #expect(try JSONPathTesting.values("$[?@.n == 1e3].n", in: json) == ["1000"])
    #expect(try JSONPathTesting.values("$[?@.n == 1E+3].n", in: json) == ["1000"])
    #expect(try JSONPathTesting.values("$[?@.n == -5e-1].n", in: json) == ["-0.5"])
    #expect(try JSONPathTesting.values(#"$[?@.n == "x"].n"#, in: json) == [#""x""#])
    #expect(try JSONPathTesting.values("$[?@.n == null].n", in: json) == ["null"])
    #expect(try JSONPathTesting.values("$[?@.n == false].n", in: json) == ["false"])
  }
}
