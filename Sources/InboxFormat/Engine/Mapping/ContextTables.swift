import Foundation
import Synchronization

/// What the engine keeps for a context: the date words and formats, the
/// numbers of badges, and a pool of memos that keeps what each thread made
/// for the threads after it. Shared by every thread that maps with the
/// context; ``now(_:)`` gives one for another instant that shares all of
/// it, and the zone's offsets around now while it is the same local day
/// (``LabelerDays``). Words, formatters and numbers are made the first
/// time a row needs them (``DateWords``, ``BadgeNumbers``), initials of
/// letters in each thread's memo: a page costs only the labels it shows.
final class ContextTables: Sendable {
  let context: FormattingContext
  let words: DateWords
  let labeler: DateLabeler
  /// The optional fields rows carry (nil: none, the default row).
  let extraFields: ExtraFields?
  /// The numbers of unread badges, when rows carry them.
  let badgeNumbers: BadgeNumbers?
  private let pool: MemoPool
  /// Now's local day, shared with the tables for other instants.
  private let labelerDays: LabelerDays

  init(context: FormattingContext) {
    self.context = context
    extraFields = ExtraFields(context.fields)
    words = DateWords(locale: context.locale, calendar: context.calendar, hourCycle: context.hourCycle)
    labelerDays = LabelerDays(days: LocalDays(timeZone: context.timeZone))
    labeler = labelerDays.labeler(now: context.now)
    badgeNumbers =
      extraFields?.contains(.unreadBadge) == true
      ? BadgeNumbers(locale: context.locale) : nil
    pool = MemoPool()
  }

  private init(sharing tables: ContextTables, now: Date) {
    context = tables.context.now(now)
    words = tables.words
    labelerDays = tables.labelerDays
    labeler = labelerDays.labeler(now: now)
    extraFields = tables.extraFields
    badgeNumbers = tables.badgeNumbers
    pool = tables.pool
  }

  /// The fields the writer writes: nil for the default ones, which it
  /// writes without looking at a list.
  var writtenFields: [RowField]? {
    context.fields == RowField.defaults ? nil : context.fields
  }

  /// The tables for `now`, sharing this one's words and memos: what it
  /// remembers (labels by local minute and day, names) does not depend on now.
  func now(_ now: Date) -> ContextTables {
    ContextTables(sharing: self, now: now)
  }

  /// Runs `body` with the row rules of this context over strings, their
  /// memo tables from the pool, which go back to it after. `messageCount`
  /// is how many messages `body` makes rows of, if known (``MemoTables/isShort``).
  @inline(__always)
  func withStringRules<Result>(messageCount: Int? = nil, _ body: (inout StringRules) -> Result) -> Result {
    var rows = StringRules(tables: self, memo: pool.take(forMessages: messageCount))
    let result = body(&rows)
    pool.give((consume rows).memo)
    return result
  }

  /// ``withStringRules(_:)`` for the rules over the input's bytes.
  @inline(__always)
  func withByteRules<Result>(messageCount: Int? = nil, _ body: (inout ByteRules) -> Result) -> Result {
    var rows = ByteRules(strings: StringRules(tables: self, memo: pool.take(forMessages: messageCount)))
    let result = body(&rows)
    pool.give((consume rows).strings.memo)
    return result
  }
}

/// The memos one thread looks labels and names up in.
struct MemoTables: Sendable {
  /// The labels made by every thread of the context, asked when `times` or
  /// `shortDates` of full tables miss.
  let made: MadeLabels
  /// Whether the tables have a thirty-second of their slots, for at most
  /// ``shortRun`` messages in all: a page needs few, and thousands of slots
  /// cost it page faults to make and a visit of every slot to free. The
  /// pool replaces short tables by full ones once they serve more.
  let isShort: Bool
  /// How many messages short tables have served rows of.
  var messagesServed = 0
  /// Time labels by local minute: today's minutes never share a slot.
  var times: Memo<Int64, String>
  /// Short dates by local day: the last few years' days never share a slot.
  var shortDates: Memo<Int64, String>
  /// The initial of each ASCII letter and digit in the context's locale
  /// (`i` is `İ` in Turkish), by its byte; nil for other bytes.
  var asciiInitials = Memo<UInt32, String?>(slots: 128)
  /// Initials by pair of leading letters (``LeadingLetter``).
  var letterPairs: Memo<LetterPair, String>
  /// The initial of each letter written in two UTF-8 bytes.
  var letters: Memo<UInt32, String>
  /// What a pair of clean names gives, by their bytes.
  var names: Memo<PackedNames, NameEntry>
  /// The initials of a clean display name, by its bytes; made when first
  /// needed, as only mapped payloads have display names.
  var displayNames: Memo<PackedNames, String>?
  /// The zone's offsets by UTC day, outside the labeler's table.
  var offsets = Memo<Int64, OffsetSpan>(slots: 64)
  /// The unread badges of counts, when rows carry them; made when first needed.
  var badges: Memo<Int64, String>?
  /// Labels of days before today in the other styles; made when first
  /// needed, so that the standard style allocates nothing more.
  var styledDays: Memo<StyledDay, DateLabel>?

