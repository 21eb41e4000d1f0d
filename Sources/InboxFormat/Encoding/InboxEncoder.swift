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
    var output = opening
    output.reserveCapacity(rows.count * 256 + 4)
    appendElements(rows, isFirst: true, to: &output)
    output.append(contentsOf: closing(isEmpty: rows.isEmpty))
    return output
  }

  /// What comes before the first row.
  var opening: [UInt8] {
    switch layout.kind {
    case .compact, .pretty: Array("[".utf8)
    case .ndjson: []
    }
  }

  /// What comes after the last row.
  func closing(isEmpty: Bool) -> [UInt8] {
    switch layout.kind {
    case .compact: Array("]\n".utf8)
    case .pretty: Array((isEmpty ? "]\n" : "\n]\n").utf8)
    case .ndjson: []
    }
  }

  /// Appends `rows` as elements of the document, the first of them being the
  /// document's first row when `isFirst` is true.
  func appendElements(_ rows: some Collection<MessageUIModel>, isFirst: Bool, to output: inout [UInt8]) {
    var isFirst = isFirst
    for row in rows {
      appendElement(id: row.id, isUnread: row.isUnread, isFirst: isFirst, to: &output) { text, output in
        switch text {
        case .initials: appendEscaped(row.initials, to: &output)
        case .title: appendEscaped(row.title, to: &output)
        case .message: appendEscaped(row.message, to: &output)
        case .date: appendEscaped(row.date, to: &output)
        }
      }
      isFirst = false
    }
  }

  /// The texts of a row, in the order they are written.
  enum RowText {
    case initials, title, message, date
  }

  /// Appends one row as an element of the document, `write` appending each
  /// text's escaped contents between its quotes (see ``appendEscaped(_:to:)``).
  @inline(__always)
  func appendElement(
    id: MessageID, isUnread: Bool, isFirst: Bool, to output: inout [UInt8],
    texts write: (RowText, inout [UInt8]) -> Void
  ) {
    let keys: Keys
    switch layout.kind {
    case .compact:
      if !isFirst { output.append(UInt8(ascii: ",")) }
      keys = Self.compactKeys
    case .pretty:
      output.append(contentsOf: isFirst ? "\n".utf8 : ",\n".utf8)
      keys = Self.prettyKeys
    case .ndjson:
      keys = Self.compactKeys
    }
    output.append(contentsOf: keys.open)
    switch id {
    case .integer(let value): appendInteger(value, to: &output)
    case .string(let value): appendString(value, to: &output)
    }
    @inline(__always) func append(_ text: RowText, after key: [UInt8]) {
      output.append(contentsOf: key)
      output.append(UInt8(ascii: "\""))
      write(text, &output)
      output.append(UInt8(ascii: "\""))
    }
    append(.initials, after: keys.initials)
    append(.title, after: keys.title)
    append(.message, after: keys.message)
    append(.date, after: keys.date)
    output.append(contentsOf: keys.isUnread)
    output.append(contentsOf: isUnread ? Self.trueBytes : Self.falseBytes)
    output.append(contentsOf: keys.close)
    if layout.kind == .ndjson { output.append(UInt8(ascii: "\n")) }
  }

  /// The fixed bytes around an object's values, from `{"id":` to `}`.
  private struct Keys {
    var open, initials, title, message, date, isUnread, close: [UInt8]

    init(pretty: Bool) {
      func key(_ name: String, first: Bool = false) -> [UInt8] {
        Array(((first ? "" : ",") + (pretty ? "\n    \"" : "\"") + name + (pretty ? "\": " : "\":")).utf8)
      }
      open = Array((pretty ? "  {" : "{").utf8) + key("id", first: true)
      initials = key("initials")
      title = key("title")
      message = key("message")
      date = key("date")
      isUnread = key("isUnread")
      close = Array((pretty ? "\n  }" : "}").utf8)
    }
  }

  private static let compactKeys = Keys(pretty: false)
  private static let prettyKeys = Keys(pretty: true)
  private static let trueBytes = Array("true".utf8)
  private static let falseBytes = Array("false".utf8)
}

private func appendInteger(_ value: Int64, to output: inout [UInt8]) {
  var digits = value.magnitude
  var buffer: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes: 20 digits and a sign fit
  withUnsafeMutableBytes(of: &buffer) { bytes in
    var start = bytes.count
    repeat {
      start -= 1
      bytes[start] = UInt8(ascii: "0") + UInt8(digits % 10)
      digits /= 10
    } while digits > 0
    if value < 0 {
      start -= 1
      bytes[start] = UInt8(ascii: "-")
    }
    output.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[start...]))
  }
}

/// Appends `text` as a JSON string literal.
func appendString(_ text: String, to output: inout [UInt8]) {
  output.append(UInt8(ascii: "\""))
  appendEscaped(text, to: &output)
  output.append(UInt8(ascii: "\""))
}

/// Appends the contents of `text` as a JSON string literal holds them: runs
/// of bytes that need no escape are copied whole, found eight bytes at a time.
func appendEscaped(_ text: String, to output: inout [UInt8]) {
  if text.utf8.withContiguousStorageIfAvailable({ appendEscaped($0, to: &output) }) == nil {
    let copy = Array(text.utf8)
    copy.withUnsafeBufferPointer { appendEscaped($0, to: &output) }
  }
}

@inline(__always)
private func appendEscaped(_ bytes: UnsafeBufferPointer<UInt8>, to output: inout [UInt8]) {
  var runStart = 0
  var index = 0
  while index < bytes.count {
    if index + 8 <= bytes.count {
      let word = UnsafeRawPointer(bytes.baseAddress! + index).loadUnaligned(as: UInt64.self)
      if !mayNeedEscape(word) {
        index += 8
        continue
      }
    }
    let byte = bytes[index]
    if byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
      output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
      appendEscape(for: byte, to: &output)
      runStart = index + 1
    }
    index += 1
  }
  output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart...]))
}

/// Whether any byte of `word` is below 0x20, `"` or `\`.
@inline(__always)
private func mayNeedEscape(_ word: UInt64) -> Bool {
  let ones: UInt64 = 0x0101_0101_0101_0101
  let high: UInt64 = 0x8080_8080_8080_8080
  func hasZeroByte(_ value: UInt64) -> Bool { (value &- ones) & ~value & high != 0 }
  // Bytes of 0x80 and above (UTF-8 sequences) never need escaping; mask them
  // out of the "below 0x20" test, which would otherwise see them wrap.
  let below = (word &- 0x2020_2020_2020_2020) & ~word & high
  return below != 0 || hasZeroByte(word ^ 0x2222_2222_2222_2222) || hasZeroByte(word ^ 0x5C5C_5C5C_5C5C_5C5C)
}

private func appendEscape(for byte: UInt8, to output: inout [UInt8]) {
  output.append(UInt8(ascii: "\\"))
  switch byte {
  case UInt8(ascii: "\""), UInt8(ascii: "\\"): output.append(byte)
  case UInt8(ascii: "\n"): output.append(UInt8(ascii: "n"))
  case UInt8(ascii: "\r"): output.append(UInt8(ascii: "r"))
  case UInt8(ascii: "\t"): output.append(UInt8(ascii: "t"))
  default:
    let hexDigits: StaticString = "0123456789abcdef"
    output.append(contentsOf: "u00".utf8)
    output.append(hexDigits.utf8Start[Int(byte >> 4)])
    output.append(hexDigits.utf8Start[Int(byte & 0xF)])
  }
}
