import InboxFormatSupport

/// Everything that can go wrong when reading an inbox payload.
///
/// Formatting never fails: every decoded message maps to a row. Only reading
/// the payload does, and each case says what is wrong, where, and what was
/// expected. ``description`` renders one line, for example:
///
/// ```
/// line 5, column 22: items[3].update_date (id 4): invalid date "2022-13-01T00:00:00Z": month 13 is out of range; expected an RFC 3339 date-time such as "2022-01-31T08:45:33Z"
/// ```
public enum InboxFormatError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The input holds nothing but whitespace (or nothing at all).
  case emptyInput

  /// The bytes are not well-formed JSON or not valid UTF-8.
  ///
  /// - Parameters:
  ///   - reason: What the reader found, e.g. `unexpected character "}"`.
  ///   - expected: What would have been valid there, e.g. `a value`.
  ///   - location: Where the problem starts.
  case syntax(reason: String, expected: String, location: InputLocation)

  /// A line of NDJSON is not one whole message object: the syntax error in
  /// it, as for ``syntax(reason:expected:location:)``, and the 0-based index
  /// of the message the line held. Reading can go on with the next line.
  case brokenLine(index: Int, reason: String, expected: String, location: InputLocation)

  /// The input is JSON, but not an inbox payload: neither an object with an
  /// `items` array, nor an array of messages, nor message objects one per line.
  case unexpectedShape(path: String, found: String, location: InputLocation)

  /// A message lacks a required field (`id` or `update_date`), or holds `null` there.
  case missingField(item: ItemReference, field: String)

  /// A message field holds a JSON value of the wrong type.
  case typeMismatch(item: ItemReference, field: String, expected: String, found: String, location: InputLocation)

  /// `update_date` is a string but not an RFC 3339 date-time.
  case invalidDate(item: ItemReference, value: String, reason: String, location: InputLocation)

  /// A number is an integer but does not fit the field (a 64-bit signed integer).
  case numberOutOfRange(item: ItemReference, field: String, value: String, location: InputLocation)

  /// The input is JSON, but the mapping's `items` query does not lead to
  /// its items: `path` is where the way ends, and `found` what is there.
  case mappedItems(query: String, path: String, found: String, location: InputLocation)

  /// An item read through a mapping (``InputMapping``) that is not a
  /// message: `id` or `date` selects nothing, or a field selects a value it
  /// cannot take.
  ///
  /// - Parameters:
  ///   - item: The item, its path the one `items` selected it at (`$.channels[12]`).
  ///   - field: The message field: `id`, `date`, `name`, `unread`…
  ///   - sources: The queries tried, as the mapping wrote them.
  ///   - problem: What they selected, e.g. `selected nothing`.
  ///   - expected: What the field takes.
  case mappedField(item: ItemReference, field: String, sources: [String], problem: String, expected: String)

  /// The payload does not fit the mapping in use, but its first item reads
  /// under the built-in mapping `mapping` (``InputMapping/builtIns``): the
  /// error the mapping in use met, and the name of the one to try.
  indirect case likelyOtherMapping(InboxFormatError, mapping: String)
  /// A date-time given on its own (`Date(rfc3339:)`), not
  /// in a payload, is not RFC 3339: the text and what is wrong with it.
  case invalidDateTime(value: String, reason: String)

  /// The location a syntax or shape error points at, or for item errors, the
  /// field's value (the item's start when the field is missing).
  public var location: InputLocation? {
    switch self {
    case .emptyInput, .invalidDateTime: nil
    case .likelyOtherMapping(let error, _): error.location
    case .syntax(_, _, let location), .brokenLine(_, _, _, let location), .unexpectedShape(_, _, let location),
      .mappedItems(_, _, _, let location):
      location
    case .missingField(let item, _), .mappedField(let item, _, _, _, _): item.location
    case .typeMismatch(_, _, _, _, let location), .invalidDate(_, _, _, let location),
      .numberOutOfRange(_, _, _, let location):
      location
    }
  }

  /// The message the error is about, when it is about one.
  public var item: ItemReference? {
    switch self {
    case .likelyOtherMapping(let error, _): error.item
    case .emptyInput, .syntax, .brokenLine, .unexpectedShape, .mappedItems, .invalidDateTime: nil
    case .missingField(let item, _), .typeMismatch(let item, _, _, _, _), .invalidDate(let item, _, _, _),
      .numberOutOfRange(let item, _, _, _), .mappedField(let item, _, _, _, _):
      item
    }
  }

  public var description: String {
    let prefix = location.map { "\($0): " } ?? ""
    switch self {
    case .emptyInput:
      return "the input is empty; expected a JSON object with an \"items\" array, a JSON array, or NDJSON"
    case .syntax(let reason, let expected, _):
      return "\(prefix)invalid JSON: \(reason); expected \(expected)"
    case .brokenLine(let index, let reason, let expected, _):
      return "\(prefix)[\(index)]: invalid JSON: \(reason); expected \(expected)"
    case .unexpectedShape(let path, let found, _):
      return
        "\(prefix)\(path): found \(found); expected an object with an \"items\" array, an array of messages, or one message object per line"
    case .missingField(let item, let field):
      return
        "\(prefix)\(item.describing(field: field)): missing required field \"\(field)\"; expected \(Self.expectation(for: field))"
    case .typeMismatch(let item, let field, let expected, let found, _):
      return "\(prefix)\(item.describing(field: field)): found \(found); expected \(expected)"
    case .invalidDate(let item, let value, let reason, _):
      return
        "\(prefix)\(item.describing(field: "update_date")): invalid date \(quoted(value)): \(reason); expected an RFC 3339 date-time such as \"2022-01-31T08:45:33Z\""
    case .numberOutOfRange(let item, let field, let value, _):
      return
        "\(prefix)\(item.describing(field: field)): number \(shortened(value)) is out of range; expected an integer between -9223372036854775808 and 9223372036854775807"
    case .likelyOtherMapping(let error, let mapping):
      return "\(error); this looks like a payload for the built-in mapping \(quoted(mapping))"
    case .invalidDateTime(let value, let reason):
      return
        "invalid date-time \(quoted(value)): \(reason); expected an RFC 3339 date-time such as \"2022-01-31T08:45:33Z\""
    case .mappedItems(let query, let path, let found, _):
      return "\(prefix)\(path): found \(found); expected the items that \(quoted(query, limit: 120)) selects"
    case .mappedField(let item, let field, let sources, let problem, let expected):
      let tried = sources.map { quoted($0, limit: 120) }.joined(separator: ", then ")
      return "\(prefix)\(item.describing(field: "")): \(field): \(tried) \(problem); expected \(expected)"
    }
  }

  /// Whether the error says the payload is not of the mapping's shape: no
  /// items where its `items` leads, or a first item that is no message.
  var isAboutShape: Bool {
    switch self {
    case .unexpectedShape, .mappedItems: true
    case .missingField, .typeMismatch, .invalidDate, .numberOutOfRange, .mappedField: item?.index == 0
    // A document of another shape, written on several lines, reads to the
    // post's reader as a first NDJSON line that breaks off.
    case .brokenLine(let index, _, _, _): index == 0
    case .emptyInput, .syntax, .likelyOtherMapping, .invalidDateTime: false
    }
  }

  private static func expectation(for field: String) -> String {
    switch field {
    case "id": "an integer or a string"
    case "update_date": "an RFC 3339 date-time string such as \"2022-01-31T08:45:33Z\""
    default: "a value"
    }
  }
}

