import Foundation
import InboxFormat
import Testing

/// `--map`, `--viewer`, `mappings` and `serve --mappings`, through the built binary.
@Suite struct MappingCommandTests {
  static let pinned = ["--now", "2022-01-31T12:00:00Z", "--locale", "en-US", "--time-zone", "Europe/Paris"]
  static let backends = dataDirectory.appendingPathComponent("golden/inputs/backends")

  func temporaryFile(_ text: String, name: String = "mapping.json") throws -> URL {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let url = directory.appendingPathComponent(name)
    try Data(text.utf8).write(to: url)
    return url
  }

  @Test func theViewerTitlesAOneToOneChatByTheOtherMember() throws {
    let payload = """
      {"channels":[{"channel_url":"c1","name":"","unread_message_count":2,
      "last_message":{"message":"Hi","created_at":1643618733000},
      "members":[{"user_id":"me","nickname":"Me Myself"},{"user_id":"u2","nickname":"Jane Doe"}]}]}
      """
    let result = try BuiltBinary.run(Self.pinned + ["--map", "sendbird", "--viewer", "me"], stdin: Data(payload.utf8))
    #expect(result.status == 0, "\(result.stderr)")
    // 1643618733000 ms is 2022-01-31T08:45:33Z, 9:45 in Paris; the other member's name, its words' initials.
    #expect(
      result.stdoutText == """
        [{"id":"c1","initials":"JD","title":"Jane Doe","message":"Hi","date":"9:45\u{202F}AM","isUnread":true}]

        """)
    // Without a viewer, viewer() selects nothing: every member is "other" than nobody, so the first, "Me Myself".
    let unseen = try BuiltBinary.run(Self.pinned + ["--map", "sendbird"], stdin: Data(payload.utf8))
    #expect(unseen.stdoutText.contains(#""title":"Me Myself""#))
  }

  @Test func aMappingFileIsReadAndItsErrorsAreUsageErrors() throws {
    let good = try temporaryFile(
      #"{"items":"$.data[*]","id":"$.key","name":"$.who","date":{"path":"$.at","encoding":"unix-s"}}"#)
    let result = try BuiltBinary.run(
      Self.pinned + ["--map", good.path], stdin: Data(#"{"data":[{"key":7,"who":"Cher","at":1643618733}]}"#.utf8))
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdoutText.contains(#"{"id":7,"initials":"C","title":"Cher""#))

    let badQuery = try temporaryFile(#"{"items":"$.data[*]","id":"$.key","date":"$.at[?@ == ]"}"#)
    let refused = try BuiltBinary.run(Self.pinned + ["--map", badQuery.path], stdin: Data("[]".utf8))
    #expect(refused.status == 64)
    #expect(refused.stdout.isEmpty)
    #expect(refused.stderr.hasPrefix("inbox-format: --map \"\(badQuery.path)\": date: invalid query"))
    #expect(refused.stderr.contains("position "))
    #expect(refused.stderr.split(separator: "\n").count == 1)

    let unknownKey = try temporaryFile(#"{"items":"$[*]","id":"$.id","date":"$.d","colour":"$.c"}"#)
    let unknown = try BuiltBinary.run(Self.pinned + ["--map", unknownKey.path], stdin: Data("[]".utf8))
    #expect(unknown.status == 64)
    #expect(unknown.stderr.contains(#"colour": unknown key; expected one of description, items, id"#))

    let notJSON = try temporaryFile("{items:")
    #expect(try BuiltBinary.run(Self.pinned + ["--map", notJSON.path], stdin: Data("[]".utf8)).status == 64)
  }

  @Test func aMappingThatIsNeitherABuiltInNorAFileCannotBeOpened() throws {
    let result = try BuiltBinary.run(Self.pinned + ["--map", "no-such-backend"], stdin: Data("[]".utf8))
    #expect(result.status == 66)
    #expect(result.stderr.contains(#"cannot open "no-such-backend""#))
  }

  @Test func aPayloadOfAnotherBuiltInsShapeGetsAHint() throws {
    let stream = Self.backends.appendingPathComponent("stream-chat.json").path
    let result = try BuiltBinary.run(Self.pinned + [stream])
    #expect(result.status == 65)
    #expect(
      result.stderr.hasSuffix(
        #"this looks like a payload for the built-in mapping "stream-chat": try --map stream-chat"# + "\n"))
  }

  @Test func anItemWhoseDateSelectsNothingIsNamedByItsPath() throws {
    let payload = #"{"channels":[{"channel_url":"a","last_message":{"created_at":1643618733000}},{"channel_url":"b"}]}"#
    let result = try BuiltBinary.run(Self.pinned + ["--map", "sendbird"], stdin: Data(payload.utf8))
    #expect(result.status == 65)
    #expect(
      result.stderr.contains(
        #"$['channels'][1] (id "b"): date: "$.last_message.created_at", then "$.created_at" selected nothing"#))
    let skipped = try BuiltBinary.run(
      Self.pinned + ["--map", "sendbird", "--skip-invalid"], stdin: Data(payload.utf8))
    #expect(skipped.status == 3)
    #expect(skipped.stdoutText.contains(#""id":"a""#))
    #expect(!skipped.stdoutText.contains(#""id":"b""#))
  }

  @Test func mappingsListsTheBuiltInsAndPrintsOne() throws {
    let list = try BuiltBinary.run(["mappings"])
    #expect(list.status == 0)
    #expect(
      list.stdoutText.split(separator: "\n").map { String($0.split(separator: " ")[0]) }
        == ["post", "stream-chat", "sendbird", "matrix", "twilio", "intercom", "tdlib", "slack"])
    let sendbird = try BuiltBinary.run(["mappings", "sendbird"])
    #expect(sendbird.status == 0)
    let file = try String(contentsOf: dataDirectory.appendingPathComponent("mappings/sendbird.json"), encoding: .utf8)
    #expect(sendbird.stdoutText == file)
    let unknown = try BuiltBinary.run(["mappings", "icq"])
    #expect(unknown.status == 64)
    #expect(unknown.stderr.contains(#"no built-in mapping "icq""#))
  }

  @Test func aPrintedMappingReadsAsAFileTheSameAsTheBuiltIn() throws {
    let printed = try BuiltBinary.run(["mappings", "matrix"])
    let file = try temporaryFile(printed.stdoutText)
    let payload = Self.backends.appendingPathComponent("matrix.json").path
    let builtIn = try BuiltBinary.run(Self.pinned + ["--map", "matrix", "--viewer", "@me:example.org", payload])
    let fromFile = try BuiltBinary.run(Self.pinned + ["--map", file.path, "--viewer", "@me:example.org", payload])
    #expect(builtIn.status == 0)
    #expect(fromFile.stdout == builtIn.stdout)
  }
}
