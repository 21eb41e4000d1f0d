import Foundation

/// Reads an inbox payload one message at a time, straight from its bytes.
///
/// The first value decides the form: an object whose `items` key comes
/// before any `id` key is the payload (its `items` array holds the
/// messages); a bare array holds messages; any other object starts NDJSON
/// (one message object per line, blank lines skipped; a message that goes on
/// past a line break is a broken line), so a message may have a key called
/// `items` like any other unknown key.
///
/// Problems with one message (a missing field, a wrong type, a bad date, a
/// number out of range) are thrown after the whole message has been read, so
/// the next call continues with the next message. In NDJSON a syntax error is
/// recoverable too: reading resumes on the line after the message's first
/// line, unless the line holds a NUL byte, which no text has (the input is
/// binary). Any other error is fatal: every later call throws it again.
///
/// ```swift
/// try bytes.withUnsafeBufferPointer { buffer throws(InboxFormatError) in
///   var reader = InboxReader(bytes: buffer)
///   while let message = try reader.next() { print(message.id) }
/// }
/// ```
struct InboxReader {
  enum Form: Equatable {
    /// `{"items": [...]}`.
    case payload
    /// `[...]`.
    case array
    /// One message object per line.
    case ndjson
  }

  /// The input's form, once the first call to ``next()`` has found it.
  private(set) var form: Form?
  /// The fatal error that ended reading, if one has.
  private(set) var failure: InboxFormatError?

  /// The scanner over the input (``StretchReader``'s, for the stretches' loop).
  var scanner: JSONScanner
  private var phase = Phase.start
  private var nextIndex = 0
  /// Where the array's first item starts, once it has been read.
  private(set) var firstItemStart: Int?

  private enum Phase {
    case start
    case arrayElements(isFirst: Bool)
    case lines
    case finished
  }

  /// The recoverable problem with the item the last step read, instead of
  /// a message. (Kept aside rather than returned in a `Result`, so that
  /// messages are not copied through a larger enum on the hot path.)
  private var itemProblem: InboxFormatError?

  /// The message the last step read, when it read one. (Kept here rather
  /// than returned, so that it is not copied at every level of the descent.)
  private var lastRead = RawMessage(
    id: .integer(0), firstname: nil, lastname: nil, message: nil, phoneNumber: nil,
    updateDate: Date(timeIntervalSince1970: 0), unreadCount: 0)

  /// Creates a reader over `bytes`, which must outlive it.
  init(bytes: UnsafeBufferPointer<UInt8>) {
    scanner = JSONScanner(bytes: bytes)
  }

  /// Creates a reader over whole lines of NDJSON that continue an input:
  /// they start at line `origin.line`, byte `origin.byteOffset`, and their
  /// first message is the input's message number `firstIndex`.
  ///
  /// This is how NDJSON of any length is read in bounded memory, one piece
  /// at a time, with locations and paths that still point into the whole input.
  init(ndjsonLines bytes: UnsafeBufferPointer<UInt8>, origin: InputLocation, firstIndex: Int) {
    scanner = JSONScanner(bytes: bytes, origin: origin)
    form = .ndjson
    phase = .lines
    nextIndex = firstIndex
  }

  /// How many items (messages and skipped ones) have been read so far, counting from the input's first.
  var itemCount: Int { nextIndex }

  /// Whether a fatal error has ended reading.
  var hasFailed: Bool { failure != nil }

  /// The next message, or `nil` at the end of the input.
  ///
  /// After a recoverable error (``hasFailed`` is false) the following call
  /// goes on with the next item.
  mutating func next() throws(InboxFormatError) -> MessageAPIModel? {
    guard try readNext() else { return nil }
    return try lastRead.decoded(by: &scanner)
  }

  /// Appends the next message to `messages`, left in the input when its
  /// texts need no unescaping, otherwise as ``next()``; false at the end of
  /// the input.
  mutating func appendNext(to messages: inout PendingMessages) throws(InboxFormatError) -> Bool {
    guard try readNext() else { return false }
    try appendLastRead(to: &messages)
    return true
  }

  /// Appends ``lastRead``: as it lies in the input when its texts need no
  /// unescaping, otherwise read into `String`s.
  private mutating func appendLastRead(to messages: inout PendingMessages) throws(InboxFormatError) {
    if lastRead.hasPlainTexts {
      messages.append(lastRead)
    } else {
      messages.append(try lastRead.decoded(by: &scanner))
    }
  }

