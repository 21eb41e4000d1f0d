import Foundation
import GoldenCases
import Testing

/// Every time zone id there is, through the built binary: each one
/// Foundation knows works and gives the labels its UTC offsets give
/// (computed here without ICU, ``ExampleLabels``); custom offsets within
/// ±14:00 work, beyond and malformed ones are refused with 64 and one line;
/// and POSIX `TZ` values through the environment. Never a signal.
@Suite struct TimeZoneSweepTests {
  /// What a zone id must do.
  enum Expected: Sendable, Equatable {
    /// Status 0 and these four date labels.
    case labels([String])
    /// Status 64, one line naming the value.
    case refused
  }

  struct Probe: Sendable, CustomStringConvertible {
    var id: String
    var expected: Expected
    /// Where the id comes from: `known`, `legacy`, `zoneinfo`, `offset`.
    var source: String
    var description: String { "\(source) \(id.debugDescription)" }
  }

  /// A share of the probes: test cases run in parallel, each runs its probes one after another.
  struct Chunk: Sendable, CustomTestStringConvertible {
    var index: Int
    var probes: [Probe]
    var testDescription: String {
      "zones \(index): \(probes.first?.id ?? "") … \(probes.last?.id ?? "") (\(probes.count))"
    }
  }

  /// ICU's legacy three-letter ids, the SystemV zones and a removed alias.
  static let legacyIDs =
    "ACT AET AGT ART AST BET BST CAT CNT CST CTT EAT ECT IET IST JST MIT NET NST PLT PNT PRT PST SST VST EST MST HST"
    .split(separator: " ").map(String.init)
    + [
      "AST4", "AST4ADT", "CST6", "CST6CDT", "EST5", "EST5EDT", "HST10", "MST7", "MST7MDT", "PST8", "PST8PDT", "YST9",
      "YST9YDT",
    ]
    .map { "SystemV/\($0)" }
    + ["US/Pacific-New"]

  /// The zone files under /usr/share/zoneinfo, by their relative names:
  /// not posix/ and right/ (copies), and only files that begin as zone files do.
  static let zoneinfoIDs: [String] = {
    let root = "/usr/share/zoneinfo"
    guard let walker = FileManager.default.enumerator(atPath: root) else { return [] }
    var ids: [String] = []
    while let name = walker.nextObject() as? String {
      if name == "posix" || name == "right" {
        walker.skipDescendants()
        continue
      }
      guard let handle = FileHandle(forReadingAtPath: "\(root)/\(name)") else { continue }
      defer { try? handle.close() }
      if (try? handle.read(upToCount: 4)) == Data("TZif".utf8) { ids.append(name) }
    }
    return ids.sorted()
  }()

  /// Custom offsets: hours ahead of UTC as ICU reads `GMT+5`, in range or not, and malformed ones.
  static let offsets: [(String, Int?)] = {
    var offsets: [(String, Int?)] = []
    for hours in 0...16 {
      for sign in ["+", "-"] {
        let seconds = (sign == "+" ? 1 : -1) * hours * 3600
        let expected = hours <= 14 ? seconds : nil
        offsets.append(("GMT\(sign)\(hours)", expected))
        // The other spellings at the edges and a few hours between.
        guard [0, 1, 9, 12, 14, 15, 16].contains(hours) else { continue }
        offsets.append(("GMT\(sign)\(hours < 10 ? "0" : "")\(hours):00", expected))
        offsets.append(("UTC\(sign)\(hours < 10 ? "0" : "")\(hours)00", expected))
      }
    }
    offsets += [
      ("GMT+05:30", 19_800), ("GMT+0530", 19_800), ("UTC+0545", 20_700), ("UTC+05:45", 20_700), ("GMT-03:30", -12_600),
      ("GMT-0930", -34_200), ("GMT+12:45", 45_900), ("UTC+1245", 45_900), ("GMT+08:45", 31_500), ("GMT-00:30", -1_800),
      ("GMT+14:00", 50_400), ("GMT-14:00", -50_400), ("UTC", 0), ("GMT", 0),
      // Beyond ±14:00.
      ("GMT+14:01", nil), ("GMT-14:01", nil), ("UTC+1401", nil), ("GMT+14:30", nil), ("GMT+99", nil),
      ("GMT-23:59", nil),
      // Malformed.
      ("GMT+", nil), ("GMT-", nil), ("UTC+", nil), ("GMT+5:3", nil), ("GMT+05:60", nil), ("GMT+05:99", nil),
      ("GMT+123456", nil), ("GMT++5", nil), ("GMT+-5", nil), ("GMT+5x", nil), ("GMT+ 5", nil), ("GMT+05:30:00", nil),
      ("UTC+5:", nil), ("GMT+:30", nil), ("GMT+\u{0665}", nil), ("GMT+05:3O", nil), ("GMT+1e1", nil), ("GMT+0x5", nil),
      ("GMT+5 ", nil), (" GMT+5", nil), ("GMT+05:30\n", nil), ("GMT\u{2212}5", nil), ("GMT+５", nil),
    ]
    return offsets
  }()

