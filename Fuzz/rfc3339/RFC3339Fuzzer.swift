import Foundation

@testable import InboxFormat

// The `rfc3339` target: any bytes through RFC3339.parse. Nothing may trap, and:
//
// - it accepts exactly what a reference reading of RFC 3339 (a regular
//   expression, range checks, and days counted year by year) accepts, and
//   gives the same instant to the nanosecond the Double holds;
// - the String and byte entry points agree, and refusals give a printable reason;
// - where Foundation's Date.ISO8601FormatStyle accepts the same text, the
//   instants agree within a microsecond, except where Foundation is known
//   to differ: it reads dates before 15 October 1582 in the Julian calendar
//   and rolls a leap second (`:60`) into the next minute. (It also accepts
//   what RFC 3339 does not, such as 30 February, hour 24, `+0530` or `ZZ`;
//   we refuse those, so they are never compared.)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRFC3339(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  let input = fuzzInput(data, size)
  let ours = RFC3339.parse(input)
  let reference = ReferenceDateTime(input)

  switch (ours, reference) {
  case (.success(let date), let expected?):
    fuzzCheck(
      date == expected.date,
      "we read \(date.timeIntervalSince1970), the reference \(expected.date.timeIntervalSince1970)", input: input)
    compareWithFoundation(date, expected, input: input)
  case (.success(let date), nil):
    fuzzFailure("we accept (\(date.timeIntervalSince1970)) what the reference refuses", input: input)
  case (.failure(let failure), let expected?):
    fuzzFailure(
      "we refuse (\(failure.reason)) what the reference reads as \(expected.date.timeIntervalSince1970)", input: input)
  case (.failure(let failure), nil):
    fuzzCheck(
      !failure.reason.isEmpty && !failure.reason.unicodeScalars.contains(where: isUnsafeForDisplay),
      "an unprintable reason: \(failure.reason.debugDescription)", input: input)
  }

  if let text = String(validating: input, as: UTF8.self) {
    fuzzCheck(RFC3339.parse(text) == ours, "the String and byte entry points disagree", input: input)
  }
  return 0
}

private func compareWithFoundation(_ date: Date, _ expected: ReferenceDateTime, input: UnsafeBufferPointer<UInt8>) {
  guard expected.isGregorianInFoundation, !expected.isLeapSecond else { return }
  let text = String(decoding: input, as: UTF8.self)
  let style = Date.ISO8601FormatStyle(includingFractionalSeconds: expected.hasFraction)
  guard let theirs = try? style.parse(text) else { return }
  fuzzCheck(
    abs(theirs.timeIntervalSince(date)) < 1e-6,
    "Foundation reads \(theirs.timeIntervalSince1970), we \(date.timeIntervalSince1970)", input: input)
}

/// RFC 3339's `date-time` read another way than RFC3339.parse: a regular
/// expression for the grammar, then range checks and arithmetic that counts
/// days year by year.
struct ReferenceDateTime {
  var date: Date
  var hasFraction: Bool
  var isLeapSecond: Bool
  /// Foundation switches to the Julian calendar before 1582-10-15.
  var isGregorianInFoundation: Bool

  /// libFuzzer calls the harness on one thread.
  nonisolated(unsafe) private static let grammar =
    /([0-9]{4})-([0-9]{2})-([0-9]{2})[Tt ]([0-9]{2}):([0-9]{2}):([0-9]{2})(?:\.([0-9]+))?(?:([Zz])|([+-])([0-9]{2}):([0-9]{2}))/
    .matchingSemantics(.unicodeScalar)

  init?(_ bytes: UnsafeBufferPointer<UInt8>) {
    guard let text = String(validating: bytes, as: UTF8.self),
      let match = try? Self.grammar.wholeMatch(in: text)
    else { return nil }
    let (
      _, yearText, monthText, dayText, hourText, minuteText, secondText, fraction, _, sign, offsetHour, offsetMinute
    ) =
      match.output
    let year = Int(yearText)!
    let month = Int(monthText)!
    let day = Int(dayText)!
    let hour = Int(hourText)!
    let minute = Int(minuteText)!
    let second = Int(secondText)!
    guard (1...12).contains(month), day >= 1, day <= Self.days(inMonth: month, year: year), hour <= 23, minute <= 59,
      second <= 60
    else { return nil }
    var offset = 0
    if let sign, let offsetHour, let offsetMinute {
      guard Int(offsetHour)! <= 23, Int(offsetMinute)! <= 59 else { return nil }
      offset = (sign == "-" ? -1 : 1) * (Int(offsetHour)! * 3600 + Int(offsetMinute)! * 60)
    }
    // Nanoseconds: the first nine digits, padded.
    let nanoseconds = fraction.map { Int(String($0.prefix(9)).padding(toLength: 9, withPad: "0", startingAt: 0))! } ?? 0

    var days = 0
    if year >= 1970 {
      for y in 1970..<year { days += Self.isLeap(y) ? 366 : 365 }
    } else {
      for y in year..<1970 { days -= Self.isLeap(y) ? 366 : 365 }
    }
    for m in 1..<month { days += Self.days(inMonth: m, year: year) }
    days += day - 1
    // A leap second is second 59 of its minute, as the README says.
    let unixSeconds = days * 86_400 + hour * 3600 + minute * 60 + min(second, 59) - offset
    date = Date(timeIntervalSinceReferenceDate: Double(unixSeconds - 978_307_200) + Double(nanoseconds) / 1e9)
    hasFraction = fraction != nil
    isLeapSecond = second == 60
    isGregorianInFoundation = (year, month, day) > (1582, 10, 15) && (year, month, day) < (9999, 12, 31)
  }

  private static func isLeap(_ year: Int) -> Bool {
    (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
  }

  private static func days(inMonth month: Int, year: Int) -> Int {
    [31, isLeap(year) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
  }
}