  /// The most messages short tables serve.
  static let shortRun = 64

  init(made: MadeLabels, isShort: Bool) {
    (self.made, self.isShort) = (made, isShort)
    let slots = { (full: Int) in Self.slots(full, isShort: isShort) }
    times = Memo(slots: slots(2048))
    shortDates = Memo(slots: slots(2048))
    letterPairs = Memo(slots: slots(1024))
    letters = Memo(slots: slots(2048))
    names = Memo(slots: slots(1024), ways: 4)
  }

  /// `full` slots, or a thirty-second of them in short tables: for the
  /// tables made when first needed.
  func slots(_ full: Int) -> Int { Self.slots(full, isShort: isShort) }

  /// ``made`` for full tables; nil for short ones, which serve one page
  /// and make their few labels themselves rather than make the shared memos.
  var sharedLabels: MadeLabels? { isShort ? nil : made }

  private static func slots(_ full: Int, isShort: Bool) -> Int { isShort ? full / 32 : full }
}

/// What a pair of clean, visible names gives whatever else the row holds.
struct NameEntry: Sendable {
  var initials: String
  /// Whether the title puts the last name first.
  var familyNameFirst: Bool
  /// The title's text, once a row made of strings needed it.
  var title: String?
}

/// Time labels and short dates made for a context, by local minute and
/// day, shared by every thread's memos: ICU formats each minute and day
/// once whatever the number of threads, and a run makes the same
/// labels (so the same allocations) however its batches fell on threads.
/// A thread asks here only when its own memo misses.
final class MadeLabels: Sendable {
  /// Each made when first asked: short tables, which serve one thread's
  /// page, never ask.
  private let times = Mutex<Memo<Int64, String>?>(nil)
  private let shortDates = Mutex<Memo<Int64, String>?>(nil)

  init() {}

  /// The time label of a local minute: the one made before, or `make`'s,
  /// made under the lock, so that no two threads make the same one.
  func time(atLocalMinute minute: Int64, orMake make: () -> String) -> String {
    times.withLock { memo in
      if memo == nil { memo = Memo(slots: 2048) }
      return memo!.value(for: minute, orMake: make)
    }
  }

  /// Whether no label has been asked of it: its memos are not made.
  var isUnasked: Bool {
    times.withLock { $0 == nil } && shortDates.withLock { $0 == nil }
  }

  /// The short date of a local day: the one made before, or `make`'s.
  func shortDate(onLocalDay day: Int64, orMake make: () -> String) -> String {
    shortDates.withLock { memo in
      if memo == nil { memo = Memo(slots: 2048) }
      return memo!.value(for: day, orMake: make)
    }
  }
}

/// Memo tables not in use: as many as threads used them at once.
private final class MemoPool: Sendable {
  private let tables = Mutex<[MemoTables]>([])
  private let made = MadeLabels()

  /// Tables for rows of `count` messages (nil: not known): short ones
  /// while they serve at most ``MemoTables/shortRun`` messages in all,
  /// full ones from then on.
  func take(forMessages count: Int?) -> MemoTables {
    let count = count ?? .max
    var memo =
      tables.withLock { $0.popLast() }
      ?? MemoTables(made: made, isShort: count <= MemoTables.shortRun)
    if memo.isShort {
      guard count <= MemoTables.shortRun - memo.messagesServed else { return MemoTables(made: made, isShort: false) }
      memo.messagesServed += count
    }
    return memo
  }

  func give(_ memo: consuming MemoTables) {
    // Moved into the list, not copied: a copy retains every table's arrays.
    var memo = Optional(memo)
    tables.withLock { $0.append(memo.take()!) }
  }
}
