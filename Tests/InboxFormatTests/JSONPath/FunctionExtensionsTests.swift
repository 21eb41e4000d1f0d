import Testing

@testable import InboxFormat

/// RFC 9535 §2.4: the type system, checked when a query is parsed
/// (Table 14), the five standard functions, and registered ones.
@Suite struct FunctionExtensionsTests {
  /// The hypothetical functions of §2.4.9's table, registered.
  static let examples = JSONPathFunctions.standard
    .adding(JSONPathFunction(name: "foo", parameters: [.nodes], result: .nodes) { arguments, _ in arguments[0] })
    .adding(JSONPathFunction(name: "bar", parameters: [.logical], result: .logical) { arguments, _ in arguments[0] })
    .adding(
      JSONPathFunction(name: "bnl", parameters: [.nodes], result: .logical) { arguments, _ in
        guard case .nodes(let nodes) = arguments[0] else { return .logical(false) }
        return .logical(!nodes.isEmpty)
      }
    )
    .adding(JSONPathFunction(name: "blt", parameters: [.logical], result: .logical) { arguments, _ in arguments[0] })
    .adding(
      JSONPathFunction(name: "bal", parameters: [.value], result: .logical) { arguments, _ in
        .logical(arguments[0] != .value(nil))
      })

  @Test(arguments: [
    ("$[?length(@) < 3]", true), ("$[?length(@.*) < 3]", false), ("$[?count(@.*) == 1]", true),
    ("$[?count(1) == 1]", false), ("$[?count(foo(@.*)) == 1]", true),
    ("$[?match(@.timezone, 'Europe/.*')]", true), ("$[?match(@.timezone, 'Europe/.*') == true]", false),
    ("$[?value(@..color) == \"red\"]", true), ("$[?value(@..color)]", false), ("$[?bar(@.a)]", true),
    ("$[?bnl(@.*)]", true), ("$[?blt(1==1)]", true), ("$[?blt(1)]", false), ("$[?bal(1)]", true),
  ])
  func wellTypedness(query: String, isWellTyped: Bool) {
    let parsed = try? JSONPathQuery(query, functions: Self.examples)
    #expect((parsed != nil) == isWellTyped)
  }

  @Test func length() throws {
    let json = #"[{"a": "ab☺"}, {"a": [1, 2, 3]}, {"a": {"x": 1, "y": 2, "z": 3}}, {"a": 3}, {"a": "\uD83D\uDE00x"}]"#
    #expect(try JSONPathTesting.values("$[?length(@.a) == 3].a", in: json).count == 3)
    #expect(try JSONPathTesting.values("$[?length(@.a) == 2].a", in: json) == ["\"\u{1F600}x\""])
    // A number has no length: Nothing, which equals only Nothing.
    #expect(try JSONPathTesting.values("$[?length(@.a) == $.none].a", in: json) == ["3"])
  }

  @Test func count() throws {
    let json = #"[{"a": [1, 2]}, {"a": {"b": 1}}, {"a": 1}]"#
    #expect(try JSONPathTesting.values("$[?count(@.a.*) == 2].a", in: json) == ["[1,2]"])
    #expect(try JSONPathTesting.values("$[?count(@..*) == 2]", in: json).count == 1)
  }

  @Test func matchAndSearch() throws {
    let json = #"[{"d": "1974-05-11"}, {"d": "1974-05-1"}, {"d": "x1974-05-11"}, {"d": 1974}]"#
    #expect(try JSONPathTesting.values(#"$[?match(@.d, "1974-05-..")].d"#, in: json) == [#""1974-05-11""#])
    #expect(
      try JSONPathTesting.values(#"$[?search(@.d, "1974-05-..")].d"#, in: json)
        == [#""1974-05-11""#, #""x1974-05-11""#])
    let authors = #"[{"author": "Bob"}, {"author": "Rob Roy"}, {"author": "bob"}]"#
    #expect(
      try JSONPathTesting.values(#"$[?search(@.author, "[BR]ob")].author"#, in: authors)
        == [#""Bob""#, #""Rob Roy""#])
  }

  @Test func anInvalidPatternMatchesNothing() throws {
    let json = #"[{"a": "x", "p": "("}, {"a": "x", "p": "x"}]"#
    #expect(try JSONPathTesting.values("$[?match(@.a, @.p)].p", in: json) == [#""x""#])
    #expect(try JSONPathTesting.values("$[?!match(@.a, @.p)].p", in: json) == [#""(""#])
    #expect(try JSONPathTesting.values(#"$[?match(@.a, "\\d")]"#, in: json) == [])
  }

  @Test func value() throws {
    let json = #"[{"color": "red"}, {"x": {"color": "red"}, "y": {"color": "red"}}, {"x": [{"color": "red"}]}]"#
    #expect(try JSONPathTesting.values(#"$[?value(@..color) == "red"]"#, in: json).count == 2)
  }

  @Test func argumentCountsAndUnknownFunctions() {
    #expect(JSONPathTesting.error("$[?length(@.a, @.b) == 1]")?.position == 16)
    #expect(JSONPathTesting.error("$[?match(@.a) == 1]")?.position == 13)
    #expect(JSONPathTesting.error("$[?nosuch(@.a)]")?.position == 4)
    #expect(JSONPathTesting.error("$[?length (@.a) == 1]")?.position == 10)
    #expect(JSONPathTesting.error("$[?viewer() == 'x']")?.position == 4)  // not standard
  }

  @Test func viewerReturnsTheEnvironmentsViewer() throws {
    let functions = JSONPathFunctions.standard.adding(.viewer)
    let json = #"[{"to": "ann"}, {"to": "bob"}]"#
    let ann = JSONPathEnvironment(viewer: .string("ann"))
    #expect(
      try JSONPathTesting.values("$[?@.to == viewer()]", in: json, functions: functions, environment: ann)
        == [#"{"to":"ann"}"#])
    // No viewer: Nothing, which equals no string.
    #expect(try JSONPathTesting.values("$[?@.to == viewer()]", in: json, functions: functions) == [])
    #expect(try JSONPathTesting.values("$[?@.absent == viewer()]", in: json, functions: functions).count == 2)
    #expect((try? JSONPathQuery("$[?viewer()]", functions: functions)) == nil)
    #expect((try? JSONPathQuery("$[?viewer(@.a) == 1]", functions: functions)) == nil)
  }
}
