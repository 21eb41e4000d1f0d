import Foundation
import Testing

/// `inbox-format preview`: its usage errors, and the page in a real browser.
@Suite struct PreviewCommandTests {
  static let example = dataDirectory.appendingPathComponent("examples/messages.json").path

  @Test(arguments: [
    (["preview", "-"], "preview needs a file; standard input cannot be watched"),
    (["preview", example, "--fields", "default"], "--fields does not apply to preview"),
    (
      ["preview", example, "--now", "2022-01-31T12:00:00Z", "--clock-start", "2022-01-31T12:00:00Z"],
      "--now freezes the clock and --clock-start runs it: give one of them"
    ),
    (["preview", example, "--locale", "a,b,c,d,e,f,g,h,i"], "--locale lists 9 locales; a preview shows at most 8"),
    (["preview", example, "--locale", "en-US,not a locale"], "--locale"),
    (["preview", example, "--port", "70000"], "--port must be from 0 to 65535, not 70000"),
    (["preview", example, "--expect", "-"], "--expect needs a file; standard input cannot be watched"),
  ])
  func aUsageErrorIs64(arguments: [String], message: String) throws {
    let result = try BuiltBinary.run(arguments)
    #expect(result.status == 64)
    #expect(result.stderr.contains(message), "\(result.stderr)")
  }

  @Test func aFileThatCannotBeOpenedIs66() throws {
    let missing = FileManager.default.temporaryDirectory.appendingPathComponent("inbox-format-missing-\(getpid()).json")
      .path
    let result = try BuiltBinary.run(["preview", missing, "--port", "0"])
    #expect(result.status == 66)
    #expect(result.stderr.contains("cannot open \"\(missing)\": No such file or directory"), "\(result.stderr)")
  }

  /// A mock that cannot be opened exits 66; one that is not rows, 65, saying where.
  @Test func aMockThatCannotBeOpenedIs66AndOneThatIsNotRows65() throws {
    let directory = FileManager.default.temporaryDirectory
    let missing = directory.appendingPathComponent("inbox-format-missing-mock-\(getpid()).json").path
    let result = try BuiltBinary.run(["preview", Self.example, "--expect", missing, "--port", "0"])
    #expect(result.status == 66)
    #expect(result.stderr.contains("cannot open \"\(missing)\""), "\(result.stderr)")
    let bad = directory.appendingPathComponent("inbox-format-bad-mock-\(getpid()).json")
    try Data(#"[{"id": 1, "colour": "red"}]"#.utf8).write(to: bad)
    defer { try? FileManager.default.removeItem(at: bad) }
    let refused = try BuiltBinary.run(["preview", Self.example, "--expect", bad.path, "--port", "0"])
    #expect(refused.status == 65)
    #expect(refused.stderr.contains(#"row 1: unknown key "colour""#), "\(refused.stderr)")
  }

  /// `Tests/Browser/preview_test.py` drives the page in headless Chromium:
  /// the example's rows as the issue reads them and as `format` writes
  /// them, unread dots, accessible names, light and dark, the clock moved
  /// from the page, edits, renames and a delete-and-create reaching the page
  /// within a second, a decoding banner, midnight without a reload, the
  /// clock line ticking, hostile names as inert text with no console error,
  /// the CSP header, three locales with rows of one height, the time zone
  /// list and a right-to-left screen; `--expect`'s side-by-side marking
  /// exactly the fields `check` reports, its arrows, the marks going live
  /// when the mock is edited to agree, hostile values inert on both sides;
  /// `--map` and `--viewer` and the mapping shown; 100,000 messages opening
  /// within 2 s with fewer than 200 row elements. Chromium, its driver and
  /// selenium come from `Scripts/setup.sh`.
  @Test(.timeLimit(.minutes(5)))
  func thePageInHeadlessChromium() throws {
    let script = dataDirectory.deletingLastPathComponent().appendingPathComponent("Tests/Browser/preview_test.py").path
    let screenshots = FileManager.default.temporaryDirectory.appendingPathComponent("inbox-format-preview-\(getpid())")
    defer { try? FileManager.default.removeItem(at: screenshots) }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", script, "--binary", BuiltBinary.url.path, "--screenshots", screenshots.path]
    let output = Pipe()
    process.standardOutput = output
    process.standardError = output
    try process.run()
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus == 0, "\(text)")
    #expect(text.contains("11 passed, 0 failed"), "\(text)")
    for name in ["preview-light.png", "preview-dark.png", "preview-rtl.png", "preview-locales.png"] {
      let size =
        (try? FileManager.default.attributesOfItem(atPath: screenshots.appendingPathComponent(name).path)[.size] as? Int)
        ?? 0
      #expect(size > 10_000, "\(name): \(size) bytes")
    }
  }
}
