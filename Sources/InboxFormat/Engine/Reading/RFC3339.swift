import Foundation

/// An exact parser for RFC 3339 date-times, e.g. `2022-01-31T08:45:33Z`.
///
/// Foundation's formatters are locale- and calendar-driven, slow, and lose
/// fractional digits; this parser works on UTF-8 bytes and computes the
/// instant with integer arithmetic.
///
/// ```swift
/// let date = try RFC3339.parse("2022-01-31T08:45:33.5+01:00").get()
/// // date.timeIntervalSince1970 == 1_643_615_133.5
/// ```
enum RFC3339 {
  /// Why a string is not an RFC 3339 date-time, e.g. `month 13 is out of range`.
  struct Failure: Error, Hashable, CustomStringConvertible {
    var reason: String

    var description: String { reason }
  }

  /// Parses a date-time held in a string.
  static func parse(_ text: String) -> Result<Date, Failure> {
    var text = text
    return text.withUTF8 { parse($0) }
  }

  /// Parses a date-time from its UTF-8 bytes.
  ///
  /// Accepts `YYYY-MM-DD`, `T`, `t` or a space, `hh:mm:ss`, an optional
  /// fraction of any length, then `Z`, `z` or `±hh:mm`.
  static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> Result<Date, Failure> {
    var cursor = Cursor(bytes: bytes)
    func fail(_ reason: String) -> Result<Date, Failure> { .failure(Failure(reason: reason)) }

    guard let year = cursor.number(digits: 4) else { return fail("expected a 4-digit year") }
    guard cursor.take(UInt8(ascii: "-")) else { return fail("expected \"-\" after the year") }
    guard let month = cursor.number(digits: 2) else { return fail("expected a 2-digit month") }
    guard (1...12).contains(month) else { return fail("month \(month) is out of range") }
    guard cursor.take(UInt8(ascii: "-")) else { return fail("expected \"-\" after the month") }
    guard let day = cursor.number(digits: 2) else { return fail("expected a 2-digit day") }
    guard day >= 1 else { return fail("day 0 is out of range") }
    guard day <= daysInMonth(month, year: year) else {
      return fail("day \(day) does not exist in \(monthNames[month - 1]) \(year)")
    }

    guard !cursor.isAtEnd else { return fail("missing time after the date") }
    guard cursor.take(UInt8(ascii: "T")) || cursor.take(UInt8(ascii: "t")) || cursor.take(UInt8(ascii: " ")) else {
      return fail("expected \"T\" between the date and the time")
    }
    guard let hour = cursor.number(digits: 2) else { return fail("expected a 2-digit hour") }
    guard hour <= 23 else { return fail("hour \(hour) is out of range") }
    guard cursor.take(UInt8(ascii: ":")) else { return fail("expected \":\" after the hour") }
    guard let minute = cursor.number(digits: 2) else { return fail("expected a 2-digit minute") }
    guard minute <= 59 else { return fail("minute \(minute) is out of range") }
    guard cursor.take(UInt8(ascii: ":")) else {
      return fail(cursor.isAtEnd || cursor.isAtOffset ? "missing seconds" : "expected \":\" after the minute")
    }
    guard var second = cursor.number(digits: 2) else { return fail("expected a 2-digit second") }
    guard second <= 60 else { return fail("second \(second) is out of range") }
    // A leap second (23:59:60) has no instant of its own in POSIX time: it is
    // read as second 59 with its fraction, so the instant stays in the same
    // minute instead of rolling over into the next one.
    if second == 60 { second = 59 }

    var nanoseconds = 0
    if cursor.take(UInt8(ascii: ".")) {
      guard let fraction = cursor.fractionNanoseconds() else { return fail("expected a digit after the decimal point") }
      nanoseconds = fraction
    }

    var offsetSeconds = 0
    if cursor.take(UInt8(ascii: "Z")) || cursor.take(UInt8(ascii: "z")) {
      // UTC.
    } else if let sign = cursor.takeSign() {
      guard let offsetHour = cursor.number(digits: 2) else { return fail("expected a 2-digit offset hour") }
      guard offsetHour <= 23 else { return fail("offset hour \(offsetHour) is out of range") }
      guard cursor.take(UInt8(ascii: ":")) else { return fail("expected \":\" in the time zone offset") }
      guard let offsetMinute = cursor.number(digits: 2) else { return fail("expected a 2-digit offset minute") }
      guard offsetMinute <= 59 else { return fail("offset minute \(offsetMinute) is out of range") }
      offsetSeconds = sign * (offsetHour * 3600 + offsetMinute * 60)
    } else {
      return fail(
        cursor.isAtEnd ? "missing time zone offset (Z or ±hh:mm)" : "expected a time zone offset (Z or ±hh:mm)")
    }
    guard cursor.isAtEnd else { return fail("unexpected trailing characters") }

    let localSeconds = daysFromCivil(year: year, month: month, day: day) * 86_400 + hour * 3_600 + minute * 60 + second
    let unixSeconds = localSeconds - offsetSeconds
    // Subtracting the reference-date offset in integers keeps the whole
    // seconds exact; only the fraction is rounded, once.
    let referenceSeconds = unixSeconds - Int(Date.timeIntervalBetween1970AndReferenceDate)
    return .success(Date(timeIntervalSinceReferenceDate: Double(referenceSeconds) + Double(nanoseconds) / 1e9))
  }

