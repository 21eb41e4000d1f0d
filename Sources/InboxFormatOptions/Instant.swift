package import Foundation
import InboxFormat

/// Reads the instants of `--now`, `--clock-start` and a request's `now`.
package enum Instant {
  /// RFC 3339 (`2022-01-31T12:00:00Z`, `2022-01-31T13:00:00.5+01:00`), or `@`
  /// and decimal seconds since 1970 (`@1643630400`, `@-86400`, `@1643630400.25`),
  /// between the years 1 and 9999, as RFC 3339 can write them.
  package static func parse(_ text: String) throws(OptionError) -> Date {
    if text.hasPrefix("@") {
      let number = text.dropFirst()
      let parts = number.drop(while: { $0 == "-" }).split(separator: ".", omittingEmptySubsequences: false)
      guard number.prefix(while: { $0 == "-" }).count <= 1, (1...2).contains(parts.count),
        parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0.isASCII && $0.isNumber } }),
        let seconds = Double(number)
      else { throw .malformedInstant(text, reason: "the seconds after @ are not a decimal number") }
      guard seconds >= firstSecond, seconds < endSecond else {
        throw .malformedInstant(text, reason: "the seconds after @ are out of range (years 1 to 9999)")
      }
      return Date(timeIntervalSince1970: seconds)
    }
    do {
      return try Date(rfc3339: text)
    } catch {
      let reason = if case .invalidDateTime(_, let reason) = error { reason } else { "\(error)" }
      throw .malformedInstant(text, reason: reason)
    }
  }

  /// `SOURCE_DATE_EPOCH`: an integer number of seconds since 1970.
  package static func sourceDateEpoch(_ text: String) throws(OptionError) -> Date {
    guard text.allSatisfy({ $0.isASCII && $0.isNumber }), let seconds = Int64(text), Double(seconds) < endSecond else {
      throw .malformedInstant(text, reason: "not an integer number of seconds since 1970 (years 1970 to 9999)")
    }
    return Date(timeIntervalSince1970: Double(seconds))
  }

  /// 0001-01-01T00:00:00Z and 10000-01-01T00:00:00Z.
  private static let firstSecond: Double = -62_135_596_800
  private static let endSecond: Double = 253_402_300_800
}