  /// Reads the next message into ``lastRead``, as it lies in the input, its
  /// texts not yet copied out (see ``RawMessage``); false at the end of the
  /// input. Errors as ``next()``.
  private mutating func readNext() throws(InboxFormatError) -> Bool {
    if let failure { throw failure }
    let hasMessage: Bool
    do {
      hasMessage = try readStep()
    } catch {
      failure = error
      throw error
    }
    if let problem = itemProblem {
      itemProblem = nil
      throw problem
    }
    return hasMessage
  }

  /// Reads one item into ``lastRead``: true for a message; false at the end
  /// or with ``itemProblem`` set. Throws only fatal errors.
  private mutating func readStep() throws(InboxFormatError) -> Bool {
    switch phase {
    case .start: return try readFirstValue()
    case .arrayElements(let isFirst): return try readArrayElement(isFirst: isFirst)
    case .lines: return try readLine()
    case .finished: return false
    }
  }

  // MARK: Stretches (``StretchReader``)

  mutating func commaAfterItem() -> Int? {
    guard case .arrayElements(isFirst: false) = phase else { return nil }
    scanner.skipWhitespace()
    return scanner.current == UInt8(ascii: ",") ? scanner.position : nil
  }

  mutating func resume(at offset: Int, itemCount: Int) {
    scanner.position = offset
    phase = .arrayElements(isFirst: false)
    nextIndex = itemCount
  }

  var stretchItemDepth: Int? {
    guard form == .payload || form == .array, failure == nil else { return nil }
    return form == .payload ? 2 : 1
  }

  mutating func appendItem(depth: Int, to messages: inout PendingMessages) throws(InboxFormatError) -> Bool {
    guard try readItem(index: nextIndex, depth: depth) else {
      itemProblem = nil
      return false
    }
    try appendLastRead(to: &messages)
    return true
  }

  // MARK: Form

  private mutating func readFirstValue() throws(InboxFormatError) -> Bool {
    scanner.skipWhitespace()
    guard !scanner.isAtEnd else { throw .emptyInput }
    switch scanner.current {
    case UInt8(ascii: "["):
      scanner.position += 1
      form = .array
      phase = .arrayElements(isFirst: true)
    case UInt8(ascii: "{"):
      let objectStart = scanner.position
      do {
        if try findItemsArray() {
          phase = .arrayElements(isFirst: true)
        } else {
          // No "items": the object is the first NDJSON message; read it again as one.
          scanner.position = objectStart
          form = .ndjson
          phase = .lines
        }
      } catch {
        // A syntax error before any "items" key, on the object's first line,
        // is a broken first NDJSON line; past a line break it is a broken
        // payload (NDJSON messages never span lines).
        guard form == nil, case .syntax(_, _, let location) = error,
          !scanner.containsLineFeed(objectStart..<location.byteOffset)
        else { throw error }
        form = .ndjson
        phase = .lines
        nextIndex = 1
        // A line with a NUL fails the input, as in ``readLine()``.
        let lineEnd = scanner.lineFeed(from: objectStart) ?? scanner.bytes.count
        if scanner.containsNUL(objectStart..<lineEnd) { throw Self.brokenLine(error, index: 0) }
        scanner.moveToNextLine(from: objectStart)
        itemProblem = Self.brokenLine(error, index: 0)
        return false
      }
    default:
      guard let kind = JSONValueKind(firstByte: scanner.current) else {
        throw scanner.unexpected(expected: "a JSON object or array")
      }
      throw .unexpectedShape(
        path: "top-level value", found: kind.description, location: scanner.location(at: scanner.position))
    }
    return try readStep()
  }

