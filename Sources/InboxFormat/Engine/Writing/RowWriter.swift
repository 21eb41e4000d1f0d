import InboxFormatSupport

/// The one writer of rows: JSON (compact, pretty) and NDJSON, byte for
/// byte the same whatever the row's texts are held as.
///
/// Keys come in the order `id, initials, title, message, date, isUnread`,
/// or the order of `fields` when given; text is written as UTF-8, unescaped
/// except for `"`, `\\` and control characters (`/` is not escaped); `id`
/// keeps its JSON type.
struct RowWriter: Sendable {
  let layout: InboxEncoder.Layout
  /// The fields to write, in order, or nil for the default ones, written
  /// with constant keys.
  let fields: [RowField]?
  /// The bytes before each of `fields`' values: its key, as the layout writes it.
  private let fieldKeys: [[UInt8]]

  init(layout: InboxEncoder.Layout, fields: [RowField]? = nil) {
    self.layout = layout
    self.fields = fields == RowField.defaults ? nil : fields
    fieldKeys = (self.fields ?? []).map { field in
      Array((layout.kind == .pretty ? "\n    \"\(field.name)\": " : "\"\(field.name)\":").utf8)
    }
  }

  /// What comes before the first row.
  var opening: [UInt8] {
    switch layout.kind {
    case .compact, .pretty: Array("[".utf8)
    case .ndjson, .text: []
    }
  }

  /// What comes after the last row.
  func closing(isEmpty: Bool) -> [UInt8] {
    switch layout.kind {
    case .compact: Array("]\n".utf8)
    case .pretty: Array((isEmpty ? "]\n" : "\n]\n").utf8)
    case .ndjson, .text: []
    }
  }

  /// Appends `row` as an element of the document, the document's first row
  /// when `isFirst` is true. (The text layout is drawn whole, by
  /// ``InboxTextView``, never row by row.)
  @inline(__always)
  func append<Text: RowText>(_ row: borrowing Row<Text>, isFirst: Bool, to output: inout ByteWriter) {
    if let fields {
      append(row, fields: fields, isFirst: isFirst, to: &output)
      return
    }
    let keys: Keys
    switch layout.kind {
    case .compact, .text:
      if !isFirst { output.append(UInt8(ascii: ",")) }
      keys = .compact
    case .pretty:
      output.append(isFirst ? "\n" : ",\n")
      keys = .pretty
    case .ndjson:
      keys = .compact
    }
    output.append(keys.open)
    switch row.id {
    case .integer(let value): appendInteger(value, to: &output)
    case .string(let value): appendString(value, to: &output)
    }
    output.append(keys.initials)
    appendEscaped(row.initials, to: &output)
    output.append(keys.title)
    row.title.forEachPiece { piece in
      switch piece {
      case .part(let text): text.appendJSONContents(to: &output)
      case .space: output.append(0x20)
      case .placeholder(let text): appendEscaped(text, to: &output)
      }
    }
    output.append(keys.message)
    row.message.appendJSONContents(to: &output)
    output.append(keys.date)
    appendEscaped(row.date.text, to: &output)
    output.append(row.isUnread ? keys.unread : keys.read)
    if layout.kind == .ndjson { output.append(UInt8(ascii: "\n")) }
  }

  /// ``append(_:isFirst:to:)`` of the keys of `fields`, in their order: the
  /// same bytes as the constant keys for the default fields. A value the
  /// row does not carry is `null`.
  private func append<Text: RowText>(
    _ row: borrowing Row<Text>, fields: [RowField], isFirst: Bool, to output: inout ByteWriter
  ) {
    let isPretty = layout.kind == .pretty
    switch layout.kind {
    case .compact, .text: if !isFirst { output.append(UInt8(ascii: ",")) }
    case .pretty: output.append(isFirst ? "\n" : ",\n")
    case .ndjson: break
    }
    output.append(isPretty ? "  {" : "{")
    for (index, field) in fields.enumerated() {
      if index > 0 { output.append(UInt8(ascii: ",")) }
      output.append(fieldKeys[index])
      switch field.kind {
      case .id:
        switch row.id {
        case .integer(let value): appendInteger(value, to: &output)
        case .string(let value): appendString(value, to: &output)
        }
      case .initials: appendString(row.initials, to: &output)
      case .title:
        output.append(UInt8(ascii: "\""))
        row.title.forEachPiece { piece in
          switch piece {
          case .part(let text): text.appendJSONContents(to: &output)
          case .space: output.append(0x20)
          case .placeholder(let text): appendEscaped(text, to: &output)
          }
        }
        output.append(UInt8(ascii: "\""))
      case .message:
        output.append(UInt8(ascii: "\""))
        row.message.appendJSONContents(to: &output)
        output.append(UInt8(ascii: "\""))
      case .date: appendString(row.date.text, to: &output)
      case .isUnread: output.append(row.isUnread ? "true" : "false")
      case .dateValidUntil: appendOptionalString(row.date.validUntil?.utcText, to: &output)
      default:  // an optional field
        appendValue(row.extras?[field], to: &output)
      }
    }
    output.append(isPretty ? (fields.isEmpty ? "}" : "\n  }") : "}")
    if layout.kind == .ndjson { output.append(UInt8(ascii: "\n")) }
  }

