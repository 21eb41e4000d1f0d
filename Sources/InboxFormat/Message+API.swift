public import Foundation
import InboxFormatSupport

/// A message as the backend sends it: one element of the payload's `items`.
///
/// Decodes from the backend's snake_case JSON and is tolerant where the
/// backend is: `id` may be an integer or a string; `firstname`, `lastname`,
/// `message`, `phone_number` and `unread_count` may be absent or `null`;
/// unknown keys are ignored. `id` and `update_date` (RFC 3339) are required.
///
/// ```swift
/// let json = #"{"id":1,"firstname":"Alexander","update_date":"2022-01-31T08:45:33Z"}"#
/// let message = try JSONDecoder().decode(MessageAPIModel.self, from: Data(json.utf8))
/// // message.firstname == "Alexander", message.lastname == "", message.unreadCount == 0
/// ```
public struct MessageAPIModel: Sendable, Hashable {
  /// The message's identifier, an integer or a string as in the payload.
  public var id: MessageID
  /// The sender's first (given) name; empty when absent.
  public var firstname: String
  /// The sender's last (family) name; empty when absent.
  public var lastname: String
  /// The sender's one display name (`Jane Doe`), for backends that send one
  /// name instead of two. When set, the title is this name and the initials
  /// come from its first and last words; ``firstname`` and ``lastname`` are
  /// then not read. Nil for the post's two names.
  public var displayName: String?
  /// The message text; empty when absent.
  public var message: String
  /// The sender's phone number.
  public var phoneNumber: PhoneNumber
  /// When the conversation was last updated.
  public var updateDate: Date
  /// How many messages are unread; 0 when absent.
  public var unreadCount: Int64

  /// Creates a message.
  public init(
    id: MessageID,
    firstname: String = "",
    lastname: String = "",
    displayName: String? = nil,
    message: String = "",
    phoneNumber: PhoneNumber = PhoneNumber(),
    updateDate: Date,
    unreadCount: Int64 = 0
  ) {
    self.id = id
    self.firstname = firstname
    self.lastname = lastname
    self.displayName = displayName
    self.message = message
    self.phoneNumber = phoneNumber
    self.updateDate = updateDate
    self.unreadCount = unreadCount
  }

  /// The sender's phone number, as the backend formats it.
  public struct PhoneNumber: Sendable, Hashable {
    /// The number in international format, e.g. `+33 6 56 67 45 66`; empty when absent.
    public var international: String

    /// Creates a phone number.
    public init(international: String = "") {
      self.international = international
    }
  }
}

/// A message identifier: the backend sends an integer or a string, and the
/// output keeps whichever it was.
public enum MessageID: Sendable, Hashable, CustomStringConvertible {
  /// An integer id, e.g. `1`.
  case integer(Int64)
  /// A string id, e.g. `"c0ffee"`.
  case string(String)

  public var description: String {
    switch self {
    case .integer(let value): String(value)
    case .string(let value): value
    }
  }

  /// The id as it appears in JSON: `1` or `"c0ffee"` (quoted and escaped for messages).
  var jsonText: String {
    switch self {
    case .integer(let value): String(value)
    case .string(let value): quoted(value)
    }
  }
}
