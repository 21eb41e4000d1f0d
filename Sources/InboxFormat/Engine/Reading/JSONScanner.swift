internal import CInboxBytes
import InboxFormatSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A strict, single-pass cursor over the UTF-8 bytes of a JSON text.
///
/// It reads tokens in place and never builds a document tree: strings are
/// created only for values the caller keeps, and values nobody asked for are
/// skipped with an explicit stack, so nesting cannot overflow the call stack.
/// Line and column are computed only when an error is reported.
///
/// The bytes must stay valid for the scanner's whole life; callers create it
/// inside `withUnsafeBufferPointer`.
struct JSONScanner {
  /// Containers nested deeper than this are rejected, so hostile input cannot
  /// make the reader's memory or time grow without bound.
  static let maximumDepth = 512

  let bytes: UnsafeBufferPointer<UInt8>
  /// The offset of the next byte to read.
  var position: Int

  /// Holds the decoded bytes of strings with escapes.
  private var unescaped: [UInt8] = []
  /// The open containers while skipping a value: `true` for an object.
  private var skipStack: [Bool] = []
  private var lineCursor: LineCursor
  private let startOfText: LineCursor

  /// Where `bytes` lie in the whole input: locations are reported in the
  /// input's terms when a scanner reads one piece of it.
  private let origin: InputLocation

  /// Creates a scanner positioned after a UTF-8 byte order mark, if any.
  init(bytes: UnsafeBufferPointer<UInt8>) {
    let hasByteOrderMark = bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF
    self.init(
      bytes: bytes, startingAt: hasByteOrderMark ? 3 : 0, origin: InputLocation(line: 1, column: 1, byteOffset: 0))
  }

  /// Creates a scanner over a piece of a larger input that begins at the
  /// start of line `origin.line`, byte `origin.byteOffset` of the input.
  init(bytes: UnsafeBufferPointer<UInt8>, origin: InputLocation) {
    self.init(bytes: bytes, startingAt: 0, origin: origin)
  }

  private init(bytes: UnsafeBufferPointer<UInt8>, startingAt position: Int, origin: InputLocation) {
    self.bytes = bytes
    self.position = position
    self.origin = origin
    // Columns count from after a byte order mark, as editors show them.
    startOfText = LineCursor(offset: position, line: origin.line, column: 1)
    lineCursor = startOfText
  }

  // MARK: Bytes and whitespace

  @inline(__always)
  var isAtEnd: Bool { position >= bytes.count }

  /// The byte at `position`, or 0 at the end. A NUL is never valid outside
  /// a string, so comparing `current` with a structural byte needs no
  /// separate end check; only error reports tell the two apart.
  @inline(__always)
  var current: UInt8 { position < bytes.count ? bytes[position] : 0 }

  @inline(__always)
  mutating func skipWhitespace() {
    while position < bytes.count {
      switch bytes[position] {
      case .space, .tab, .lineFeed, .carriageReturn: position += 1
      default: return
      }
    }
  }

  /// Skips spaces, tabs and carriage returns, but stops at a line feed.
  mutating func skipWhitespaceOnLine() {
    while position < bytes.count {
      switch bytes[position] {
      case .space, .tab, .carriageReturn: position += 1
      default: return
      }
    }
  }

  /// Whether a line feed lies in `range`.
  @inline(__always)
  func containsLineFeed(_ range: Range<Int>) -> Bool {
    firstLineFeed(in: range) != nil
  }

  /// The offset of the first line feed at or after `offset`, if there is one.
  func lineFeed(from offset: Int) -> Int? {
    firstLineFeed(in: offset..<bytes.count)
  }

  /// Whether a NUL byte lies in `range`.
  func containsNUL(_ range: Range<Int>) -> Bool {
    first(0, in: range) != nil
  }

  /// memchr: NDJSON asks this of every message.
  @inline(__always)
  private func firstLineFeed(in range: Range<Int>) -> Int? {
    first(.lineFeed, in: range)
  }

  @inline(__always)
  private func first(_ byte: UInt8, in range: Range<Int>) -> Int? {
    guard let base = bytes.baseAddress, !range.isEmpty,
      let found = memchr(base + range.lowerBound, Int32(byte), range.count)
    else { return nil }
    return UnsafeRawPointer(base).distance(to: UnsafeRawPointer(found))
  }

