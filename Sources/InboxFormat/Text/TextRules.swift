import Foundation

// The text rules of a row: one line, no control characters, initials and a
// title that read right in every script. They are pure functions of their
// input and the locale, so the mapper and the tests call them directly.

/// The initial of one name: its first grapheme cluster that begins with a
/// letter or a digit, title-cased with the locale (Turkish `i` gives `İ`;
/// Georgian has no title case and stays as written), combining marks kept.
///
/// Returns nil when the name has no such grapheme. A title case mapping that
/// would make two graphemes (`ß` → `Ss`) keeps the letter as written, so an
/// initial is always one grapheme.
func initial(of name: some StringProtocol, locale: Locale) -> String? {
  guard let grapheme = name.first(where: { $0.unicodeScalars.first.map(isLetterOrDigit) ?? false }) else {
    return nil
  }
  let titlecased = String(grapheme).capitalized(with: locale)
  return titlecased.count == 1 ? titlecased : String(grapheme)
}

private func isLetterOrDigit(_ scalar: Unicode.Scalar) -> Bool {
  switch scalar.properties.generalCategory {
  case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
    .decimalNumber, .letterNumber, .otherNumber:
    true
  default:
    false
  }
}

/// The avatar initials: the first name's initial then the last name's, or
/// `?` when neither name has one.
///
/// ```swift
/// initials(firstname: "alexander", lastname: "(Anderson)", locale: Locale(identifier: "en"))  // "AA"
/// ```
func initials(firstname: some StringProtocol, lastname: some StringProtocol, locale: Locale) -> String {
  let letters = [initial(of: firstname, locale: locale), initial(of: lastname, locale: locale)].compactMap { $0 }
  return letters.isEmpty ? "?" : letters.joined()
}

/// The row title from cleaned names: `first last`, or `lastfirst` when both
/// are written in Han, Hiragana, Katakana or Hangul (`山田` + `太郎` gives
/// `山田太郎`); one name alone; else the phone number; else `placeholder`.
///
/// The names and the phone number must already be single lines.
func title(firstname: String, lastname: String, phoneNumber: String, placeholder: String) -> String {
  switch (firstname.isEmpty, lastname.isEmpty) {
  case (false, false):
    return isWrittenFamilyNameFirst(firstname) && isWrittenFamilyNameFirst(lastname)
      ? lastname + firstname : firstname + " " + lastname
  case (false, true): return firstname
  case (true, false): return lastname
  case (true, true): return phoneNumber.isEmpty ? placeholder : phoneNumber
  }
}

/// Whether a name is written only in scripts whose names put the family name
/// first (Han, Hiragana, Katakana, Hangul), with at least one letter.
func isWrittenFamilyNameFirst(_ name: String) -> Bool {
  var hasLetter = false
  for scalar in name.unicodeScalars {
    guard isFamilyNameFirstScript(scalar) else { return false }
    hasLetter = hasLetter || isLetterOrDigit(scalar)
  }
  return hasLetter
}

private func isFamilyNameFirstScript(_ scalar: Unicode.Scalar) -> Bool {
  let value = scalar.value
  // The table is sorted: binary search for the last range starting at or before `value`.
  var low = 0
  var high = familyNameFirstScriptRanges.count
  while low < high {
    let middle = (low + high) / 2
    if familyNameFirstScriptRanges[middle].lowerBound <= value { low = middle + 1 } else { high = middle }
  }
  return low > 0 && familyNameFirstScriptRanges[low - 1].contains(value)
}
