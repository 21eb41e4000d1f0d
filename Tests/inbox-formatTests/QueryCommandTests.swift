import Foundation
import Testing

/// `inbox-format query`, end to end: output, exit statuses, messages.
@Suite struct QueryCommandTests {
  static let document = Data(#"{"items": [{"id": 1.50, "to": "ann", "t": "a\"b"}, {"id": 2, "to": "bob"}]}"#.utf8)

  @Test func printsTheSelectedValuesAsOneJSONArray() throws {
    let result = try BuiltBinary.run(["query", "$.items[*]['id', 't']"], stdin: Self.document)
    #expect(result.status == 0)
    #expect(result.stderr.isEmpty)
    #expect(result.stdoutText == "[1.50,\"a\\\"b\",2]\n")
  }

  @Test func printsNormalizedPathsWithPaths() throws {
    let result = try BuiltBinary.run(["query", "--paths", "$..to"], stdin: Self.document)
    #expect(result.status == 0)
    #expect(result.stdoutText == #"["$['items'][0]['to']","$['items'][1]['to']"]"# + "\n")
  }

  @Test func viewerSetsViewer() throws {
    let result = try BuiltBinary.run(
      ["query", "--viewer", "bob", "$.items[?@.to == viewer()].id"], stdin: Self.document)
    #expect(result.stdoutText == "[2]\n")
    let none = try BuiltBinary.run(["query", "$.items[?@.to == viewer()].id"], stdin: Self.document)
    #expect(none.stdoutText == "[]\n")
  }

  @Test func anInvalidQueryExits64NamingThePosition() throws {
    let result = try BuiltBinary.run(["query", "$.items[0 x]"], stdin: Self.document)
    #expect(result.status == 64)
    #expect(result.stdout.isEmpty)
    #expect(
      result.stderr == """
        inbox-format: invalid JSONPath query: position 11: unexpected "x"; expected "," or "]" after a selector

        """)
  }

  @Test func inputThatIsNotJSONExits65() throws {
    let result = try BuiltBinary.run(["query", "$"], stdin: Data("[1,\n]".utf8))
    #expect(result.status == 65)
    #expect(result.stdout.isEmpty)
    #expect(result.stderr.hasPrefix("inbox-format: <stdin>: line 2, column 1: invalid JSON: trailing comma"))
  }

  @Test func aFileThatCannotBeOpenedExits66() throws {
    let result = try BuiltBinary.run(["query", "$", "/nonexistent/input.json"])
    #expect(result.status == 66)
    #expect(result.stderr.hasPrefix("inbox-format: cannot open \"/nonexistent/input.json\""))
  }
}
