import Foundation
import InboxFormatSupport
import Testing

@testable import InboxFormat

/// Reading a mapping's document: the built-ins, and every way a document
/// can be wrong, named by its key.
@Suite struct InputMappingTests {
  /// The mapping `json` reads as, or the error.
  func read(_ json: String) -> Result<InputMapping, InputMappingError> {
    Result { () throws(InputMappingError) in try InputMapping(json: Array(json.utf8), name: "test") }
  }

  /// The error reading `json` throws.
  func error(_ json: String, sourceLocation: SourceLocation = #_sourceLocation) -> InputMappingError? {
    guard case .failure(let error) = read(json) else {
      Issue.record("\(json) reads", sourceLocation: sourceLocation)
      return nil
    }
    return error
  }

  /// A valid mapping's members with `extra` after them, as a document.
  func document(_ extra: String = "", items: String = #""items": "$.items[*]", "#) -> String {
    "{\(items)\"id\": \"$.id\", \"date\": \"$.date\"\(extra.isEmpty ? "" : ", " + extra)}"
  }

  // MARK: Built-ins

  @Test func everyBuiltInReadsInOrder() throws {
    #expect(
      InputMapping.builtIns.map(\.name)
        == ["post", "stream-chat", "sendbird", "matrix", "twilio", "intercom", "tdlib", "slack"])
    #expect(InputMapping.builtInNames == InputMapping.builtIns.map(\.name))
    for builtIn in BuiltInMapping.all {
      let mapping = try InputMapping(json: Array(builtIn.document.utf8), name: builtIn.name)
      #expect(mapping.summary?.isEmpty == false, "\(builtIn.name)")
      #expect(InputMapping.builtIn(named: builtIn.name) == mapping)
    }
    #expect(InputMapping.builtIn(named: "whatsapp") == nil)
    #expect(InputMapping.builtIn(named: "Post") == nil)
  }

  @Test func onlyThePostsMappingIsThePost() throws {
    #expect(InputMapping.post.isPost)
    #expect(InputMapping.post.name == "post")
    #expect(InputMapping.builtIns.dropFirst().allSatisfy { !$0.isPost })
    // The same queries written another way are still the post's.
    let respaced = try InputMapping(
      json: Array(
        #"{"items":"$.items[*]","id":"$.id","firstname":"$.firstname","lastname":"$.lastname","phone":"$.phone_number.international","message":"$.message","date":"$.update_date","unread":"$.unread_count"}"#
          .utf8),
      name: "mine")
    #expect(respaced.isPost)
    #expect(respaced.summary == nil)
    #expect(respaced != InputMapping.post)
    let withoutPhone = try InputMapping(
      json: Array(#"{"items":"$.items[*]","id":"$.id","firstname":"$.firstname","date":"$.update_date"}"#.utf8),
      name: "mine")
    #expect(!withoutPhone.isPost)
  }

  @Test func theViewerIsPartOfTheMapping() {
    let sendbird = InputMapping.builtIn(named: "sendbird")!
    #expect(sendbird.viewer == nil)
    #expect(sendbird.viewer("me").viewer == "me")
    #expect(sendbird.viewer("me") != sendbird)
    #expect(sendbird.viewer("me") == sendbird.viewer("me"))
    #expect(sendbird.viewer("me").viewer(nil) == sendbird)
    #expect(sendbird.description == "sendbird")
  }

  /// Each embedded document is its file's text, without the final line break.
  @Test(arguments: BuiltInMapping.all.map(\.name))
  func theEmbeddedDocumentIsTheFile(name: String) throws {
    let builtIn = try #require(BuiltInMapping.all.first { $0.name == name })
    let file = try String(
      contentsOf: dataDirectory.appendingPathComponent("mappings/\(name).json"), encoding: .utf8)
    #expect(file.hasSuffix("\n"))
    #expect(builtIn.document == String(file.dropLast()), "run Scripts/embed-mappings.py")
  }

  @Test func aSummaryIsTheDescription() throws {
    let mapping = try read(document(#""description": "Mine: \"quoted\"""#)).get()
    #expect(mapping.summary == #"Mine: "quoted""#)
    #expect(mapping.name == "test")
    #expect(mapping.document == document(#""description": "Mine: \"quoted\"""#))
  }

  // MARK: The document

  @Test func notJSON() throws {
    let json = #"{"items": }"#
    let syntax = try #require(
      Result { () throws(InboxFormatError) in try JSONValue.read(from: Array(json.utf8)) }.failure)
    // The syntax error as the payload reader reports it: at the "}".
    #expect(syntax.location == InputLocation(line: 1, column: 11, byteOffset: 10))
    let thrown = try #require(error(json))
    #expect(thrown == .invalidJSON(syntax))
    #expect(thrown.key == "")
    #expect(thrown.description == "not a mapping: \(syntax)")
    #expect(thrown.description.hasPrefix("not a mapping: line 1, column 11: invalid JSON: "))
  }

  @Test func notAnObject() {
    #expect(
      error("[1]")?.description
        == #"found an array; expected a mapping: a JSON object with "items", "id" and "date""#)
    #expect(
      error(#""$.items[*]""#)?.description
        == #"found a string; expected a mapping: a JSON object with "items", "id" and "date""#)
    #expect(error("null")?.key == "")
  }

  @Test func unknownKey() {
    let thrown = error(document(#""colour": "red""#))
    #expect(thrown?.key == #""colour""#)
    #expect(
      thrown?.description
        == #""colour": unknown key; expected one of description, items, id, firstname, lastname, name, phone, message, date, unread"#
    )
  }

  @Test func missingKeys() {
    #expect(
      error(#"{"id": "$.id", "date": "$.date"}"#)?.description
        == #"items: missing; every mapping needs "items", "id" and "date""#)
    #expect(
      error(#"{"items": "$[*]", "date": "$.date"}"#)?.description
        == #"id: missing; every mapping needs "items", "id" and "date""#)
    #expect(
      error(#"{"items": "$[*]", "id": "$.id"}"#)?.description
        == #"date: missing; every mapping needs "items", "id" and "date""#)
    #expect(error("{}") == .missingKey(key: "items"))
  }

  @Test func aDisplayNameBesideFirstOrLastName() {
    #expect(
      error(document(#""name": "$.name", "firstname": "$.first""#))?.description
        == #"firstname: found a key beside "name"; expected either "name" (one display name) or "firstname" and "lastname", not both"#
    )
    #expect(error(document(#""lastname": "$.last", "name": "$.name""#))?.key == "lastname")
  }

  @Test func valuesOfTheWrongKind() {
    #expect(
      error(document(#""description": 5"#))?.description == "description: found a number; expected a string")
    #expect(
      error(#"{"items": ["$[*]"], "id": "$.id", "date": "$.date"}"#)?.description
        == #"items: found an array; expected a query string such as "$.items[*]""#)
    #expect(
      error(document(#""phone": 5"#))?.description
        == #"phone: found a number; expected a query string, or an object with "path""#)
    #expect(
      error(document(#""unread": [true]"#))?.description
        == #"unread[0]: found a boolean; expected a query string, or an object with "path" and "kind""#)
    #expect(
      error(document(#""message": {"path": 1}"#))?.description
        == "message.path: found a number; expected a query string")
    #expect(
      error(document(#""name": {"member-name": false}"#))?.description
        == "name.member-name: found a boolean; expected true")
    #expect(
      error(document(#""name": {"path": "$.n", "member-name": true}"#))?.description
        == #"name.member-name: found a key beside "path"; expected either "path" or "member-name""#)
  }

  @Test func optionsOutsideTheirChoices() {
    #expect(
      error(document(#""unread": {"path": "$.u", "kind": "boolean"}"#))?.description
        == #"unread.kind: found "boolean"; expected one of count, flag, read-flag"#)
    #expect(
      error(document(#""message": {"path": "$.m", "markup": "markdown"}"#))?.description
        == #"message.markup: found "markdown"; expected one of text, html"#)
    #expect(
      error(document(#""name": ["$.a", {"path": "$.b", "pick": "middle"}]"#))?.description
        == #"name[1].pick: found "middle"; expected one of first, last"#)
    #expect(
      error(#"{"items": "$[*]", "id": "$.id", "date": {"path": "$.d", "encoding": "unix"}}"#)?.description
        == #"date.encoding: found "unix"; expected one of rfc3339, unix-s, unix-ms"#)
    #expect(
      error(#"{"items": "$[*]", "id": "$.id", "date": [{"path": "$.d", "encoding": 1000}]}"#)?.description
        == "date[0].encoding: found a number; expected one of rfc3339, unix-s, unix-ms")
  }

  @Test func anUnknownKeyInASource() {
    #expect(
      error(#"{"items": "$[*]", "id": "$.id", "date": {"path": "$.d", "format": "unix-s"}}"#)?.description
        == #"date."format": unknown key; expected one of path, member-name, pick, encoding"#)
    // An option of another field.
    #expect(
      error(#"{"items": "$[*]", "id": {"path": "$.id", "encoding": "unix-s"}, "date": "$.d"}"#)?.description
        == #"id."encoding": unknown key; expected one of path, member-name, pick"#)
    #expect(
      error(document(#""unread": [{"path": "$.u"}, {"path": "$.v", "markup": "html"}]"#))?.key == #"unread[1]."markup""#
    )
  }

  @Test func aSourceObjectWithoutAPath() {
    let thrown = error(document(#""name": {"pick": "last"}"#))
    #expect(thrown?.key == "name")
    #expect(
      thrown?.description == #"name: found an object without "path"; expected a query string, or an object with "path""#
    )
  }

  // MARK: Queries

  /// Expects reading `json` to fail on the query `query` of `key`, at `position`.
  func expectInvalidQuery(
    _ json: String, key: String, query: String, position: Int, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let thrown = error(json, sourceLocation: sourceLocation)
    guard case .invalidQuery(let foundKey, let foundQuery, let foundPosition, let reason)? = thrown else {
      Issue.record("\(String(describing: thrown)) is no invalid query", sourceLocation: sourceLocation)
      return
    }
    #expect(foundKey == key, sourceLocation: sourceLocation)
    #expect(thrown?.key == key, sourceLocation: sourceLocation)
    #expect(foundQuery == query, sourceLocation: sourceLocation)
    #expect(foundPosition == position, "\(reason)", sourceLocation: sourceLocation)
    #expect(
      thrown?.description == "\(key): invalid query \(quoted(query, limit: 120)): position \(position): \(reason)",
      sourceLocation: sourceLocation)
  }

  @Test func anInvalidQueryNamesItsKeyAndPosition() {
    // Positions count scalars from 1, as the JSONPath engine and the command do.
    // A comparison needs a comparable after its operator: the "]", the 13th.
    expectInvalidQuery(document(#""message": "$.a[?@.b == ]""#), key: "message", query: "$.a[?@.b == ]", position: 13)
    // A query starts with "$".
    expectInvalidQuery(document(#""phone": "a.b""#), key: "phone", query: "a.b", position: 1)
    // A bracket needs a selector: the end of the query, after its 4 scalars.
    expectInvalidQuery(document(#""phone": {"path": "$.x["}"#), key: "phone.path", query: "$.x[", position: 5)
    expectInvalidQuery(document(items: #""items": "$.items[", "#), key: "items", query: "$.items[", position: 9)
    // `viewer()` takes no argument: the "]" after "viewer(", the 32nd.
    expectInvalidQuery(
      document(#""name": ["$.name", "$.members[?@.user_id != viewer(]"]"#), key: "name[1]",
      query: "$.members[?@.user_id != viewer(]", position: 32)
  }

  @Test func viewerIsAFunctionOfMappings() throws {
    _ = try read(document(#""name": "$.members[?@.id != viewer()].name""#)).get()
    _ = try read(document(#""name": "$.members[?length(@.name) > 0 && match(@.id, 'u[0-9]+')].name""#)).get()
  }

  // MARK: Source lists

  @Test func aSourceListHoldsOneToSixteenSources() throws {
    #expect(
      error(#"{"items": "$[*]", "id": [], "date": "$.date"}"#)?.description
        == "id: found a list of 0 sources; expected 1 to 16 sources, the first that selects a value winning")
    let sources = { (count: Int) in (0..<count).map { "\"$.id\($0)\"" }.joined(separator: ", ") }
    #expect(
      error(#"{"items": "$[*]", "id": [\#(sources(17))], "date": "$.date"}"#)?.description
        == "id: found a list of 17 sources; expected 1 to 16 sources, the first that selects a value winning")
    let sixteen = try read(#"{"items": "$[*]", "id": [\#(sources(16))], "date": "$.date"}"#).get()
    #expect(sixteen.fields.id.count == 16)
    #expect(sixteen.fields.id.map(\.text).last == "$.id15")
  }

  @Test func aSourcesDefaults() throws {
    let mapping = try read(
      document(#""message": "$.m", "unread": "$.u", "name": {"member-name": true}"#)
    ).get()
    let date = try #require(mapping.fields.date.first)
    #expect(date.encoding == .rfc3339)
    #expect(date.pick == .first)
    #expect(mapping.fields.unread.first?.kind == .count)
    #expect(mapping.fields.message.first?.markup == .text)
    guard case .display(let names) = mapping.fields.names else {
      Issue.record("\(mapping.fields.names) is no display name")
      return
    }
    #expect(names.map(\.origin) == [.memberName])
  }
}

extension Result {
  /// The error, when this is a failure.
  fileprivate var failure: Failure? {
    if case .failure(let error) = self { error } else { nil }
  }
}