/// A position in the input: 1-based line and column (in Unicode scalars),
/// and the 0-based byte offset.
public struct InputLocation: Sendable, Hashable, CustomStringConvertible {
  /// The 1-based line number.
  public var line: Int
  /// The 1-based column, counted in Unicode scalars from the start of the line.
  public var column: Int
  /// The 0-based byte offset from the start of the input.
  public var byteOffset: Int

  /// Creates a location.
  public init(line: Int, column: Int, byteOffset: Int) {
    self.line = line
    self.column = column
    self.byteOffset = byteOffset
  }

  public var description: String { "line \(line), column \(column)" }
}

extension InputLocation {
  /// The location of byte `offset` of `bytes`, by the rule every message
  /// locates with: one line per line feed before it, and one column per
  /// byte since the last one that is not a UTF-8 continuation byte
  /// (10xxxxxx), which belongs to the scalar its lead byte counted. The
  /// reader's own locating accelerates this.
  public init(offset: Int, in bytes: some Collection<UInt8>) {
    var (line, column) = (1, 1)
    for byte in bytes.prefix(offset) {
      if byte == UInt8(ascii: "\n") {
        (line, column) = (line + 1, 1)
      } else if byte & 0xC0 != 0x80 {
        column += 1
      }
    }
    self.init(line: line, column: column, byteOffset: offset)
  }
}

/// Which message an error is about: its position in the input and, when the
/// message has a usable `id`, that id.
public struct ItemReference: Sendable, Hashable {
  /// The JSON path of the message, e.g. `items[3]`, `[3]` for a bare array,
  /// or `[3]` for the fourth line of NDJSON.
  public var path: String
  /// The 0-based index of the message in the input.
  public var index: Int
  /// The message's `id`, when it has a valid one.
  public var id: MessageID?
  /// Where the message's object starts.
  public var location: InputLocation

  /// Creates a reference.
  public init(path: String, index: Int, id: MessageID?, location: InputLocation) {
    self.path = path
    self.index = index
    self.id = id
    self.location = location
  }

  /// `items[3].update_date (id 4)`; just `items[3]` when `field` is empty
  /// (the item itself is the problem, e.g. it is not an object).
  func describing(field: String) -> String {
    let idPart = id.map { " (id \($0.jsonText))" } ?? ""
    let fieldPart = field.isEmpty ? "" : ".\(field)"
    return "\(path)\(fieldPart)\(idPart)"
  }
}
