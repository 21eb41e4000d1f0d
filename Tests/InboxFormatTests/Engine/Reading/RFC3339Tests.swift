import Foundation
import Testing

@testable import InboxFormat

@Suite struct DecodingRFC3339Tests {
  /// Whole seconds since 1970 for a UTC wall-clock time, computed by
  /// Foundation's Gregorian calendar rather than the parser under test.
  static func calendarSeconds(_ year: Int, _ month: Int, _ day: Int, _ hour: Int, _ minute: Int, _ second: Int) -> Int {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "GMT")!
    let components = DateComponents(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
    return Int(calendar.date(from: components)!.timeIntervalSince1970)
  }

  /// The `Date` for whole Unix seconds plus nanoseconds, built the way the
  /// parser documents (integer seconds first, then the fraction).
  static func date(unixSeconds: Int, nanoseconds: Int = 0) -> Date {
    Date(timeIntervalSinceReferenceDate: Double(unixSeconds - 978_307_200) + Double(nanoseconds) / 1e9)
  }

  static func parse(_ text: String) throws -> Date {
    try RFC3339.parse(text).get()
  }

  @Test(arguments: [
    ("2022-01-31T08:45:33Z", calendarSeconds(2022, 1, 31, 8, 45, 33)),
    ("2022-01-31t08:45:33z", calendarSeconds(2022, 1, 31, 8, 45, 33)),
    ("2022-01-31 08:45:33Z", calendarSeconds(2022, 1, 31, 8, 45, 33)),
    ("2022-01-31T08:45:33+05:30", calendarSeconds(2022, 1, 31, 8, 45, 33) - 19_800),
    ("2022-01-31T08:45:33-07:15", calendarSeconds(2022, 1, 31, 8, 45, 33) + 26_100),
    ("2022-01-31T08:45:33-00:00", calendarSeconds(2022, 1, 31, 8, 45, 33)),
    ("2022-01-31T08:45:33+23:59", calendarSeconds(2022, 1, 31, 8, 45, 33) - 86_340),
    ("2024-02-29T12:00:00Z", calendarSeconds(2024, 2, 29, 12, 0, 0)),
    ("2000-02-29T00:00:00Z", calendarSeconds(2000, 2, 29, 0, 0, 0)),
    ("2022-12-31T23:59:59Z", calendarSeconds(2022, 12, 31, 23, 59, 59)),
    ("1970-01-01T00:00:00Z", 0),
    ("1969-12-31T23:59:59Z", -1),
    // Proleptic Gregorian bounds (Foundation's calendar turns Julian before
    // 1582, so these are constants, checked with Python's datetime).
    ("0001-01-01T00:00:00Z", -62_135_596_800),
    ("9999-12-31T23:59:59Z", 253_402_300_799),
    // A leap second reads as second 59 of the same minute.
    ("2016-12-31T23:59:60Z", calendarSeconds(2016, 12, 31, 23, 59, 59)),
  ])
  func parsesWholeSeconds(text: String, unixSeconds: Int) throws {
    #expect(try Self.parse(text) == Self.date(unixSeconds: unixSeconds))
  }

  @Test func knownInstantOfTheSpecificationExample() throws {
    // 2022-01-31T08:45:33Z is 1643618733 (`date -u -d @1643618733`).
    #expect(try Self.parse("2022-01-31T08:45:33Z").timeIntervalSince1970 == 1_643_618_733)
  }

  @Test(arguments: [
    (".5", 500_000_000),
    (".12", 120_000_000),
    (".123", 123_000_000),
    (".1234", 123_400_000),
    (".12345", 123_450_000),
    (".123456", 123_456_000),
    (".1234567", 123_456_700),
    (".12345678", 123_456_780),
    (".123456789", 123_456_789),
    (".1234567891", 123_456_789),
    (".12345678912", 123_456_789),
    (".123456789123", 123_456_789),
    (".000000001", 1),
    (".999999999999", 999_999_999),
  ])
  func keepsNineFractionalDigits(fraction: String, nanoseconds: Int) throws {
    let date = try Self.parse("2022-01-31T08:45:33\(fraction)Z")
    #expect(date == Self.date(unixSeconds: 1_643_618_733, nanoseconds: nanoseconds))
  }

