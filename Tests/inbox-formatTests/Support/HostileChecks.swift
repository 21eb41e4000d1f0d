import Foundation
import Testing

@testable import InboxFormat

/// The checks every hostile run passes, written without the code under
/// test (no `quoted`, no `isHiddenInAMessage`): they are the oracle. Only
/// the rule's constants (``DateBucket/weekdayDays``) come from the library.
enum Hostile {
  /// The example payload (four messages) and the options that pin everything but what a test varies.
  static let example = CommandLineTests.example
  static let now = "2022-01-31T12:00:00Z"

  /// Whether a line of a message would show as one visible line in a
  /// terminal: no C0 or C1 control (ESC, CSI, OSC among them), no DEL, no
  /// line or paragraph separator, no format character (bidi controls,
  /// zero-width characters, the byte order mark).
  static func isEscapeFree(_ line: some StringProtocol) -> Bool {
    line.unicodeScalars.allSatisfy { scalar in
      if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) { return false }
      switch scalar.properties.generalCategory {
      case .format, .lineSeparator, .paragraphSeparator: return false
      default: return true
      }
    }
  }
}

/// Never a signal, never the deadline.
func expectNoSignal(
  _ result: RawProcess.Result, _ what: @autoclosure () -> String = "", sourceLocation: SourceLocation = #_sourceLocation
) {
  #expect(result.signal == nil, "\(what()): ended by signal \(result.signal ?? 0)", sourceLocation: sourceLocation)
  #expect(!result.timedOut, "\(what()): still running after \(result.elapsed)", sourceLocation: sourceLocation)
}

/// Standard error is exactly one line (ending in a line break), starting
/// `inbox-format: `, with nothing in it that a terminal would act on or hide.
/// Returns the line.
@discardableResult
func expectOneMessageLine(
  _ result: RawProcess.Result, _ what: @autoclosure () -> String = "", sourceLocation: SourceLocation = #_sourceLocation
) -> String {
  let text = result.stderrText
  let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
  #expect(
    lines.count == 2 && lines[1].isEmpty, "\(what()): not one line: \(text.debugDescription)",
    sourceLocation: sourceLocation)
  let line = String(lines.first ?? "")
  #expect(line.hasPrefix("inbox-format: "), "\(what()): \(line.debugDescription)", sourceLocation: sourceLocation)
  #expect(
    Hostile.isEscapeFree(line), "\(what()): not escape-free: \(line.debugDescription)", sourceLocation: sourceLocation)
  return line
}

/// A usage error: status 64, nothing on standard output, one escape-free
/// line on standard error. Returns the line.
@discardableResult
func expectUsageError(
  _ result: RawProcess.Result, _ what: @autoclosure () -> String = "", sourceLocation: SourceLocation = #_sourceLocation
) -> String {
  expectNoSignal(result, what(), sourceLocation: sourceLocation)
  #expect(result.exitStatus == 64, "\(what()): \(result)", sourceLocation: sourceLocation)
  #expect(
    result.stdout.isEmpty, "\(what()): wrote \(result.stdoutText.prefix(200).debugDescription)",
    sourceLocation: sourceLocation)
  return expectOneMessageLine(result, what(), sourceLocation: sourceLocation)
}

/// Success with `count` rows of valid JSON, each with a non-empty date;
/// nothing on standard error. Returns the rows' dates.
@discardableResult
func expectRows(
  _ result: RawProcess.Result, count: Int = 4, _ what: @autoclosure () -> String = "",
  sourceLocation: SourceLocation = #_sourceLocation
) -> [String] {
  expectNoSignal(result, what(), sourceLocation: sourceLocation)
  #expect(result.exitStatus == 0, "\(what()): \(result)", sourceLocation: sourceLocation)
  #expect(result.stderr.isEmpty, "\(what()): \(result.stderrText.debugDescription)", sourceLocation: sourceLocation)
  guard let rows = (try? JSONSerialization.jsonObject(with: Data(result.stdout))) as? [[String: Any]] else {
    Issue.record(
      "\(what()): not a JSON array of objects: \(result.stdoutText.prefix(300).debugDescription)",
      sourceLocation: sourceLocation)
    return []
  }
  #expect(rows.count == count, "\(what()): \(rows.count) rows", sourceLocation: sourceLocation)
  let dates = rows.map { $0["date"] as? String ?? "" }
  #expect(dates.allSatisfy { !$0.isEmpty }, "\(what()): \(dates)", sourceLocation: sourceLocation)
  return dates
}

/// The date labels of the example payload at ``Hostile/now`` in en-US,
/// computed from UTC offsets alone (no ICU): the oracle for any zone.
///
/// `offset(at:)` gives the zone's offset from UTC, in seconds, at an
/// instant; days are counted between the local dates of the message and
/// of now, as the README's rule says.
enum ExampleLabels {
  /// The four messages' `update_date`s, in the example's order, and now.
  static let messages: [Date] = [1_643_618_733, 1_643_565_277, 1_643_130_753, 1_641_214_463].map {
    Date(timeIntervalSince1970: $0)
  }
  static let now = Date(timeIntervalSince1970: 1_643_630_400)

  static func labels(offset: (Date) -> Int) -> [String] {
    let today = localDay(now, offset(now))
    return messages.map { message -> String in
      let seconds = Int(message.timeIntervalSince1970) + offset(message)
      let day = localDay(message, offset(message))
      switch Int64(today - day) {
      case 0:
        let secondsOfDay = seconds - day * 86_400
        let hour = secondsOfDay / 3600
        let minute = secondsOfDay % 3600 / 60
        let twelve = hour % 12 == 0 ? 12 : hour % 12
        return "\(twelve):\(minute < 10 ? "0" : "")\(minute)\u{202F}\(hour < 12 ? "AM" : "PM")"
      case 1:
        return "Yesterday"
      case DateBucket.weekdayDays:
        // 1970-01-01 was a Thursday.
        let names = ["Thursday", "Friday", "Saturday", "Sunday", "Monday", "Tuesday", "Wednesday"]
        return names[((day % 7) + 7) % 7]
      default:
        let (year, month, dayOfMonth) = civilDate(fromDays: day)
        return "\(month)/\(dayOfMonth)/\(String(year % 100).count == 1 ? "0" : "")\(year % 100)"
      }
    }
  }

  /// The labels for a fixed offset.
  static func labels(fixedOffset seconds: Int) -> [String] { labels { _ in seconds } }

  /// The labels for a zone, by Foundation's offsets (the same tzdata as the command's).
  static func labels(zone: TimeZone) -> [String] { labels { zone.secondsFromGMT(for: $0) } }

  private static func localDay(_ instant: Date, _ offset: Int) -> Int {
    let seconds = Int(instant.timeIntervalSince1970) + offset
    return seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
  }

  /// Howard Hinnant's civil_from_days.
  private static func civilDate(fromDays days: Int) -> (year: Int, month: Int, day: Int) {
    let z = days + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let dayOfEra = z - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let mp = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * mp + 2) / 5 + 1
    let month = mp < 10 ? mp + 3 : mp - 9
    return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
  }
}