  static let probes: [Probe] = {
    var probes: [Probe] = []
    var seen: Set<String> = []
    func add(_ id: String, _ expected: Expected, _ source: String) {
      guard seen.insert(id).inserted else { return }
      probes.append(Probe(id: id, expected: expected, source: source))
    }
    for (id, offset) in offsets {
      add(id, offset.map { .labels(ExampleLabels.labels(fixedOffset: $0)) } ?? .refused, "offset")
    }
    for id in TimeZone.knownTimeZoneIdentifiers {
      // Every id Foundation lists must work.
      add(id, TimeZone(identifier: id).map { .labels(ExampleLabels.labels(zone: $0)) } ?? .labels([]), "known")
    }
    for id in legacyIDs {
      add(id, TimeZone(identifier: id).map { .labels(ExampleLabels.labels(zone: $0)) } ?? .labels([]), "legacy")
    }
    for id in zoneinfoIDs {
      // A file name Foundation has no zone for is an unknown id.
      add(id, TimeZone(identifier: id).map { .labels(ExampleLabels.labels(zone: $0)) } ?? .refused, "zoneinfo")
    }
    return probes
  }()

  /// 16 shares: enough for both cores to stay busy, few enough to report.
  static let chunks: [Chunk] = {
    let count = 16
    return (0..<count).map { index in
      Chunk(index: index, probes: stride(from: index, to: probes.count, by: count).map { probes[$0] })
    }
  }()

  static func run(timeZone id: String) throws -> RawProcess.Result {
    try RawProcess.run(["--now", Hostile.now, "--locale", "en-US", "--time-zone", id, Hostile.example])
  }

  @Test func theSweepCoversEveryKindOfId() {
    #expect(TimeZone.knownTimeZoneIdentifiers.count >= 400)
    #expect(Self.probes.filter { $0.source == "known" }.count >= 400)
    #expect(Self.legacyIDs.count == 42)
    // Every legacy id is one Foundation knows, so each must work.
    #expect(Self.legacyIDs.filter { TimeZone(identifier: $0) == nil } == [])
    if FileManager.default.fileExists(atPath: "/usr/share/zoneinfo/Europe/Paris") {
      #expect(Self.zoneinfoIDs.contains("Europe/Paris"))
      #expect(Self.zoneinfoIDs.contains("US/Eastern"))
      #expect(!Self.zoneinfoIDs.contains("zone.tab") && !Self.zoneinfoIDs.contains { $0.hasPrefix("posix/") })
    }
    #expect(Self.chunks.map(\.probes.count).reduce(0, +) == Self.probes.count)
  }

