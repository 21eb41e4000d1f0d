public import Foundation

/// Everything a row depends on besides the message: the current instant, the
/// locale, the time zone, the calendar and the preferences of the viewer.
///
/// The library never reads the clock, the locale or the time zone of the
/// system: they arrive here, so the same messages and context always give the
/// same rows. Modifiers return a changed copy, as Foundation's format styles do.
///
/// ```swift
/// let context = FormattingContext(
///   now: try Date("2022-01-31T12:00:00Z", strategy: .iso8601),
///   locale: Locale(identifier: "fr-FR"),
///   timeZone: TimeZone(identifier: "Europe/Paris")!
/// ).hourCycle(.twelveHour)
/// ```
public struct FormattingContext: Sendable, Hashable {
  /// The instant the labels are relative to ("today" is now's local date).
  public var now: Date
  /// The locale of every label: time and date formats, weekday names, the
  /// word for yesterday, and the case mapping of initials.
  public var locale: Locale
  /// The viewer's time zone: it decides local dates and the times shown.
  public var timeZone: TimeZone
  /// The calendar of short dates and weekday names; defaults to the
  /// locale's own (Buddhist for `th-TH`, Persian for `fa-IR`). Its time zone
  /// is replaced by ``timeZone``.
  public var calendar: Calendar
  /// Forces a 12- or 24-hour clock; nil follows the locale (and its `-u-hc-` extension).
  public var hourCycle: HourCycle?
  /// Cuts previews to this many grapheme clusters, ending in `…`; nil keeps them whole.
  public var previewLength: Int?
  /// The title of a message with no name and no phone number.
  public var untitledPlaceholder: String
  /// The keys of the rows, in order; ``RowField/defaults`` unless told
  /// otherwise. The values of fields not listed are never computed. A field
  /// listed twice keeps its first place.
  public var fields: [RowField] {
    get { _fields }
    set { _fields = Self.uniqued(newValue) }
  }
  private var _fields: [RowField]
  /// How date labels are worded; ``DateStyle/standard`` unless told otherwise.
  public var dateStyle: DateStyle
  /// The largest unread count a badge shows as it is; a larger one shows
  /// this number followed by `+`. Values below 1 are treated as 1.
  public var badgeLimit: Int {
    get { _badgeLimit }
    set { _badgeLimit = max(1, newValue) }
  }
  private var _badgeLimit: Int

  /// The title used when a message has no name and no phone number, unless
  /// the context says otherwise.
  public static let defaultUntitledPlaceholder = "Unknown"
  /// The badge limit unless the context says otherwise: `99+` above it.
  public static let defaultBadgeLimit = 99

  /// Creates a context.
  ///
  /// - Parameters:
  ///   - now: The instant labels are relative to.
  ///   - locale: The locale of the labels.
  ///   - timeZone: The viewer's time zone.
  ///   - calendar: The calendar of dates; nil uses `locale`'s calendar.
  ///   - hourCycle: A forced hour cycle; nil follows the locale.
  ///   - previewLength: The longest preview in grapheme clusters; nil for no limit.
  ///     Values below 1 are treated as 1.
  ///   - untitledPlaceholder: The title when there is neither a name nor a phone number.
  ///   - fields: The keys of the rows, in order.
  ///   - dateStyle: How date labels are worded.
  ///   - badgeLimit: The largest count a badge shows as it is; at least 1.
  public init(
    now: Date,
    locale: Locale,
    timeZone: TimeZone,
    calendar: Calendar? = nil,
    hourCycle: HourCycle? = nil,
    previewLength: Int? = nil,
    untitledPlaceholder: String = FormattingContext.defaultUntitledPlaceholder,
    fields: [RowField] = RowField.defaults,
    dateStyle: DateStyle = .standard,
    badgeLimit: Int = FormattingContext.defaultBadgeLimit
  ) {
    self._fields = Self.uniqued(fields)
    self.dateStyle = dateStyle
    self._badgeLimit = max(1, badgeLimit)
    self.now = now
    self.locale = locale
    self.timeZone = timeZone
    self.calendar = calendar ?? locale.calendar
    self.hourCycle = hourCycle
    self.previewLength = previewLength.map { max(1, $0) }
    self.untitledPlaceholder = untitledPlaceholder
  }

