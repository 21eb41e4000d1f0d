import Foundation

extension Date {
  /// Whole seconds since 1970, rounded down: the second the instant falls in.
  var wholeSecondsSince1970: Int64 {
    let seconds = timeIntervalSince1970.rounded(.down)
    // Dates beyond ±2^63 s cannot come from RFC 3339; clamp rather than trap.
    return seconds >= 9.2e18 ? Int64.max / 4 : seconds <= -9.2e18 ? Int64.min / 4 : Int64(seconds)
  }
}
