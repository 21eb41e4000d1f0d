import Foundation
import InboxFormat

/// Instants and contexts the tests pin instead of reading the system.
enum Pinned {
  /// 2022-01-31 12:00:00 UTC, 13:00 in Paris: the "now" of the Messages screen.
  static let now = instant("2022-01-31T12:00:00Z")

  /// A context pinned to `now`, en-US, Europe/Paris unless told otherwise.
  static func context(
    now: Date = Pinned.now,
    locale: String = "en-US",
    timeZone: String = "Europe/Paris",
    hourCycle: HourCycle? = nil,
    previewLength: Int? = nil
  ) -> FormattingContext {
    FormattingContext(
      now: now, locale: Locale(identifier: locale), timeZone: TimeZone(identifier: timeZone)!,
      hourCycle: hourCycle, previewLength: previewLength)
  }

  /// An instant written in RFC 3339, parsed by Foundation so that the tests
  /// do not depend on the parser under test.
  static func instant(_ text: String) -> Date {
    try! Date(text, strategy: .iso8601)
  }

  /// A message with only what the date rules need.
  static func message(
    id: Int64 = 1, firstname: String = "", lastname: String = "", message: String = "",
    phone: String = "", at date: String = "2022-01-31T08:45:33Z", unreadCount: Int64 = 0
  ) -> MessageAPIModel {
    MessageAPIModel(
      id: .integer(id), firstname: firstname, lastname: lastname, message: message,
      phoneNumber: .init(international: phone), updateDate: instant(date), unreadCount: unreadCount)
  }
}

/// The repository's `Data/` folder, found from this file.
let dataDirectory = URL(fileURLWithPath: #filePath)
  .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
  .appendingPathComponent("Data")