  /// Reads the top-level object's keys up to `items` and moves into its
  /// array, setting ``form``; returns false when the object has no `items`
  /// key, or an `id` key before it (it is a message).
  private mutating func findItemsArray() throws(InboxFormatError) -> Bool {
    scanner.position += 1
    scanner.skipWhitespace()
    if scanner.current == UInt8(ascii: "}") { return false }
    while true {
      let key = try readKey()
      if try scanner.contents(of: key, equal: "id") { return false }
      if try scanner.contents(of: key, equal: "items") {
        form = .payload
        guard scanner.current == UInt8(ascii: "[") else {
          guard let kind = JSONValueKind(firstByte: scanner.current) else {
            throw scanner.unexpected(expected: "an array of messages")
          }
          throw .unexpectedShape(
            path: "items", found: kind.description, location: scanner.location(at: scanner.position))
        }
        scanner.position += 1
        return true
      }
      try scanner.skipValue(depth: 1)
      scanner.skipWhitespace()
      guard try scanner.moveToNextMember(closing: UInt8(ascii: "}")) else { return false }
    }
  }

  /// After the payload's `items` array: skips the other keys and checks that
  /// nothing follows the object.
  private mutating func finishPayload() throws(InboxFormatError) {
    while true {
      scanner.skipWhitespace()
      guard try scanner.moveToNextMember(closing: UInt8(ascii: "}")) else { break }
      let keyStart = scanner.position
      if try readKey(isNamed: "items") {
        // The items were already handed out; a second array cannot replace them.
        throw .unexpectedShape(path: "items", found: "a second \"items\" key", location: scanner.location(at: keyStart))
      }
      try scanner.skipValue(depth: 1)
    }
    try expectEndOfInput()
  }

  private mutating func expectEndOfInput() throws(InboxFormatError) {
    scanner.skipWhitespace()
    guard scanner.isAtEnd else {
      throw scanner.syntaxError(
        "trailing data after the JSON document", expected: "the end of the input", at: scanner.position)
    }
  }

  // MARK: Items

  private mutating func readArrayElement(isFirst: Bool) throws(InboxFormatError) -> Bool {
    scanner.skipWhitespace()
    let hasElement =
      isFirst ? scanner.current != UInt8(ascii: "]") : try scanner.moveToNextMember(closing: UInt8(ascii: "]"))
    guard hasElement else {
      if isFirst { scanner.position += 1 }
      if form == .payload { try finishPayload() } else { try expectEndOfInput() }
      phase = .finished
      return false
    }
    phase = .arrayElements(isFirst: false)
    let index = nextIndex
    nextIndex += 1
    if isFirst { firstItemStart = scanner.position }
    return try readItem(index: index, depth: form == .payload ? 2 : 1)
  }

  private mutating func readLine() throws(InboxFormatError) -> Bool {
    scanner.skipWhitespace()
    guard !scanner.isAtEnd else {
      phase = .finished
      return false
    }
    let start = scanner.position
    let index = nextIndex
    nextIndex += 1
    do throws(InboxFormatError) {
      let hasMessage = try readItem(index: index, depth: 0)
      // A line holds one message, so that NDJSON reads the same whole or in
      // pieces of lines: one that goes on past a line break is broken there.
      if let lineFeed = scanner.lineFeed(from: start), lineFeed < scanner.position {
        itemProblem = nil
        throw scanner.syntaxError("unexpected end of line", expected: Self.restOfTheLine, at: lineFeed)
      }
      scanner.skipWhitespaceOnLine()
      guard scanner.isAtEnd || scanner.current == UInt8(ascii: "\n") else {
        // The line is broken: its syntax error replaces any item problem.
        itemProblem = nil
        throw scanner.unexpected(expected: "a line break after the message")
      }
      return hasMessage
    } catch {
      let lineEnd = scanner.lineFeed(from: start) ?? scanner.bytes.count
      if scanner.containsNUL(start..<lineEnd) { throw Self.brokenLine(error, index: index) }
      itemProblem = error
      // A line holds one message: when a line break interrupts one, the
      // line is what is broken, at its end, even if reading on only failed
      // lines later. The error then names the line that is skipped.
      if case .syntax(_, _, let location) = error, let lineFeed = scanner.lineFeed(from: start) {
        let lineEnd = scanner.location(at: lineFeed)
        if location.byteOffset > lineEnd.byteOffset {
          itemProblem = .syntax(reason: "unexpected end of line", expected: Self.restOfTheLine, location: lineEnd)
        }
      }
      itemProblem = itemProblem.map { Self.brokenLine($0, index: index) }
      scanner.moveToNextLine(from: start)
      return false
    }
  }

