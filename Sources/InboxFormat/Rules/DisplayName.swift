import Foundation

// The initials and title of a message whose sender has one display name
// ("Jane Doe", "Cher", "山田太郎") instead of a first and a last name.

/// The avatar initials of a display name: the initial of its first word and
/// of its last word, under the same rules as a first and a last name
/// (``initials(firstname:lastname:locale:)``).
///
/// Words are separated by whitespace. A name of one word gives one initial.
/// A name written only in scripts that put the family name first (Han,
/// Kana, Hangul) gives one initial, its first word's: that is where the
/// family name is (`山田太郎` and `山田 太郎` both give `山`). Two initials in
/// a cursive script are kept apart by a ZERO WIDTH NON-JOINER, as for two
/// names.
///
/// ```swift
/// initials(displayName: "Jane Doe", locale: Locale(identifier: "en"))  // "JD"
/// initials(displayName: "Jane van der Berg", locale: Locale(identifier: "en"))  // "JB"
/// initials(displayName: "Cher", locale: Locale(identifier: "en"))  // "C"
/// initials(displayName: "山田 太郎", locale: Locale(identifier: "ja"))  // "山"
/// ```
func initials(displayName: String, locale: Locale) -> String {
  let words = displayName.split(whereSeparator: \.isWhitespace)
  guard let first = words.first, let last = words.last else { return "?" }
  if words.count == 1 || words.allSatisfy({ isWrittenFamilyNameFirst(String($0)) }) {
    return initial(of: first, locale: locale) ?? "?"
  }
  return combinedInitials(initial(of: first, locale: locale), initial(of: last, locale: locale))
}

/// The title of a display name: the name as one clean line (``shown(_:)``),
/// else the phone number, else `placeholder`.
///
/// ```swift
/// title(displayName: " Jane\nDoe ", phoneNumber: "", placeholder: "Unknown").text  // "Jane Doe"
/// title(displayName: "\u{200B}", phoneNumber: "+33 6 56", placeholder: "Unknown").text  // "+33 6 56"
/// ```
func title(displayName: String, phoneNumber: String, placeholder: String) -> Title<String> {
  Title(
    firstname: shown(displayName), lastname: nil, phoneNumber: shown(phoneNumber), placeholder: placeholder,
    familyNameFirst: { _, _ in false })
}

/// The initials and the title of a display name and a phone number: the
/// two rules above, the initials taken from the name as its title shows it.
func names(displayName: String, phoneNumber: String, placeholder: String, locale: Locale)
  -> (initials: String, title: Title<String>)
{
  let initials = initials(displayName: shown(displayName) ?? "", locale: locale)
  return (initials, title(displayName: displayName, phoneNumber: phoneNumber, placeholder: placeholder))
}