  /// Moves to the start of the line after the one holding `offset`, or to the end.
  mutating func moveToNextLine(from offset: Int) {
    position = offset
    while position < bytes.count, bytes[position] != .lineFeed { position += 1 }
    position = min(position + 1, bytes.count)
  }

  /// Consumes `byte` (never 0) or throws, naming `expected`.
  @inline(__always)
  mutating func expect(_ byte: UInt8, _ expected: String) throws(InboxFormatError) {
    guard current == byte else { throw unexpected(expected: expected) }
    position += 1
  }

  /// Consumes the colon after a key, with the whitespace around it.
  @inline(__always)
  mutating func consumeColon() throws(InboxFormatError) {
    skipWhitespace()
    try expect(.colon, "\":\" after the key")
    skipWhitespace()
  }

  /// After a comma: a closing bracket here means a trailing comma.
  @inline(__always)
  mutating func rejectTrailingComma(closing: UInt8) throws(InboxFormatError) {
    guard current == closing else { return }
    throw syntaxError(
      "trailing comma before \"\(Character(Unicode.Scalar(closing)))\"",
      expected: closing == .closeBrace ? "a key" : "a value", at: position)
  }

  // MARK: Strings

  /// The span of a string's contents, between its quotes.
  /// After a member or element: consumes a comma and returns true, or
  /// consumes `closing` and returns false.
  @inline(__always)
  mutating func moveToNextMember(closing: UInt8) throws(InboxFormatError) -> Bool {
    switch current {
    case UInt8(ascii: ","):
      position += 1
      skipWhitespace()
      try rejectTrailingComma(closing: closing)
      return true
    case closing:
      position += 1
      return false
    default:
      throw unexpected(expected: closing == UInt8(ascii: "}") ? "\",\" or \"}\"" : "\",\" or \"]\"")
    }
  }

  struct StringToken {
    var start: Int
    var end: Int
    var hasEscapes: Bool
    /// Whether every byte is ASCII, which spares `String` a scan.
    var isASCII: Bool

    var range: Range<Int> { start..<end }
  }

  /// Scans the string whose opening quote is at `position` and moves past
  /// it, checking escapes, control characters and UTF-8 on the way, so that
  /// creating the `String` needs no second validation pass.
  mutating func scanString() throws(InboxFormatError) -> StringToken {
    let start = position + 1
    var index = start
    var hasEscapes = false
    var isASCII = true
    while true {
      index = skipPlainASCII(from: index)
      guard index < bytes.count else { throw unexpectedEnd(expected: "\"\\\"\" to close the string") }
      switch bytes[index] {
      case .quote:
        position = index + 1
        return StringToken(start: start, end: index, hasEscapes: hasEscapes, isASCII: isASCII)
      case .backslash:
        hasEscapes = true
        index = try scanEscape(at: index)
      case 0x80...:
        isASCII = false
        // Non-Latin text runs several multi-byte scalars together.
        repeat {
          guard let end = endOfUTF8Sequence(at: index) else { throw utf8Error(at: index) }
          index = end
        } while index < bytes.count && bytes[index] >= 0x80
      default:
        throw controlCharacterError(at: index)
      }
    }
  }

  /// Kept out of line so the scanning loop stays small.
  @inline(never)
  private mutating func controlCharacterError(at index: Int) -> InboxFormatError {
    syntaxError(
      "unescaped control character U+\(hex(bytes[index], digits: 4)) in a string",
      expected: "an escape such as \"\\n\"",
      at: index)
  }

  /// The first offset from `index` holding a quote, a backslash, a control
  /// character or a non-ASCII byte; sixteen bytes at a time while none of
  /// them is one.
  @inline(__always)
  private func skipPlainASCII(from index: Int) -> Int {
    var index = index
    let count = bytes.count
    guard let base = bytes.baseAddress else { return index }
    while index + 16 <= count {
      let stops = inbox_string_stops16(base + index)
      if stops != 0 { return index + stops.trailingZeroBitCount }
      index += 16
    }
    while index < count {
      let byte = bytes[index]
      if byte == .quote || byte == .backslash || byte < 0x20 || byte >= 0x80 { break }
      index += 1
    }
    return index
  }