  /// A syntax error in a line of NDJSON, as the broken line it makes.
  private static func brokenLine(_ error: InboxFormatError, index: Int) -> InboxFormatError {
    guard case .syntax(let reason, let expected, let location) = error else { return error }
    return .brokenLine(index: index, reason: reason, expected: expected, location: location)
  }

  private static let restOfTheLine = "the rest of the message on the same line (NDJSON holds one message per line)"

  /// Reads the item at the scanner's position, which `depth` containers
  /// enclose. Throws syntax errors; an item-level problem goes to
  /// ``itemProblem``, after the whole item has been consumed.
  private mutating func readItem(index: Int, depth: Int) throws(InboxFormatError) -> Bool {
    let start = scanner.position
    if scanner.current == UInt8(ascii: "{") {
      return try readMessage(index: index, start: start, depth: depth)
    }
    guard let kind = JSONValueKind(firstByte: scanner.current) else {
      throw scanner.unexpected(expected: "a message object")
    }
    try scanner.skipValue(depth: depth)
    let item = itemReference(index: index, id: nil, start: start)
    itemProblem = .typeMismatch(
      item: item, field: "", expected: "a message object", found: kind.description, location: item.location)
    return false
  }

  private mutating func itemReference(index: Int, id: MessageID?, start: Int) -> ItemReference {
    let path = form == .payload ? "items[\(index)]" : "[\(index)]"
    return ItemReference(path: path, index: index, id: id, location: scanner.location(at: start))
  }

  /// The keys a message object may hold; any other is skipped.
  private enum MessageField: CaseIterable {
    case id, firstname, lastname, message, phoneNumber, updateDate, unreadCount

    var key: StaticString {
      switch self {
      case .id: "id"
      case .firstname: "firstname"
      case .lastname: "lastname"
      case .message: "message"
      case .phoneNumber: "phone_number"
      case .updateDate: "update_date"
      case .unreadCount: "unread_count"
      }
    }
  }

  /// A problem with one field, kept until the message has been read: a
  /// later duplicate key replaces it, and the reference needs the `id`.
  private struct FieldProblem {
    enum Kind {
      case typeMismatch(expected: String, found: String)
      case invalidDate(value: String, reason: String)
      case outOfRange(value: String)
    }

    /// The message key the problem belongs to.
    var field: MessageField
    /// The path reported, e.g. `phone_number.international`.
    var path: String
    /// Where the offending value starts.
    var offset: Int
    var kind: Kind

    func error(item: ItemReference, location: InputLocation) -> InboxFormatError {
      switch kind {
      case .typeMismatch(let expected, let found):
        .typeMismatch(item: item, field: path, expected: expected, found: found, location: location)
      case .invalidDate(let value, let reason):
        .invalidDate(item: item, value: value, reason: reason, location: location)
      case .outOfRange(let value):
        .numberOutOfRange(item: item, field: path, value: value, location: location)
      }
    }
  }

