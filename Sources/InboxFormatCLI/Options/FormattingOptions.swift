package import ArgumentParser
package import Foundation
package import InboxFormat
import InboxFormatOptions

/// The options that decide how rows look, shared by every subcommand that formats.
package struct FormattingOptions: ParsableArguments {
  @Option(
    help: ArgumentHelp(
      "Freeze the clock: an RFC 3339 date-time or @epoch-seconds.",
      discussion: "Default: SOURCE_DATE_EPOCH when set, else the system clock.",
      valueName: "instant"))
  package var now: String?

  @Option(
    help: ArgumentHelp(
      "The locale, BCP 47 (fr-FR, en-US-u-hc-h23) or POSIX (fr_FR.UTF-8).",
      discussion: "Default: LC_ALL, else LC_TIME, else LANG; C, POSIX, none or one without CLDR data mean en_US_POSIX.",
      valueName: "id"))
  package var locale: String?

  @Option(
    help: ArgumentHelp(
      "The viewer's time zone: IANA (Europe/Paris) or a fixed offset (GMT+05:30).",
      discussion: "Default: TZ (POSIX), else the system's.",
      valueName: "id"))
  package var timeZone: String?

  @Option(
    help: ArgumentHelp(
      "Force a 12- or 24-hour clock instead of the locale's.",
      valueName: FormattingSettings.hourCycles.map(\.description).joined(by: "|")))
  package var hourCycle: String?

  @Option(help: ArgumentHelp("Cut previews to N grapheme clusters, ending in '…'.", valueName: "N"))
  package var previewLength: String?

  @Option(
    help: ArgumentHelp(
      "The keys of each row, in order, separated by commas.",
      discussion: """
        default stands for \(RowField.defaults.map(\.name).joined(by: ",")); the others are \
        \(FormattingSettings.optionalFieldNames). Default: default.
        """,
      valueName: "list"))
  package var fields: String?

  @Option(
    help: ArgumentHelp(
      "How dates are worded: standard (9:45 AM, Tuesday, 1/3/22), compact (Tue, Jan 3) or relative (Now, 5 min. ago).",
      valueName: DateStyle.all.map(\.name).joined(by: "|")))
  package var dateStyle: String?

  @Option(
    help: ArgumentHelp(
      "Show unread counts above N as N+ in unreadBadge (default \(FormattingContext.defaultBadgeLimit)).",
      valueName: "N"))
  package var badgeLimit: String?

  package init() {}

  /// The value given for the option of setting `name`: what `settings`
  /// reads, and what ``ArgumentShortcut`` sets. Two switches rather than a
  /// key path per setting, since a key path's first use costs a
  /// conformance scan at every start.
  subscript(name: FormattingSettings.Name) -> String? {
    get {
      switch name {
      case .locale: locale
      case .timeZone: timeZone
      case .now: now
      case .hourCycle: hourCycle
      case .previewLength: previewLength
      case .fields: fields
      case .dateStyle: dateStyle
      case .badgeLimit: badgeLimit
      }
    }
    set {
      switch name {
      case .locale: locale = newValue
      case .timeZone: timeZone = newValue
      case .now: now = newValue
      case .hourCycle: hourCycle = newValue
      case .previewLength: previewLength = newValue
      case .fields: fields = newValue
      case .dateStyle: dateStyle = newValue
      case .badgeLimit: badgeLimit = newValue
      }
    }
  }

  package func validate() throws {
    // Refused before anything starts; the locale and the zone are read once,
    // when the context is made (reading them asks ICU).
    _ = try settings(reading: { $0 != .locale && $0 != .timeZone })
  }

  /// The settings given as options, each read by its one parser
  /// (``FormattingSettings``); a usage error (exit 64) names the option and
  /// quotes the value.
  func settings(reading wanted: (FormattingSettings.Name) -> Bool = { _ in true }) throws -> FormattingSettings {
    var settings = FormattingSettings()
    for name in FormattingSettings.Name.allCases where wanted(name) {
      if let value = self[name] { try usable(settings.read(name, value), name.option) }
    }
    return settings
  }

  /// The keys `--fields` names, else the default ones.
  func rowFields() throws -> [RowField] {
    try settings(reading: { $0 == .fields }).fields ?? RowField.defaults
  }

  /// The formatting context these options and `environment` describe: the
  /// options, else the environment's locale, zone and clock.
  ///
  /// Throws `ValidationError` (exit 64) for a value that cannot be used.
  package func context(environment: ProcessEnvironment) throws -> FormattingContext {
    var settings = try settings()
    let base = FormattingContext(
      now: try settings.now ?? sourceDateEpoch(environment) ?? environment.clock(),
      locale: settings.locale ?? LocaleName.environmentLocale { environment[$0] },
      timeZone: try settings.timeZone ?? environmentTimeZone(environment))
    // The locale and the zone are in place, the calendar made for the locale.
    (settings.locale, settings.timeZone) = (nil, nil)
    return settings.applied(to: base)
  }

  /// The instant `--now` or `SOURCE_DATE_EPOCH` freezes the clock at, or nil
  /// when neither does and the clock runs.
  package func frozenNow(environment: ProcessEnvironment) throws -> Date? {
    try settings(reading: { $0 == .now }).now ?? sourceDateEpoch(environment)
  }

  /// The instant `SOURCE_DATE_EPOCH` gives, or nil when it is not set.
  private func sourceDateEpoch(_ environment: ProcessEnvironment) throws -> Date? {
    guard let epoch = environment["SOURCE_DATE_EPOCH"], !epoch.isEmpty else { return nil }
    return try usable(Instant.sourceDateEpoch(epoch), "SOURCE_DATE_EPOCH=")
  }

  /// `TZ`'s zone, else the system's.
  private func environmentTimeZone(_ environment: ProcessEnvironment) throws -> TimeZone {
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
