import Foundation

/// A valid message as it lies in the input: its texts are where they are in
/// the bytes (nil when absent or `null`), already checked, not yet copied into
/// `String`s, so that a row whose texts need no change can be written
/// straight from the input.
///
/// Trivial: no `String`, no reference. An array of them is copied and freed
/// as bytes, not value by value, on its way to the workers.
struct RawMessage {
  var id: ID
  var firstname: JSONScanner.StringToken?
  var lastname: JSONScanner.StringToken?
  var message: JSONScanner.StringToken?
  var phoneNumber: JSONScanner.StringToken?
  var updateDate: Date
  var unreadCount: Int64
  /// Whether the sender has one display name (``displayName``) instead of
  /// a first and a last name: a mapping's `name`.
  var hasDisplayName = false
  var displayName: JSONScanner.StringToken?

  /// A message's id as it lies in the input.
  enum ID {
    case integer(Int64)
    /// A string id: its token.
    case text(JSONScanner.StringToken)
  }

  /// Whether every text, the id's included, can be read without unescaping.
  var hasPlainTexts: Bool {
    !id.hasEscapes && !(firstname?.hasEscapes ?? false) && !(lastname?.hasEscapes ?? false)
      && !(message?.hasEscapes ?? false)
      && !(phoneNumber?.hasEscapes ?? false) && !(displayName?.hasEscapes ?? false)
  }

  /// The message, its texts read (and unescaped) by `scanner`, over the
  /// bytes it lies in.
  func decoded(by scanner: inout JSONScanner) throws(InboxFormatError) -> MessageAPIModel {
    func text(_ token: JSONScanner.StringToken?) throws(InboxFormatError) -> String {
      guard let token else { return "" }
      return try scanner.string(token)
    }
    var decoded = MessageAPIModel(
      id: try id.messageID(by: &scanner), firstname: try text(firstname), lastname: try text(lastname),
      message: try text(message),
      phoneNumber: .init(international: try text(phoneNumber)), updateDate: updateDate, unreadCount: unreadCount)
    if hasDisplayName { decoded.displayName = try text(displayName) }
    return decoded
  }

  /// The message with its texts copied out of `bytes`. Only for a message
  /// whose texts have no escapes (``hasPlainTexts``).
  func decoded(in bytes: UnsafeBufferPointer<UInt8>) -> MessageAPIModel {
    func text(_ token: JSONScanner.StringToken?) -> String {
      String(decoding: Self.contents(of: token, in: bytes), as: UTF8.self)
    }
    var decoded = MessageAPIModel(
      id: id.messageID(in: bytes), firstname: text(firstname), lastname: text(lastname), message: text(message),
      phoneNumber: .init(international: text(phoneNumber)), updateDate: updateDate, unreadCount: unreadCount)
    if hasDisplayName { decoded.displayName = text(displayName) }
    return decoded
  }

  /// The bytes between a text's quotes, empty for no text.
  static func contents(of token: JSONScanner.StringToken?, in bytes: UnsafeBufferPointer<UInt8>)
    -> UnsafeBufferPointer<UInt8>
  {
    guard let token else { return UnsafeBufferPointer(start: nil, count: 0) }
    return UnsafeBufferPointer(rebasing: bytes[token.range])
  }
}

extension RawMessage.ID {
  /// Whether the id is a text with escapes.
  var hasEscapes: Bool {
    if case .text(let token) = self { token.hasEscapes } else { false }
  }

  /// The id, its text read (and unescaped) by `scanner`.
  func messageID(by scanner: inout JSONScanner) throws(InboxFormatError) -> MessageID {
    switch self {
    case .integer(let value): .integer(value)
    case .text(let token): .string(try scanner.string(token))
    }
  }

  /// The id, its text copied out of `bytes`. Only for an id without escapes.
  func messageID(in bytes: UnsafeBufferPointer<UInt8>) -> MessageID {
    switch self {
    case .integer(let value): .integer(value)
    case .text(let token): .string(String(decoding: RawMessage.contents(of: token, in: bytes), as: UTF8.self))
    }
  }
}
