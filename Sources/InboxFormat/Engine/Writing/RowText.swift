/// A text a row can hold: written between a JSON string's quotes.
protocol RowText {
  /// Appends the text as a JSON string literal holds it.
  func appendJSONContents(to output: inout ByteWriter)
}

extension String: RowText {
  func appendJSONContents(to output: inout ByteWriter) { appendEscaped(self, to: &output) }
}

extension InputText: RowText {
  /// The input's bytes: a JSON string without escapes holds no `"`, `\\` or
  /// control character, so its contents are already what the output needs.
  @inline(__always)
  func appendJSONContents(to output: inout ByteWriter) { output.append(bytes) }
}