  /// A copy with another current instant.
  public func now(_ now: Date) -> Self { modified { $0.now = now } }
  /// A copy with another locale; the calendar is left as it is.
  public func locale(_ locale: Locale) -> Self { modified { $0.locale = locale } }
  /// A copy with another time zone.
  public func timeZone(_ timeZone: TimeZone) -> Self { modified { $0.timeZone = timeZone } }
  /// A copy with another calendar.
  public func calendar(_ calendar: Calendar) -> Self { modified { $0.calendar = calendar } }
  /// A copy that forces an hour cycle, or follows the locale with nil.
  public func hourCycle(_ hourCycle: HourCycle?) -> Self { modified { $0.hourCycle = hourCycle } }
  /// A copy with another preview length, or no limit with nil.
  public func previewLength(_ previewLength: Int?) -> Self {
    modified { $0.previewLength = previewLength.map { max(1, $0) } }
  }
  /// A copy whose rows carry `fields`, in that order.
  public func fields(_ fields: [RowField]) -> Self { modified { $0.fields = fields } }
  /// A copy with another date style.
  public func dateStyle(_ dateStyle: DateStyle) -> Self { modified { $0.dateStyle = dateStyle } }
  /// A copy with another badge limit (at least 1).
  public func badgeLimit(_ badgeLimit: Int) -> Self { modified { $0.badgeLimit = badgeLimit } }

  /// `fields` with each field at its first place only. (A list has a dozen
  /// fields at most: looked through, not hashed; the default list is kept
  /// as it is.)
  private static func uniqued(_ fields: [RowField]) -> [RowField] {
    if fields == RowField.defaults { return fields }
    var unique: [RowField] = []
    for field in fields where !unique.contains(field) { unique.append(field) }
    return unique
  }

  /// Hashes what is cheap to hash and tells most contexts apart: the
  /// instant, the names of the locale and the zone, the fields and the style.
  /// Equal contexts have these equal, so equal hashes hold; a kept formatter
  /// is looked up by its context (``InboxFormatterCache``) on every request,
  /// where hashing a `Locale` and a `Calendar` whole costs more than the rest
  /// of the lookup.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(now)
    hasher.combine(locale.identifier)
    hasher.combine(timeZone.identifier)
    hasher.combine(_fields)
    hasher.combine(dateStyle)
    hasher.combine(_badgeLimit)
  }

  private func modified(_ change: (inout Self) -> Void) -> Self {
    var copy = self
    change(&copy)
    return copy
  }
}

/// A 12- or 24-hour clock for times of day, overriding the locale's.
///
/// The day period of the 12-hour clock still comes from the locale (CLDR):
/// `9:45 AM` in en-US, `9:45 mat.` in fr-FR.
public struct HourCycle: Sendable, Hashable, CustomStringConvertible {
  private enum Cycle: Hashable { case twelve, twentyFour }
  private let cycle: Cycle

  /// Hours 1 to 12 with a day period: `9:45 AM`.
  public static let twelveHour = HourCycle(cycle: .twelve)
  /// Hours 0 to 23: `09:45`.
  public static let twentyFourHour = HourCycle(cycle: .twentyFour)

  /// `12` or `24`.
  public var description: String { cycle == .twelve ? "12" : "24" }

  /// The locale with this hour cycle set in its `hours` keyword (`-u-hc-`).
  func applied(to locale: Locale) -> Locale {
    var components = Locale.Components(locale: locale)
    components.hourCycle = cycle == .twelve ? .oneToTwelve : .zeroToTwentyThree
    return Locale(components: components)
  }
}
