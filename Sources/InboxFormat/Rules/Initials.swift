import Foundation

// The avatar's initials, in every script.

/// The initial of one name: its first grapheme cluster that begins with a
/// letter or a digit, title-cased with the locale (Turkish `i` gives `İ`;
/// Greek keeps its accent, `ά` gives `Ά`; Georgian has no title case and
/// stays as written).
///
/// The whole grapheme is kept, so a letter keeps its combining marks, a
/// Devanagari or Bengali conjunct its virama and vowel signs (`क्ष`, `श्री`),
/// a Thai consonant its vowel and tone marks (`สิ`) and a Hebrew letter its
/// points. Skipped: spaces, punctuation, symbols and emoji (keycaps such as
/// `1️⃣` included), and the Thai and Lao vowels written before the consonant
/// they follow in speech (`เอก` gives `อ`). A grapheme of more than 31
/// scalars (stacked marks, "Zalgo" text) keeps its first 31, the longest
/// sequence Unicode's stream-safe format allows.
///
/// Returns nil when the name has no such grapheme. A title case mapping that
/// would make two graphemes (`ß` → `Ss`) keeps the letter as written, so an
/// initial is always one grapheme.
func initial(of name: some StringProtocol, locale: Locale) -> String? {
  guard let grapheme = name.first(where: isInitialCandidate) else { return nil }
  var scalars = grapheme.unicodeScalars
  if scalars.count > maximumInitialScalars {
    scalars = Character.UnicodeScalarView(scalars.prefix(maximumInitialScalars))
  }
  let letter = String(scalars)
  // A letter without case (Han, Kana, Hangul, Arabic…) is its own title case
  // in every locale; asking ICU would load a word-break dictionary for it.
  if !scalars.contains(where: \.properties.changesWhenCaseMapped) { return letter }
  let titlecased = letter.capitalized(with: locale)
  return titlecased.count == 1 ? titlecased : letter
}

/// A starter and 30 non-starters: UAX #15's stream-safe limit.
private let maximumInitialScalars = 31

private func isInitialCandidate(_ grapheme: Character) -> Bool {
  guard let first = grapheme.unicodeScalars.first, beginsInitial(first) else { return false }
  // A keycap (1️⃣) is an emoji that happens to start with a digit.
  return !grapheme.unicodeScalars.contains("\u{20E3}")
}

/// Whether a grapheme starting with `scalar` can be an initial: a letter or
/// a digit that is seen. Not the Thai เ แ โ ใ ไ, Lao ເ ແ ໂ ໃ ໄ and their
/// kin, written first but read after the consonant (the consonant is the
/// initial), nor an invisible letter such as the HANGUL FILLER (U+3164).
func beginsInitial(_ scalar: Unicode.Scalar) -> Bool {
  isLetterOrDigit(scalar) && !scalar.properties.isLogicalOrderException
    && !scalar.properties.isDefaultIgnorableCodePoint
}

/// Whether `scalar` is a letter or a number (Unicode L* or N*).
func isLetterOrDigit(_ scalar: Unicode.Scalar) -> Bool {
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
/// Names written family name first (both in Han, Kana or Hangul, as for the
/// title) give one initial, the family name's: `王` for 王小明, `山` for
/// 山田太郎, `김` for 김민준. Two such characters would read as a word, not as
/// initials. Two initials in a cursive script (Arabic, Syriac, N'Ko,
/// Mongolian…) are separated by a ZERO WIDTH NON-JOINER, which keeps them
/// from joining into one shape (`م\u{200C}ا`, not `ما`); it is a grapheme extender,
/// so the initials stay two graphemes.
///
/// ```swift
/// initials(firstname: "alexander", lastname: "(Anderson)", locale: Locale(identifier: "en"))  // "AA"
/// initials(firstname: "محمد", lastname: "أحمد", locale: Locale(identifier: "ar"))  // "م\u{200C}أ"
/// ```
func initials(firstname: some StringProtocol, lastname: some StringProtocol, locale: Locale) -> String {
  if isWrittenFamilyNameFirst(firstname: String(firstname), lastname: String(lastname)) {
    return initial(of: lastname, locale: locale) ?? "?"
  }
  return combinedInitials(initial(of: firstname, locale: locale), initial(of: lastname, locale: locale))
}

/// The avatar initials from each name's initial (nil when it has none): both,
/// with a ZERO WIDTH NON-JOINER between two of a cursive script; one; or `?`.
func combinedInitials(_ first: String?, _ last: String?) -> String {
  switch (first, last) {
  case (let first?, let last?):
    func joins(_ initial: String) -> Bool { initial.unicodeScalars.first.map(isJoiningScriptLetter) ?? false }
    return joins(first) && joins(last) ? first + "\u{200C}" + last : first + last
  case (let only?, nil), (nil, let only?):
    return only
  case (nil, nil):
    return "?"
  }
}

/// Whether `scalar` is in ``joiningScriptLetterRanges``. Below the first
/// range, which most initials are, the table is not looked at, so a run
/// that meets no cursive script never makes it (an array of ranges is a
/// type the runtime makes when first used, at the cost of a search of
/// every conformance record).
private func isJoiningScriptLetter(_ scalar: Unicode.Scalar) -> Bool {
  scalar.value >= firstJoiningScriptLetter && joiningScriptLetterRanges.containsScalar(scalar)
}

/// Where ``joiningScriptLetterRanges`` starts: ARABIC LETTER KASHMIRI YEH.
let firstJoiningScriptLetter: UInt32 = 0x0620
