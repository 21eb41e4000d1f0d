import Foundation
import Synchronization

/// The date rule (``dateLabel(seconds:localSeconds:nowSeconds:today:style:calendar:dayStart:)``)
/// for one instant "now", fast: offsets from a table of the zone's changes
/// around now (``OffsetTable``), tomorrow's start made once, and the words
/// remembered by local minute and day, which decide them whatever the
/// offset, so ICU formats each distinct minute and day once.
final class DateLabeler: Sendable {
  private let days: LocalDays
  /// The zone's offsets around now, today's number and tomorrow's start.
  private let day: LabelerDay
  private let nowSeconds: Int64

  /// A labeler for `now` from `day`, which must hold now (``LabelerDay/holds(_:)``);
  /// ``LabelerDays/labeler(now:)`` makes one.
  init(now: Date, day: LabelerDay, days: LocalDays) {
    self.days = days
    self.day = day
    nowSeconds = now.wholeSecondsSince1970
  }

  /// The label of a message updated at `date` in `style`, in the words of `words`.
  ///
  /// In a style other than the standard one, a label of a day before today,
  /// an hour or more back, depends on that day alone (and today), so it is
  /// remembered whole, by day.
  @inline(__always)
  func label(for date: Date, style: LabelStyle, words: DateWords, memo: inout MemoTables) -> DateLabel {
    let seconds = date.wholeSecondsSince1970
    let localSeconds = seconds + (day.recentOffsets.offset(at: seconds) ?? offset(at: seconds, memo: &memo))
    guard style != .standard, floorDivide(localSeconds, by: secondsPerDay) < day.today, nowSeconds - seconds >= 3_600
    else {
      return label(seconds: seconds, localSeconds: localSeconds, style: style, words: words, memo: &memo)
    }
    let key = StyledDay(style: style, day: floorDivide(localSeconds, by: secondsPerDay), today: day.today)
    if memo.styledDays == nil { memo.styledDays = Memo(slots: memo.slots(2048)) }
    if let label = memo.styledDays?.peek(key) { return label }
    let label = label(seconds: seconds, localSeconds: localSeconds, style: style, words: words, memo: &memo)
    memo.styledDays?.remember(label, for: key)
    return label
  }

  /// The rule's label, its words remembered by local minute and day.
  @inline(__always)
  private func label(
    seconds: Int64, localSeconds: Int64, style: LabelStyle, words: DateWords, memo: inout MemoTables
  ) -> DateLabel {
    let (shown, validUntil) = dateLabel(
      seconds: seconds, localSeconds: localSeconds, nowSeconds: nowSeconds, today: day.today, style: style,
      calendar: words
    ) { labelDay in
      instant(
        labelDay == day.today + 1
          ? day.tomorrowStart : days.firstInstant(from: nowSeconds, ofDayAtLeast: labelDay))
    }
    let text: String
    switch shown {
    case .time(let minute):
      // A hit is looked up without a closure that makes the value, which would retain the
      // shared `words` on every row.
      let made = memo.sharedLabels
      text =
        memo.times.peek(minute)
        ?? memo.times.value(for: minute) {
          made?.time(atLocalMinute: minute) { words.text(of: shown) } ?? words.text(of: shown)
        }
    case .shortDate(let day):
      let made = memo.sharedLabels
      text =
        memo.shortDates.peek(day)
        ?? memo.shortDates.value(for: day) {
          made?.shortDate(onLocalDay: day) { words.text(of: shown) } ?? words.text(of: shown)
        }
    default: text = words.text(of: shown)
    }
    return DateLabel(text: text, validUntil: validUntil)
  }

  /// The zone's offset at `seconds` outside the table: asked of the zone
  /// once per UTC day (twice on a day when the offset changes).
  private func offset(at seconds: Int64, memo: inout MemoTables) -> Int64 {
    let utcDay = floorDivide(seconds, by: secondsPerDay)
    let span = memo.offsets.value(for: utcDay) {
      let dayStart = utcDay * secondsPerDay
      return OffsetSpan(offset: days.offset(at: dayStart), changesAt: days.nextTransition(after: dayStart) ?? .max)
    }
    return seconds < span.changesAt ? span.offset : days.offset(at: seconds)
  }
}