  /// The fixed bytes between an object's values, from `{"id":` to `}`: each
  /// text's key comes with the quote that closes the text before it and the
  /// one that opens its own.
  private struct Keys {
    var open, initials, title, message, date, unread, read: StaticString

    static let compact = Keys(
      open: #"{"id":"#, initials: #","initials":""#, title: #"","title":""#, message: #"","message":""#,
      date: #"","date":""#, unread: #"","isUnread":true}"#, read: #"","isUnread":false}"#)
    static let pretty = Keys(
      open: "  {\n    \"id\": ", initials: ",\n    \"initials\": \"", title: "\",\n    \"title\": \"",
      message: "\",\n    \"message\": \"", date: "\",\n    \"date\": \"",
      unread: "\",\n    \"isUnread\": true\n  }", read: "\",\n    \"isUnread\": false\n  }")
  }
}

private func appendInteger(_ value: Int64, to output: inout ByteWriter) {
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
    output.append(UnsafeRawBufferPointer(rebasing: bytes[start...]).assumingMemoryBound(to: UInt8.self))
  }
}

/// Appends an optional field's value as its kind is written (``FieldValue``),
/// or `null` for nil.
private func appendValue(_ value: FieldValue?, to output: inout ByteWriter) {
  switch value {
  case .text(let text): appendString(text, to: &output)
  case .integer(let number): appendInteger(Int64(number), to: &output)
  case .label(let label): appendString(label.text, to: &output)
  case nil: output.append("null")
  }
}

/// Appends `text` as a JSON string literal, or `null` for nil.
private func appendOptionalString(_ text: String?, to output: inout ByteWriter) {
  if let text { appendString(text, to: &output) } else { output.append("null") }
}

/// Appends `text` as a JSON string literal.
func appendString(_ text: String, to output: inout ByteWriter) {
  output.append(UInt8(ascii: "\""))
  appendEscaped(text, to: &output)
  output.append(UInt8(ascii: "\""))
}

/// Appends the contents of `text` as a JSON string literal holds them, by
/// the one rule (`jsonStringLiteral(_:)` of InboxFormatSupport): runs of
/// bytes that need no escape are copied whole, found eight bytes at a time.
func appendEscaped(_ text: String, to output: inout ByteWriter) {
  if text.utf8.withContiguousStorageIfAvailable({ appendEscaped($0, to: &output) }) == nil {
    let copy = Array(text.utf8)
    copy.withUnsafeBufferPointer { appendEscaped($0, to: &output) }
  }
}

@inline(__always)
private func appendEscaped(_ bytes: UnsafeBufferPointer<UInt8>, to output: inout ByteWriter) {
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
    if isEscapedInJSON(byte) {
      output.append(UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
      appendJSONEscape(for: byte) { output.append($0) }
      runStart = index + 1
    }
    index += 1
  }
  output.append(UnsafeBufferPointer(rebasing: bytes[runStart...]))
}

/// Whether any byte of `word` is one `isEscapedInJSON(_:)` escapes: below
/// 0x20, `"` or `\`, exactly, eight bytes at once.
@inline(__always)
func mayNeedEscape(_ word: UInt64) -> Bool {
  let ones: UInt64 = 0x0101_0101_0101_0101
  let high: UInt64 = 0x8080_8080_8080_8080
  func hasZeroByte(_ value: UInt64) -> Bool { (value &- ones) & ~value & high != 0 }
  // Bytes of 0x80 and above (UTF-8 sequences) never need escaping; mask them
  // out of the "below 0x20" test, which would otherwise see them wrap.
  let below = (word &- 0x2020_2020_2020_2020) & ~word & high
  return below != 0 || hasZeroByte(word ^ 0x2222_2222_2222_2222) || hasZeroByte(word ^ 0x5C5C_5C5C_5C5C_5C5C)
}
