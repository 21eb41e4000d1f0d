import Foundation
import InboxFormatSupport
import Testing

@testable import InboxFormat

/// Payloads read through a mapping (``MappedReader``), by ``InboxDecoder``
/// and ``InboxFormatter``: where the items are, how each field is read, and
/// what is said when one is not there.
@Suite struct MappedReaderTests {
  /// A mapping read from `json`.
  static func mapping(_ json: String) -> InputMapping {
    try! InputMapping(json: Array(json.utf8), name: "test")
  }

  /// Items in `channels`, each field from one member, dates in Unix seconds.
  static let channels = mapping(
    #"{"items": "$.channels[*]", "id": "$.id", "name": "$.name", "message": "$.text", "date": {"path": "$.ts", "encoding": "unix-s"}, "unread": "$.unread"}"#
  )

  /// 2022-01-31 08:45:33 UTC.
  static let unixSeconds: TimeInterval = 1_643_618_733
  static let date = Date(timeIntervalSince1970: unixSeconds)

  func decode(_ payload: String, _ mapping: InputMapping = channels) throws(InboxFormatError) -> [MessageAPIModel] {
    try InboxDecoder(mapping: mapping).decode(Array(payload.utf8))
  }

  /// The error decoding `payload` throws.
  func error(
    _ payload: String, _ mapping: InputMapping = channels, sourceLocation: SourceLocation = #_sourceLocation
  ) -> InboxFormatError? {
    do {
      let messages = try decode(payload, mapping)
      Issue.record("decoded \(messages)", sourceLocation: sourceLocation)
      return nil
    } catch {
      return error
    }
  }

  func location(of needle: String, in json: String, occurrence: Int = 0) -> InputLocation {
    DecodingFixture.location(of: needle, in: json, occurrence: occurrence)
  }

  // MARK: Where the items are

