// The row's title: who the message is from, never blank.

/// What a title shows, in order: the title rule's choice among the names,
/// the phone number and the placeholder. `Text` is how its parts are held:
/// strings, or (in the engine) the input's own bytes.
enum Title<Text> {
  /// Both names: `first last`, or `lastfirst` when both are written family
  /// name first (``isWrittenFamilyNameFirst(_:)``).
  case names(first: Text, last: Text, familyNameFirst: Bool)
  /// One name, or the phone number.
  case single(Text)
  /// Neither a name nor a phone number: the context's placeholder.
  case placeholder(String)

  /// The title rule, over parts that are already shown as they are
  /// (``shown(_:)``; nil for a part with nothing to show): both names, else
  /// the one there is, else the phone number, else `placeholder`.
  /// `familyNameFirst` is asked only when there are both names.
  init(
    firstname: Text?, lastname: Text?, phoneNumber: Text?, placeholder: String,
    familyNameFirst: (Text, Text) -> Bool
  ) {
    switch (firstname, lastname) {
    case (let first?, let last?): self = .names(first: first, last: last, familyNameFirst: familyNameFirst(first, last))
    case (let only?, nil), (nil, let only?): self = .single(only)
    case (nil, nil): self = phoneNumber.map { .single($0) } ?? .placeholder(placeholder)
    }
  }

  /// What the title's text is made of, in order: a part, a space between
  /// two names, or the placeholder.
  enum Piece {
    case part(Text)
    case space
    case placeholder(String)
  }

  /// Calls `body` with each piece of the title's text, in order.
  @inline(__always)
  func forEachPiece(_ body: (Piece) -> Void) {
    switch self {
    case .names(let first, let last, familyNameFirst: true):
      body(.part(last))
      body(.part(first))
    case .names(let first, let last, familyNameFirst: false):
      body(.part(first))
      body(.space)
      body(.part(last))
    case .single(let text): body(.part(text))
    case .placeholder(let text): body(.placeholder(text))
    }
  }
}

extension Title where Text == String {
  /// The title's text, the title given up for it: a single part is handed
  /// over as it is.
  consuming func takeText() -> String {
    switch consume self {
    case .single(let text): text
    case let title: title.text
    }
  }

  /// The title's text: its pieces joined.
  var text: String {
    var text = ""
    forEachPiece { piece in
      switch piece {
      case .part(let part): text += part
      case .space: text += " "
      case .placeholder(let placeholder): text += placeholder
      }
    }
    return text
  }
}

/// The title of a message: its first and last name and its phone number
/// each shown as one clean line (``shown(_:)``), then the title rule.
///
/// ```swift
/// title(firstname: "太郎", lastname: " 山田\n", phoneNumber: "", placeholder: "Unknown").text  // "山田太郎"
/// title(firstname: "\u{200B}", lastname: "", phoneNumber: "+33 6 56", placeholder: "Unknown").text  // "+33 6 56"
/// ```
func title(firstname: String, lastname: String, phoneNumber: String, placeholder: String) -> Title<String> {
  Title(
    firstname: shown(firstname), lastname: shown(lastname), phoneNumber: shown(phoneNumber),
    placeholder: placeholder, familyNameFirst: isWrittenFamilyNameFirst(firstname:lastname:))
}

/// A name or a phone number as a title shows it: one clean line
/// (``singleLine(_:)``), or nil when nothing of it is seen
/// (``hasVisibleCharacter(_:)``).
func shown(_ text: String) -> String? {
  let line = singleLine(text)
  return hasVisibleCharacter(line) ? line : nil
}

/// Whether `name` has a character that is seen (``isVisible(_:)``). A name
/// without one counts as no name, so that a title never looks blank.
func hasVisibleCharacter(_ name: String) -> Bool {
  name.unicodeScalars.contains(where: isVisible)
}

/// Whether `scalar` is seen: it is not whitespace, not default-ignorable
/// (zero-width spaces and joiners, the soft hyphen, word joiners, the
/// Hangul fillers, variation selectors, tags), and not U+2800 BRAILLE
/// PATTERN BLANK, a symbol that draws nothing.
func isVisible(_ scalar: Unicode.Scalar) -> Bool {
  !scalar.properties.isWhitespace && !scalar.properties.isDefaultIgnorableCodePoint && scalar != "\u{2800}"
}

/// Whether two names are written family name first: both in scripts whose
/// names put it first (``isWrittenFamilyNameFirst(_:)``). Their title is the
/// last name then the first, with no space between (`山田太郎`), and their
/// initials are the family name's alone (``initials(firstname:lastname:locale:)``).
func isWrittenFamilyNameFirst(firstname: String, lastname: String) -> Bool {
  isWrittenFamilyNameFirst(firstname) && isWrittenFamilyNameFirst(lastname)
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
  familyNameFirstScriptRanges.containsScalar(scalar)
}
