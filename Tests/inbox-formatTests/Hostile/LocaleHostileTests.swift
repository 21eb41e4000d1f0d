import Foundation
import Testing

/// Locale names from the environment and from `--locale`, hostile ones
/// included: long, made of garbage, controls or other scripts. The
/// environment never fails a run and never crashes it (ICU's default-locale
/// setup crashes on a language of 12 or more letters, so it never sees one);
/// an unusable `--locale` is 64 and
/// one line; and once `--locale`, `--time-zone` and `--now` are given, no
/// environment variable changes a byte.
@Suite struct LocaleHostileTests {
  static let pinnedClock = ["--now", Hostile.now, "--time-zone", "Europe/Paris"]
  static let pinned = pinnedClock + ["--locale", "fr-FR"]

  static func run(_ arguments: [String], environment: [String: String] = [:]) throws -> RawProcess.Result {
    try RawProcess.run(arguments + [Hostile.example], environment: environment)
  }

  /// The rows of `en_US_POSIX`, what an unusable environment locale gives.
  static let posixOutput: String = {
    (try? run(pinnedClock, environment: ["LANG": "C"]).stdoutText) ?? ""
  }()

  /// The clean run with everything pinned.
  static let pinnedOutput: String = { (try? run(pinned).stdoutText) ?? "" }()

  // MARK: The environment

  /// Values no locale has: each falls back to en_US_POSIX, quietly.
  static let unusableNames: [String] = [
    "abcdefghijkl", "abcdefghijklm_US.UTF-8", String(repeating: "q", count: 20), String(repeating: "x", count: 300),
    String(repeating: "en_", count: 100), "tlh", "und", "x-klingon", "zz_ZZ", "..", "@", "_", "-", ".UTF-8", "@latin",
    "\u{1B}]0;title\u{7}", "\u{1B}[2J", "fr\nFR", "é", "日本語", "\u{202E}fr_FR", "fr_FR\u{200B}",
    "../../../../etc/passwd", "/usr/lib/locale/C.utf8", "en_US.UTF-8 ", " en_US", "en-US-u-nu-xxx", "en-US-u-ca-xxx",
    "fr-XX", "%s%s%s%n", "${HOME}", "'\"`", "th-t-nu0nu-u-nu-thai",
  ]

  /// Each name in one of the three variables that decide, in turn.
  @Test func anUnusableEnvironmentLocaleFallsBackToPOSIXQuietly() throws {
    for (index, value) in Self.unusableNames.enumerated() {
      let variable = ["LANG", "LC_ALL", "LC_TIME"][index % 3]
      let result = try Self.run(Self.pinnedClock, environment: [variable: value])
      expectRows(result, "\(variable)=\(value.debugDescription)")
      #expect(result.stdoutText == Self.posixOutput, "\(variable)=\(value.debugDescription)")
    }
  }

  /// LC_ALL wins over LC_TIME, which wins over LANG; LC_MESSAGES and LANGUAGE say nothing about dates.
  @Test func theFirstSetVariableDecidesAndMessagesDoNotCount() throws {
    let french = try Self.run(Self.pinnedClock + ["--locale", "fr-FR"]).stdoutText
    let german = try Self.run(Self.pinnedClock + ["--locale", "de-DE"]).stdoutText
    #expect(french != german)
    let cases: [([String: String], String)] = [
      (["LC_ALL": "fr_FR.UTF-8", "LC_TIME": "de_DE.UTF-8", "LANG": "de_DE.UTF-8"], french),
      (["LC_ALL": "", "LC_TIME": "fr_FR.UTF-8", "LANG": "de_DE.UTF-8"], french),
      (["LC_TIME": "", "LANG": "fr_FR.UTF-8"], french),
      (["LC_MESSAGES": "de_DE.UTF-8", "LANGUAGE": "de:fr", "LANG": "fr_FR.UTF-8"], french),
      (["LC_MESSAGES": String(repeating: "m", count: 20), "LANG": "fr_FR.UTF-8"], french),
      (["LC_ALL": String(repeating: "z", count: 20), "LANG": "fr_FR.UTF-8"], Self.posixOutput),
      (["LC_MESSAGES": String(repeating: "m", count: 20)], Self.posixOutput),
    ]
    for (environment, expected) in cases {
      let result = try Self.run(Self.pinnedClock, environment: environment)
      expectRows(result, "\(environment)")
      #expect(result.stdoutText == expected, "\(environment)")
    }
  }

