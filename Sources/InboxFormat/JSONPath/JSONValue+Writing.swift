extension JSONValue {
  /// The value as compact JSON text: no whitespace, numbers as their
  /// literal text, members in document order, strings escaped as the row
  /// writer escapes them (RFC 8259).
  var jsonText: String {
    String(decoding: jsonBytes, as: UTF8.self)
  }

  /// The UTF-8 bytes of ``jsonText``.
  var jsonBytes: [UInt8] {
    ByteWriter.bytes(capacity: 64) { write(to: &$0) }
  }

  /// Appends the value as compact JSON text.
  func write(to output: inout ByteWriter) {
    switch self {
    case .null: output.append("null")
    case .bool(let value): output.append(value ? "true" : "false")
    case .number(let number): output.append(Array(number.text.utf8))
    case .string(let text): appendString(text, to: &output)
    case .array(let elements):
      output.append(UInt8(ascii: "["))
      for (index, element) in elements.enumerated() {
        if index > 0 { output.append(UInt8(ascii: ",")) }
        element.write(to: &output)
      }
      output.append(UInt8(ascii: "]"))
    case .object(let object):
      output.append(UInt8(ascii: "{"))
      for (index, member) in object.enumerated() {
        if index > 0 { output.append(UInt8(ascii: ",")) }
        appendString(member.key, to: &output)
        output.append(UInt8(ascii: ":"))
        member.value.write(to: &output)
      }
      output.append(UInt8(ascii: "}"))
    }
  }
}
