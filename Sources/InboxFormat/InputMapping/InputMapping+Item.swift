import Foundation
import InboxFormatSupport

// How one item of a payload becomes a message under a mapping: each field's
// sources tried in order, the value each selects read as the field says.

/// An item, as the reader holds it: a tree, or where it lies in the input.
enum MappedItem {
  case tree(JSONValue)
  /// Valid JSON at `range` of `bytes`: its queries are followed over the
  /// bytes (``ByteQuery``), and only a query the byte walker cannot follow
  /// reads the item into a tree.
  case bytes(UnsafeBufferPointer<UInt8>, range: Range<Int>)
}

extension InputMapping {
  /// The message of `item`, the JSON value `items` selected.
  ///
  /// - Parameters:
  ///   - memberName: The name of the member the item was selected as, when
  ///     it is an object's member value (for `{"member-name": true}`).
  ///   - reference: The item, for errors.
  /// - Throws: ``InboxFormatError/mappedField(item:field:sources:problem:expected:)``
  ///   when `id` or `date` selects nothing, or a field selects a value it
  ///   cannot take.
  func message(of item: MappedItem, memberName: String?, reference: ItemReference) throws(InboxFormatError)
    -> MessageAPIModel
  {
    var reader = ItemFields(item: item, memberName: memberName, environment: environment, reference: reference)
    let id = try reader.id(fields.id)
    reader.reference.id = id
    let date = try reader.date(fields.date)
    var message = MessageAPIModel(id: id, updateDate: date)
    switch fields.names {
    case .pair(let first, let last):
      message.firstname = try reader.text(first, field: "firstname") ?? ""
      message.lastname = try reader.text(last, field: "lastname") ?? ""
    case .display(let sources):
      message.displayName = try reader.text(sources, field: "name") ?? ""
    }
    message.phoneNumber.international = try reader.text(fields.phone, field: "phone") ?? ""
    message.message = try reader.text(fields.message, field: "message") ?? ""
    message.unreadCount = try reader.unreadCount(fields.unread)
    return message
  }
}

/// The fields of one item, read from its sources.
private struct ItemFields {
  let item: MappedItem
  let memberName: String?
  let environment: JSONPathEnvironment
  var reference: ItemReference
  /// The item's tree, once a query has needed it.
  private var tree: JSONValue?
  private var walker: ValueWalker?

  init(item: MappedItem, memberName: String?, environment: JSONPathEnvironment, reference: ItemReference) {
    self.item = item
    self.memberName = memberName
    self.environment = environment
    self.reference = reference
  }

  /// The first value the sources select that is not empty (null, `""`,
  /// `[]` or `{}`), with the source it came from.
  mutating func value(_ sources: [MappingSource]) -> (value: JSONValue, source: MappingSource)? {
    for source in sources {
      switch source.origin {
      case .memberName:
        if let memberName, !memberName.isEmpty { return (.string(memberName), source) }
      case .query(let query):
        if case .bytes(let bytes, let range) = item, let byteQuery = source.byteQuery {
          if let value = selectedValue(byteQuery, in: bytes, at: range.lowerBound, pick: source.pick) {
            return (value, source)
          }
          continue
        }
        let nodes = query.query.select(from: itemTree(), environment: environment)
        let found =
          switch source.pick {
          case .first: nodes.first { !$0.value.isEmpty }
          case .last: nodes.last { !$0.value.isEmpty }
          }
        if let found { return (found.value, source) }
      }
    }
    return nil
  }

  /// The first (or last) non-empty value `query` selects over the bytes.
  private mutating func selectedValue(
    _ query: ByteQuery, in bytes: UnsafeBufferPointer<UInt8>, at start: Int, pick: MappingSource.Pick
  ) -> JSONValue? {
    // Taken out while in use, so that what it keeps is not copied.
    var walker = self.walker ?? ValueWalker(bytes: bytes)
    self.walker = nil
    defer { self.walker = walker }
    var starts: [Int] = []
    query.select(with: &walker, at: start, viewer: environment.viewer, into: &starts)
    let candidate =
      switch pick {
      case .first: starts.first { !walker.isEmptyValue(at: $0) }
      case .last: starts.last { !walker.isEmptyValue(at: $0) }
      }
    return candidate.flatMap { walker.value(at: $0) }
  }

  /// The item as a tree, read once.
  private mutating func itemTree() -> JSONValue {
    if let tree { return tree }
    let read: JSONValue =
      switch item {
      case .tree(let value): value
      case .bytes(let bytes, let range): (try? JSONValue.read(from: bytes, at: range)) ?? .null
      }
    tree = read
    return read
  }

  /// The problem with a field, as the error that leaves its item out.
  func problem(_ field: String, _ sources: [MappingSource], _ problem: String, expected: String) -> InboxFormatError {
    .mappedField(
      item: reference, field: field, sources: sources.map(\.text), problem: problem, expected: expected)
  }

  mutating func id(_ sources: [MappingSource]) throws(InboxFormatError) -> MessageID {
    let expected = "an integer or a string"
    guard let (value, source) = value(sources) else {
      throw problem("id", sources, "selected nothing", expected: expected)
    }
    switch value {
    case .string(let text): return .string(text)
    case .number(let number):
      if let integer = number.int64 { return .integer(integer) }
      throw problem("id", [source], "selected the number \(shortened(number.text))", expected: expected)
    default:
      throw problem("id", [source], "selected \(value.kindDescription)", expected: expected)
    }
  }

