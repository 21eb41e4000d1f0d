public import Foundation

extension Date {
  /// The instant in RFC 3339, in UTC with `Z` and whole seconds, rounded up
  /// (the first whole second at or after it): `2022-01-31T23:00:00Z`. Years
  /// have at least four digits.
  var utcText: String { utcText(rounding: .up) }

  fileprivate func utcText(rounding: FloatingPointRoundingRule) -> String {
    let seconds = timeIntervalSince1970.rounded(rounding)
    let whole = seconds >= 9.2e18 ? Int64.max / 4 : seconds <= -9.2e18 ? Int64.min / 4 : Int64(seconds)
    let day = floorDivide(whole, by: secondsPerDay)
    let secondOfDay = whole - day * secondsPerDay
    // Days to a civil date (H. Hinnant's days_from_civil, inverted): eras of 400 years.
    let shifted = day + 719_468
    let era = floorDivide(shifted, by: 146_097)
    let dayOfEra = shifted - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let monthIndex = (5 * dayOfYear + 2) / 153
    let dayOfMonth = dayOfYear - (153 * monthIndex + 2) / 5 + 1
    let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
    let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
    func digits(_ value: Int64, _ width: Int) -> String {
      let text = String(value.magnitude)
      return (value < 0 ? "-" : "") + String(repeating: "0", count: max(0, width - text.count)) + text
    }
    return "\(digits(year, 4))-\(digits(month, 2))-\(digits(dayOfMonth, 2))T\(digits(secondOfDay / 3600, 2)):"
      + "\(digits(secondOfDay / 60 % 60, 2)):\(digits(secondOfDay % 60, 2))Z"
  }
}

extension InboxFormatter {
  /// `instant` in RFC 3339, in UTC with `Z`, as the whole second it lies in
  /// (rounded down), e.g. `2022-01-31T23:00:00Z`; years have at least four
  /// digits.
  ///
  /// For a service that sends the instant a `format` call returns, when its
  /// rows stop being true, in a header: rounded down, it is never later
  /// than that instant. Rows write their `date_valid_until` in the same form,
  /// rounded up.
  public static func utcText(roundingDown instant: Date) -> String {
    instant.utcText(rounding: .down)
  }
}
