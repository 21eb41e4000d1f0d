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
    guard !identifier.isEmpty else { return nil }
    if let script {
      let parts = identifier.split(separator: "_", maxSplits: 1)
      identifier = Substring(([String(parts[0]), script] + parts.dropFirst().map(String.init)).joined(separator: "_"))
    }
    let locale = Locale(identifier: String(identifier))
    guard let language = locale.language.languageCode?.identifier,
      knownLanguages.contains(language)
    else { return nil }
    return locale
  }

  /// glibc's script modifiers, as ISO 15924 codes.
  private static let posixScriptModifiers = [
    "latin": "Latn", "cyrillic": "Cyrl", "devanagari": "Deva", "arabic": "Arab",
  ]

  private static let knownLanguages = Set(Locale.LanguageCode.isoLanguageCodes.map(\.identifier))
}
