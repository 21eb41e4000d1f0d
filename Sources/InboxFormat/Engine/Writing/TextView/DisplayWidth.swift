// How many terminal columns text takes, by grapheme cluster: what a terminal
// draws as one character is measured and cut as one.

/// The columns a terminal gives one grapheme cluster: 2 for East Asian wide
/// and fullwidth characters and for emoji, 0 for a cluster of marks and
/// format characters alone, else 1.
///
/// ```swift
/// displayWidth(of: "山" as Character)  // 2
/// displayWidth(of: "👨‍👩‍👧‍👦" as Character)  // 2
/// displayWidth(of: "e\u{301}" as Character)  // 1
/// ```
func displayWidth(of character: Character) -> Int {
  let scalars = character.unicodeScalars
  // Prepended marks (U+0600 …) and combining marks ride on the base; the
  // base decides the width.
  guard let base = scalars.first(where: { !isZeroWidth($0) }) else { return 0 }
  if isWide(base) { return 2 }
  // A text-style symbol asked for as emoji (❤️, 1️⃣) is drawn as an emoji.
  if scalars.contains("\u{FE0F}") && base.properties.isEmoji { return 2 }
  return 1
}

/// The columns of `text`: the sum over its grapheme clusters.
func displayWidth(of text: some StringProtocol) -> Int {
  text.reduce(0) { $0 + displayWidth(of: $1) }
}

/// `text` cut to at most `columns` columns between grapheme clusters, ending
/// in `…` when anything was cut (or `isCutShort` says the text was cut
/// before), and the columns of the result.
///
/// It looks at no more of `text` than it shows, and one cluster past it.
///
/// ```swift
/// cut("山田太郎", toColumns: 5)  // ("山田…", 5)
/// ```
func cut(_ text: String, toColumns columns: Int, isCutShort: Bool = false) -> (text: String, width: Int) {
  guard columns > 0 else { return ("", 0) }
  var width = 0
  // The end and width of the longest start that leaves a column for the ellipsis.
  var ellipsisAt = text.startIndex
  var ellipsisWidth = 0
  var index = text.startIndex
  while index < text.endIndex {
    let next = text.index(after: index)
    width += displayWidth(of: text[index])
    if width > columns { break }
    if width <= columns - 1 { (ellipsisAt, ellipsisWidth) = (next, width) }
    index = next
  }
  if index == text.endIndex && !isCutShort { return (text, width) }
  var kept = text[..<ellipsisAt]
  // As the library cuts previews: no space before the ellipsis.
  while let last = kept.last, last.isWhitespace {
    kept.removeLast()
    ellipsisWidth -= displayWidth(of: last)
  }
  return (kept + "…", ellipsisWidth + 1)
}

private func isZeroWidth(_ scalar: Unicode.Scalar) -> Bool {
  switch scalar.properties.generalCategory {
  case .nonspacingMark, .enclosingMark, .format: true
  default: false
  }
}

private func isWide(_ scalar: Unicode.Scalar) -> Bool {
  wideCodePointRanges.containsScalar(scalar)
}