  private mutating func readMessage(index: Int, start: Int, depth: Int) throws(InboxFormatError) -> Bool {
    var id: RawMessage.ID?
    var firstname: JSONScanner.StringToken?
    var lastname: JSONScanner.StringToken?
    var message: JSONScanner.StringToken?
    var phoneNumber: JSONScanner.StringToken?
    var updateDate: Date?
    var unreadCount: Int64 = 0
    var problems: [FieldProblem] = []

    scanner.position += 1
    scanner.skipWhitespace()
    var hasMember = scanner.current != UInt8(ascii: "}")
    if !hasMember { scanner.position += 1 }
    while hasMember {
      let field = try readMessageKey()
      if let field, !problems.isEmpty {
        // The last of duplicate keys wins, with its problems.
        problems.removeAll { $0.field == field }
      }
      switch field {
      case .id:
        id = nil
        switch scanner.current {
        case UInt8(ascii: "\""): id = .text(try scanner.scanString())
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
          if let problem = try readInteger(into: .id, expected: "an integer or a string", value: { id = .integer($0) })
          {
            problems.append(problem)
          }
        case UInt8(ascii: "n"): try scanner.scanLiteral("null")
        default: problems.append(try skipMismatch(.id, expected: "an integer or a string", depth: depth + 1))
        }
      case .firstname: firstname = try readOptionalString(.firstname, depth: depth + 1, problems: &problems)
      case .lastname: lastname = try readOptionalString(.lastname, depth: depth + 1, problems: &problems)
      case .message: message = try readOptionalString(.message, depth: depth + 1, problems: &problems)
      case .phoneNumber:
        phoneNumber = nil
        switch scanner.current {
        case UInt8(ascii: "{"): phoneNumber = try readPhoneNumber(depth: depth + 2, problems: &problems)
        case UInt8(ascii: "n"): try scanner.scanLiteral("null")
        default: problems.append(try skipMismatch(.phoneNumber, expected: "an object", depth: depth + 1))
        }
      case .updateDate:
        updateDate = nil
        switch scanner.current {
        case UInt8(ascii: "\""):
          if let problem = try readDate(into: &updateDate) { problems.append(problem) }
        case UInt8(ascii: "n"): try scanner.scanLiteral("null")
        default:
          problems.append(try skipMismatch(.updateDate, expected: "an RFC 3339 date-time string", depth: depth + 1))
        }
      case .unreadCount:
        unreadCount = 0
        switch scanner.current {
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
          if let problem = try readInteger(into: .unreadCount, expected: "an integer", value: { unreadCount = $0 }) {
            problems.append(problem)
          }
        case UInt8(ascii: "n"): try scanner.scanLiteral("null")
        default: problems.append(try skipMismatch(.unreadCount, expected: "an integer", depth: depth + 1))
        }
      case nil:
        try scanner.skipValue(depth: depth + 1)
      }
      scanner.skipWhitespace()
      hasMember = try scanner.moveToNextMember(closing: UInt8(ascii: "}"))
    }

    if problems.isEmpty, let id, let updateDate {
      lastRead = RawMessage(
        id: id, firstname: firstname, lastname: lastname, message: message, phoneNumber: phoneNumber,
        updateDate: updateDate, unreadCount: unreadCount)
      return true
    }
    // Locations are computed in input order (item, then value) to keep the
    // scanner's line counting incremental.
    let item = itemReference(index: index, id: try id?.messageID(by: &scanner), start: start)
    if let problem = problems.min(by: { $0.offset < $1.offset }) {
      itemProblem = problem.error(item: item, location: scanner.location(at: problem.offset))
    } else {
      itemProblem = .missingField(item: item, field: id == nil ? "id" : "update_date")
    }
    return false
  }

  private mutating func readPhoneNumber(depth: Int, problems: inout [FieldProblem]) throws(InboxFormatError)
    -> JSONScanner.StringToken?
  {
    var international: JSONScanner.StringToken?
    scanner.position += 1
    scanner.skipWhitespace()
    var hasMember = scanner.current != UInt8(ascii: "}")
    if !hasMember { scanner.position += 1 }
    while hasMember {
      if try readKey(isNamed: "international") {
        if !problems.isEmpty { problems.removeAll { $0.field == .phoneNumber } }
        international = nil
        switch scanner.current {
        case UInt8(ascii: "\""): international = try scanner.scanString()
        case UInt8(ascii: "n"): try scanner.scanLiteral("null")
        default:
          problems.append(
            try skipMismatch(.phoneNumber, path: "phone_number.international", expected: "a string", depth: depth))
        }
      } else {
        try scanner.skipValue(depth: depth)
      }
      scanner.skipWhitespace()
      hasMember = try scanner.moveToNextMember(closing: UInt8(ascii: "}"))
    }
    return international
  }

  // MARK: Values

  /// Reads a message's key and the colon after it: the field it names, or
  /// nil for a key whose value is skipped.
  private mutating func readMessageKey() throws(InboxFormatError) -> MessageField? {
    if let candidate = likelyField(), scanner.consumeQuoted(candidate.key) {
      try scanner.consumeColon()
      return candidate
    }
    return try messageField(named: readKey())
  }

  /// Reads a key and the colon after it; whether the key is `name`.
  private mutating func readKey(isNamed name: StaticString) throws(InboxFormatError) -> Bool {
    if scanner.consumeQuoted(name) {
      try scanner.consumeColon()
      return true
    }
    return try scanner.contents(of: readKey(), equal: name)
  }

