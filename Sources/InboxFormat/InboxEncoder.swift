/// Writes inbox rows, deterministically: as JSON, NDJSON, or the inbox view.
///
/// Keys come in the order `id, initials, title, message, date, isUnread`,
/// or in the order of ``fields``; text is written as UTF-8, unescaped except for `"`, `\\` and control
/// characters (`/` is not escaped); `id` keeps its JSON type. The same rows
/// always give the same bytes.
///
/// ```swift
/// let bytes = InboxEncoder(layout: .compact).encode(rows)
/// // [{"id":1,"initials":"AA","title":"Alexander Anderson",...,"isUnread":true}]\n
/// ```
public struct InboxEncoder: Sendable {
  /// How the rows are laid out.
  public var layout: Layout
  /// The keys of each row, in order (the text layout shows the default ones
  /// only). A field a row does not carry is written `null`: map with a
  /// context whose ``FormattingContext/fields`` are the same.
  public var fields: [RowField]

  /// Creates an encoder.
  public init(layout: Layout = .compact, fields: [RowField] = RowField.defaults) {
    self.layout = layout
    self.fields = fields
  }

  /// Creates an encoder of the rows made with `context`: the keys are the
  /// context's ``FormattingContext/fields``, so that the field list is
  /// given once.
  ///
  /// ```swift
  /// let rows = MessageMapper(context: context).map(messages)
  /// let bytes = InboxEncoder(layout: .ndjson, context: context).encode(rows)
  /// ```
  public init(layout: Layout = .compact, context: FormattingContext) {
    self.init(layout: layout, fields: context.fields)
  }

  /// The shape of the output.
  public struct Layout: Sendable, Hashable {
    enum Kind: Hashable {
      case compact, pretty, ndjson
      case text(InboxTextView)
    }
    let kind: Kind

    /// A JSON array on one line, then a newline.
    public static let compact = Layout(kind: .compact)
    /// A JSON array indented by two spaces, one key per line, then a newline.
    public static let pretty = Layout(kind: .pretty)
    /// One JSON object per line (NDJSON); no rows give no output.
    public static let ndjson = Layout(kind: .ndjson)

    /// The inbox view, for a person at a terminal: per message a line with
    /// the unread dot, the initials, the title and the date against the
    /// right edge, then the preview.
    ///
    /// - Parameters:
    ///   - width: The columns every line fits in, measured by display width
    ///     (East Asian wide characters and emoji take two); at least 1.
    ///   - color: Whether to mark the view up with SGR sequences (bold
    ///     unread titles, a blue dot, reverse-video initials, dim dates and
    ///     previews).
    ///   - height: The most lines to write; the messages that do not fit are
    ///     counted on the last line. Nil for no limit.
    public static func text(width: Int, color: Bool = false, height: Int? = nil) -> Layout {
      Layout(kind: .text(InboxTextView(width: max(1, width), color: color, height: height.map { max(1, $0) })))
    }
  }

  /// The whole document for `rows`, ending in a newline.
  public func encode(_ rows: some Collection<MessageUIModel>) -> [UInt8] {
    if case .text(let view) = layout.kind { return Array(view.render(Array(rows)).utf8) }
    let writer = RowWriter(layout: layout, fields: fields)
    return ByteWriter.bytes(capacity: rows.count * 256 + 4) { output in
      output.append(writer.opening)
      var isFirst = true
      for row in rows {
        writer.append(Row<String>(row), isFirst: isFirst, to: &output)
        isFirst = false
      }
      output.append(writer.closing(isEmpty: rows.isEmpty))
    }
  }
}
