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

  @Test(arguments: [
    ("fr_FR.UTF-8", ["09:45", "Hier", "Mardi", "03/01/2022"]),
    ("de_DE@euro", ["09:45", "Gestern", "Dienstag", "03.01.22"]),
    ("de_DE.ISO-8859-15@euro", ["09:45", "Gestern", "Dienstag", "03.01.22"]),
    ("sr_RS@latin", ["09:45", "Juče", "Utorak", "3. 1. 2022."]),
    ("sr_RS.UTF-8", ["09:45", "Јуче", "Уторак", "3. 1. 2022."]),
    ("C.UTF-8", ["9:45\u{202F}AM", "Yesterday", "Tuesday", "1/3/22"]),
    ("POSIX", ["9:45\u{202F}AM", "Yesterday", "Tuesday", "1/3/22"]),
  ])
  func posixNamesFromTheEnvironment(name: String, expected: [String]) throws {
    #expect(try dates([], environment: ["LANG": name]) == expected)
    #expect(try dates([], environment: ["LC_TIME": name, "LANG": "ja_JP.UTF-8"]) == expected)
  }

  @Test func theEnvironmentLocaleTakesTheHourCycleOption() throws {
    #expect(try dates(["--hour-cycle", "12"], environment: ["LANG": "de_DE.UTF-8"]).first == "9:45 morgens")
    #expect(try dates(["--hour-cycle", "24"], environment: ["LANG": "en_US.UTF-8"]).first == "09:45")
  }
}
