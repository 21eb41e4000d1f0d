import ArgumentParser
import Foundation
import InboxFormat

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
      discussion: "Default: LC_ALL, else LC_TIME, else LANG; C and POSIX mean en_US_POSIX.",
      valueName: "id"))
  var locale: String?

  @Option(
    help: ArgumentHelp(
      "The viewer's IANA time zone (Europe/Paris).", discussion: "Default: TZ, else the system's.",
      valueName: "id"))
  var timeZone: String?

  @Option(help: ArgumentHelp("Force a 12- or 24-hour clock instead of the locale's.", valueName: "12|24"))
  var hourCycle: HourCycleArgument?

  @Option(help: ArgumentHelp("Cut previews to N grapheme clusters, ending in '…'.", valueName: "N"))
  var previewLength: Int?

  func validate() throws {
    if let previewLength, previewLength < 1 {
      throw ValidationError("--preview-length must be at least 1, not \(previewLength)")
    }
  }

  /// The formatting context these options and `environment` describe.
  ///
  /// Throws `ValidationError` (exit 64) for a value that cannot be used.
  func context(environment: ProcessEnvironment) throws -> FormattingContext {
    FormattingContext(
      now: try frozenNow(environment: environment) ?? environment.clock(),
      locale: try resolvedLocale(environment: environment),
      timeZone: try resolvedTimeZone(environment: environment),
      hourCycle: hourCycle?.hourCycle,
      previewLength: previewLength)
  }

  /// The instant `--now` or `SOURCE_DATE_EPOCH` freezes the clock at, or nil
  /// when neither does and the clock runs.
  func frozenNow(environment: ProcessEnvironment) throws -> Date? {
    if let now {
      do {
        return try parseInstant(now)
      } catch {
        throw ValidationError("--now \(now.debugDescription): \(error)")
      }
    }
    if let epoch = environment["SOURCE_DATE_EPOCH"], !epoch.isEmpty {
      guard let seconds = Int64(epoch) else {
        throw ValidationError("SOURCE_DATE_EPOCH=\(epoch.debugDescription) is not an integer number of seconds")
      }
      return Date(timeIntervalSince1970: Double(seconds))
    }
    return nil
  }

  private func resolvedLocale(environment: ProcessEnvironment) throws -> Locale {
    if let locale {
      guard let resolved = LocaleName.locale(from: locale) else {
        throw ValidationError("--locale \(locale.debugDescription) is not a known locale; expected e.g. fr-FR or fr_FR.UTF-8")
      }
      return resolved
    }
    // POSIX precedence: the first of these that is set decides, even if it is unusable.
    for name in ["LC_ALL", "LC_TIME", "LANG"] {
      if let value = environment[name], !value.isEmpty {
        return LocaleName.locale(from: value) ?? LocaleName.posix
      }
    }
    return LocaleName.posix
  }

  private func resolvedTimeZone(environment: ProcessEnvironment) throws -> TimeZone {
    if let timeZone {
      guard let zone = TimeZone(identifier: timeZone) else {
        throw ValidationError("--time-zone \(timeZone.debugDescription) is not a known IANA time zone; expected e.g. Europe/Paris")
      }
      return zone
    }
    if var name = environment["TZ"], !name.isEmpty {
      // POSIX allows a leading colon before a zone name.
      if name.hasPrefix(":") { name.removeFirst() }
      guard let zone = TimeZone(identifier: name) else {
        throw ValidationError("TZ=\(name.debugDescription) is not a known IANA time zone; set TZ or pass --time-zone")
      }
      return zone
    }
    return environment.systemTimeZone()
  }
}

/// `--hour-cycle 12|24`.
enum HourCycleArgument: String, ExpressibleByArgument, CaseIterable {
  case twelve = "12"
  case twentyFour = "24"

  var hourCycle: HourCycle { self == .twelve ? .twelveHour : .twentyFourHour }
}

/// Parses `--now`: RFC 3339, or `@` and seconds since 1970 (fractions allowed).
func parseInstant(_ text: String) throws -> Date {
  if text.hasPrefix("@") {
    guard let seconds = Double(text.dropFirst()), seconds.isFinite, abs(seconds) < 1e15 else {
      throw InstantError(reason: "expected @ followed by seconds since 1970, e.g. @1643630400")
    }
    return Date(timeIntervalSince1970: seconds)
  }
  return try Date(rfc3339: text)
}

private struct InstantError: Error, CustomStringConvertible {
  var reason: String
  var description: String { reason }
}