/// What a ``DateLabeler`` needs of now's local day: the zone's offsets
/// from two years before it until a year after, where nearly every message
/// falls; the day's number; and tomorrow's first instant, when every label
/// of the last week's rows goes stale. Made for one instant, it holds for
/// every later one before tomorrow whose local day is the same: those have
/// the same day and the same next day's start, and the table, which only
/// spares asking the zone, still covers them.
struct LabelerDay: Sendable {
  let recentOffsets: OffsetTable
  /// The instant it was made for.
  let madeAt: Int64
  let today: Int64
  let tomorrowStart: Int64

  init(now nowSeconds: Int64, days: LocalDays) {
    madeAt = nowSeconds
    // A day past a year ahead, so that the table covers a year after every
    // instant the day holds.
    recentOffsets = OffsetTable(days, from: nowSeconds - 731 * secondsPerDay, until: nowSeconds + 367 * secondsPerDay)
    today = days.day(of: nowSeconds)
    tomorrowStart = days.firstInstant(from: nowSeconds, ofDayAtLeast: today + 1)
  }

  /// Whether it is this day for `nowSeconds`: no earlier than the instant
  /// it was made for (a zone can turn its clock back past midnight, so an
  /// earlier instant may be on another day or have another next midnight),
  /// before tomorrow, and on today.
  func holds(_ nowSeconds: Int64) -> Bool {
    guard nowSeconds >= madeAt, nowSeconds < tomorrowStart,
      let offset = recentOffsets.offset(at: nowSeconds)
    else { return false }
    return floorDivide(nowSeconds + offset, by: secondsPerDay) == today
  }
}

/// The last ``LabelerDay`` made for a zone, shared by the tables of every
/// instant: a service that formats each request for the time it came in
/// makes the day's offset table once a day, not once a request.
final class LabelerDays: Sendable {
  private let days: LocalDays
  private let last: Mutex<LabelerDay?>

  init(days: LocalDays) {
    self.days = days
    last = Mutex(nil)
  }

  /// A day that holds `now`: the last one made when it does, else a new one,
  /// kept unless a later one was made meanwhile.
  func day(for now: Date) -> LabelerDay {
    let seconds = now.wholeSecondsSince1970
    if let kept = last.withLock({ $0 }), kept.holds(seconds) { return kept }
    let made = LabelerDay(now: seconds, days: days)
    last.withLock { last in
      if (last?.madeAt ?? .min) < made.madeAt { last = made }
    }
    return made
  }

  /// A labeler for `now`.
  func labeler(now: Date) -> DateLabeler {
    DateLabeler(now: now, day: day(for: now), days: days)
  }
}

/// A local day before today, labelled in a style other than the standard one.
struct StyledDay: MemoKey {
  var style: LabelStyle
  var day: Int64
  var today: Int64

  /// Consecutive days in consecutive slots, the styles a slot apart.
  var memoHash: UInt64 {
    let index: UInt64 =
      switch style {
      case .standard: 0
      case .compact: 1
      case .relative: 2
      case .spoken: 3
      }
    return UInt64(bitPattern: day) &* 4 &+ index
  }
}

/// A zone's UTC offset from the start of a UTC day until `changesAt`.
struct OffsetSpan: Sendable {
  var offset: Int64
  var changesAt: Int64
}

/// ``LocalDays/offset(at:)`` over a span of time, from the zone's offset changes:
/// the offset of an instant without asking the time zone.
struct OffsetTable: Sendable {
  /// The first instant covered.
  private let start: Int64
  /// The first instant not covered.
  private let end: Int64
  /// When each offset starts, in order; the first is `start`.
  private let changes: [Int64]
  private let offsets: [Int64]

  /// The offsets of `days`' zone from `start` until `end`.
  init(_ days: LocalDays, from start: Int64, until end: Int64) {
    var changes = [start]
    var offsets = [days.offset(at: start)]
    var instant = start
    while let next = days.nextTransition(after: instant), next < end, next > instant {
      changes.append(next)
      offsets.append(days.offset(at: next))
      instant = next
    }
    (self.start, self.end, self.changes, self.offsets) = (start, end, changes, offsets)
  }

  /// The offset at `seconds`, or nil outside the span.
  func offset(at seconds: Int64) -> Int64? {
    guard seconds >= start, seconds < end else { return nil }
    // The last change at or before `seconds`; a zone changes a few times a year.
    var index = changes.count - 1
    while changes[index] > seconds { index -= 1 }
    return offsets[index]
  }
}