  /// Days from 1970-01-01 to the given proleptic Gregorian date (Howard
  /// Hinnant's `days_from_civil`).
  static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
    let shiftedYear = month <= 2 ? year - 1 : year
    let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
    let yearOfEra = shiftedYear - era * 400
    let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }

  static func daysInMonth(_ month: Int, year: Int) -> Int {
    switch month {
    case 2: isLeapYear(year) ? 29 : 28
    case 4, 6, 9, 11: 30
    default: 31
    }
  }

  static func isLeapYear(_ year: Int) -> Bool {
    year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
  }

  private static let monthNames = [
    "January", "February", "March", "April", "May", "June",
    "July", "August", "September", "October", "November", "December",
  ]

  private struct Cursor {
    let bytes: UnsafeBufferPointer<UInt8>
    var position = 0

    var isAtEnd: Bool { position == bytes.count }

    /// Whether a time zone offset starts here (used to explain a missing field).
    var isAtOffset: Bool {
      guard !isAtEnd else { return false }
      return [UInt8(ascii: "Z"), UInt8(ascii: "z"), UInt8(ascii: "+"), UInt8(ascii: "-")].contains(bytes[position])
    }

    mutating func take(_ byte: UInt8) -> Bool {
      guard !isAtEnd, bytes[position] == byte else { return false }
      position += 1
      return true
    }

    /// `+1` or `-1` when a sign is next.
    mutating func takeSign() -> Int? {
      if take(UInt8(ascii: "+")) { return 1 }
      if take(UInt8(ascii: "-")) { return -1 }
      return nil
    }

    /// Exactly `digits` ASCII digits as a number; consumes nothing on failure.
    mutating func number(digits: Int) -> Int? {
      guard bytes.count - position >= digits else { return nil }
      var value = 0
      for offset in position..<position + digits {
        guard let digit = Self.digitValue(bytes[offset]) else { return nil }
        value = value * 10 + digit
      }
      position += digits
      return value
    }

    /// One or more digits as nanoseconds: the first nine count, the rest
    /// must be digits but are below the resolution kept.
    mutating func fractionNanoseconds() -> Int? {
      var nanoseconds = 0
      var count = 0
      while !isAtEnd, let digit = Self.digitValue(bytes[position]) {
        if count < 9 { nanoseconds = nanoseconds * 10 + digit }
        count += 1
        position += 1
      }
      guard count > 0 else { return nil }
      for _ in count..<max(count, 9) { nanoseconds *= 10 }
      return nanoseconds
    }

    static func digitValue(_ byte: UInt8) -> Int? {
      (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) ? Int(byte &- UInt8(ascii: "0")) : nil
    }
  }
}
