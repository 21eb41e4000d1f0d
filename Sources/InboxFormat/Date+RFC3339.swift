public import Foundation

extension Date {
  /// Parses an RFC 3339 date-time exactly as payload dates are parsed: `Z` or
  /// a numeric offset, fractional seconds of any length.
  ///
  /// - Throws: ``InboxFormatError/invalidDateTime(value:reason:)``, whose
  ///   reason says what is wrong, e.g. `month 13 is out of range`.
  ///
  /// ```swift
  /// let now = try Date(rfc3339: "2022-01-31T13:00:00+01:00")
  /// // now.timeIntervalSince1970 == 1_643_630_400
  /// ```
  public init(rfc3339 text: String) throws(InboxFormatError) {
    switch RFC3339.parse(text) {
    case .success(let date): self = date
    case .failure(let failure): throw .invalidDateTime(value: text, reason: failure.reason)
    }
  }
}
