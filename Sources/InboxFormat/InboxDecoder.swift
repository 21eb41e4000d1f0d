public import Foundation

/// Decodes an inbox payload from its JSON bytes into messages.
///
/// Accepts the three forms the backend and its tools produce: an object with
/// an `items` array, a bare array of messages, and NDJSON (one message object
/// per line). Reading is strict JSON (UTF-8, no comments, no trailing commas)
/// and single-pass over the bytes, with no intermediate document; every error
/// says where it is, as an ``InboxFormatError`` with a ``InputLocation``.
///
/// ```swift
/// let json = #"{"items":[{"id":1,"firstname":"Alexander","update_date":"2022-01-31T08:45:33Z"}]}"#
/// let messages = try InboxDecoder().decode(Array(json.utf8))
/// // messages[0].id == .integer(1), messages[0].firstname == "Alexander"
/// ```
public struct InboxDecoder: Sendable {
  /// Where the payload keeps its messages and their fields.
  public var mapping: InputMapping

  /// Creates a decoder for payloads that `mapping` describes: the post's
  /// shape unless told otherwise.
  public init(mapping: InputMapping = .post) {
    self.mapping = mapping
  }

  /// Decodes all messages, throwing the first problem.
  ///
  /// Problems come in input order: the first invalid message or syntax error
  /// ends decoding. Empty or whitespace-only input is ``InboxFormatError/emptyInput``.
  ///
  /// ```swift
  /// let messages = try InboxDecoder().decode(Array(#"[{"id":"a1","update_date":"2022-01-31T08:45:33Z"}]"#.utf8))
  /// // messages[0].id == .string("a1")
  /// ```
  public func decode(_ bytes: [UInt8]) throws(InboxFormatError) -> [MessageAPIModel] {
    try bytes.withUnsafeBufferPointer { (buffer) throws(InboxFormatError) in try decodeAll(buffer) }
  }

  /// Decodes all messages from `data`, throwing the first problem.
  ///
  /// The same as `decode(_:)` for `[UInt8]`, for bytes read with Foundation.
  ///
  /// ```swift
  /// let messages = try InboxDecoder().decode(try Data(contentsOf: url))
  /// ```
  public func decode(_ data: Data) throws(InboxFormatError) -> [MessageAPIModel] {
    try Self.withBytes(of: data) { (buffer) throws(InboxFormatError) in try decodeAll(buffer) }
  }

  /// Decodes the valid messages and returns the item-level problems of the
  /// others (syntax errors outside NDJSON still throw).
  ///
  /// A message with a missing field, a value of the wrong type, an invalid
  /// date or a number out of range is skipped and its error collected; so is
  /// an NDJSON line that is not valid JSON. Errors that leave the rest of the
  /// input unreadable (a syntax error in an array or payload, an unexpected
  /// shape, empty input) are thrown.
  ///
  /// ```swift
  /// let ndjson = #"{"id":1,"update_date":"2022-01-31T08:45:33Z"}"# + "\n" + #"{"id":2}"#
  /// let (messages, skipped) = try InboxDecoder().decodeSkippingInvalid(Array(ndjson.utf8))
  /// // messages.count == 1; skipped[0] is .missingField(item: [1], field: "update_date")
  /// ```
  public func decodeSkippingInvalid(_ bytes: [UInt8]) throws(InboxFormatError) -> (
    messages: [MessageAPIModel], skipped: [InboxFormatError]
  ) {
    try bytes.withUnsafeBufferPointer { (buffer) throws(InboxFormatError) in try decodeValid(buffer) }
  }

  /// Decodes the valid messages in `data` and returns the item-level problems
  /// of the others.
  ///
  /// The same as `decodeSkippingInvalid(_:)` for `[UInt8]`, for bytes read with Foundation.
  ///
  /// ```swift
  /// let (messages, skipped) = try InboxDecoder().decodeSkippingInvalid(try Data(contentsOf: url))
  /// ```
  public func decodeSkippingInvalid(_ data: Data) throws(InboxFormatError) -> (
    messages: [MessageAPIModel], skipped: [InboxFormatError]
  ) {
    try Self.withBytes(of: data) { (buffer) throws(InboxFormatError) in try decodeValid(buffer) }
  }

  private func decodeAll(_ bytes: UnsafeBufferPointer<UInt8>) throws(InboxFormatError) -> [MessageAPIModel] {
    // A reader of each kind, so that the loop is made for each.
    if mapping.isPost {
      var reader = InboxReader(bytes: bytes)
      return try Self.all(from: &reader, count: Self.estimatedMessageCount(bytes))
    }
    var reader = MappedReader(bytes: bytes, mapping: mapping)
    return try Self.all(from: &reader, count: Self.estimatedMessageCount(bytes))
  }

  private func decodeValid(
    _ bytes: UnsafeBufferPointer<UInt8>
  ) throws(InboxFormatError) -> (messages: [MessageAPIModel], skipped: [InboxFormatError]) {
    if mapping.isPost {
      var reader = InboxReader(bytes: bytes)
      return try Self.valid(from: &reader, count: Self.estimatedMessageCount(bytes))
    }
    var reader = MappedReader(bytes: bytes, mapping: mapping)
    return try Self.valid(from: &reader, count: Self.estimatedMessageCount(bytes))
  }

  private static func all(from reader: inout some MessageReading, count: Int) throws(InboxFormatError)
    -> [MessageAPIModel]
  {
    var messages: [MessageAPIModel] = []
    messages.reserveCapacity(count)
    while let message = try reader.next() {
      messages.append(message)
    }
    return messages
  }

  private static func valid(from reader: inout some MessageReading, count: Int) throws(InboxFormatError) -> (
    messages: [MessageAPIModel], skipped: [InboxFormatError]
  ) {
    var messages: [MessageAPIModel] = []
    messages.reserveCapacity(count)
    var skipped: [InboxFormatError] = []
    while true {
      do {
        guard let message = try reader.next() else { break }
        messages.append(message)
      } catch {
        if reader.hasFailed { throw error }
        skipped.append(error)
      }
    }
    return (messages, skipped)
  }

  /// A generous guess at the number of messages, to spare the result array
  /// its regrowth copies: real messages take a few hundred bytes, and an
  /// overestimate only reserves address space that is never touched.
  private static func estimatedMessageCount(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
    bytes.count / 256
  }

  /// Runs `body` over the bytes of `data` (`Data.withUnsafeBytes` does not
  /// forward typed errors, hence the `Result`).
  private static func withBytes<Value>(
    of data: Data, _ body: (UnsafeBufferPointer<UInt8>) throws(InboxFormatError) -> Value
  ) throws(InboxFormatError) -> Value {
    try data.withUnsafeBytes { raw in
      Result { () throws(InboxFormatError) in try body(raw.assumingMemoryBound(to: UInt8.self)) }
    }.get()
  }
}
