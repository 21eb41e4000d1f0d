import InboxFormat
import InboxFormatSupport

/// A setting that cannot be used: a value given as a command-line option, a
/// query parameter or an environment variable.
///
/// Each front end names the setting its own way (`--time-zone`, `timeZone`,
/// `TZ=`); ``message(naming:)`` puts the name before the quoted value and
/// the problem, on one line:
///
/// ```
/// --time-zone "Mars/Olympus" is not a known time zone; expected an IANA zone such as Europe/Paris, or GMT+05:30
/// ```
package enum OptionError: Error, Sendable, Hashable {
  /// Not the form of a locale name (BCP 47 or POSIX).
  case malformedLocale(String)
  /// A locale whose language has no CLDR data: its labels would come from
  /// whatever locale the process has, so it is refused.
  case localeWithoutData(String, language: String)
  /// A locale whose region is not an ISO 3166 or UN M.49 region.
  case unknownRegion(String, region: String)
  /// No time zone has this id.
  case unknownTimeZone(String)
  /// A fixed offset beyond the ±14 hours that any place on Earth uses.
  case offsetOutOfRange(String)
  /// A POSIX `TZ` string with rules for daylight saving time, which only an
  /// IANA zone gives reliably.
  case posixDaylightSavingRule(String)
  /// A `TZ` naming a file that is not in a zoneinfo directory.
  case zoneFileOutsideZoneinfo(String)
  /// Not an instant: RFC 3339, or `@` and decimal seconds since 1970.
  case malformedInstant(String, reason: String)
  /// A number out of its range or not a number.
  case badNumber(String, expected: String)
  /// A word that is none of the ones a setting takes.
  case notOneOf(String, expected: String)
  /// A field list with a name that is not a row's key.
  case unknownField(String, field: String)
  /// A field list that names a field twice (`default` names six).
  case repeatedField(String, field: String)
  /// A field list with an empty name: nothing, or two commas in a row.
  case emptyField(String)

  /// The value as it was given.
  package var value: String {
    switch self {
    case .malformedLocale(let value), .localeWithoutData(let value, _), .unknownRegion(let value, _),
      .unknownTimeZone(let value), .offsetOutOfRange(let value), .posixDaylightSavingRule(let value),
      .zoneFileOutsideZoneinfo(let value), .malformedInstant(let value, _), .badNumber(let value, _),
      .notOneOf(let value, _), .unknownField(let value, _), .repeatedField(let value, _), .emptyField(let value):
      value
    }
  }

  /// What is wrong with the value and what would do.
  package var problem: String {
    switch self {
    case .malformedLocale:
      "is not a locale name; expected a BCP 47 tag such as fr-FR or en-US-u-hc-h23, or a POSIX name such as fr_FR.UTF-8"
    case .localeWithoutData(_, let language):
      "is not a locale with CLDR data (no data for the language \(quoted(language))); expected e.g. fr-FR or ja-JP"
    case .unknownRegion(_, let region):
      "is not a known locale: \(quoted(region)) is not a region; expected e.g. fr-FR or es-419"
    case .unknownTimeZone:
      "is not a known time zone; expected an IANA zone such as Europe/Paris, or GMT+05:30"
    case .offsetOutOfRange:
      "is out of range; UTC offsets run from -14:00 to +14:00"
    case .posixDaylightSavingRule:
      "has POSIX daylight saving rules, which are not supported; expected an IANA zone such as Europe/Paris"
    case .zoneFileOutsideZoneinfo:
      "is not a file in a zoneinfo directory; expected an IANA zone such as Europe/Paris"
    case .malformedInstant(_, let reason):
      "is not an instant: \(reason); expected an RFC 3339 date-time such as 2022-01-31T12:00:00Z, or @ and seconds since 1970 such as @1643630400"
    case .badNumber(_, let expected):
      "is not valid; expected \(expected)"
    case .notOneOf(_, let expected):
      "is not valid; expected \(expected)"
    case .unknownField(_, let field):
      "names \(quoted(field)), which is not a field; expected keys separated by commas among default, "
        + RowField.all.map(\.name).joined(separator: ", ")
    case .repeatedField(_, let field):
      "names \(quoted(field)) twice (default stands for \(RowField.defaults.map(\.name).joined(separator: ","))); expected each key once"
    case .emptyField:
      "has an empty name; expected keys separated by single commas, such as default,unreadBadge"
    }
  }

  /// The one-line message: `name`, the quoted value and the problem.
  /// `name` ends as the setting is written: `--locale` (a space follows) or `TZ=`.
  ///
  /// ```swift
  /// OptionError.unknownTimeZone("Mars").message(naming: "TZ=")
  /// // TZ="Mars" is not a known time zone; expected …
  /// ```
  package func message(naming name: String) -> String {
    let separator = name.hasSuffix("=") ? "" : " "
    return "\(name)\(separator)\(quoted(value)) \(problem)"
  }
}
