import Foundation
import InboxFormat
import Testing

/// `--fields`, `--date-style` and `--badge-limit` through the built binary:
/// the issue's example, the usage errors, and `watch` with them.
@Suite struct RowOptionsTests {
  static let pinned = CommandLineTests.pinned
  static let example = CommandLineTests.example
  static let everyField = "default,dateValidUntil,unreadBadge,spokenDate,titleDirection,messageDirection,avatarColor"

  @Test func theIssuesExampleWithEveryField() throws {
    let result = try BuiltBinary.run(Self.pinned + ["--fields", Self.everyField, Self.example])
    #expect(result.status == 0, "\(result.stderr)")
    let lines = result.stdoutText.split(separator: "},{").map(String.init)
    #expect(lines.count == 4)
    #expect(lines[0].hasPrefix(#"[{"id":1,"initials":"AA","title":"Alexander Anderson","#))
    for part in [
      #""dateValidUntil":"2022-01-31T23:00:00Z""#, #""unreadBadge":"1""#, "\"spokenDate\":\"9:45\u{202F}AM\"",
      #""titleDirection":"ltr""#, #""avatarColor":1"#,
    ] {
      #expect(lines[0].contains(part), "\(part) in \(lines[0])")
    }
    #expect(lines[2].contains(#""titleDirection":"neutral""#))
    #expect(lines[3].contains(#""spokenDate":"January 3, 2022""#))
    #expect(lines[3].contains(#""dateValidUntil":null"#))
    // The keys in the order given, after the six.
    #expect(lines[0].contains(#""isUnread":true,"dateValidUntil":"#))
    #expect(lines[0].hasSuffix(#""messageDirection":"ltr","avatarColor":1"#))
  }

  /// The command hands `--date-style` to the library: its labels are the
  /// library's for the same settings (the rule's own tests say what they are).
  @Test func theIssuesExampleInTheCompactStyle() throws {
    let result = try BuiltBinary.run(Self.pinned + ["--date-style", "compact", Self.example])
    #expect(result.status == 0)
    let context = FormattingContext(
      now: try Date("2022-01-31T12:00:00Z", strategy: .iso8601), locale: Locale(identifier: "en-US"),
      timeZone: try #require(TimeZone(identifier: "Europe/Paris")), dateStyle: .compact)
    var library: [UInt8] = []
    try InboxFormatter(context: context).format([UInt8](try Data(contentsOf: URL(fileURLWithPath: Self.example)))) {
      library += $0
    }
    #expect(result.stdout == Data(library))
    let rows = try #require(JSONSerialization.jsonObject(with: result.stdout) as? [[String: Any]])
    // Not the standard style's labels: the option was read.
    #expect(rows.last?["date"] as? String == "Jan 3")
  }

  @Test func keysComeInTheOrderGiven() throws {
    let result = try BuiltBinary.run(
      Self.pinned + ["--fields", "avatarColor,date,id", "--output", "ndjson", Self.example])
    #expect(result.status == 0)
    #expect(
      result.stdoutText.split(separator: "\n").first == "{\"avatarColor\":1,\"date\":\"9:45\u{202F}AM\",\"id\":1}")
  }

  @Test func theDefaultFieldsGiveTodaysBytes() throws {
    let plain = try BuiltBinary.run(Self.pinned + ["--pretty", Self.example])
    let named = try BuiltBinary.run(
      Self.pinned + [
        "--pretty", "--fields", "id,initials,title,message,date,isUnread", "--badge-limit", "5", Self.example,
      ])
    let word = try BuiltBinary.run(
      Self.pinned + ["--pretty", "--fields", "default", "--date-style", "standard", Self.example])
    #expect(plain.status == 0)
    #expect(named.stdout == plain.stdout)
    #expect(word.stdout == plain.stdout)
  }

  @Test(arguments: [
    (
      ["--fields", "default,colour"],
      #"--fields "default,colour" names "colour", which is not a field; expected keys separated by commas among default, id, "#
    ),
    (["--fields", "id,default"], #"--fields "id,default" names "id" twice"#),
    (["--fields", "id,,date"], #"--fields "id,,date" has an empty name"#),
    (["--fields", ""], #"--fields "" has an empty name"#),
    (["--fields", "ID"], #"names "ID", which is not a field"#),
    (["--date-style", "short"], #"--date-style "short" is not valid; expected standard, compact or relative"#),
    (["--badge-limit", "0"], #"--badge-limit "0" is not valid; expected an integer from 1 to 999999999"#),
    (["--badge-limit", "ten"], #"--badge-limit "ten" is not valid"#),
    (["--badge-limit", "1000000000"], #"--badge-limit "1000000000" is not valid"#),
  ])
  func badValuesAreUsageErrors(arguments: [String], message: String) throws {
    let result = try BuiltBinary.run(Self.pinned + arguments + [Self.example])
    #expect(result.status == 64)
    #expect(result.stdout.isEmpty)
    #expect(result.stderr.contains(message), "\(result.stderr)")
  }

  @Test func watchTakesTheOptionsToo() throws {
    let bad = try BuiltBinary.run(["watch", Self.example, "--date-style", "soon"] + Self.pinned)
    #expect(bad.status == 64)
    #expect(bad.stderr.contains(#"--date-style "soon" is not valid"#))
  }

  @Test func theTextViewShowsTheStylesDate() throws {
    let result = try BuiltBinary.run(
      Self.pinned + ["--output", "text", "--date-style", "compact", "--fields", Self.everyField, Self.example],
      environment: ["COLUMNS": "64"])
    #expect(result.status == 0)
    // Each row's compact label, as the JSON output has it, ends its line.
    let json = try BuiltBinary.run(Self.pinned + ["--date-style", "compact", Self.example])
    let rows = try #require(JSONSerialization.jsonObject(with: json.stdout) as? [[String: Any]])
    for case let date as String in rows.map({ $0["date"] }) {
      #expect(result.stdoutText.contains(date + "\n"), "\(date)")
    }
    #expect(result.stdoutText.contains("Jan 3\n"))
    #expect(!result.stdoutText.contains("ltr"))
  }
}