  /// The offset after the well-formed UTF-8 sequence starting at `index`,
  /// by Unicode's Table 3-7 (no overlongs, no surrogates, nothing past
  /// U+10FFFF), or nil when it is not one; ``utf8Error(at:)`` says why.
  @inline(__always)
  private func endOfUTF8Sequence(at index: Int) -> Int? {
    let lead = bytes[index]
    if lead < 0x80 { return index + 1 }
    // A shortcut for the rows of ``utf8Sequence(lead:)`` whose every byte
    // after the lead may be any continuation byte: C2–DF (Latin, Greek,
    // Cyrillic, Hebrew, Arabic) and E1–EC, EE–EF (most of the rest of the
    // BMP, CJK among it): skipping the table's look-up for them is what
    // makes non-Latin text cheap to scan. `ScannerAcceleratorTests` holds
    // both paths together equal to the standard library's validation.
    if lead &- 0xC2 <= 0xDF - 0xC2 {
      guard bytes.count - index >= 2, bytes[index + 1] & 0xC0 == 0x80 else { return nil }
      return index + 2
    }
    if lead &- 0xE1 <= 0xEF - 0xE1, lead != 0xED {
      guard bytes.count - index >= 3, bytes[index + 1] & 0xC0 == 0x80, bytes[index + 2] & 0xC0 == 0x80 else {
        return nil
      }
      return index + 3
    }
    guard let (length, secondBytes) = Self.utf8Sequence(lead: lead),
      bytes.count - index >= length, secondBytes.contains(bytes[index + 1])
    else { return nil }
    for offset in 2..<length where bytes[index + offset] & 0xC0 != 0x80 {
      return nil
    }
    return index + length
  }

  /// The length of a well-formed UTF-8 sequence that starts with the
  /// multi-byte lead `lead`, and the bytes its second byte may be (Unicode's
  /// Table 3-7: no overlongs, no surrogates, nothing past U+10FFFF); nil for
  /// a byte that leads no sequence of two bytes or more.
  @inline(__always)
  private static func utf8Sequence(lead: UInt8) -> (length: Int, secondBytes: ClosedRange<UInt8>)? {
    switch lead {
    case 0xC2...0xDF: (2, 0x80...0xBF)
    case 0xE0: (3, 0xA0...0xBF)
    case 0xED: (3, 0x80...0x9F)
    case 0xE1...0xEF: (3, 0x80...0xBF)
    case 0xF0: (4, 0x90...0xBF)
    case 0xF4: (4, 0x80...0x8F)
    case 0xF1...0xF3: (4, 0x80...0xBF)
    default: nil
    }
  }

  /// Why the UTF-8 sequence at `index` is not well-formed, pointing at its
  /// first byte.
  @inline(never)
  private mutating func utf8Error(at index: Int) -> InboxFormatError {
    let lead = bytes[index]
    guard let (length, secondBytes) = Self.utf8Sequence(lead: lead) else {
      switch lead {
      case 0x80...0xBF: return invalidUTF8("unexpected continuation byte", at: index..<index + 1)
      case 0xC0, 0xC1: return invalidUTF8("overlong encoding", at: index..<min(index + 2, bytes.count))
      default: return invalidUTF8("invalid byte", at: index..<index + 1)
      }
    }
    for offset in 1..<length {
      guard index + offset < bytes.count else { return unexpectedEnd(expected: "the rest of a UTF-8 sequence") }
      let byte = bytes[index + offset]
      if offset == 1, !secondBytes.contains(byte), byte & 0xC0 == 0x80 {
        let problem =
          switch lead {
          case 0xED: "encoded surrogate"
          case 0xF4: "code point above U+10FFFF"
          default: "overlong encoding"
          }
        return invalidUTF8(problem, at: index..<index + 2)
      }
      guard byte & 0xC0 == 0x80 else { return invalidUTF8("truncated sequence", at: index..<index + offset) }
    }
    preconditionFailure("utf8Error(at:) called on a well-formed sequence")
  }

  private mutating func invalidUTF8(_ problem: String, at range: Range<Int>) -> InboxFormatError {
    let sequence = range.map { "0x\(hex(bytes[$0], digits: 2))" }.joined(separator: " ")
    return syntaxError("invalid UTF-8: \(problem) \(sequence)", expected: "valid UTF-8 text", at: range.lowerBound)
  }

