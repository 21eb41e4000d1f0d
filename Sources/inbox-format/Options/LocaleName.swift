import Foundation

/// Turns the locale names people and environments use into locales.
enum LocaleName {
  /// The locale of `LANG=C` and of an environment that names none.
  static let posix = Locale(identifier: "en_US_POSIX")

  /// The locale named by a BCP 47 tag (`fr-FR`, `en-US-u-hc-h23`) or a POSIX
  /// locale name (`fr_FR.UTF-8`, `de_DE@euro`, `C`), or nil when its language
  /// is not one ICU knows.
  static func locale(from name: String) -> Locale? {
    var identifier = Substring(name)
    // POSIX: language[_territory][.codeset][@modifier]; the codeset and the
    // modifier say nothing about formats.
    if !identifier.contains("-") {
      if let at = identifier.firstIndex(of: "@") { identifier = identifier[..<at] }
      if let dot = identifier.firstIndex(of: ".") { identifier = identifier[..<dot] }
    }
    if identifier == "C" || identifier == "POSIX" { return posix }
    guard !identifier.isEmpty else { return nil }
    let locale = Locale(identifier: String(identifier))
    guard let language = locale.language.languageCode?.identifier,
      knownLanguages.contains(language)
    else { return nil }
    return locale
  }

  private static let knownLanguages = Set(Locale.LanguageCode.isoLanguageCodes.map(\.identifier))
}
