import Testing

@testable import InboxFormat

/// RFC 9535 §2.7: normalized paths, one per node.
@Suite struct NormalizedPathTests {
  @Test func theRFCExamples() throws {
    #expect(try JSONPathTesting.paths("$.a", in: #"{"a": 1}"#) == ["$['a']"])
    #expect(try JSONPathTesting.paths("$[1]", in: "[0, 1]") == ["$[1]"])
    #expect(try JSONPathTesting.paths("$[-3]", in: "[0, 1, 2, 3, 4]") == ["$[2]"])
    #expect(try JSONPathTesting.paths("$.a.b[1:2]", in: #"{"a": {"b": [0, 1]}}"#) == ["$['a']['b'][1]"])
    #expect(try JSONPathTesting.paths(#"$["\u000B"]"#, in: #"{"\u000b": 1}"#) == [#"$['\u000b']"#])
    #expect(try JSONPathTesting.paths(#"$["\u0061"]"#, in: #"{"a": 1}"#) == ["$['a']"])
  }

  @Test func escapes() throws {
    let json = #"{"'": 1, "\\": 2, "\b\f\n\r\t": 3, "\u001f\u0000": 4, "\"é☺": 5}"#
    #expect(
      try JSONPathTesting.paths("$.*", in: json) == [
        #"$['\'']"#, #"$['\\']"#, #"$['\b\f\n\r\t']"#, #"$['\u001f\u0000']"#, "$['\"é☺']",
      ])
  }

  @Test func pathsAreSpelledOutOnlyWhenAsked() throws {
    let nodes = try JSONPathQuery("$.a[*]").select(from: try JSONPathTesting.document(#"{"a": [1, 2]}"#))
    #expect(nodes.map(\.location.elements) == [[.name("a"), .index(0)], [.name("a"), .index(1)]])
    #expect(nodes.map(\.normalizedPath) == ["$['a'][0]", "$['a'][1]"])
  }
}
