/// The inbox as a person would rather read it than JSON: for each message, a
/// row with the unread dot, the initials badge, the title and the date at the
/// right edge, then the preview on a line of its own.
///
/// ```
/// ●  AA  Alexander Anderson                    9:45 AM
///        Hello!! How are you?
/// ```
///
/// Every line fits ``width`` columns, measured by display width (East Asian
/// wide characters and emoji take two) and cut only between grapheme
/// clusters. Text from messages never reaches the terminal as a control
/// character, an escape sequence or a bidi control of its own.
struct InboxTextView: Hashable, Sendable {
  /// The columns every line must fit in.
  var width: Int
  /// Whether to mark up the view with colour and bold (SGR sequences).
  var color: Bool
  /// The most lines to write, or nil for no limit; messages that do not fit
  /// are counted on the last line.
  var height: Int? = nil

  /// Columns before the title: the dot, a space, the badge, a space.
  private static let titleColumn = 7
  private static let badgeWidth = 4

  /// The view of `rows`, each line ending in `\n`.
  func render(_ rows: [MessageUIModel]) -> String {
    guard !rows.isEmpty else { return line([Span("No messages", .secondary)]) }
    var shown = rows[...]
    var overflow: [Span]?
    if let height, rows.count * 2 > height {
      // Two lines per message, and one left to say how many are not shown.
      shown = rows.prefix(max(0, height - 1) / 2)
      overflow = [Span("… \(rows.count - shown.count) more", .secondary)]
    }
    var text = ""
    for row in shown {
      text += line(heading(of: row))
      text +=
        row.message.isEmpty
        ? "\n"
        : line([
          Span(String(repeating: " ", count: Self.titleColumn)),
          Span(field: viewable(row.message).fitted(to: width - Self.titleColumn).text, .secondary),
        ])
    }
    if let overflow { text += line(overflow) }
    return text
  }

  /// Dot, badge, title, then the date against the right edge.
  private func heading(of row: MessageUIModel) -> [Span] {
    let initials = viewable(row.initials).fitted(to: Self.badgeWidth)
    let padding = Self.badgeWidth - initials.width
    let date = viewable(row.date).fitted(to: width)
    let dateWidth = date.width
    // The title gives way first; at least two spaces keep it off the date.
    let title = viewable(row.title).fitted(to: max(0, width - Self.titleColumn - dateWidth - 2))
    let gap = max(2, width - Self.titleColumn - title.width - dateWidth)
    return [
      row.isUnread ? Span("●", .dot) : Span(" "),
      Span(" "),
      Span(String(repeating: " ", count: padding / 2), .badge),
      Span(field: initials.text, .badge),
      Span(String(repeating: " ", count: padding - padding / 2), .badge),
      Span(" "),
      Span(field: title.text, row.isUnread ? .bold : nil),
      Span(String(repeating: " ", count: gap)),
      Span(field: date.text, .secondary),
    ]
  }

  /// The start of a field that a line of ``width`` columns can show, made
  /// terminal-safe: the view's work is bounded by what it shows, not by the
  /// field's length. A cluster takes at least one column or is a mark on
  /// one; beyond this many scalars nothing more could be seen.
  private func viewable(_ field: String) -> Viewable {
    let limit = width * 8 + 64
    let scalars = field.unicodeScalars
    guard let end = scalars.index(scalars.startIndex, offsetBy: limit, limitedBy: scalars.endIndex),
      end < scalars.endIndex
    else { return Viewable(text: terminalSafe(field), isCutShort: false) }
    return Viewable(text: terminalSafe(String(scalars[..<end])), isCutShort: true)
  }

  /// A field's start, ready to be cut to its columns.
  private struct Viewable {
    var text: String
    /// Whether the field went on past ``text``.
    var isCutShort: Bool

    func fitted(to columns: Int) -> (text: String, width: Int) {
      cut(text, toColumns: columns, isCutShort: isCutShort)
    }
  }

  /// The spans cut to ``width`` (on a terminal too narrow even for the
  /// date, whatever comes last gives way), styled, then a newline.
  private func line(_ spans: [Span]) -> String {
    var text = ""
    var used = 0
    var currentStyle: Style?
    for span in spans where used < width {
      let fitted = cut(span.text, toColumns: width - used)
      used += fitted.width
      let style = color ? span.style : nil
      if style != currentStyle {
        if currentStyle != nil { text += "\u{1B}[0m" }
        if let style { text += "\u{1B}[\(style.rawValue)m" }
        currentStyle = style
      }
      text += span.isolated && hasRightToLeft(fitted.text) ? "\u{2068}\(fitted.text)\u{2069}" : fitted.text
    }
    if currentStyle != nil { text += "\u{1B}[0m" }
    return text + "\n"
  }

  /// A run of text in one style: the view's own, or a field from the data.
  private struct Span {
    var text: String
    var style: Style?
    var isolated = false

    init(_ text: String, _ style: Style? = nil) {
      self.text = text
      self.style = style
    }

    /// Text from the data: made terminal-safe here, so that no path skips
    /// it, and isolated if it is right to left.
    init(field: String, _ style: Style?) {
      self.init(terminalSafe(field), style)
      isolated = true
    }
  }

  /// SGR parameters.
  private enum Style: String {
    case dot = "1;34"
    case badge = "7"
    case bold = "1"
    case secondary = "2"
  }
}

/// Whether a field must be a bidi isolate (FSI … PDI): when it has a letter
/// of a right-to-left script.
///
/// An isolate takes its direction from its own first strong letter, and to
/// the row it is one neutral character, so the row stays left to right (dot,
/// badge, title, date) and a right-to-left name cannot carry the date or its
/// own punctuation to the other side in a terminal that does bidi. A
/// left-to-right mark after the field would only fence its end, and would
/// leave an Arabic title's final "!" on the wrong side. Other terminals draw
/// isolates as nothing, but pagers show them as `<U+2068>`, so left-to-right
/// fields, which cannot reorder a left-to-right row, go without. The data's
/// own isolates were replaced, so ours always pair.
///
/// The ranges are those the UCD reserves for right-to-left scripts (their
/// default Bidi_Class is R or AL) and U+200F RIGHT-TO-LEFT MARK; the few
/// neutral characters among them are isolated for nothing, which is harmless.
private func hasRightToLeft(_ text: String) -> Bool {
  text.unicodeScalars.contains {
    switch $0.value {
    case 0x0590...0x08FF, 0x200F, 0xFB1D...0xFDFF, 0xFE70...0xFEFF, 0x10800...0x10FFF, 0x1E800...0x1EFFF: true
    default: false
    }
  }
}

/// `text` with every character that could drive a terminal or reorder the
/// line replaced by U+FFFD: control characters (C0, DEL and C1, which include
/// ESC and the 8-bit CSI and OSC), line and paragraph separators, and bidi
/// embeddings, overrides and isolates.
///
/// The library already removes most of these from titles and previews; the
/// view does not rely on it, since anything it writes reaches a terminal.
func terminalSafe(_ text: String) -> String {
  var safe = String.UnicodeScalarView()
  for scalar in text.unicodeScalars {
    switch scalar.properties.generalCategory {
    case .control, .lineSeparator, .paragraphSeparator: safe.append("\u{FFFD}")
    default: safe.append(isBidiControl(scalar) ? "\u{FFFD}" : scalar)
    }
  }
  return String(safe)
}
