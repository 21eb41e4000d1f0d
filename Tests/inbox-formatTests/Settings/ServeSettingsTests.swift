import Foundation
import Testing

@testable import inbox_format_server

/// `serve`'s options from `INBOX_FORMAT_*` variables and a `--config` file,
/// as `serve --print-config` shows them and as a server uses them.
@Suite struct ServeSettingsTests {
  /// `serve --print-config` with `environment`: each setting's value and
  /// source, by name.
  func printed(_ arguments: [String] = [], environment: [String: String] = [:]) throws -> [String: (
    value: String, source: String
  )] {
    let result = try BuiltBinary.run(["serve", "--print-config"] + arguments, environment: environment)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stderr.isEmpty)
    var rows: [String: (value: String, source: String)] = [:]
    for line in result.stdoutText.split(separator: "\n") {
      // Columns are two spaces apart at least; no value here holds two.
      let cells = line.split(separator: /\s{2,}/).map(String.init)
      try #require(cells.count == 3, "\(line)")
      rows[cells[0]] = (cells[1], cells[2])
    }
    return rows
  }

  /// A file in a fresh directory, holding `text`.
  func file(_ name: String, _ text: String) throws -> String {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let url = directory.appendingPathComponent(name)
    try Data(text.utf8).write(to: url)
    return url.path
  }

  /// The list names exactly the options `serve` declares, but for
  /// `--config` and `--print-config`, as ArgumentParser reports them: so
  /// the variables and keys follow the options, and no option has a short
  /// name that the command line's scan would miss.
  @Test func theSettingsAreServesOptions() throws {
    let declared = try BuiltBinary.declaredNames(of: "serve")
    var expected: Set<String> = [
      "option long config", "flag long print-config", "flag long version", "flag long help", "flag short h",
    ]
    for setting in ServeSetting.allCases {
      for name in setting.commandLineNames {
        expected.insert("\(setting.isFlag ? "flag" : "option") long \(name.dropFirst(2))")
      }
    }
    #expect(declared == expected)
  }

  @Test func theCommandLineScanFindsEachWayOfGivingAnOption() {
    let given = ServeSettings.givenOnCommandLine
    #expect(given(["--port=8081"]) == [.port])
    #expect(given(["--port", "8081"]) == [.port])
    #expect(given(["--no-metrics"]) == [.metrics])
    #expect(given(["--metrics", "--locale", "fr-FR"]) == [.metrics, .locale])
    #expect(given(["--viewer=--port", "--max-body-size=1"]) == [.viewer, .maxBodySize])
    #expect(given(["--config", "serve.json", "--print-config"]) == [])
    #expect(given(["--", "--port"]) == [])
  }

  @Test func aMistypedKeyIsMatchedToTheNearestOption() {
    #expect(ServeSetting.nearest(to: "prot") == .port)
    #expect(ServeSetting.nearest(to: "max_body_size") == .maxBodySize)
    #expect(ServeSetting.nearest(to: "colour") == nil)
  }

  @Test func everySettingHasItsDefaultWithoutEnvironmentOrFile() throws {
    let rows = try printed()
    #expect(rows.count == ServeSetting.allCases.count + 1)
    #expect(rows["port"]! == ("8080", "default"))
    #expect(rows["metrics"]! == ("true", "default"))
    #expect(rows["locale"]! == ("(not set)", "default"))
    #expect(rows["config"]! == ("(not set)", "default"))
  }

  @Test func theEnvironmentSetsThePortAndTheLocale() throws {
    let rows = try printed(environment: [
      "INBOX_FORMAT_PORT": "8081", "INBOX_FORMAT_LOCALE": "fr-FR", "INBOX_FORMAT_MAX_BODY_SIZE": "1048576",
      "INBOX_FORMAT_METRICS": "no",
    ])
    #expect(rows["port"]! == ("8081", "environment INBOX_FORMAT_PORT"))
    #expect(rows["locale"]! == ("fr-FR", "environment INBOX_FORMAT_LOCALE"))
    #expect(rows["max-body-size"]! == ("1048576", "environment INBOX_FORMAT_MAX_BODY_SIZE"))
    #expect(rows["metrics"]! == ("false", "environment INBOX_FORMAT_METRICS"))
  }

  /// A flag wins over the environment, the environment over the file,
  /// the file over the default; a value the command line overrides is not
  /// read at all.
  @Test func aFlagWinsOverTheEnvironmentWhichWinsOverTheFile() throws {
    let config = try file(
      "serve.json", #"{"port": 8082, "locale": "de-DE", "max-body-size": 1048576, "metrics": false}"#)
    let environment = ["INBOX_FORMAT_PORT": "8081", "INBOX_FORMAT_LOCALE": "fr-FR", "INBOX_FORMAT_METRICS": "bad"]
    for port in [["--port", "8083"], ["--port=8083"]] {
      let rows = try printed(["--config", config, "--metrics"] + port, environment: environment)
      #expect(rows["port"]! == ("8083", "flag"))
      #expect(rows["locale"]! == ("fr-FR", "environment INBOX_FORMAT_LOCALE"))
      #expect(rows["max-body-size"]! == ("1048576", "file:max-body-size"))
      #expect(rows["metrics"]! == ("true", "flag"))
      #expect(rows["config"]! == (config, "flag"))
    }
    let rows = try printed(["--config", config, "--no-metrics"], environment: ["INBOX_FORMAT_METRICS": "true"])
    #expect(rows["port"]! == ("8082", "file:port"))
    #expect(rows["metrics"]! == ("false", "flag"))
  }

  @Test func aYAMLFileNamedByTheEnvironment() throws {
    let config = try file(
      "serve.yaml", "# serve's settings\nport: 8084\nlocale: ja-JP\nmetrics: false\nfields: id,date\n")
    let rows = try printed(environment: ["INBOX_FORMAT_CONFIG": config])
    #expect(rows["config"]! == (config, "environment INBOX_FORMAT_CONFIG"))
    #expect(rows["port"]! == ("8084", "file:port"))
    #expect(rows["locale"]! == ("ja-JP", "file:locale"))
    #expect(rows["metrics"]! == ("false", "file:metrics"))
    #expect(rows["fields"]! == ("id,date", "file:fields"))
  }

  /// Values checked together (the body memory against the body size) name
  /// the source whose value made them fail; a file's value can make up for
  /// a flag's.
  @Test func valuesAreCheckedTogetherWhereverTheyComeFrom() throws {
    let small = try file("serve.json", #"{"max-body-size": 1000}"#)
    let result = try BuiltBinary.run(
      ["serve", "--config", small, "--print-config"], environment: ["INBOX_FORMAT_MAX_BODY_MEMORY": "999"])
    #expect(result.status == 64)
    #expect(
      result.stderr
        == "inbox-format: INBOX_FORMAT_MAX_BODY_MEMORY: --max-body-memory must be at least --max-body-size (1000), not 999\n"
    )
    let large = try file("serve.json", #"{"max-body-memory": 300000000}"#)
    let rows = try printed(["--max-body-size", "200000000", "--config", large])
    #expect(rows["max-body-memory"]! == ("300000000", "file:max-body-memory"))
  }

  @Test(arguments: [
    ("INBOX_FORMAT_PORT", "70000", "inbox-format: INBOX_FORMAT_PORT: --port must be from 0 to 65535, not 70000"),
    (
      "INBOX_FORMAT_PORT", "eighty",
      "inbox-format: INBOX_FORMAT_PORT: The value 'eighty' is invalid for '--port <port>'"
    ),
    (
      "INBOX_FORMAT_LOCALE", "xx-\u{1B}[2J",
      #"inbox-format: INBOX_FORMAT_LOCALE: --locale "xx-\u{1B}[2J" is not a locale name; expected a BCP 47 tag such as fr-FR or en-US-u-hc-h23, or a POSIX name such as fr_FR.UTF-8"#
    ),
    (
      "INBOX_FORMAT_METRICS", "maybe",
      #"inbox-format: INBOX_FORMAT_METRICS: "maybe" is not valid; expected true or false"#
    ),
  ])
  func aBadVariableIsAUsageErrorNamingIt(name: String, value: String, message: String) throws {
    let result = try BuiltBinary.run(["serve", "--print-config"], environment: [name: value])
    #expect(result.status == 64)
    #expect(result.stderr == message + "\n")
    #expect(result.stdout.isEmpty)
  }

  @Test(arguments: [
    ("serve.json", #"{"prot": 8081}"#, #""serve.json" key "prot" is not an option of serve; did you mean "port"?"#),
    ("serve.yaml", "listening:\n  port: 1\n", #""serve.yaml" key "listening.port" is not an option of serve"#),
    (
      "serve.json", #"{"port": "eighty"}"#,
      #""serve.json" key "port": The value 'eighty' is invalid for '--port <port>'"#
    ),
    ("serve.json", #"{"port": true}"#, #""serve.json" key "port": expected a string or a number"#),
    ("serve.json", #"{"locale": ["fr-FR"]}"#, #""serve.json" key "locale": expected a string or a number"#),
    ("serve.json", #"{"metrics": 0}"#, #""serve.json" key "metrics": expected true or false"#),
    ("serve.yaml", "metrics: maybe\n", #""serve.yaml" key "metrics": expected true or false"#),
    ("serve.json", "{\n  \"port\" 8081\n}", #"cannot read "serve.json" as JSON: line 2, column 10: "#),
    ("serve.yaml", "port: 1\n  locale: : x\n", #"cannot read "serve.yaml" as YAML: 2:9: "#),
    ("serve.json", "[]", #"cannot read "serve.json" as JSON: "#),
  ])
  func aBadFileIsAUsageErrorNamingTheFileAndKey(name: String, text: String, message: String) throws {
    let config = try file(name, text)
    let result = try BuiltBinary.run(["serve", "--print-config", "--config", config])
    #expect(result.status == 64)
    let quotedPath = "\"\(config)\""
    #expect(
      result.stderr.hasPrefix("inbox-format: " + message.replacingOccurrences(of: "\"\(name)\"", with: quotedPath)))
    #expect(result.stderr.split(separator: "\n").count == 1)
  }

  @Test func aMissingFileExits66() throws {
    let result = try BuiltBinary.run(["serve", "--print-config", "--config", "/nonexistent/serve.json"])
    #expect(result.status == 66)
    #expect(result.stderr == "inbox-format: cannot open \"/nonexistent/serve.json\": No such file or directory\n")
  }

  /// `format` reads none of serve's variables: its rows depend on its flags.
  @Test func formatIgnoresTheVariables() throws {
    let arguments = [
      "--now", "2022-01-31T12:00:00Z", "--time-zone", "UTC",
      dataDirectory.appendingPathComponent("examples/messages.json").path,
    ]
    let plain = try BuiltBinary.run(arguments)
    let configured = try BuiltBinary.run(
      arguments,
      environment: ["INBOX_FORMAT_LOCALE": "de-DE", "INBOX_FORMAT_FIELDS": "id", "INBOX_FORMAT_CONFIG": "/x"])
    #expect(plain.status == 0 && configured.status == 0)
    #expect(configured.stdout == plain.stdout)
    #expect(configured.stdoutText.contains(#""date":"Yesterday""#))
  }

  /// A server started with its port and locale in the environment listens
  /// where it says and answers in that locale by default.
  @Test func aServerUsesTheEnvironmentsSettings() async throws {
    let server = try ServerProcess(
      ["serve"],
      environment: ["INBOX_FORMAT_PORT": "0", "INBOX_FORMAT_LOCALE": "de-DE", "INBOX_FORMAT_TIME_ZONE": "UTC"])
    #expect(server.port != 8080)
    let payload = try Data(contentsOf: dataDirectory.appendingPathComponent("examples/messages.json"))
    let answer = try await server.post("/v1/rows?now=2022-01-31T12:00:00Z", body: payload)
    #expect(answer.head.contains("Content-Language: de-DE"))
    #expect(String(decoding: answer.body, as: UTF8.self).contains(#""date":"Gestern""#))
    #expect(server.terminate().status == 0)
  }
}
