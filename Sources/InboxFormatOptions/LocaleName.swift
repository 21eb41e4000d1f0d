package import Foundation

/// Turns the locale names people, environments and requests use into
/// locales whose labels come from CLDR data, never from the process.
///
/// A name is a BCP 47 tag (`fr-FR`, `en-US-u-hc-h23`, `th-TH-u-nu-thai`) or
/// a POSIX locale name (`fr_FR.UTF-8`, `de_DE@euro`, `sr_RS@latin`, `C`).
/// It is refused when ICU cannot read it, when its language has no CLDR
/// data (ICU would then take the process's default locale, so labels would
/// follow `LANG`), when its region is not a region, or when it asks for a
/// calendar, numbering system or hour cycle ICU does not have.
package enum LocaleName {
  /// The locale of `LANG=C`, of `POSIX`, and of an environment that names none or an unusable one.
  package static let posix = Locale(identifier: "en_US_POSIX")

  /// The longest name read: longer ones are not locale names.
  static let longestName = 256

  /// The locale `name` names, or why it cannot be used.
  package static func locale(from name: String) throws(OptionError) -> Locale {
    guard !name.isEmpty, name.utf8.count <= longestName,
      name.unicodeScalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || nameSymbols.contains($0) || ("0"..."9").contains($0)) })
    else { throw .malformedLocale(name) }
    var identifier = Substring(name)
    // POSIX: language[_territory][.codeset][@modifier]; the codeset says
    // nothing about formats, and of the modifiers only a script does
    // (sr_RS@latin is Serbian in Latin letters, not the Cyrillic default).
    var script: String?
    // A BCP 47 tag has neither "." nor "@"; a codeset may have "-" (ISO-8859-15).
    if !identifier.contains("-") || identifier.contains(".") || identifier.contains("@") {
      if let at = identifier.firstIndex(of: "@") {
        script = posixScriptModifiers[identifier[identifier.index(after: at)...].lowercased()]
        identifier = identifier[..<at]
      }
      if let dot = identifier.firstIndex(of: ".") { identifier = identifier[..<dot] }
    }
    if identifier == "C" || identifier == "POSIX" { return posix }
    let subtags = identifier.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "-" || $0 == "_" })
    guard let language = subtags.first, (2...3).contains(language.count), language.allSatisfy(\.isLetter),
      subtags.allSatisfy({ (1...8).contains($0.count) })
    else { throw .malformedLocale(name) }
    if let script {
      identifier = Substring(([String(language), script] + subtags.dropFirst().map(String.init)).joined(separator: "_"))
    }
    let locale = Locale(identifier: Locale.identifier(.bcp47, from: String(identifier)))
    // A tag ICU cannot read (a malformed extension: `th-t-nu0nu`) would be
    // formatted as less than it says.
    guard locale.isReadByICU else { throw .malformedLocale(name) }
    let components = Locale.Components(locale: locale)
    guard let code = components.languageComponents.languageCode?.identifier, languagesWithData.contains(code) else {
      throw .localeWithoutData(name, language: String(language))
    }
    if let region = components.languageComponents.region, !Locale.Region.isoRegions.contains(region) {
      throw .unknownRegion(name, region: region.identifier)
    }
    try checkKeywords(of: locale, name: name)
    return locale
  }

  /// The locale the environment names: the first of `LC_ALL`, `LC_TIME` and
  /// `LANG` that is set and not empty decides, as for C programs; an
  /// unusable one, or none, gives ``posix``.
  package static func environmentLocale(_ variable: (String) -> String?) -> Locale {
    for name in ["LC_ALL", "LC_TIME", "LANG"] {
      if let value = variable(name), !value.isEmpty {
        return (try? locale(from: value)) ?? posix
      }
    }
    return posix
  }

  /// The Unicode extension's calendar, numbering system and hour cycle,
  /// checked against what ICU has; other keywords (`-u-rg-`, `-u-fw-`)
  /// pass as ICU reads them.
  private static func checkKeywords(of locale: Locale, name: String) throws(OptionError) {
    let keywords = unicodeKeywords(in: locale.identifier)
    if let calendar = keywords["ca"], !calendars.contains(calendar) {
      throw .malformedLocale(name)
    }
    if let numbers = keywords["nu"], !Locale.NumberingSystem.availableNumberingSystems.contains(Locale.NumberingSystem(numbers)) {
      throw .malformedLocale(name)
    }
    if let hours = keywords["hc"], !["h11", "h12", "h23", "h24"].contains(hours) {
      throw .malformedLocale(name)
    }
  }

  /// The keywords of the `-u-` extension of a BCP 47 tag: `ca` → `japanese`.
  static func unicodeKeywords(in tag: String) -> [String: String] {
    let subtags = tag.lowercased().split(separator: "-").map(String.init)
    guard let start = subtags.firstIndex(of: "u") else { return [:] }
    var keywords: [String: String] = [:]
    var key: String?
    for subtag in subtags[(start + 1)...] {
      if subtag.count == 1 { break }  // the next extension
      if subtag.count == 2 {
        key = subtag
        keywords[subtag] = ""
      } else if let key {
        keywords[key] = keywords[key]!.isEmpty ? subtag : keywords[key]! + "-" + subtag
      }
    }
    return keywords
  }

  /// CLDR's calendar identifiers that Foundation has.
  private static let calendars: Set<String> = [
    "buddhist", "chinese", "coptic", "dangi", "ethioaa", "ethiopic", "gregory", "hebrew", "indian", "islamic",
    "islamic-civil", "islamic-tbla", "islamic-umalqura", "iso8601", "japanese", "persian", "roc",
  ]

  /// Symbols a locale name may hold: BCP 47's `-`, POSIX's `_`, `.` and `@`.
  private static let nameSymbols: Set<Unicode.Scalar> = ["-", "_", ".", "@"]

  /// glibc's script modifiers, as ISO 15924 codes.
  private static let posixScriptModifiers = [
    "latin": "Latn", "cyrillic": "Cyrl", "devanagari": "Deva", "arabic": "Arab",
  ]

  /// The languages ICU has CLDR data for.
  private static let languagesWithData = Set(
    Locale.availableIdentifiers.compactMap { Locale.Components(identifier: $0).languageComponents.languageCode?.identifier })
}