  /// Random garbage in every locale variable at once: printable, controls,
  /// other scripts, 1 to 300 characters. Never a signal, never an error.
  static let garbageEnvironments: [[String: String]] = {
    var random = HostileRandom(seed: 0x1A_2B_3C)
    let everything: [Unicode.Scalar] =
      [Unicode.Scalar].printableASCII + [Unicode.Scalar].controls + [Unicode.Scalar].nonASCII
    let alphabets: [[Unicode.Scalar]] = [.printableASCII, .controls, .nonASCII, everything]
    return (0..<32).map { index in
      var environment: [String: String] = [:]
      for variable in ["LANG", "LC_ALL", "LC_TIME", "LC_MESSAGES", "LC_CTYPE", "LANGUAGE"]
      where Bool.random(using: &random) {
        let count = [1, 2, 3, 12, 13, 20, 64, 255, 256, 257, 300].randomElement(using: &random)!
        environment[variable] = random.string(from: alphabets[index % alphabets.count], count: count)
      }
      return environment
    }
  }()

  @Test func garbageInEveryLocaleVariableNeverFailsARun() throws {
    for environment in Self.garbageEnvironments {
      let check = {
        let result = try Self.run(Self.pinnedClock, environment: environment)
        expectRows(result, "\(environment)")
        // Whatever the garbage, pinned runs do not see it.
        let pinned = try Self.run(Self.pinned, environment: environment)
        #expect(pinned.stdoutText == Self.pinnedOutput, "\(environment)")
        #expect(pinned.stderr.isEmpty && pinned.exitStatus == 0, "\(environment)")
      }
      try check()
    }
  }

  /// Whether Foundation's `ProcessInfo.environment` drops `NAME=value`: it
  /// splits the entry at the first *character* "=", and a value that starts
  /// with a combining mark, a spacing mark or a joiner fuses with the "="
  /// into one grapheme, so there is none.
  static func hidesFromFoundation(_ value: String) -> Bool { ("=" + value).first != "=" }

  /// ProcessSetup removes the locale variables it finds in
  /// `ProcessInfo.environment`, which does not list these; ICU reads them
  /// with getenv(3), and a language of 12 letters or more crashes it, even
  /// with every option pinned.
  @Test(
    arguments: ["LANG", "LC_ALL", "LC_MESSAGES"],
    ["\u{301}abcdefghijklm", "\u{200D}abcdefghijklm_US.UTF-8", "\u{93F}" + String(repeating: "q", count: 20)])
  func aVariableFoundationCannotSeeIsStillRemoved(variable: String, value: String) throws {
    #expect(Self.hidesFromFoundation(value))
    let result = try Self.run(Self.pinned, environment: [variable: value])
    expectNoSignal(result, "\(variable)=\(value.debugDescription)")
    #expect(result.stdoutText == Self.pinnedOutput)
  }

  /// The same blind spot for TZ: a value Foundation does not list is not
  /// read at all, so the system zone is used instead of refusing it.
  @Test func aTZFoundationCannotSeeIsStillRefused() throws {
    let result = try Self.run(["--now", Hostile.now, "--locale", "en-US"], environment: ["TZ": "\u{301}Asia/Tokyo"])
    expectNoSignal(result)
    expectUsageError(result, "TZ=\\u{301}Asia/Tokyo")
  }

  // MARK: No environment variable changes a pinned run

  /// Everything a C program, ICU, Foundation or this command might read.
  static let hostileEnvironment: [String: String] = [
    "LANG": "ja_JP.UTF-8", "LC_ALL": "ar_EG.UTF-8", "LC_TIME": "th_TH.UTF-8@calendar=buddhist", "LC_MESSAGES": "de_DE",
    "LC_CTYPE": "tr_TR.UTF-8", "LC_NUMERIC": "ar_SA", "LANGUAGE": "ja:fr", "TZ": "Asia/Tokyo", "TZDIR": "/nonexistent",
    "ICU_DATA": "/tmp", "ICU_ENABLE_TENTATIVE_ERA": "true", "SOURCE_DATE_EPOCH": "0", "COLUMNS": "20", "LINES": "3",
    "NO_COLOR": "1", "TERM": "xterm-256color", "HOME": "/nonexistent", "TMPDIR": "/nonexistent",
    "CFFIXED_USER_HOME": "/nonexistent", "__CF_USER_TEXT_ENCODING": "0x0:8:8", "XDG_CONFIG_HOME": "/nonexistent",
    "SWIFT_BACKTRACE": "enable=no", "MALLOC_CHECK_": "3", "TZFILE": "/etc/passwd",
  ]

