// One clean line: what a row's title and preview are made of. The rule is
// stated here scalar by scalar; the engine answers it from UTF-8 bytes
// (Engine/Accelerators/LineBytes.swift), and tests hold the two together.

/// How a scalar takes part in a line of a row.
enum LineRole: Equatable, Sendable {
  /// Shown as it is.
  case kept
  /// Whitespace (Unicode White_Space: spaces, tabs, line and paragraph
  /// breaks): a run of it becomes one space, and none is kept at the ends.
  case whitespace
  /// Left out: a control character (Cc) that is not whitespace, or a bidi
  /// embedding, override or isolate control.
  case removed
}

/// The role of `scalar` in a line of a row.
func lineRole(of scalar: Unicode.Scalar) -> LineRole {
  if scalar.properties.isWhitespace { return .whitespace }
  if scalar.properties.generalCategory == .control || isBidiControl(scalar) { return .removed }
  return .kept
}

/// Makes `text` a single clean line: control characters and bidi controls
/// are removed, every run of whitespace becomes one space, and the ends are
/// trimmed (``lineRole(of:)``).
///
/// Removal happens first, so `"a \u{0} b"` gives `"a b"`, not `"a  b"`.
///
/// ```swift
/// singleLine("  Hello\n\n\tworld \u{202E}!  ")  // "Hello world !"
/// ```
func singleLine(_ text: String) -> String {
  var line = String.UnicodeScalarView()
  var pendingSpace = false
  for scalar in text.unicodeScalars {
    switch lineRole(of: scalar) {
    case .whitespace:
      pendingSpace = !line.isEmpty
    case .removed:
      continue
    case .kept:
      if pendingSpace {
        line.append(" ")
        pendingSpace = false
      }
      line.append(scalar)
    }
  }
  return String(line)
}

/// Bidi embedding, override and isolate controls (U+202A–U+202E, U+2066–U+2069).
///
/// Inside a row they would reorder what follows them, so a name could make
/// the rest of the row read right to left; the row's text never keeps them.
/// Isolates are removed too: unpaired, they spoof the same way.
func isBidiControl(_ scalar: Unicode.Scalar) -> Bool {
  switch scalar.value {
  case 0x202A...0x202E, 0x2066...0x2069: true
  default: false
  }
}

/// The preview of a message: its text as one clean line, cut to `length`
/// grapheme clusters when there is a limit (``truncated(_:to:)``).
func preview(_ text: String, length: Int?) -> String {
  let line = singleLine(text)
  return length.map { truncated(line, to: $0) } ?? line
}

/// Cuts `line` to at most `limit` grapheme clusters, the last one being `…`
/// when anything was cut. Whitespace before the ellipsis is dropped.
///
/// ```swift
/// truncated("Hello world", to: 7)  // "Hello…"
/// ```
func truncated(_ line: String, to limit: Int) -> String {
  // A cluster has at least one byte: short texts need no counting.
  guard limit > 0, line.utf8.count > limit, line.count > limit else { return line }
  var kept = line.prefix(limit - 1)
  while let last = kept.last, last.isWhitespace { kept.removeLast() }
  return kept + "…"
}
