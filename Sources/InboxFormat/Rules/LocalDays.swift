import Foundation

/// Local calendar days of instants in one time zone, as day numbers counted
/// from 1970-01-01: the calendar-date arithmetic behind "today" and
/// "yesterday".
///
/// An instant's local date comes from its own UTC offset, so a day is simply
/// one more than the one before it, however long it was: 23 or 25 hours
/// around DST changes, or a day skipped altogether (Pacific/Apia went from
/// 29 to 31 December 2011). Nothing here counts 86,400-second steps back from now.
struct LocalDays: Sendable {
  let timeZone: TimeZone

  /// The local day number of the instant `seconds` after 1970-01-01T00:00:00Z.
  func day(of seconds: Int64) -> Int64 {
    floorDivide(seconds + offset(at: seconds), by: secondsPerDay)
  }

  /// The first instant at or after `start` whose local day is `target` or
  /// later: the start of that day, which is a midnight unless DST skipped
  /// midnight (then the first instant after the gap), or the first instant
  /// of a later day when `target` was skipped.
  func firstInstant(from start: Int64, ofDayAtLeast target: Int64) -> Int64 {
    // No instant earlier than this can be on `target` or later: no zone is
    // more than 26 hours ahead of UTC. Starting here bounds the walk to the
    // few offset changes around the day's start.
    var intervalStart = max(start, target * secondsPerDay - 26 * 3600)
    while true {
      // Within one interval of constant offset, local days only go up.
      let offset = offset(at: intervalStart)
      if floorDivide(intervalStart + offset, by: secondsPerDay) >= target { return intervalStart }
      let candidate = target * secondsPerDay - offset
      guard let next = nextTransition(after: intervalStart), next <= candidate else { return candidate }
      intervalStart = next
    }
  }

  /// The first instant of local day `day` (see ``firstInstant(from:ofDayAtLeast:)``).
  func start(ofDay day: Int64) -> Int64 {
    firstInstant(from: .min / 2, ofDayAtLeast: day)
  }

  /// The zone's UTC offset at `seconds`, in seconds.
  func offset(at seconds: Int64) -> Int64 {
    Int64(timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(seconds))))
  }

  /// The first instant after `seconds` at which the zone's offset changes.
  func nextTransition(after seconds: Int64) -> Int64? {
    timeZone.nextDaylightSavingTimeTransition(after: Date(timeIntervalSince1970: Double(seconds)))
      .map { Int64($0.timeIntervalSince1970.rounded(.up)) }
  }
}

let secondsPerDay: Int64 = 86_400

/// Division rounding toward negative infinity, so instants before 1970 fall
/// on the right day.
func floorDivide(_ value: Int64, by divisor: Int64) -> Int64 {
  let quotient = value / divisor
  return (value % divisor != 0 && (value < 0) != (divisor < 0)) ? quotient - 1 : quotient
}