  @Test(arguments: ["json", "ndjson", "text"])
  func noEnvironmentVariableChangesAPinnedRun(output: String) throws {
    let arguments = Self.pinned + ["--output", output]
    let clean = try Self.run(arguments)
    #expect(clean.exitStatus == 0 && !clean.stdout.isEmpty)
    // COLUMNS is the width of the text view, by design.
    let environment = Self.hostileEnvironment.filter { output != "text" || $0.key != "COLUMNS" }
    let hostile = try Self.run(arguments, environment: environment)
    #expect(hostile.exitStatus == 0, "\(hostile)")
    #expect(hostile.stderr.isEmpty)
    #expect(hostile.stdoutText == clean.stdoutText)
    // And each variable alone, with garbage (once: the output form does not matter to it).
    guard output == "json" else { return }
    for variable in Self.hostileEnvironment.keys.sorted() {
      for value in [String(repeating: "z", count: 20), "\u{1B}[2J\u{9B}31m", ""] {
        let alone = try Self.run(arguments, environment: [variable: value])
        #expect(
          alone.stdoutText == clean.stdoutText && alone.exitStatus == 0,
          "\(variable)=\(value.debugDescription): \(alone)")
      }
    }
  }

  /// ICU reads its zone data from ICU_TIMEZONE_FILES_DIR when it names a
  /// directory: one without zoneinfo64.res makes every IANA zone unknown.
  @Test func anICUZoneDataDirectoryDoesNotChangeAPinnedRun() throws {
    let directory = try TemporaryFile([], name: "zoneinfo64.txt")
    let empty = URL(fileURLWithPath: directory.path).deletingLastPathComponent().path
    let clean = try Self.run(Self.pinned)
    let hostile = try Self.run(Self.pinned, environment: ["ICU_TIMEZONE_FILES_DIR": empty])
    expectNoSignal(hostile)
    #expect(hostile.exitStatus == 0, "\(hostile)")
    #expect(hostile.stdoutText == clean.stdoutText)
  }

  // MARK: --locale

  @Test(arguments: [
    ("und", #"--locale "und" is not a locale with CLDR data"#),
    ("tlh", #"--locale "tlh" is not a locale with CLDR data"#),
    ("aa", #"--locale "aa" is not a locale with CLDR data"#), ("la", #"--locale "la" is not a locale with CLDR data"#),
    ("fr-XX", #"--locale "fr-XX" is not a known locale: "XX" is not a region"#),
    ("en-US-u-nu-xxx", #"--locale "en-US-u-nu-xxx" is not a locale name"#),
    ("en-US-u-ca-xxx", #"--locale "en-US-u-ca-xxx" is not a locale name"#),
    ("en-US-u-hc-h99", #"--locale "en-US-u-hc-h99" is not a locale name"#),
    // ICU cannot read the transform extension: Foundation's date formatters
    // trap on the keywords of such a tag.
    ("th-t-nu0nu-u-nu-thai", #"--locale "th-t-nu0nu-u-nu-thai" is not a locale name"#),
    ("th-T-nu0nu-tla-Tn-u-nu-thai", #"--locale "th-T-nu0nu-tla-Tn-u-nu-thai" is not a locale name"#),
    ("", #"--locale "" is not a locale name"#),
    ("fr\u{1B}[2J", #"--locale "fr\u{1B}[2J" is not a locale name"#),
    ("\u{202E}fr-FR", #"--locale "\u{202E}fr-FR" is not a locale name"#),
    (String(repeating: "x", count: 300), #"--locale "\#(String(repeating: "x", count: 60))…" is not a locale name"#),
  ])
  func anUnusableLocaleIsOneQuotedLine(name: String, says: String) throws {
    let result = try Self.run(Self.pinnedClock + ["--locale", name])
    let line = expectUsageError(result, name.debugDescription)
    #expect(line.hasPrefix("inbox-format: " + says), "\(line)")
  }

  @Test func thaiDigitsWork() throws {
    let dates = expectRows(try Self.run(Self.pinnedClock + ["--locale", "th-TH-u-nu-thai"]))
    #expect(dates.first == "๐๙:๔๕")
  }

  /// Random `--locale` values: garbage, and tags built of real and made-up
  /// subtags and keywords, 1 to 300 characters. 0 with four rows, or 64 with one line.
  static let randomLocaleNames: [String] = {
    var random = HostileRandom(seed: 0x10CA1E)
    let languages = [
      "en", "fr", "de", "ja", "ar", "th", "zh", "sr", "tr", "he", "fa", "hi", "und", "tlh", "qaa", "xx", "abc", "root",
    ]
    let regions = ["US", "FR", "XX", "419", "999", "001", "ZZ", "EU", "UN", "AQ", "Latn", "Hant", "POSIX", "u", "x"]
    let keywords = ["ca", "nu", "hc", "rg", "fw", "co", "cu", "tz", "va", "ms", "sd", "lb", "x0", "k1"]
    let values = [
      "japanese", "buddhist", "islamic-umalqura", "thai", "arab", "latn", "h11", "h24", "xxx", "frzzzz", "mon", "usnyc",
      "posix", "true", "a", "abcdefgh", "abcdefghi", "gregory-buddhist",
    ]
    let everything: [Unicode.Scalar] =
      [Unicode.Scalar].printableASCII + [Unicode.Scalar].controls + [Unicode.Scalar].nonASCII
    var names: [String] = []
    for index in 0..<96 {
      switch index % 4 {
      case 0:
        names.append(random.string(from: .printableASCII, count: Int.random(in: 1...300, using: &random)))
      case 1:
        names.append(random.string(from: everything, count: Int.random(in: 1...40, using: &random)))
      default:
        var tag = languages.randomElement(using: &random)!
        let separator = Bool.random(using: &random) ? "-" : "_"
        if Bool.random(using: &random) { tag += separator + regions.randomElement(using: &random)! }
        if Bool.random(using: &random) {
          // Another extension first, well-formed or not: `-t-en`, `-t-nu0nu`, `-a-foo`, `-x-tla-tn`.
          tag += "-" + ["t", "a", "x", "T"].randomElement(using: &random)!
          tag += "-" + ["en", "nu0nu", "m0-und", "0x", "foo", "tla-tn", "h0-hybrid"].randomElement(using: &random)!
        }
        if Bool.random(using: &random) {
          tag += "-u"
          for _ in 0..<Int.random(in: 1...4, using: &random) {
            tag += "-" + keywords.randomElement(using: &random)!
            if Bool.random(using: &random) { tag += "-" + values.randomElement(using: &random)! }
          }
        }
        if index % 8 == 3 {
          // Long: subtags until 300 characters.
          while tag.count < 300 {
            tag +=
              "-"
              + random.string(
                from: Array("abcdefghxyz0123".unicodeScalars), count: Int.random(in: 1...9, using: &random))
          }
        }
        if Bool.random(using: &random) {
          tag += [".UTF-8", "@latin", "@euro", ".ISO-8859-15@euro", "@calendar=japanese", "."].randomElement(
            using: &random)!
        }
        names.append(tag)
      }
    }
    return names
  }()

  struct Names: Sendable, CustomTestStringConvertible {
    var index: Int
    var names: [String]
    var testDescription: String { "random locale names \(index)" }
  }

  @Test(
    arguments: (0..<4).map { part in
      Names(index: part, names: stride(from: part, to: randomLocaleNames.count, by: 4).map { randomLocaleNames[$0] })
    })
  func randomLocaleNamesWorkOrAreOneLine(_ part: Names) throws {
    for name in part.names {
      let result = try Self.run(Self.pinnedClock + ["--locale", name])
      expectNoSignal(result, name.debugDescription)
      if result.exitStatus == 0 {
        expectRows(result, name.debugDescription)
      } else {
        let line = expectUsageError(result, name.debugDescription)
        #expect(line.hasPrefix(#"inbox-format: --locale ""#), "\(line)")
        #expect(line.count < 400, "\(line)")
      }
      // As an environment locale the same name never fails.
      expectRows(try Self.run(Self.pinnedClock, environment: ["LC_ALL": name]), "LC_ALL=\(name.debugDescription)")
    }
  }
}