  /// Checks the escape whose backslash is at `index`; returns the offset after it.
  private mutating func scanEscape(at index: Int) throws(InboxFormatError) -> Int {
    guard index + 1 < bytes.count else {
      throw unexpectedEnd(expected: "an escape character")
    }
    switch bytes[index + 1] {
    case .quote, .backslash, .slash, UInt8(ascii: "b"), UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"),
      UInt8(ascii: "t"):
      return index + 2
    case UInt8(ascii: "u"):
      return try scanUnicodeEscape(at: index).next
    default:
      throw syntaxError(
        "invalid escape \(describeCharacter(at: index + 1, prefix: "\\"))",
        expected: "one of \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX", at: index)
    }
  }

  /// Reads `\uXXXX` at `index`, and its low half after a high surrogate.
  private mutating func scanUnicodeEscape(at index: Int) throws(InboxFormatError) -> (scalar: Unicode.Scalar, next: Int)
  {
    let unit = try hexQuad(at: index + 2)
    switch unit {
    case 0xD800...0xDBFF:
      let lowStart = index + 6
      guard lowStart + 1 < bytes.count, bytes[lowStart] == .backslash, bytes[lowStart + 1] == UInt8(ascii: "u"),
        case let low = try hexQuad(at: lowStart + 2), (0xDC00...0xDFFF).contains(low)
      else {
        throw syntaxError(
          "lone surrogate \\u\(hex(unit, digits: 4))", expected: "a low surrogate escape (\\uDC00–\\uDFFF) after it",
          at: index)
      }
      let scalar = Unicode.Scalar(0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00))!
      return (scalar, lowStart + 6)
    case 0xDC00...0xDFFF:
      throw syntaxError(
        "lone surrogate \\u\(hex(unit, digits: 4))", expected: "a high surrogate escape (\\uD800–\\uDBFF) before it",
        at: index)
    default:
      return (Unicode.Scalar(unit)!, index + 6)
    }
  }

  private mutating func hexQuad(at start: Int) throws(InboxFormatError) -> UInt16 {
    var value: UInt16 = 0
    for index in start..<start + 4 {
      guard index < bytes.count else {
        throw unexpectedEnd(expected: "4 hexadecimal digits after \\u")
      }
      let byte = bytes[index]
      let digit: UInt8
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
      default:
        throw syntaxError(
          "invalid \\u escape: \(describeCharacter(at: index))", expected: "4 hexadecimal digits after \\u", at: index)
      }
      value = value << 4 | UInt16(digit)
    }
    return value
  }

  /// Creates the `String` a scanned token holds.
  mutating func string(_ token: StringToken) throws(InboxFormatError) -> String {
    if !token.hasEscapes {
      // The scan validated these bytes; `unchecked` skips a second pass.
      let contents = UnsafeBufferPointer(rebasing: bytes[token.range])
      return String(copying: UTF8Span(unchecked: contents.span, isKnownASCII: token.isASCII))
    }
    unescaped.removeAll(keepingCapacity: true)
    var index = token.start
    while index < token.end {
      let runStart = index
      while index < token.end, bytes[index] != .backslash { index += 1 }
      unescaped.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
      guard index < token.end else { break }
      let (scalar, next) = try unescape(at: index)
      unescaped.append(contentsOf: UTF8.encode(scalar)!)
      index = next
    }
    return String(decoding: unescaped, as: UTF8.self)
  }

  /// Whether a scanned string holds exactly `key` (ASCII); compares bytes
  /// unless escapes must be decoded first.
  mutating func contents(of token: StringToken, equal key: StaticString) throws(InboxFormatError) -> Bool {
    if token.hasEscapes { return try string(token) == key.description }
    return token.end - token.start == key.utf8CodeUnitCount && bytes(at: token.start, equal: key)
  }

  /// Consumes `"key"` when it comes next, exactly: the fast path for the
  /// keys a reader knows, which skips the general string scan.
  @inline(__always)
  mutating func consumeQuoted(_ key: StaticString) -> Bool {
    let closingQuote = position + 1 + key.utf8CodeUnitCount
    guard closingQuote < bytes.count, bytes[position] == .quote, bytes[closingQuote] == .quote,
      bytes(at: position + 1, equal: key)
    else { return false }
    position = closingQuote + 1
    return true
  }

  /// Whether the bytes from `offset` spell `key`; the caller checks that
  /// they exist (``sameBytes(_:_:count:)``).
  @inline(__always)
  private func bytes(at offset: Int, equal key: StaticString) -> Bool {
    guard let address = bytes.baseAddress else { return false }
    return sameBytes(address + offset, key.utf8Start, count: key.utf8CodeUnitCount)
  }

  /// The byte at `offset`, or 0 past the end.
  @inline(__always)
  func byte(at offset: Int) -> UInt8 {
    offset < bytes.count ? bytes[offset] : 0
  }

  /// Decodes the escape at `index` (already checked by the scan).
  private mutating func unescape(at index: Int) throws(InboxFormatError) -> (Unicode.Scalar, Int) {
    let simple: Unicode.Scalar
    switch bytes[index + 1] {
    case UInt8(ascii: "b"): simple = "\u{8}"
    case UInt8(ascii: "f"): simple = "\u{C}"
    case UInt8(ascii: "n"): simple = "\n"
    case UInt8(ascii: "r"): simple = "\r"
    case UInt8(ascii: "t"): simple = "\t"
    case UInt8(ascii: "u"): return try scanUnicodeEscape(at: index)
    case let byte: simple = Unicode.Scalar(byte)
    }
    return (simple, index + 2)
  }

  // MARK: Numbers

  /// A scanned number, classified for fields that need a 64-bit integer.
  enum NumberToken {
    case integer(Int64)
    case nonInteger
    case outOfRange
  }

  /// Scans the number at `position` (strict JSON grammar) and moves past it.
  mutating func scanNumber() throws(InboxFormatError) -> NumberToken {
    let isNegative = current == .minus
    if isNegative { position += 1 }
    // The magnitude limit: |Int64.min| for negatives, Int64.max otherwise.
    let limit: UInt64 = isNegative ? UInt64(Int64.max) + 1 : UInt64(Int64.max)
    var magnitude: UInt64 = 0
    var overflowed = false
    switch current {
    case UInt8(ascii: "0"):
      position += 1
      if case UInt8(ascii: "0")...UInt8(ascii: "9") = current {
        throw syntaxError(
          "leading zeros are not allowed in numbers", expected: "a number without leading zeros", at: position - 1)
      }
    case UInt8(ascii: "1")...UInt8(ascii: "9"):
      // Eighteen digits stay below 10^18, under either limit: only the
      // digits after them are checked for overflow.
      let unchecked = position + 18
      while position < bytes.count, case let digit = bytes[position] &- UInt8(ascii: "0"), digit < 10 {
        if position < unchecked {
          magnitude = magnitude &* 10 &+ UInt64(digit)
        } else if !overflowed {
          if magnitude > (limit - UInt64(digit)) / 10 {
            overflowed = true
          } else {
            magnitude = magnitude * 10 + UInt64(digit)
          }
        }
        position += 1
      }
    default:
      throw unexpected(expected: "a digit")
    }
    var isInteger = true
    if current == .period {
      position += 1
      try scanDigits(after: "the decimal point")
      isInteger = false
    }
    if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
      position += 1
      if current == .plus || current == .minus { position += 1 }
      try scanDigits(after: "the exponent")
      isInteger = false
    }
    guard isInteger else { return .nonInteger }
    guard !overflowed else { return .outOfRange }
    return .integer(isNegative ? Int64(bitPattern: 0 &- magnitude) : Int64(magnitude))
  }

  private mutating func scanDigits(after what: String) throws(InboxFormatError) {
    guard case UInt8(ascii: "0")...UInt8(ascii: "9") = current else {
      throw unexpected(expected: "a digit after \(what)")
    }
    while position < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position]) { position += 1 }
  }

  /// The source text of the bytes in `range`, for messages.
  func text(_ range: Range<Int>) -> String {
    String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
  }

  // MARK: Literals and skipping

  /// Consumes `true`, `false` or `null` at `position`.
  mutating func scanLiteral(_ literal: StaticString) throws(InboxFormatError) {
    for offset in 0..<literal.utf8CodeUnitCount {
      guard current == literal.utf8Start[offset] else { throw unexpected(expected: "\"\(literal)\"") }
      position += 1
    }
  }

  /// Skips the value at `position`, which `depth` containers enclose.
  ///
  /// Iterative, with the open containers on an explicit stack, so deeply
  /// nested input fails cleanly at ``maximumDepth`` instead of exhausting
  /// the call stack.
  mutating func skipValue(depth: Int) throws(InboxFormatError) {
    // Empty after every skip that ended well: emptied only after one that threw.
    switch current {
    case .openBrace, .openBracket: break
    case .quote:
      // A string alone, the most common value skipped, needs no stack.
      _ = try scanString()
      return
    default:
      try skipScalar()
      return
    }
    if !skipStack.isEmpty { skipStack.removeAll(keepingCapacity: true) }
    while true {
      let opening = current
      if opening == .openBrace || opening == .openBracket {
        guard depth + skipStack.count < Self.maximumDepth else {
          throw syntaxError(
            "nesting deeper than \(Self.maximumDepth) levels", expected: "fewer nested arrays and objects", at: position
          )
        }
        let isObject = opening == .openBrace
        position += 1
        skipWhitespace()
        if current == (isObject ? .closeBrace : .closeBracket) {
          position += 1
        } else {
          skipStack.append(isObject)
          if isObject { try skipKeyAndColon() }
          continue
        }
      } else {
        try skipScalar()
      }
      // A value is complete: close the containers it completes, or move to
      // the next element of the innermost one.
      while let isObject = skipStack.last {
        skipWhitespace()
        let closing: UInt8 = isObject ? .closeBrace : .closeBracket
        if current == .comma {
          position += 1
          skipWhitespace()
          try rejectTrailingComma(closing: closing)
          if isObject { try skipKeyAndColon() }
          break
        }
        guard current == closing else {
          throw unexpected(expected: isObject ? "\",\" or \"}\"" : "\",\" or \"]\"")
        }
        position += 1
        skipStack.removeLast()
      }
      if skipStack.isEmpty { return }
    }
  }

  private mutating func skipScalar() throws(InboxFormatError) {
    switch current {
    case .quote: _ = try scanString()
    case .minus, UInt8(ascii: "0")...UInt8(ascii: "9"): _ = try scanNumber()
    case UInt8(ascii: "t"): try scanLiteral("true")
    case UInt8(ascii: "f"): try scanLiteral("false")
    case UInt8(ascii: "n"): try scanLiteral("null")
    default: throw unexpected(expected: "a value")
    }
  }

  /// Skips `"key" :` and the whitespace after it.
  private mutating func skipKeyAndColon() throws(InboxFormatError) {
    guard current == .quote else { throw unexpected(expected: "a key (a string in double quotes)") }
    _ = try scanString()
    try consumeColon()
  }

  // MARK: Errors and locations

  /// A syntax error for the end of the input; kept out of line for the
  /// loops that check for the end.
  @inline(never)
  mutating func unexpectedEnd(expected: String) -> InboxFormatError {
    syntaxError("unexpected end of input", expected: expected, at: bytes.count)
  }

  /// A syntax error at `offset`.
  mutating func syntaxError(_ reason: String, expected: String, at offset: Int) -> InboxFormatError {
    .syntax(reason: reason, expected: expected, location: location(at: offset))
  }

  /// A syntax error for whatever is at `position`: the end of input, an
  /// invalid UTF-8 sequence, or an unexpected character.
  mutating func unexpected(expected: String) -> InboxFormatError {
    guard !isAtEnd else { return unexpectedEnd(expected: expected) }
    if endOfUTF8Sequence(at: position) == nil { return utf8Error(at: position) }
    return syntaxError("unexpected character \(describeCharacter(at: position))", expected: expected, at: position)
  }

  /// The bytes of the UTF-8 sequence starting at `index`, as its lead byte
  /// announces it (cut at the end of input).
  private func characterRange(at index: Int) -> Range<Int> {
    let length =
      switch bytes[index] {
      case 0xC0...0xDF: 2
      case 0xE0...0xEF: 3
      case 0xF0...0xF7: 4
      default: 1
      }
    // Only the continuation bytes that follow belong to it: a broken
    // sequence ends where they stop (never past a line break, so that an
    // NDJSON line reads the same alone or in its input).
    var end = index + 1
    while end < min(index + length, bytes.count), bytes[end] & 0xC0 == 0x80 { end += 1 }
    return index..<end
  }

  /// The character at `index`, quoted for a message (escaped if invisible).
  private func describeCharacter(at index: Int, prefix: String = "") -> String {
    quoted(prefix + text(characterRange(at: index)))
  }

  /// A position with its line and column, for computing locations.
  private struct LineCursor {
    var offset: Int
    var line: Int
    var column: Int
  }

  /// The line and column of `offset`: the rule of
  /// ``InputLocation/init(offset:in:)``, over the text after any byte order mark.
  ///
  /// Counts from the last location computed: forward when `offset` lies
  /// after it, so reporting many errors in input order stays linear
  /// overall; back to the start of `offset`'s line when before it, so a
  /// location just before the last one costs the distance, not the input.
  mutating func location(at offset: Int) -> InputLocation {
    var cursor = lineCursor
    if offset < cursor.offset {
      var lineStart = offset
      while lineStart > startOfText.offset, bytes[lineStart - 1] != .lineFeed { lineStart -= 1 }
      let lineBreaks = bytes[lineStart..<cursor.offset].count { $0 == .lineFeed }
      cursor = LineCursor(offset: lineStart, line: cursor.line - lineBreaks, column: 1)
    }
    while cursor.offset < offset {
      // Sixteen bytes at a time up to the next line feed: locating every
      // skipped item of a large input reads it all.
      var columns = 0
      cursor.offset += inbox_columns(bytes.baseAddress! + cursor.offset, offset - cursor.offset, &columns)
      cursor.column += columns
      if cursor.offset < offset {
        // At a line feed.
        cursor.line += 1
        cursor.column = 1
        cursor.offset += 1
      }
    }
    lineCursor = cursor
    return InputLocation(line: cursor.line, column: cursor.column, byteOffset: origin.byteOffset + cursor.offset)
  }
}

