import Foundation
import Testing

/// Locales and hour cycles as the command receives them: BCP 47 with `-u-hc-`,
/// `--hour-cycle`, and POSIX names from the environment.
@Suite struct LocaleEnvironmentTests {
  static let example = dataDirectory.appendingPathComponent("examples/messages.json").path
  static let pinned = ["--now", "2022-01-31T12:00:00Z", "--time-zone", "Europe/Paris"]

  func dates(_ arguments: [String], environment: [String: String] = [:]) throws -> [String] {
    let result = try BuiltBinary.run(Self.pinned + arguments + [Self.example], environment: environment)
    #expect(result.status == 0, "\(result.stderr)")
    let rows = try #require(JSONSerialization.jsonObject(with: result.stdout) as? [[String: Any]])
    return rows.map { $0["date"] as? String ?? "" }
  }

  @Test func hourCycleFromTheLocaleTagAndFromTheOption() throws {
    #expect(try dates(["--locale", "en-US-u-hc-h23"]).first == "09:45")
    #expect(try dates(["--locale", "fr-FR-u-hc-h12"]).first == "9:45 mat.")
    #expect(try dates(["--locale", "fr-FR", "--hour-cycle", "12"]).first == "9:45 mat.")
    #expect(try dates(["--locale", "en-US-u-hc-h23", "--hour-cycle", "12"]).first == "9:45\u{202F}AM")
    #expect(try dates(["--locale", "ru_RU.UTF-8", "--hour-cycle", "12"]).first == "9:45\u{202F}AM")
  }

  /// A POSIX name gives the rows of the BCP 47 locale it names, whose
  /// own word for yesterday shows that its language was read.
  @Test(arguments: [
    ("fr_FR.UTF-8", "fr-FR", "Hier"),
    ("de_DE@euro", "de-DE", "Gestern"),
    ("de_DE.ISO-8859-15@euro", "de-DE", "Gestern"),
    ("sr_RS@latin", "sr-Latn-RS", "Juče"),
    ("sr_RS.UTF-8", "sr-RS", "Јуче"),
    ("C.UTF-8", "en-US", "Yesterday"),
    ("POSIX", "en-US", "Yesterday"),
  ])
  func posixNamesFromTheEnvironment(name: String, locale: String, yesterday: String) throws {
    let expected = try dates(["--locale", locale])
    #expect(expected.count == 4 && expected[1] == yesterday, "\(expected)")
    #expect(try dates([], environment: ["LANG": name]) == expected)
    #expect(try dates([], environment: ["LC_TIME": name, "LANG": "ja_JP.UTF-8"]) == expected)
  }

  @Test func theEnvironmentLocaleTakesTheHourCycleOption() throws {
    #expect(try dates(["--hour-cycle", "12"], environment: ["LANG": "de_DE.UTF-8"]).first == "9:45 morgens")
    #expect(try dates(["--hour-cycle", "24"], environment: ["LANG": "en_US.UTF-8"]).first == "09:45")
  }
}
