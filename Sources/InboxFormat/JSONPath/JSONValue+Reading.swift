extension JSONValue {
  /// Reads a whole JSON text: one value, with whitespace around it (and a
  /// UTF-8 byte order mark before it) and nothing else.
  ///
  /// Errors are ``InboxFormatError/syntax(reason:expected:location:)``,
  /// located as the payload reader locates them. Containers nested deeper
  /// than ``JSONScanner/maximumDepth`` are refused.
  static func read(from bytes: UnsafeBufferPointer<UInt8>) throws(InboxFormatError) -> JSONValue {
    var scanner = JSONScanner(bytes: bytes)
    scanner.skipWhitespace()
    if scanner.isAtEnd { throw .emptyInput }
    let value = try scanner.readValue(depth: 0)
    scanner.skipWhitespace()
    guard scanner.isAtEnd else { throw scanner.unexpected(expected: "the end of the input after the value") }
    return value
  }

  /// Reads the one value that fills `range` of `bytes` (whitespace around it
  /// allowed): the tree of an item or a member that a byte walker found.
  ///
  /// `bytes` is the buffer `range` lies in, whose first byte is at `origin`
  /// in the input and starts a line; locations in errors count from there,
  /// so they name the place in the whole input. Nothing past `range` is read.
  static func read(
    from bytes: UnsafeBufferPointer<UInt8>, at range: Range<Int>,
    origin: InputLocation = InputLocation(line: 1, column: 1, byteOffset: 0)
  ) throws(InboxFormatError) -> JSONValue {
    precondition(range.lowerBound >= 0 && range.upperBound <= bytes.count, "range outside the buffer")
    var scanner = JSONScanner(bytes: UnsafeBufferPointer(rebasing: bytes[..<range.upperBound]), origin: origin)
    scanner.position = range.lowerBound
    scanner.skipWhitespace()
    let value = try scanner.readValue(depth: 0)
    scanner.skipWhitespace()
    guard scanner.isAtEnd else { throw scanner.unexpected(expected: "the end of the value") }
    return value
  }

  /// Reads a whole JSON text held in `bytes`.
  static func read(from bytes: [UInt8]) throws(InboxFormatError) -> JSONValue {
    try bytes.withUnsafeBufferPointer { (buffer) throws(InboxFormatError) in try read(from: buffer) }
  }
}

extension JSONScanner {
  /// Reads the value at `position` into a tree; `depth` containers enclose it.
  ///
  /// Recursive, one call per level of nesting, which ``maximumDepth`` bounds
  /// well within any thread's stack.
  mutating func readValue(depth: Int) throws(InboxFormatError) -> JSONValue {
    switch current {
    case 0x7B:  // {
      try checkDepth(depth)
      position += 1
      skipWhitespace()
      var object = JSONObject()
      if current == 0x7D {
        position += 1
        return .object(object)
      }
      while true {
        guard current == 0x22 else { throw unexpected(expected: "a key (a string in double quotes)") }
        let key = try string(try scanString())
        try consumeColon()
        object[key] = try readValue(depth: depth + 1)
        skipWhitespace()
        if current == 0x2C {
          position += 1
          skipWhitespace()
          try rejectTrailingComma(closing: 0x7D)
          continue
        }
        try expect(0x7D, "\",\" or \"}\"")
        return .object(object)
      }
    case 0x5B:  // [
      try checkDepth(depth)
      position += 1
      skipWhitespace()
      var elements: [JSONValue] = []
      if current == 0x5D {
        position += 1
        return .array(elements)
      }
      while true {
        elements.append(try readValue(depth: depth + 1))
        skipWhitespace()
        if current == 0x2C {
          position += 1
          skipWhitespace()
          try rejectTrailingComma(closing: 0x5D)
          continue
        }
        try expect(0x5D, "\",\" or \"]\"")
        return .array(elements)
      }
    case 0x22:
      return .string(try string(try scanString()))
    case 0x2D, 0x30...0x39:
      let start = position
      let token = try scanNumber()
      let int64: Int64? = if case .integer(let value) = token { value } else { nil }
      return .number(JSONNumber(text: text(start..<position), int64: int64))
    case UInt8(ascii: "t"):
      try scanLiteral("true")
      return .bool(true)
    case UInt8(ascii: "f"):
      try scanLiteral("false")
      return .bool(false)
    case UInt8(ascii: "n"):
      try scanLiteral("null")
      return .null
    default:
      throw unexpected(expected: "a value")
    }
  }

  private mutating func checkDepth(_ depth: Int) throws(InboxFormatError) {
    guard depth < Self.maximumDepth else {
      throw syntaxError(
        "nesting deeper than \(Self.maximumDepth) levels", expected: "fewer nested arrays and objects", at: position)
    }
  }
}
