import Foundation

// The text rules of a row: one line, no control characters, initials and a
// title that read right in every script. They are pure functions of their
// input and the locale, so the mapper and the tests call them directly.

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

/// Whether `name` has a character that is seen: one that is neither
/// whitespace nor default-ignorable (zero-width spaces and joiners, the
/// soft hyphen, word joiners, fillers, variation selectors, tags). A name
/// without one counts as no name, so that a title never looks blank.
func hasVisibleCharacter(_ name: String) -> Bool {
  name.unicodeScalars.contains(where: isVisible)
}

/// ``hasVisibleCharacter(_:)`` of a name's UTF-8 bytes: most names start
/// with a printable ASCII character, which answers at once.
func hasVisibleCharacter(_ name: UnsafeBufferPointer<UInt8>) -> Bool {
  if let first = name.first, first > 0x20, first < 0x7F { return true }
  return String(decoding: name, as: UTF8.self).unicodeScalars.contains(where: isVisible)
}

private func isVisible(_ scalar: Unicode.Scalar) -> Bool {
  !scalar.properties.isWhitespace && !scalar.properties.isDefaultIgnorableCodePoint
}

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
  if isWrittenFamilyNameFirst(String(firstname)) && isWrittenFamilyNameFirst(String(lastname)) {
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

/// The row title from cleaned names: `first last`, or `lastfirst` when both
/// are written in Han, Hiragana, Katakana or Hangul (`山田` + `太郎` gives
/// `山田太郎`); one name alone; else the phone number; else `placeholder`.
///
/// The names and the phone number must already be single lines.
func title(firstname: String, lastname: String, phoneNumber: String, placeholder: String) -> String {
  let source = TitleSource(
    hasFirstname: !firstname.isEmpty, hasLastname: !lastname.isEmpty, hasPhoneNumber: !phoneNumber.isEmpty,
    familyNameFirst: { isWrittenFamilyNameFirst(firstname) && isWrittenFamilyNameFirst(lastname) })
  return source.title(firstname: firstname, lastname: lastname, phoneNumber: phoneNumber, placeholder: placeholder)
}

/// What a title is made of: the rule of ``title(firstname:lastname:phoneNumber:placeholder:)``,
/// kept apart from the text so that rows written from bytes follow it too.
enum TitleSource: Equatable {
  /// Both names, in this order, with a space unless family name first.
  case names(familyNameFirst: Bool)
  case firstname, lastname, phoneNumber, placeholder

  /// `familyNameFirst` is asked only when there are both names.
  init(hasFirstname: Bool, hasLastname: Bool, hasPhoneNumber: Bool, familyNameFirst: () -> Bool) {
    switch (hasFirstname, hasLastname) {
    case (true, true): self = .names(familyNameFirst: familyNameFirst())
    case (true, false): self = .firstname
    case (false, true): self = .lastname
    case (false, false): self = hasPhoneNumber ? .phoneNumber : .placeholder
    }
  }

  func title(firstname: String, lastname: String, phoneNumber: String, placeholder: String) -> String {
    switch self {
    case .names(familyNameFirst: true): joined(lastname, firstname)
    case .names(familyNameFirst: false): joined(firstname, lastname, separator: 0x20)
    case .firstname: firstname
    case .lastname: lastname
    case .phoneNumber: phoneNumber
    case .placeholder: placeholder
    }
  }
}

/// `first`, `separator` and `second` in one string, copied byte for byte in
/// one allocation (appending to a String goes through far more machinery).
private func joined(_ first: String, _ second: String, separator: UInt8? = nil) -> String {
  var (first, second) = (first, second)
  return first.withUTF8 { first in
    second.withUTF8 { second in
      let count = first.count + (separator == nil ? 0 : 1) + second.count
      return String(unsafeUninitializedCapacity: count) { buffer in
        var end = buffer.initialize(fromContentsOf: first)
        if let separator {
          buffer[end] = separator
          end += 1
        }
        return buffer[end...].initialize(fromContentsOf: second)
      }
    }
  }
}

/// Whether a name is written only in scripts whose names put the family name
/// first (Han, Hiragana, Katakana, Hangul), with at least one letter.
func isWrittenFamilyNameFirst(_ name: String) -> Bool {
  // Below U+1100 only U+00B7 (C2 B7) and two combining marks (CC 85, CC A3)
  // belong to these scripts, and none of them is a letter: a name starting
  // with any other such scalar is not one, whatever follows.
  if let lead = name.utf8.first, lead < 0xE1, lead != 0xC2, lead != 0xCC { return false }
  var hasLetter = false
  for scalar in name.unicodeScalars {
    guard isFamilyNameFirstScript(scalar) else { return false }
    hasLetter = hasLetter || isLetterOrDigit(scalar)
  }
  return hasLetter
}

private func isFamilyNameFirstScript(_ scalar: Unicode.Scalar) -> Bool {
  familyNameFirstScriptRanges.containsScalar(scalar)
}

private func isJoiningScriptLetter(_ scalar: Unicode.Scalar) -> Bool {
  joiningScriptLetterRanges.containsScalar(scalar)
}

extension [ClosedRange<UInt32>] {
  /// Whether a sorted table of disjoint ranges contains `scalar`.
  package func containsScalar(_ scalar: Unicode.Scalar) -> Bool {
    let value = scalar.value
    // Binary search for the last range starting at or before `value`.
    var low = 0
    var high = count
    while low < high {
      let middle = (low + high) / 2
      if self[middle].lowerBound <= value { low = middle + 1 } else { high = middle }
    }
    return low > 0 && self[low - 1].contains(value)
  }
}
