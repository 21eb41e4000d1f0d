import ArgumentParser
import Testing

@testable import InboxFormatCLI

/// `ArgumentShortcut` is an accelerator of ArgumentParser's parse of
/// `InboxFormatCommand`: wherever it answers, the answer is ArgumentParser's.
@Suite struct ArgumentShortcutTests {
  /// Over generated command lines, each one the shortcut parses is the
  /// `format` command ArgumentParser parses from it, every stored property
  /// alike (an option the shortcut left unset would show as a definition,
  /// not a value).
  @Test func whereTheShortcutAnswersArgumentParserAgrees() throws {
    var random = HostileRandom(seed: 24)
    var answered = 0
    let count = 3_000
    for _ in 0..<count {
      let line = Self.commandLine(&random)
      guard case .format(let shortcut)? = ArgumentShortcut(line) else { continue }
      answered += 1
      let parsed: any ParsableCommand
      do {
        parsed = try InboxFormatCommand.parseAsRoot(line)
      } catch {
        Issue.record("\(line): the shortcut parsed it, ArgumentParser did not: \(error)")
        continue
      }
      let format = try #require(parsed as? InboxFormatCommand.Format, "\(line)")
      #expect(String(reflecting: shortcut) == String(reflecting: format), "\(line)")
    }
    // The lines are drawn so that about half are plain `format` lines; the
    // comparison means something only if the shortcut took many of them.
    #expect(answered > count / 5, "the shortcut answered \(answered) of \(count)")
  }

  /// Plain command lines, one per option and flag, each with a valid
  /// value: the shortcut takes every one.
  @Test func theShortcutTakesEachOptionOfFormat() throws {
    let lines: [[String]] = [
      ["payload.json"], ["format", "payload.json"], ["-"], [],
      ["--now", "2022-01-31T12:00:00Z"], ["--now=@1643630400"], ["--locale", "fr-FR"], ["--time-zone", "Europe/Paris"],
      ["--hour-cycle", "24"], ["--preview-length", "20"], ["--fields", "default,unreadBadge"],
      ["--date-style", "compact"], ["--badge-limit", "99"], ["--map", "sendbird"], ["--viewer", "u1"],
      ["--output", "ndjson"], ["--pretty"], ["--skip-invalid"], ["--locale=fr-FR", "--output=text", "-"],
    ]
    for line in lines {
      #expect(ArgumentShortcut(line) != nil, "\(line)")
    }
    #expect(ArgumentShortcut(["--version"]).map { if case .version = $0 { true } else { false } } == true)
  }

  /// What the shortcut leaves to ArgumentParser.
  @Test func theShortcutLeavesTheRestToArgumentParser() {
    let lines: [[String]] = [
      ["--help"], ["-h"], ["help"], ["check", "golden.json"], ["serve"], ["--generate-completion-script", "bash"],
      ["--experimental-dump-help"], ["format", "--version"], ["--version", "payload.json"], ["--", "payload.json"],
      ["a.json", "b.json"], ["--locale"], ["--locale", "-x"], ["--locale", ""], ["--locale="], [""],
      ["--locale", "fr", "--locale", "de"], ["--pretty", "--pretty"], ["--pretty=true"], ["-x"], ["--unknown"],
      ["--output", "yaml"], ["--pretty", "--output", "text"], ["--now", "yesterday"], ["--badge-limit", "0"],
      ["payload.json", "check"],
    ]
    for line in lines {
      #expect(ArgumentShortcut(line) == nil, "\(line)")
    }
  }

  /// `--version` alone writes what ArgumentParser writes for it.
  @Test func theVersionIsArgumentParsers() throws {
    do {
      _ = try InboxFormatCommand.parseAsRoot(["--version"])
      Issue.record("ArgumentParser parsed --version as a command")
    } catch {
      #expect(InboxFormatCommand.exitCode(for: error) == .success)
      #expect(InboxFormatCommand.fullMessage(for: error) == InboxFormatCommand.configuration.version)
    }
  }

  /// The shortcut's names are exactly the options and flags `format`
  /// declares, as ArgumentParser reports them, but for help and version.
  @Test func theShortcutKnowsFormatsOptions() throws {
    let declared = try BuiltBinary.declaredNames(of: "format")
    var expected: Set<String> = ["flag long help", "flag short h", "flag long version"]
    for name in ArgumentShortcut.optionNames { expected.insert("option long \(name.dropFirst(2))") }
    for name in ArgumentShortcut.flagNames { expected.insert("flag long \(name.dropFirst(2))") }
    #expect(declared == expected)
  }

  // MARK: Generated command lines

  /// A command line: about half are plain `format` lines (known options
  /// with ordinary values, a file), the rest mix in what ArgumentParser
  /// reads in its own ways.
  private static func commandLine(_ random: inout HostileRandom) -> [String] {
    let plain = Bool.random(using: &random)
    var line: [String] = []
    if Int.random(in: 0..<4, using: &random) == 0 { line.append("format") }
    for _ in 0..<Int.random(in: 0...6, using: &random) {
      switch Int.random(in: 0..<(plain ? 3 : 5), using: &random) {
      case 0:
        let name = ArgumentShortcut.optionNames.randomElement(using: &random)!
        let value = (plain ? ordinaryValues : ordinaryValues + oddValues).randomElement(using: &random)!
        if Bool.random(using: &random) { line += [name, value] } else { line.append("\(name)=\(value)") }
      case 1:
        line.append(ArgumentShortcut.flagNames.randomElement(using: &random)!)
      case 2:
        line.append((plain ? ["payload.json", "-", "data/inbox page.json"] : files).randomElement(using: &random)!)
      case 3:
        line.append(oddWords.randomElement(using: &random)!)
      default:
        line.append(oddValues.randomElement(using: &random)!)
      }
    }
    return line
  }

  /// Values each option may take, and some it may not (a value's use is
  /// the settings' tests' concern; here, that both parses see the same).
  private static let ordinaryValues = [
    "fr-FR", "en-US", "ar-EG-u-nu-arab", "Europe/Paris", "GMT+05:30", "2022-01-31T12:00:00Z", "@1643630400", "h12",
    "12", "24", "20", "1", "99", "default", "default,unreadBadge", "title,preview", "standard", "compact", "relative",
    "json", "ndjson", "text", "post", "sendbird", "stream", "mapping.json", "u1", "x", "fr_FR.UTF-8", "🙂", "a b",
  ]

  private static let oddValues = [
    "", "-", "-5", "--pretty", "--locale", "-h", "=", "a=b", "check", "format", "help", "serve", "0", "-1", "yesterday",
    "h24", "nope,title", "\u{202E}x", "--", "@", "@-5", "\u{301}", "-\u{301}", "=\u{301}x",
  ]

  private static let files = [
    "payload.json", "-", "check", "format", "help", "watch", "--", "-x", "a.json", "", " ", "--payload.json",
  ]

  private static let oddWords = [
    "--help", "-h", "--version", "--generate-completion-script", "--experimental-dump-help", "--", "-", "--unknown",
    "--pretty=yes", "--skip-invalid=", "-p", "--Locale", "--locale", "--map", "help", "check", "serve",
    "-\u{301}x.json", "--\u{301}locale", "--locale=\u{301}fr", "--pretty\u{301}", "\u{FF0D}\u{FF0D}locale",
  ]
}