  @Test func itemsInAMembersArray() throws {
    let payload = #"""
      {"ok": true, "channels": [
        {"id": "a", "name": "Ann Lee", "text": "hi", "ts": 1643618733, "unread": 2},
        {"id": 7, "ts": "1643618733.000200"}
      ], "next": ""}
      """#
    let messages = try decode(payload)
    #expect(
      messages == [
        MessageAPIModel(
          id: .string("a"), displayName: "Ann Lee", message: "hi", updateDate: Self.date, unreadCount: 2),
        MessageAPIModel(
          id: .integer(7), displayName: "", updateDate: Date(timeIntervalSince1970: 1_643_618_733.0002)),
      ])
  }

  @Test func itemsAsMemberValuesTheirNamesAsIDs() throws {
    let rooms = Self.mapping(
      #"{"items": "$.rooms.*", "id": {"member-name": true}, "name": "$.name", "date": {"path": "$.ts", "encoding": "unix-ms"}}"#
    )
    let payload =
      #"{"pos": "s1", "rooms": {"!a:example.org": {"name": "Ops", "ts": 1643618733000}, "!b:example.org": {"ts": 1643618733500}}}"#
    let messages = try decode(payload, rooms)
    #expect(messages.map(\.id) == [.string("!a:example.org"), .string("!b:example.org")])
    #expect(messages.map(\.displayName) == ["Ops", ""])
    #expect(messages.map(\.updateDate) == [Self.date, Self.date.addingTimeInterval(0.5)])
  }

  @Test func itemsAsTheDocumentsElements() throws {
    let tdlib = Self.mapping(
      #"{"items": "$[*]", "id": "$.id", "name": "$.title", "date": {"path": "$.date", "encoding": "unix-s"}}"#)
    let messages = try decode(#"[{"id": -100123, "title": "Team", "date": 1643618733}, {"id": 5, "date": 0}]"#, tdlib)
    #expect(messages.map(\.id) == [.integer(-100_123), .integer(5)])
    #expect(messages.map(\.displayName) == ["Team", ""])
    #expect(messages.map(\.updateDate) == [Self.date, Date(timeIntervalSince1970: 0)])
    #expect(try decode("[]", tdlib) == [])
  }

  @Test func aBareArrayAndNDJSONAreItemsToo() throws {
    let items = [
      #"{"id": "a", "name": "Ann", "ts": 1643618733}"#,
      #"{"id": "b", "name": "Bo", "ts": 1643618734, "unread": 1}"#,
    ]
    let expected = [
      MessageAPIModel(id: .string("a"), displayName: "Ann", updateDate: Self.date),
      MessageAPIModel(id: .string("b"), displayName: "Bo", updateDate: Self.date.addingTimeInterval(1), unreadCount: 1),
    ]
    #expect(try decode("{\"channels\": [\(items.joined(separator: ","))]}") == expected)
    #expect(try decode("[\(items.joined(separator: ",\n"))]") == expected)
    #expect(try decode(items.joined(separator: "\n") + "\n") == expected)
    #expect(try decode(items.joined(separator: "\r\n")) == expected)
  }

  @Test func itemsAnyQuerySelectsAreReadFromTheTree() throws {
    let direct = Self.mapping(
      #"{"items": "$.data[?@.kind == 'dm']", "id": "$.id", "date": {"path": "$.ts", "encoding": "unix-s"}}"#)
    let payload =
      #"{"data": [{"kind": "dm", "id": 1, "ts": 1643618733}, {"kind": "group", "id": 2, "ts": 1643618733}, {"kind": "dm", "id": 3, "ts": 1643618733}]}"#
    #expect(try decode(payload, direct).map(\.id) == [.integer(1), .integer(3)])
    // A wildcard before the last step, and a descendant segment.
    let nested = Self.mapping(
      #"{"items": "$.pages[*].items[*]", "id": "$.id", "date": {"path": "$.ts", "encoding": "unix-s"}}"#)
    let pages =
      #"{"pages": [{"items": [{"id": 1, "ts": 0}]}, {"items": []}, {"items": [{"id": 2, "ts": 0}, {"id": 3, "ts": 0}]}]}"#
    #expect(try decode(pages, nested).map(\.id) == [.integer(1), .integer(2), .integer(3)])
    let anywhere = Self.mapping(#"{"items": "$..chat", "id": "$.id", "date": {"path": "$.ts", "encoding": "unix-s"}}"#)
    let chats = #"{"a": {"chat": {"id": "x", "ts": 0}}, "b": [{"chat": {"id": "y", "ts": 0}}]}"#
    #expect(Set(try decode(chats, anywhere).map(\.id)) == [.string("x"), .string("y")])
  }

  // MARK: Fields

  @Test func theFirstSourceThatSelectsANonEmptyValueWins() throws {
    let fallbacks = Self.mapping(
      #"{"items": "$[*]", "id": ["$.uuid", "$.id"], "name": ["$.a", "$.b", "$.c", "$.d", "$.e", "$.f"], "date": {"path": "$.ts", "encoding": "unix-s"}}"#
    )
    let payload =
      #"[{"id": 1, "a": null, "b": "", "c": [], "d": {}, "e": "Eve", "f": "Fay", "ts": 0}, {"uuid": "u", "id": 2, "f": "Fay", "ts": 0}]"#
    let messages = try decode(payload, fallbacks)
    #expect(messages.map(\.displayName) == ["Eve", "Fay"])
    #expect(messages.map(\.id) == [.integer(1), .string("u")])
    // A name no source selects is empty.
    #expect(try decode(#"[{"id": 1, "a": null, "ts": 0}]"#, fallbacks).map(\.displayName) == [""])
  }

  @Test func pickTakesTheFirstOrTheLastNonEmptyNode() throws {
    let last = Self.mapping(
      #"{"items": "$[*]", "id": "$.id", "message": {"path": "$.events[*].text", "pick": "last"}, "name": {"path": "$.events[*].text", "pick": "first"}, "date": {"path": "$.events[*].ts", "encoding": "unix-s", "pick": "last"}}"#
    )
    let payload =
      #"[{"id": 1, "events": [{"text": "", "ts": 1}, {"text": "a", "ts": 2}, {"text": "b", "ts": 3}, {"text": "", "ts": null}]}]"#
    let message = try #require(try decode(payload, last).first)
    #expect(message.message == "b")
    #expect(message.displayName == "a")
    #expect(message.updateDate == Date(timeIntervalSince1970: 3))
  }

  @Test func viewerSelectsTheOtherMember() throws {
    let members = Self.mapping(
      #"{"items": "$[*]", "id": "$.id", "name": "$.members[?@.id != viewer()].name", "date": {"path": "$.ts", "encoding": "unix-s"}, "unread": "$.read[?@.user == viewer()].count"}"#
    )
    let payload =
      #"[{"id": 1, "ts": 0, "members": [{"id": "me", "name": "Me"}, {"id": "u2", "name": "Bob"}], "read": [{"user": "u2", "count": 9}, {"user": "me", "count": 4}]}]"#
    let seen = try #require(try decode(payload, members.viewer("me")).first)
    #expect(seen.displayName == "Bob")
    #expect(seen.unreadCount == 4)
    #expect(try decode(payload, members.viewer("u2")).first?.displayName == "Me")
    // Without a viewer, viewer() selects nothing: every member differs from
    // it, and none equals it.
    let unseen = try #require(try decode(payload, members).first)
    #expect(unseen.displayName == "Me")
    #expect(unseen.unreadCount == 0)
  }

  @Test func dateEncodings() throws {
    func date(_ value: String, _ encoding: String) throws -> Date? {
      let mapping = Self.mapping(
        #"{"items": "$[*]", "id": "$.id", "date": {"path": "$.d", "encoding": "\#(encoding)"}}"#)
      return try decode(#"[{"id": 1, "d": \#(value)}]"#, mapping).first?.updateDate
    }
    #expect(try date("1643618733", "unix-s") == Self.date)
    #expect(try date(#""1643618733""#, "unix-s") == Self.date)
    #expect(try date(#""1643618733.000200""#, "unix-s") == Date(timeIntervalSince1970: 1_643_618_733.0002))
    #expect(try date("1.643618733e9", "unix-s") == Self.date)
    #expect(try date("-86400", "unix-s") == Date(timeIntervalSince1970: -86_400))
    #expect(try date("1643618733123", "unix-ms") == Date(timeIntervalSince1970: 1_643_618_733.123))
    #expect(try date(#""1643618733000""#, "unix-ms") == Self.date)
    #expect(try date(#""2022-01-31T08:45:33Z""#, "rfc3339") == Self.date)
    #expect(try date(#""2022-01-31T09:45:33+01:00""#, "rfc3339") == Self.date)
  }

  @Test func aUnixTimeIsAJSONNumberInTheYearsRFC3339Writes() {
    let seconds = Self.mapping(#"{"items": "$[*]", "id": "$.id", "date": {"path": "$.d", "encoding": "unix-s"}}"#)
    for text in [
      "yesterday", "0x10", " 1643618733", "1643618733 ", "+1", "1.", ".5", "1e", "01", "NaN", "Infinity", "1e20",
      "-1e12",
    ] {
      let json = "[{\"id\": 1, \"d\": \(quoted(text))}]"
      #expect(
        error(json, seconds)?.description
          == "\(location(of: "{", in: json)): $[0] (id 1): date: \"$.d\" invalid Unix time \(quoted(text)); expected a Unix time in seconds, a number or a numeric string such as \"1643618733.000200\"",
        "\(text)")
    }
  }

  @Test func unreadKinds() throws {
    func unread(_ value: String, _ kind: String) throws -> Int64? {
      let mapping = Self.mapping(
        #"{"items": "$[*]", "id": "$.id", "date": {"path": "$.d", "encoding": "unix-s"}, "unread": {"path": "$.u", "kind": "\#(kind)"}}"#
      )
      return try decode(#"[{"id": 1, "d": 0, "u": \#(value)}]"#, mapping).first?.unreadCount
    }
    #expect(try unread("3", "count") == 3)
    #expect(try unread("0", "count") == 0)
    #expect(try unread("null", "count") == 0)
    #expect(try unread("true", "flag") == 1)
    #expect(try unread("false", "flag") == 0)
    #expect(try unread("true", "read-flag") == 0)
    #expect(try unread("false", "read-flag") == 1)
    #expect(try unread("null", "read-flag") == 0)
    // No unread source at all: read.
    #expect(try decode(#"[{"id": 1, "ts": 0}]"#, Self.channels).first?.unreadCount == 0)
  }

  @Test func unreadValuesOfTheWrongKind() {
    let count = Self.mapping(
      #"{"items": "$[*]", "id": "$.id", "date": {"path": "$.d", "encoding": "unix-s"}, "unread": "$.u"}"#)
    #expect(
      error(#"[{"id": 1, "d": 0, "u": "3"}]"#, count)?.description
        == #"line 1, column 2: $[0] (id 1): unread: "$.u" selected a string; expected an integer"#)
    #expect(
      error(#"[{"id": 1, "d": 0, "u": 2.5}]"#, count)?.description
        == #"line 1, column 2: $[0] (id 1): unread: "$.u" selected the number 2.5; expected an integer"#)
    let flag = Self.mapping(
      #"{"items": "$[*]", "id": "$.id", "date": {"path": "$.d", "encoding": "unix-s"}, "unread": {"path": "$.u", "kind": "flag"}}"#
    )
    #expect(
      error(#"[{"id": 1, "d": 0, "u": 1}]"#, flag)?.description
        == #"line 1, column 2: $[0] (id 1): unread: "$.u" selected a number; expected true or false"#)
  }

  @Test func anHTMLMessageIsItsText() throws {
    let html = Self.mapping(
      #"{"items": "$[*]", "id": "$.id", "date": {"path": "$.d", "encoding": "unix-s"}, "message": {"path": "$.body", "markup": "html"}}"#
    )
    let text = Self.mapping(
      #"{"items": "$[*]", "id": "$.id", "date": {"path": "$.d", "encoding": "unix-s"}, "message": "$.body"}"#)
    let payload = #"[{"id": 1, "d": 0, "body": "<p>Hi <b>there</b> &amp; welcome</p>"}]"#
    #expect(try decode(payload, html).first?.message == " Hi there & welcome ")
    #expect(try decode(payload, text).first?.message == "<p>Hi <b>there</b> &amp; welcome</p>")
    // In a row, one clean line.
    let context = Pinned.context()
    var output: [UInt8] = []
    try InboxFormatter(context: context, mapping: html).format(Array(payload.utf8)) { output += $0 }
    let rows = try #require(try JSONSerialization.jsonObject(with: Data(output)) as? [[String: Any]])
    #expect(rows.first?["message"] as? String == "Hi there & welcome")
  }

  @Test func theFormatterMapsADisplayName() throws {
    let payload =
      #"{"channels": [{"id": "a", "name": " Jane van der Berg ", "text": "hi", "ts": 1643618733, "unread": 2}, {"id": "b", "ts": 1643618733}]}"#
    var output: [UInt8] = []
    try InboxFormatter(context: Pinned.context(), layout: .compact, mapping: Self.channels).format(Array(payload.utf8))
    {
      output += $0
    }
    let rows = try #require(try JSONSerialization.jsonObject(with: Data(output)) as? [[String: Any]])
    #expect(rows.map { $0["id"] as? String } == ["a", "b"])
    #expect(rows.map { $0["title"] as? String } == ["Jane van der Berg", "Unknown"])
    #expect(rows.map { $0["initials"] as? String } == ["JB", "?"])
    #expect(rows.map { $0["message"] as? String } == ["hi", ""])
    #expect(rows.map { $0["isUnread"] as? Bool } == [true, false])
  }

  // MARK: Errors

  @Test func anIDThatSelectsNothing() throws {
    let payload = #"{"channels": [{"id": "a", "ts": 1}, {"ts": 2}]}"#
    let thrown = try #require(error(payload))
    let item = ItemReference(
      path: "$['channels'][1]", index: 1, id: nil, location: location(of: #"{"ts": 2"#, in: payload))
    #expect(
      thrown
        == .mappedField(
          item: item, field: "id", sources: ["$.id"], problem: "selected nothing", expected: "an integer or a string"))
    #expect(
      thrown.description
        == #"line 1, column 37: $['channels'][1]: id: "$.id" selected nothing; expected an integer or a string"#)
    let fallbacks = Self.mapping(#"{"items": "$.channels[*]", "id": ["$.id", "$.uuid"], "date": "$.ts"}"#)
    #expect(
      error(payload, fallbacks)?.description
        == #"line 1, column 15: $['channels'][0] (id "a"): date: "$.ts" selected a number; expected an RFC 3339 date-time such as "2022-01-31T08:45:33Z""#
    )
    #expect(
      error(#"{"channels": [{"ts": "2022-01-31T08:45:33Z"}]}"#, fallbacks)?.description
        == #"line 1, column 15: $['channels'][0]: id: "$.id", then "$.uuid" selected nothing; expected an integer or a string"#
    )
  }

  @Test func anIDOfTheWrongKind() {
    #expect(
      error(#"[{"id": true, "ts": 1}]"#)?.description
        == #"line 1, column 2: $[0]: id: "$.id" selected a boolean; expected an integer or a string"#)
    #expect(
      error(#"[{"id": 1.5, "ts": 1}]"#)?.description
        == #"line 1, column 2: $[0]: id: "$.id" selected the number 1.5; expected an integer or a string"#)
  }

  @Test func aDateOfTheWrongType() {
    let payload = #"{"channels": [{"id": "a", "ts": true}]}"#
    #expect(
      error(payload)?.description
        == #"line 1, column 15: $['channels'][0] (id "a"): date: "$.ts" selected a boolean; expected a Unix time in seconds, a number or a numeric string such as "1643618733.000200""#
    )
    let milliseconds = Self.mapping(
      #"{"items": "$.channels[*]", "id": "$.id", "date": {"path": "$.ts", "encoding": "unix-ms"}}"#)
    #expect(
      error(#"{"channels": [{"id": "a", "ts": [1]}]}"#, milliseconds)?.description
        == #"line 1, column 15: $['channels'][0] (id "a"): date: "$.ts" selected an array; expected a Unix time in milliseconds, a number or a numeric string such as 1643618733000"#
    )
    let rfc3339 = Self.mapping(#"{"items": "$.channels[*]", "id": "$.id", "date": "$.ts"}"#)
    #expect(
      error(#"{"channels": [{"id": "a", "ts": "2022-13-01T00:00:00Z"}]}"#, rfc3339)?.description
        == #"line 1, column 15: $['channels'][0] (id "a"): date: "$.ts" invalid date "2022-13-01T00:00:00Z": month 13 is out of range; expected an RFC 3339 date-time such as "2022-01-31T08:45:33Z""#
    )
  }

  @Test func aNameOfTheWrongKind() {
    #expect(
      error(#"{"channels": [{"id": "a", "ts": 0, "name": {"first": "Ann"}}]}"#)?.description
        == #"line 1, column 15: $['channels'][0] (id "a"): name: "$.name" selected an object; expected a string"#)
  }

  @Test func itemsNotFound() {
    let noMember = #"{"data": []}"#
    #expect(
      error(noMember)
        == .mappedItems(
          query: "$.channels[*]", path: "$", found: #"no member "channels""#,
          location: InputLocation(line: 1, column: 13, byteOffset: 12)))
    #expect(
      error(noMember)?.description
        == #"line 1, column 13: $: found no member "channels"; expected the items that "$.channels[*]" selects"#)
    let notAnArray = #"{"channels": 5}"#
    #expect(
      error(notAnArray)?.description
        == #"line 1, column 14: $['channels']: found a number; expected the items that "$.channels[*]" selects"#)
    #expect(
      error(#""channels""#)?.description
        == #"line 1, column 1: $: found a string; expected the items that "$.channels[*]" selects"#)
    let deep = Self.mapping(#"{"items": "$.data.list[2][*]", "id": "$.id", "date": "$.d"}"#)
    #expect(
      error(#"{"data": {"list": [[], []]}}"#, deep)?.description
        == #"line 1, column 27: $['data']['list']: found no element 2; expected the items that "$.data.list[2][*]" selects"#
    )
  }

  @Test func aSecondMemberThatLeadsToTheItems() {
    let payload = #"{"channels": [{"id": "a", "ts": 0}], "next": "", "channels": []}"#
    let thrown = error(payload)
    #expect(
      thrown
        == .mappedItems(
          query: "$.channels[*]", path: "$['channels']", found: #"a second "channels" key"#,
          location: location(of: #""channels""#, in: payload, occurrence: 1)))
    #expect(
      thrown?.description
        == #"line 1, column 50: $['channels']: found a second "channels" key; expected the items that "$.channels[*]" selects"#
    )
  }

  @Test func trailingDataAsThePostsReaderSaysIt() throws {
    let payload = #"{"channels": []} x"#
    let thrown = try #require(error(payload))
    guard case .syntax(let reason, let expected, let location) = thrown else {
      Issue.record("\(thrown)")
      return
    }
    #expect(location == InputLocation(line: 1, column: 18, byteOffset: 17))
    // The post's reader says the same of the same bytes after its items.
    let post = try #require(error(#"{"items": []} x"#, .post))
    #expect(
      post == .syntax(reason: reason, expected: expected, location: InputLocation(line: 1, column: 15, byteOffset: 14)))
    #expect(thrown.description == "line 1, column 18: invalid JSON: \(reason); expected \(expected)")
  }

  @Test func decodingSkippingInvalidLeavesOutTheBadItemsAndGoesOn() throws {
    let payload = """
      {"channels": [
        {"id": 1, "ts": 0},
        {"ts": 0},
        {"id": 3, "ts": 0},
        {"id": 4, "ts": "soon"},
        {"id": 5, "ts": 0, "name": 5},
        {"id": 6, "ts": 0}
      ]}
      """
    let (messages, skipped) = try InboxDecoder(mapping: Self.channels).decodeSkippingInvalid(Array(payload.utf8))
    #expect(messages.map(\.id) == [.integer(1), .integer(3), .integer(6)])
    #expect(skipped.map { $0.item?.index } == [1, 3, 4])
    #expect(skipped.map { $0.item?.path } == ["$['channels'][1]", "$['channels'][3]", "$['channels'][4]"])
    #expect(skipped.map { $0.item?.id } == [nil, .integer(4), .integer(5)])
    #expect(
      skipped.map { $0.location } == [
        location(of: #"{"ts": 0}"#, in: payload), location(of: #"{"id": 4"#, in: payload),
        location(of: #"{"id": 5"#, in: payload),
      ])
    // The first bad item fails decoding.
    #expect(error(payload) == skipped.first)

    let lines = #"{"id": 1, "ts": 0}"# + "\n" + #"{"id": 2, "ts": "# + "\n" + #"{"id": 3, "ts": 0}"# + "\n"
    let fromLines = try InboxDecoder(mapping: Self.channels).decodeSkippingInvalid(Array(lines.utf8))
    #expect(fromLines.messages.map(\.id) == [.integer(1), .integer(3)])
    guard case .brokenLine(let index, _, _, _)? = fromLines.skipped.first, fromLines.skipped.count == 1 else {
      Issue.record("\(fromLines.skipped)")
      return
    }
    #expect(index == 1)
    // A document that ends wrong still throws.
    #expect(throws: InboxFormatError.self) {
      _ = try InboxDecoder(mapping: Self.channels).decodeSkippingInvalid(
        Array(#"{"channels": [{"id": 1, "ts": 0}]} x"#.utf8))
    }
  }

  // MARK: The other mapping's hint

  @Test func thePostsMappingOnAStreamPayloadSuggestsStreamChat() throws {
    let payload = try [UInt8](
      Data(contentsOf: dataDirectory.appendingPathComponent("golden/inputs/backends/stream-chat.json")))
    let formatter = InboxFormatter(context: Pinned.context())
    do {
      try formatter.format(payload) { _ in }
      Issue.record("formatted a Stream payload as the post's")
    } catch let error as InboxFormatError {
      guard case .likelyOtherMapping(let cause, let mapping) = error else {
        Issue.record("\(error)")
        return
      }
      #expect(mapping == "stream-chat")
      #expect(cause.isAboutShape)
      #expect(error.description == "\(cause); this looks like a payload for the built-in mapping \"stream-chat\"")
    }
    // Read with its own mapping, it formats.
    let streamChat = try #require(InputMapping.builtIn(named: "stream-chat")).viewer("me")
    var output: [UInt8] = []
    try formatter.mapping(streamChat).format(payload) { output += $0 }
    #expect(!output.isEmpty)
  }

  @Test func aPostPayloadWithABadFirstItemGetsNoHint() throws {
    let payload = Array(
      #"{"items": [{"id": 1, "firstname": "Ann"}, {"id": 2, "update_date": "2022-01-31T08:45:33Z"}]}"#.utf8)
    #expect(InputMapping.post.likelyBuiltIn(for: payload) == nil)
    do {
      try InboxFormatter(context: Pinned.context()).format(payload) { _ in }
      Issue.record("formatted a message without a date")
    } catch let error as InboxFormatError {
      guard case .missingField(let item, let field) = error else {
        Issue.record("\(error)")
        return
      }
      #expect(item.index == 0)
      #expect(field == "update_date")
    }
  }

  @Test func theREADMEsLibraryExampleTitlesAOneToOneChannelByTheOtherMember() throws {
    let sendbird = try #require(InputMapping.builtIn(named: "sendbird")).viewer("me")
    let channelList = try Data(contentsOf: dataDirectory.appendingPathComponent("golden/inputs/backends/sendbird.json"))
    let channels = try InboxDecoder(mapping: sendbird).decode(channelList)
    #expect(channels.first?.displayName == "Alexander Anderson")
  }
}
