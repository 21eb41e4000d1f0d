import Foundation
import Testing

/// The golden cases through the built binary under environments that would
/// change labels if anything read them: each case pins its locale, zone and
/// now, so the output is its golden file, byte for byte.
@Suite struct GoldenEnvironmentTests {
  struct Environment: Sendable, CustomTestStringConvertible {
    var variables: [String: String]
    var testDescription: String {
      variables.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
    }
  }

  static let environments: [Environment] = [
    ["LANG": "fr_FR.UTF-8"], ["LC_ALL": "ja_JP.UTF-8"], ["LANG": "C"],
    ["LC_MESSAGES": String(repeating: "abcdefghij", count: 2)], ["TZ": "Asia/Tokyo"], ["TZ": "UTC+14"],
    ["TZ": "garbage"], ["LC_TIME": "ar_SA.UTF-8", "TZ": "Pacific/Kiritimati", "SOURCE_DATE_EPOCH": "0"],
  ].map(Environment.init(variables:))

  @Test func thereAreGoldenCases() {
    #expect(GoldenFileTests.cases.count >= 10)
  }

  @Test(arguments: environments)
  func everyGoldenCaseIsByteIdenticalUnder(_ environment: Environment) throws {
    for golden in GoldenFileTests.cases {
      let result = try RawProcess.run(golden.arguments, environment: environment.variables)
      expectNoSignal(result, golden.name)
      #expect(result.exitStatus == 0, "\(golden.name): \(result)")
      #expect(result.stderr.isEmpty, "\(golden.name): \(result.stderrText)")
      let expected = try String(contentsOf: golden.expectedURL, encoding: .utf8)
      #expect(
        result.stdoutText == expected,
        "\(golden.name) under \(environment.testDescription):\n\(lineDiff(expected: expected, actual: result.stdoutText))"
      )
    }
  }
}
