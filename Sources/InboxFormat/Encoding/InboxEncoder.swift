/// Writes inbox rows as UTF-8 JSON, deterministically.
///
/// Keys come in the order `id, initials, title, message, date, isUnread`;
/// text is written as UTF-8, unescaped except for `"`, `\` and control
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

  /// Creates an encoder.
  public init(layout: Layout = .compact) {
    self.layout = layout
  }

  /// The shape of the output.
  public struct Layout: Sendable, Hashable {
    fileprivate enum Kind: Hashable { case compact, pretty, ndjson }
    fileprivate let kind: Kind

    /// A JSON array on one line, then a newline.
    public static let compact = Layout(kind: .compact)
    /// A JSON array indented by two spaces, one key per line, then a newline.
    public static let pretty = Layout(kind: .pretty)
    /// One JSON object per line (NDJSON); no rows give no output.
    public static let ndjson = Layout(kind: .ndjson)
  }

  /// The whole document for `rows`, ending in a newline.
  public func encode(_ rows: some Collection<MessageUIModel>) -> [UInt8] {
    var output: [UInt8] = []
    output.reserveCapacity(rows.count * 160 + 4)
    switch layout.kind {
    case .compact:
      output.append(UInt8(ascii: "["))
      for (index, row) in rows.enumerated() {
        if index > 0 { output.append(UInt8(ascii: ",")) }
        appendObject(row, pretty: false, to: &output)
      }
      output.append(contentsOf: "]\n".utf8)
    case .pretty:
      guard !rows.isEmpty else {
        output.append(contentsOf: "[]\n".utf8)
        break
      }
      output.append(contentsOf: "[\n".utf8)
      for (index, row) in rows.enumerated() {
        if index > 0 { output.append(contentsOf: ",\n".utf8) }
        appendObject(row, pretty: true, to: &output)
      }
      output.append(contentsOf: "\n]\n".utf8)
    case .ndjson:
      for row in rows {
        appendObject(row, pretty: false, to: &output)
        output.append(UInt8(ascii: "\n"))
      }
    }
    return output
  }

  private func appendObject(_ row: MessageUIModel, pretty: Bool, to output: inout [UInt8]) {
    let fieldStart: String = pretty ? "\n    \"" : "\""
    let separator: String = pretty ? "\": " : "\":"
    output.append(contentsOf: pretty ? "  {".utf8 : "{".utf8)
    func key(_ name: String, first: Bool = false) {
      if !first { output.append(UInt8(ascii: ",")) }
      output.append(contentsOf: fieldStart.utf8)
      output.append(contentsOf: name.utf8)
      output.append(contentsOf: separator.utf8)
    }
    key("id", first: true)
    switch row.id {
    case .integer(let value): output.append(contentsOf: String(value).utf8)
    case .string(let value): appendString(value, to: &output)
    }
    key("initials")
    appendString(row.initials, to: &output)
    key("title")
    appendString(row.title, to: &output)
    key("message")
    appendString(row.message, to: &output)
    key("date")
    appendString(row.date, to: &output)
    key("isUnread")
    output.append(contentsOf: row.isUnread ? "true".utf8 : "false".utf8)
    output.append(contentsOf: pretty ? "\n  }".utf8 : "}".utf8)
  }
}

/// Appends `text` as a JSON string literal.
func appendString(_ text: String, to output: inout [UInt8]) {
  output.append(UInt8(ascii: "\""))
  for byte in text.utf8 {
    switch byte {
    case UInt8(ascii: "\""): output.append(contentsOf: #"\""#.utf8)
    case UInt8(ascii: "\\"): output.append(contentsOf: #"\\"#.utf8)
    case UInt8(ascii: "\n"): output.append(contentsOf: #"\n"#.utf8)
    case UInt8(ascii: "\r"): output.append(contentsOf: #"\r"#.utf8)
    case UInt8(ascii: "\t"): output.append(contentsOf: #"\t"#.utf8)
    case 0..<0x20:
      let hexDigits = Array("0123456789abcdef".utf8)
      output.append(contentsOf: #"\u00"#.utf8)
      output.append(hexDigits[Int(byte >> 4)])
      output.append(hexDigits[Int(byte & 0xF)])
    default: output.append(byte)
    }
  }
  output.append(UInt8(ascii: "\""))
}
