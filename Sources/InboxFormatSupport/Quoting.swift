// How a value from outside — the payload, a file name, an option, an
// environment variable — appears in a message: on one visible line that
// nothing in it can disturb.

/// Quotes `value` for a message, escaping what could drive a terminal or
/// hide in it, and cutting what is long.
///
/// Escaped as `\u{…}`: control characters (C0, DEL, C1: ESC and the 8-bit
/// CSI and OSC among them), line and paragraph separators, which would break
/// the message's one line, and format characters (bidi controls, marks and
/// isolates, zero-width characters, the byte order mark), which are invisible
/// or reorder the line; and a combining mark or emoji modifier with no
/// character of the value before it, which would join the opening quote or
/// an escape. After `limit` scalars the rest is left out, shown as `…`.
///
/// ```swift
/// quoted("a\u{1B}[2Jb")  // "\"a\\u{1B}[2Jb\""
/// ```
public func quoted(_ value: String, limit: Int = 60) -> String {
  // Printable ASCII but `"` and `\`, within the limit, is what the scalar
  // rule leaves as it is, scalar by scalar (`QuotingTests` holds the two
  // equal): a service quotes a request's path on every log line.
  if value.utf8.count <= limit, value.utf8.allSatisfy(isPlainQuotable) { return "\"" + value + "\"" }
  return quotedScalarByScalar(value, limit: limit)
}

/// ``quoted(_:limit:)`` by its rule, one scalar at a time.
func quotedScalarByScalar(_ value: String, limit: Int) -> String {
  var result = "\""
  var escaper = Escaper()
  for (index, scalar) in value.unicodeScalars.enumerated() {
    if index == limit {
      result += "…"
      break
    }
    escaper.append(scalar, to: &result)
  }
  return result + "\""
}

/// Quotes a file name, whose bytes should be UTF-8 but may not be: valid
/// text as ``quoted(_:limit:)``, each byte of an invalid sequence as
/// `\x{FF}`. A long name keeps its start and its end, which names the file,
/// with `…` between them.
public func quoted(bytes: some Collection<UInt8>, limit: Int = 60) -> String {
  var pieces: [String] = []
  var parser = Unicode.UTF8.ForwardParser()
  var iterator = bytes.makeIterator()
  var rest = bytes[...]
  var escaper = Escaper()
  decoding: while true {
    switch parser.parseScalar(from: &iterator) {
    case .valid(let encoded):
      var piece = ""
      escaper.append(Unicode.UTF8.decode(encoded), to: &piece)
      pieces.append(piece)
      rest = rest.dropFirst(encoded.count)
    case .error(let length):
      pieces += rest.prefix(length).map { byte in
        var piece = ""
        appendByteEscaped(byte, to: &piece)
        return piece
      }
      rest = rest.dropFirst(length)
      escaper.followsACharacter = false
    case .emptyInput:
      break decoding
    }
  }
  guard pieces.count > limit else { return "\"" + pieces.joined() + "\"" }
  let start = (limit - 1) / 2
  return "\"" + pieces.prefix(start).joined() + "…" + pieces.suffix(limit - 1 - start).joined() + "\""
}

/// `text` cut after `limit` characters, the rest shown as `…`: for values
/// written as they are, such as a number.
public func shortened(_ text: String, limit: Int = 60) -> String {
  text.unicodeScalars.count > limit ? String(text.unicodeScalars.prefix(limit)) + "…" : text
}

/// Whether a byte is printable ASCII other than `"` and `\`: what neither
/// ``quoted(_:limit:)`` nor a JSON string literal (``isEscapedInJSON(_:)``)
/// changes. Inlinable: callers test every byte of a value with it.
@inlinable
public func isPlainQuotable(_ byte: UInt8) -> Bool {
  isPrintableASCII(byte) && !isEscapedInJSON(byte)
}

/// Whether a byte is printable ASCII, space to `~`: what no escaping of a
/// message, a quoted value or a log line changes. Inlinable: callers test
/// every byte of a line with it.
@inlinable
public func isPrintableASCII(_ byte: UInt8) -> Bool {
  (0x20...0x7E).contains(byte)
}

/// Appends a value's scalars as a message shows them.
private struct Escaper {
  /// Whether the last scalar appended is one of the value's own, unescaped:
  /// a combining mark may follow it.
  var followsACharacter = false

  mutating func append(_ scalar: Unicode.Scalar, to result: inout String) {
    let escaped =
      scalar == "\"" || scalar == "\\" || isHiddenInAMessage(scalar)
      || (!followsACharacter && isCombiningMark(scalar))
    switch scalar {
    case _ where !escaped: result.unicodeScalars.append(scalar)
    case "\"": result += "\\\""
    case "\\": result += "\\\\"
    default: appendHiddenEscaped(scalar, to: &result)
    }
    followsACharacter = !escaped
  }
}

/// Whether a scalar joins the character before it into one grapheme
/// cluster (rules GB9 and GB9a): a combining mark (every nonspacing and
/// enclosing mark is Grapheme_Extend), a spacing mark, or an emoji modifier.
private func isCombiningMark(_ scalar: Unicode.Scalar) -> Bool {
  let properties = scalar.properties
  return properties.isGraphemeExtend || properties.isEmojiModifier || properties.generalCategory == .spacingMark
}

/// `line` with each scalar ``isHiddenInAMessage(_:)`` says is hidden
/// written as `\u{…}`, everything else as it is: for a line someone else
/// wrote (a log line of a package, a parser's message), which no quotes
/// delimit.
public func escapingHidden(_ line: String) -> String {
  if line.utf8.allSatisfy(isPrintableASCII) { return line }
  var result = ""
  for scalar in line.unicodeScalars {
    if isHiddenInAMessage(scalar) {
      appendHiddenEscaped(scalar, to: &result)
    } else {
      result.unicodeScalars.append(scalar)
    }
  }
  return result
}

/// Appends a scalar as every message escapes one: `\u{1B}`, uppercase hex.
public func appendHiddenEscaped(_ scalar: Unicode.Scalar, to result: inout String) {
  result += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
}

/// Whether a scalar must be escaped to keep a message one visible line:
/// controls, line and paragraph separators and format characters (Cf,
/// which includes the bidi controls).
public func isHiddenInAMessage(_ scalar: Unicode.Scalar) -> Bool {
  if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) { return true }
  switch scalar.properties.generalCategory {
  case .lineSeparator, .paragraphSeparator, .format: return true
  default: return false
  }
}

/// Appends a byte that is not part of valid UTF-8 as every message shows
/// one: `\x{FF}`, two uppercase hex digits.
public func appendByteEscaped(_ byte: UInt8, to result: inout String) {
  let digits = String(byte, radix: 16, uppercase: true)
  result += "\\x{" + (byte < 0x10 ? "0" + digits : digits) + "}"
}