  mutating func date(_ sources: [MappingSource]) throws(InboxFormatError) -> Date {
    guard let (value, source) = value(sources) else {
      throw problem(
        "date", sources, "selected nothing", expected: Self.expectedDate(sources.first?.encoding ?? .rfc3339))
    }
    let expected = Self.expectedDate(source.encoding)
    switch (source.encoding, value) {
    case (.rfc3339, .string(let text)):
      switch RFC3339.parse(text) {
      case .success(let date): return date
      case .failure(let failure):
        throw problem("date", [source], "invalid date \(quoted(text)): \(failure.reason)", expected: expected)
      }
    case (.unixSeconds, .number(let number)), (.unixMilliseconds, .number(let number)):
      return try unixDate(number.text, source: source)
    case (.unixSeconds, .string(let text)), (.unixMilliseconds, .string(let text)):
      return try unixDate(text, source: source)
    default:
      throw problem("date", [source], "selected \(value.kindDescription)", expected: expected)
    }
  }

  private func unixDate(_ text: String, source: MappingSource) throws(InboxFormatError) -> Date {
    let perSecond: Double = source.encoding == .unixMilliseconds ? 1000 : 1
    guard let value = UnixTime(text), let date = value.date(unitsPerSecond: perSecond) else {
      throw problem(
        "date", [source], "invalid Unix time \(quoted(text))", expected: Self.expectedDate(source.encoding))
    }
    return date
  }

  private static func expectedDate(_ encoding: MappingSource.DateEncoding) -> String {
    switch encoding {
    case .rfc3339: "an RFC 3339 date-time such as \"2022-01-31T08:45:33Z\""
    case .unixSeconds: "a Unix time in seconds, a number or a numeric string such as \"1643618733.000200\""
    case .unixMilliseconds: "a Unix time in milliseconds, a number or a numeric string such as 1643618733000"
    }
  }

  mutating func text(_ sources: [MappingSource], field: String) throws(InboxFormatError) -> String? {
    guard let (value, source) = value(sources) else { return nil }
    guard case .string(let text) = value else {
      throw problem(field, [source], "selected \(value.kindDescription)", expected: "a string")
    }
    return source.markup == .html ? textOfHTML(text) : text
  }

  mutating func unreadCount(_ sources: [MappingSource]) throws(InboxFormatError) -> Int64 {
    // `false` is a value here: a flag that says "read" selects it.
    guard let (value, source) = value(sources) else { return 0 }
    switch (source.kind, value) {
    case (.count, .number(let number)):
      if let count = number.int64 { return count }
      throw problem("unread", [source], "selected the number \(shortened(number.text))", expected: "an integer")
    case (.flag, .bool(let unread)): return unread ? 1 : 0
    case (.readFlag, .bool(let read)): return read ? 0 : 1
    case (.count, _):
      throw problem("unread", [source], "selected \(value.kindDescription)", expected: "an integer")
    case (.flag, _), (.readFlag, _):
      throw problem("unread", [source], "selected \(value.kindDescription)", expected: "true or false")
    }
  }
}

extension MappingSource {
  /// The source as the mapping wrote it, for messages.
  var text: String {
    switch origin {
    case .query(let query): query.text
    case .memberName: "the member name"
    }
  }
}

/// A Unix time as a decimal text (`1643618733`, `-5`, `"1643618733.000200"`,
/// `1.6e9`), read exactly enough for whole milliseconds.
struct UnixTime {
  let value: Double

  init?(_ text: String) {
    // JSON's number grammar, so a string holds what a number could.
    guard text.utf8.count <= 64, isJSONNumber(text), let value = Double(text), value.isFinite else { return nil }
    self.value = value
  }

  /// The date `value` units after 1970-01-01T00:00:00Z, or nil outside
  /// the years RFC 3339 can write (0000 to 9999).
  func date(unitsPerSecond: Double) -> Date? {
    let seconds = value / unitsPerSecond
    guard seconds >= -62_167_219_200, seconds < 253_402_300_800 else { return nil }
    return Date(timeIntervalSince1970: seconds)
  }
}

/// Whether `text` follows JSON's number grammar (RFC 8259 §6).
private func isJSONNumber(_ text: String) -> Bool {
  var bytes = text.utf8[...]
  func digits() -> Int {
    let count = bytes.prefix { (0x30...0x39).contains($0) }.count
    bytes = bytes.dropFirst(count)
    return count
  }
  if bytes.first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
  if bytes.first == UInt8(ascii: "0") {
    bytes = bytes.dropFirst()
  } else if digits() == 0 {
    return false
  }
  if bytes.first == UInt8(ascii: ".") {
    bytes = bytes.dropFirst()
    guard digits() > 0 else { return false }
  }
  if bytes.first == UInt8(ascii: "e") || bytes.first == UInt8(ascii: "E") {
    bytes = bytes.dropFirst()
    if bytes.first == UInt8(ascii: "+") || bytes.first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
    guard digits() > 0 else { return false }
  }
  return bytes.isEmpty
}
