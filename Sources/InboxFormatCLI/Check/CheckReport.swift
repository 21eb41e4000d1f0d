import InboxFormat
import InboxFormatOptions

/// How `check` writes its lines: colour on a terminal, unless `NO_COLOR`
/// is set or `TERM` is `dumb`.
struct CheckReport {
  var color: Bool

  private func paint(_ text: String, _ code: String) -> String {
    color ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
  }

  /// One difference, on one line: row, id, key, expected, got.
  func line(_ difference: RowDifference, strict: Bool) -> String {
    let place = "row \(difference.row)" + (difference.id.map { ", id \($0.shown)" } ?? "")
    switch difference.kind {
    case .field(let key, let expected, let got, let onlySpacing):
      let values = "expected \(paint(expected.shown, "31")), got \(paint(got?.shown ?? "no such key", "32"))"
      let note =
        onlySpacing
        ? (strict ? " (only spaces or bidi marks differ)" : paint(" only spaces or bidi marks differ;", "33")) : ""
      return onlySpacing && !strict ? "\(place): \(key):\(note) \(values)" : "\(place): \(key): \(values)\(note)"
    case .missingRow:
      return "\(place): \(paint("missing", "31")) from the payload's rows"
    case .unexpectedRow:
      return "payload \(place): \(paint("not in EXPECTED", "32"))"
    }
  }
}