/// The kind of a JSON value, told by its first byte, for messages.
enum JSONValueKind: CustomStringConvertible {
  case object, array, string, number, boolean, null

  init?(firstByte: UInt8) {
    switch firstByte {
    case .openBrace: self = .object
    case .openBracket: self = .array
    case .quote: self = .string
    case .minus, UInt8(ascii: "0")...UInt8(ascii: "9"): self = .number
    case UInt8(ascii: "t"), UInt8(ascii: "f"): self = .boolean
    case UInt8(ascii: "n"): self = .null
    default: return nil
    }
  }

  var description: String {
    switch self {
    case .object: "an object"
    case .array: "an array"
    case .string: "a string"
    case .number: "a number"
    case .boolean: "a boolean"
    case .null: "null"
    }
  }
}

/// `value` in upper-case hexadecimal, zero-padded to `digits`.
private func hex(_ value: some BinaryInteger, digits: Int) -> String {
  let text = String(value, radix: 16, uppercase: true)
  return String(repeating: "0", count: max(0, digits - text.count)) + text
}

extension UInt8 {
  fileprivate static var quote: UInt8 { 0x22 }
  fileprivate static var backslash: UInt8 { 0x5C }
  fileprivate static var slash: UInt8 { 0x2F }
  fileprivate static var openBrace: UInt8 { 0x7B }
  fileprivate static var closeBrace: UInt8 { 0x7D }
  fileprivate static var openBracket: UInt8 { 0x5B }
  fileprivate static var closeBracket: UInt8 { 0x5D }
  fileprivate static var colon: UInt8 { 0x3A }
  fileprivate static var comma: UInt8 { 0x2C }
  fileprivate static var minus: UInt8 { 0x2D }
  fileprivate static var plus: UInt8 { 0x2B }
  fileprivate static var period: UInt8 { 0x2E }
  fileprivate static var space: UInt8 { 0x20 }
  fileprivate static var tab: UInt8 { 0x09 }
  fileprivate static var lineFeed: UInt8 { 0x0A }
  fileprivate static var carriageReturn: UInt8 { 0x0D }
}