  @Test(arguments: chunks)
  func everyZoneWorksWithItsOwnOffsetsOrIsRefusedInOneLine(_ chunk: Chunk) throws {
    for probe in chunk.probes {
      let result = try Self.run(timeZone: probe.id)
      switch probe.expected {
      case .labels(let labels):
        let dates = expectRows(result, "\(probe)")
        if !labels.isEmpty { #expect(dates == labels, "\(probe)") }
        #expect(!labels.isEmpty, "\(probe): listed by Foundation but not a zone in this process")
      case .refused:
        let line = expectUsageError(result, "\(probe)")
        #expect(line.hasPrefix(#"inbox-format: --time-zone ""#), "\(probe): \(line)")
      }
    }
  }

  /// The oracle itself, against the screen's golden file (Paris, an hour
  /// ahead of UTC in January) and labels worked out by hand.
  @Test func theOffsetOracleAgreesWithTheGoldenFile() {
    let screen = GoldenCase.messagesScreen.expected("date")
    #expect(ExampleLabels.labels(fixedOffset: 3600) == screen)
    #expect(ExampleLabels.labels(zone: TimeZone(identifier: "Europe/Paris")!) == screen)
    // Five days back here and in Tokyo: a weekday, however the bucket's end moves.
    #expect(ExampleLabels.labels(fixedOffset: -14 * 3600) == ["6:45\u{202F}PM", "3:54\u{202F}AM", "Tuesday", "1/2/22"])
    #expect(ExampleLabels.labels(fixedOffset: 9 * 3600) == ["5:45\u{202F}PM", "2:54\u{202F}AM", "Wednesday", "1/3/22"])
  }

  // MARK: TZ

  /// POSIX `TZ` values and the UTC offset they name (POSIX's sign: hours
  /// west), or nil for a refusal.
  static let posixValues: [(String, Int?)] = [
    ("", 0), ("UTC0", 0), ("GMT0", 0), ("UTC", 0), ("UTC+14", -14 * 3600), ("UTC-14", 14 * 3600),
    ("GMT+5", -5 * 3600), ("GMT-5", 5 * 3600), ("JST-9", 9 * 3600), ("EST5", -5 * 3600), ("<+0530>-5:30", 19_800),
    ("<-03>3", -3 * 3600), ("XYZ+0:30", -1_800), ("<+1245>-12:45", 45_900), ("ABC-14:00:00", 14 * 3600),
    ("CET-1CEST,M3.5.0,M10.5.0/3", nil), ("EST5EDT,M3.2.0,M11.1.0", nil), ("<+03>-3<+04>", nil), ("UTC+15", nil),
    ("UTC+24", nil), ("UTC-14:01", nil), ("XYZ-14:00:01", nil), ("UTC+", nil), ("<+05", nil), ("<AB>5", nil),
    ("AB5", nil),
    ("garbage", nil), ("Mars/Olympus", nil), (":", nil), (":/nonexistent", nil), ("/etc/passwd", nil),
    ("../../../../etc/localtime", nil), ("Asia/Tokyo ", nil), ("\u{1B}[31mAsia/Tokyo", nil),
    ("Europe/../Europe/Paris", nil),
    (String(repeating: "A", count: 300), nil), (String(repeating: "Europe/", count: 1_000) + "Paris", nil),
    ("Asia/Tōkyō", nil),
  ]

  /// IANA ids, `:`-prefixed ids and zone file paths: the zone itself.
  static let posixZoneValues: [(String, String)] = {
    var values = [
      ("Asia/Tokyo", "Asia/Tokyo"), (":Asia/Tokyo", "Asia/Tokyo"), ("EST5EDT", "EST5EDT"),
      ("America/Sao_Paulo", "America/Sao_Paulo"), ("Pacific/Chatham", "Pacific/Chatham"), ("ACT", "ACT"),
    ]
    for (path, zone) in [
      ("/usr/share/zoneinfo/Europe/Paris", "Europe/Paris"), (":/usr/share/zoneinfo/Asia/Kolkata", "Asia/Kolkata"),
      (":/usr/share/zoneinfo/right/Asia/Tokyo", "Asia/Tokyo"),
      ("/usr/share/zoneinfo/posix/America/New_York", "America/New_York"),
    ] where FileManager.default.fileExists(atPath: String(path.drop { $0 == ":" })) {
      values.append((path, zone))
    }
    return values
  }()

  @Test(arguments: posixValues)
  func aPOSIXTZIsReadWithItsOwnSign(value: String, offset: Int?) throws {
    let result = try RawProcess.run(
      ["--now", Hostile.now, "--locale", "en-US", Hostile.example], environment: ["TZ": value])
    if let offset {
      #expect(expectRows(result, "TZ=\(value.debugDescription)") == ExampleLabels.labels(fixedOffset: offset))
    } else {
      let line = expectUsageError(result, "TZ=\(value.debugDescription)")
      #expect(line.hasPrefix(#"inbox-format: TZ=""#), "\(line)")
      #expect(line.count < 300, "\(line)")
    }
  }

  @Test(arguments: posixZoneValues)
  func aTZNamingAZoneOrItsFileIsThatZone(value: String, zone: String) throws {
    let result = try RawProcess.run(
      ["--now", Hostile.now, "--locale", "en-US", Hostile.example], environment: ["TZ": value])
    #expect(expectRows(result, "TZ=\(value)") == ExampleLabels.labels(zone: try #require(TimeZone(identifier: zone))))
  }

  @Test func theSystemZoneThroughLocaltime() throws {
    try #require(FileManager.default.fileExists(atPath: "/etc/localtime"))
    let system = try RawProcess.run(["--now", Hostile.now, "--locale", "en-US", Hostile.example])
    let colon = try RawProcess.run(
      ["--now", Hostile.now, "--locale", "en-US", Hostile.example], environment: ["TZ": ":/etc/localtime"])
    expectRows(colon, "TZ=:/etc/localtime")
    #expect(colon.stdout == system.stdout)
  }

  /// `TZ=GMT+5` is five hours west (POSIX); `--time-zone GMT+5` five hours east (ICU).
  @Test func theSameTextHasOppositeSignsInTZAndInTheOption() throws {
    let environment = try RawProcess.run(
      ["--now", Hostile.now, "--locale", "en-US", Hostile.example], environment: ["TZ": "GMT+5"])
    let option = try Self.run(timeZone: "GMT+5")
    #expect(expectRows(environment) == ExampleLabels.labels(fixedOffset: -5 * 3600))
    #expect(expectRows(option) == ExampleLabels.labels(fixedOffset: 5 * 3600))
    // And the option wins over the environment.
    let both = try RawProcess.run(
      ["--now", Hostile.now, "--locale", "en-US", "--time-zone", "GMT+5", Hostile.example], environment: ["TZ": "GMT+5"]
    )
    #expect(both.stdout == option.stdout)
  }
}
