import ArgumentParser
import Foundation
import InboxFormat
import InboxFormatOptions

/// The options that decide how rows look, shared by every subcommand that formats.
struct FormattingOptions: ParsableArguments {
  @Option(
    help: ArgumentHelp(
      "Freeze the clock: an RFC 3339 date-time or @epoch-seconds.",
      discussion: "Default: SOURCE_DATE_EPOCH when set, else the system clock.",
      valueName: "instant"))
  var now: String?

  @Option(
    help: ArgumentHelp(
      "The locale, BCP 47 (fr-FR, en-US-u-hc-h23) or POSIX (fr_FR.UTF-8).",
      discussion: "Default: LC_ALL, else LC_TIME, else LANG; C, POSIX, none or one without CLDR data mean en_US_POSIX.",
      valueName: "id"))
  var locale: String?

  @Option(
    help: ArgumentHelp(
      "The viewer's time zone: IANA (Europe/Paris) or a fixed offset (GMT+05:30).",
      discussion: "Default: TZ (POSIX), else the system's.",
      valueName: "id"))
  var timeZone: String?

  @Option(help: ArgumentHelp("Force a 12- or 24-hour clock instead of the locale's.", valueName: "12|24"))
  var hourCycle: HourCycleArgument?

  @Option(help: ArgumentHelp("Cut previews to N grapheme clusters, ending in '…'.", valueName: "N"))
  var previewLength: Int?

  @Option(
    help: ArgumentHelp(
      "The keys of each row, in order, separated by commas.",
      discussion: """
        default stands for id,initials,title,message,date,isUnread; the others are dateValidUntil, \
        unreadBadge, spokenDate, titleDirection, messageDirection and avatarColor. Default: default.
        """,
      valueName: "list"))
  var fields: String?

  @Option(
    help: ArgumentHelp(
      "How dates are worded: standard (9:45 AM, Tuesday, 1/3/22), compact (Tue, Jan 3) or relative (Now, 5 min. ago).",
      valueName: "standard|compact|relative"))
  var dateStyle: String?

  @Option(help: ArgumentHelp("Show unread counts above N as N+ in unreadBadge (default 99).", valueName: "N"))
  var badgeLimit: String?

  func validate() throws {
    if let previewLength, previewLength < 1 {
      throw ValidationError("--preview-length must be at least 1, not \(previewLength)")
    }
    _ = try rowSettings()
  }

  /// `--fields`, `--date-style` and `--badge-limit`, read; a usage error
  /// (exit 64) names the option and quotes the value.
  func rowSettings() throws -> (fields: [RowField], dateStyle: DateStyle, badgeLimit: Int) {
    (
      try fields.map { try usable(RowOptions.fields($0), "--fields") } ?? RowField.defaults,
      try dateStyle.map { try usable(RowOptions.dateStyle($0), "--date-style") } ?? .standard,
      try badgeLimit.map { try usable(RowOptions.badgeLimit($0), "--badge-limit") }
        ?? FormattingContext.defaultBadgeLimit
    )
  }

  /// The formatting context these options and `environment` describe.
  ///
  /// Throws `ValidationError` (exit 64) for a value that cannot be used.
  func context(environment: ProcessEnvironment) throws -> FormattingContext {
    let row = try rowSettings()
    return FormattingContext(
      now: try frozenNow(environment: environment) ?? environment.clock(),
      locale: try resolvedLocale(environment: environment),
      timeZone: try resolvedTimeZone(environment: environment),
      hourCycle: hourCycle?.hourCycle,
      previewLength: previewLength,
      fields: row.fields,
      dateStyle: row.dateStyle,
      badgeLimit: row.badgeLimit)
  }

  /// The instant `--now` or `SOURCE_DATE_EPOCH` freezes the clock at, or nil
  /// when neither does and the clock runs.
  func frozenNow(environment: ProcessEnvironment) throws -> Date? {
    if let now { return try usable(Instant.parse(now), "--now") }
    if let epoch = environment["SOURCE_DATE_EPOCH"], !epoch.isEmpty {
      return try usable(Instant.sourceDateEpoch(epoch), "SOURCE_DATE_EPOCH=")
    }
    return nil
  }

  private func resolvedLocale(environment: ProcessEnvironment) throws -> Locale {
    if let locale { return try usable(LocaleName.locale(from: locale), "--locale") }
    return LocaleName.environmentLocale { environment[$0] }
  }

  private func resolvedTimeZone(environment: ProcessEnvironment) throws -> TimeZone {
    if let timeZone { return try usable(TimeZoneName.timeZone(id: timeZone), "--time-zone") }
    if let value = environment["TZ"] {
      return try usable(
        TimeZoneName.timeZone(posix: value, systemZone: environment.systemTimeZone, resolve: resolvedPath), "TZ=")
    }
    return environment.systemTimeZone()
  }
}

/// The value `read` gives, or its error as a usage error naming the setting.
func usable<Value>(_ read: @autoclosure () throws(OptionError) -> Value, _ name: String) throws -> Value {
  do {
    return try read()
  } catch {
    throw ValidationError(error.message(naming: name))
  }
}

/// The path `path` leads to through symbolic links, or nil when it leads nowhere.
private func resolvedPath(_ path: String) -> String? {
  guard let resolved = realpath(path, nil) else { return nil }
  defer { free(resolved) }
  return String(cString: resolved)
}

/// `--hour-cycle 12|24`.
enum HourCycleArgument: String, ExpressibleByArgument, CaseIterable {
  case twelve = "12"
  case twentyFour = "24"

  var hourCycle: HourCycle { self == .twelve ? .twelveHour : .twentyFourHour }
}