  /// The field a key starting here probably names, told by its first letters.
  @inline(__always)
  private func likelyField() -> MessageField? {
    switch scanner.byte(at: scanner.position + 1) {
    case UInt8(ascii: "i"): .id
    case UInt8(ascii: "f"): .firstname
    case UInt8(ascii: "l"): .lastname
    case UInt8(ascii: "m"): .message
    case UInt8(ascii: "p"): .phoneNumber
    case UInt8(ascii: "u"): scanner.byte(at: scanner.position + 2) == UInt8(ascii: "p") ? .updateDate : .unreadCount
    default: nil
    }
  }

  /// Reads `"key":` and the whitespace around the colon.
  @inline(__always)
  private mutating func readKey() throws(InboxFormatError) -> JSONScanner.StringToken {
    guard scanner.current == UInt8(ascii: "\"") else {
      throw scanner.unexpected(expected: "a key (a string in double quotes)")
    }
    let key = try scanner.scanString()
    try scanner.consumeColon()
    return key
  }

  private mutating func messageField(named key: JSONScanner.StringToken) throws(InboxFormatError) -> MessageField? {
    if key.hasEscapes {
      let name = try scanner.string(key)
      return MessageField.allCases.first { $0.key.description == name }
    }
    let candidate: MessageField
    switch key.end - key.start {
    case 2: candidate = .id
    case 7: candidate = .message
    case 8: candidate = .lastname
    case 9: candidate = .firstname
    case 11: candidate = .updateDate
    case 12: candidate = scanner.bytes[key.start] == UInt8(ascii: "p") ? .phoneNumber : .unreadCount
    default: return nil
    }
    return try scanner.contents(of: key, equal: candidate.key) ? candidate : nil
  }

  /// A string field that may be absent or `null` (nil, read as empty).
  private mutating func readOptionalString(_ field: MessageField, depth: Int, problems: inout [FieldProblem])
    throws(InboxFormatError) -> JSONScanner.StringToken?
  {
    switch scanner.current {
    case UInt8(ascii: "\""): return try scanner.scanString()
    case UInt8(ascii: "n"): try scanner.scanLiteral("null")
    default: problems.append(try skipMismatch(field, expected: "a string", depth: depth))
    }
    return nil
  }

  /// Reads an integer into `value`, or returns the problem with it.
  private mutating func readInteger(
    into field: MessageField, expected: String, value: (Int64) -> Void
  ) throws(InboxFormatError) -> FieldProblem? {
    let start = scanner.position
    switch try scanner.scanNumber() {
    case .integer(let integer):
      value(integer)
      return nil
    case .nonInteger:
      return FieldProblem(
        field: field, path: field.key.description, offset: start,
        kind: .typeMismatch(expected: expected, found: "a non-integer number"))
    case .outOfRange:
      return FieldProblem(
        field: field, path: field.key.description, offset: start,
        kind: .outOfRange(value: scanner.text(start..<scanner.position)))
    }
  }

  /// Reads an `update_date` string into `date`, or returns the problem with
  /// it. Dates without escapes are parsed in place.
  private mutating func readDate(into date: inout Date?) throws(InboxFormatError) -> FieldProblem? {
    let start = scanner.position
    let token = try scanner.scanString()
    let parsed =
      token.hasEscapes
      ? RFC3339.parse(try scanner.string(token))
      : RFC3339.parse(UnsafeBufferPointer(rebasing: scanner.bytes[token.start..<token.end]))
    switch parsed {
    case .success(let parsedDate):
      date = parsedDate
      return nil
    case .failure(let failure):
      let kind = FieldProblem.Kind.invalidDate(value: try scanner.string(token), reason: failure.reason)
      return FieldProblem(field: .updateDate, path: "update_date", offset: start, kind: kind)
    }
  }

  /// Skips a value of the wrong type and describes the mismatch.
  private mutating func skipMismatch(
    _ field: MessageField, path: String? = nil, expected: String, depth: Int
  ) throws(InboxFormatError) -> FieldProblem {
    let start = scanner.position
    guard let kind = JSONValueKind(firstByte: scanner.current) else {
      throw scanner.unexpected(expected: "a value")
    }
    try scanner.skipValue(depth: depth)
    return FieldProblem(
      field: field, path: path ?? field.key.description, offset: start,
      kind: .typeMismatch(expected: expected, found: kind.description))
  }
}

/// JSON's whitespace: space, tab, line feed, carriage return.
@inline(__always)
func isJSONWhitespace(_ byte: UInt8) -> Bool {
  byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
}

extension InboxReader: StretchReader {}