  @Test func fractionWithOffsetAndLeapSecond() throws {
    let date = try Self.parse("2016-12-31T23:59:60.75+01:00")
    #expect(date == Self.date(unixSeconds: Self.calendarSeconds(2016, 12, 31, 22, 59, 59), nanoseconds: 750_000_000))
  }

  @Test(arguments: [
    ("2022-13-01T00:00:00Z", "month 13 is out of range"),
    ("2022-00-01T00:00:00Z", "month 0 is out of range"),
    ("2022-02-30T00:00:00Z", "day 30 does not exist in February 2022"),
    ("2023-02-29T00:00:00Z", "day 29 does not exist in February 2023"),
    ("1900-02-29T00:00:00Z", "day 29 does not exist in February 1900"),
    ("2022-04-31T00:00:00Z", "day 31 does not exist in April 2022"),
    ("2022-01-32T00:00:00Z", "day 32 does not exist in January 2022"),
    ("2022-01-00T00:00:00Z", "day 0 is out of range"),
    ("2022-01-31T25:00:00Z", "hour 25 is out of range"),
    ("2022-01-31T24:00:00Z", "hour 24 is out of range"),
    ("2022-01-31T08:60:00Z", "minute 60 is out of range"),
    ("2022-01-31T08:45:61Z", "second 61 is out of range"),
    ("2022-01-31T08:45:33", "missing time zone offset (Z or ±hh:mm)"),
    ("2022-01-31T08:45:33+24:00", "offset hour 24 is out of range"),
    ("2022-01-31T08:45:33+05:60", "offset minute 60 is out of range"),
    ("2022-01-31T08:45:33+0530", "expected \":\" in the time zone offset"),
    ("2022-01-31T08:45:33+5:30", "expected a 2-digit offset hour"),
    ("2022-01-31T08:45:33 Z", "expected a time zone offset (Z or ±hh:mm)"),
    ("2022-01-31T08:45Z", "missing seconds"),
    ("2022-01-31T08:45", "missing seconds"),
    ("2022-01-31T08-45-33Z", "expected \":\" after the hour"),
    ("2022-01-31T08:45:3Z", "expected a 2-digit second"),
    ("2022-01-31T08:45:33.Z", "expected a digit after the decimal point"),
    ("2022-01-31T08:45:33.12a4Z", "expected a time zone offset (Z or ±hh:mm)"),
    ("22-01-31T08:45:33Z", "expected a 4-digit year"),
    ("20220-01-31T08:45:33Z", "expected \"-\" after the year"),
    ("2022/01/31T08:45:33Z", "expected \"-\" after the year"),
    ("2022-1-31T08:45:33Z", "expected a 2-digit month"),
    ("2022-01-3T08:45:33Z", "expected a 2-digit day"),
    ("2022-01-31", "missing time after the date"),
    ("2022-01-31_08:45:33Z", "expected \"T\" between the date and the time"),
    ("2022-01-31T8:45:33Z", "expected a 2-digit hour"),
    ("2022-01-31T08:45:33Zjunk", "unexpected trailing characters"),
    ("2022-01-31T08:45:33+01:00 ", "unexpected trailing characters"),
    ("", "expected a 4-digit year"),
    ("２０２２-01-31T08:45:33Z", "expected a 4-digit year"),
  ])
  func rejectsWithReason(text: String, reason: String) {
    #expect(RFC3339.parse(text) == .failure(RFC3339.Failure(reason: reason)))
  }

  @Test func parsesFromBytesWithoutAString() {
    let bytes = Array("2024-02-29T12:00:00.25Z".utf8)
    let result = bytes.withUnsafeBufferPointer { RFC3339.parse($0) }
    #expect(result == .success(Self.date(unixSeconds: 1_709_208_000, nanoseconds: 250_000_000)))
  }

  @Test func daysFromCivilMatchesTheCalendarAcrossCenturies() {
    for year in stride(from: 1600, through: 2400, by: 37) {
      for month in 1...12 {
        let days = RFC3339.daysFromCivil(year: year, month: month, day: 1)
        #expect(days * 86_400 == Self.calendarSeconds(year, month, 1, 0, 0, 0), "\(year)-\(month)")
      }
    }
  }
}
