import Foundation
import InboxFormatSupport

// The Codable path, for callers that decode with `JSONDecoder` or another
// `Decoder`. It accepts what `InboxDecoder` accepts for a message and gives
// the same values (dates go through the same RFC 3339 parser), but its
// errors are `DecodingError`s without source locations.

extension MessageAPIModel: Decodable {
  private enum CodingKeys: String, CodingKey {
    case id, firstname, lastname, message
    case phoneNumber = "phone_number"
    case updateDate = "update_date"
    case unreadCount = "unread_count"
  }

  /// Decodes a message from the backend's snake_case JSON.
  ///
  /// `id` (an integer or a string) and `update_date` (RFC 3339) are required;
  /// the other fields may be absent or `null`. An invalid date throws
  /// `DecodingError.dataCorrupted` with the reason.
  ///
  /// ```swift
  /// let json = #"{"id":"a1","update_date":"2022-01-31T08:45:33Z","unread_count":null}"#
  /// let message = try JSONDecoder().decode(MessageAPIModel.self, from: Data(json.utf8))
  /// // message.id == .string("a1"), message.unreadCount == 0
  /// ```
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let dateText = try container.decode(String.self, forKey: .updateDate)
    let updateDate: Date
    switch RFC3339.parse(dateText) {
    case .success(let date): updateDate = date
    case .failure(let failure):
      throw DecodingError.dataCorruptedError(
        forKey: .updateDate, in: container, debugDescription: "invalid date \(quoted(dateText)): \(failure.reason)")
    }
    self.init(
      id: try container.decode(MessageID.self, forKey: .id),
      firstname: try container.decodeIfPresent(String.self, forKey: .firstname) ?? "",
      lastname: try container.decodeIfPresent(String.self, forKey: .lastname) ?? "",
      message: try container.decodeIfPresent(String.self, forKey: .message) ?? "",
      phoneNumber: try container.decodeIfPresent(PhoneNumber.self, forKey: .phoneNumber) ?? PhoneNumber(),
      updateDate: updateDate,
      unreadCount: try container.decodeIfPresent(Int64.self, forKey: .unreadCount) ?? 0
    )
  }
}

extension MessageAPIModel.PhoneNumber: Decodable {
  private enum CodingKeys: String, CodingKey {
    case international
  }

  /// Decodes `{"international": "+33 6 56 67 45 66"}`; a missing or `null`
  /// number is empty.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    self.init(international: try container.decodeIfPresent(String.self, forKey: .international) ?? "")
  }
}

extension MessageID: Codable {
  /// Decodes an integer (`Int64`) or a string.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if let integer = try? container.decode(Int64.self) {
      self = .integer(integer)
    } else if let string = try? container.decode(String.self) {
      self = .string(string)
    } else {
      throw DecodingError.typeMismatch(
        MessageID.self,
        DecodingError.Context(codingPath: decoder.codingPath, debugDescription: "expected an integer or a string"))
    }
  }

  /// Encodes the id as the JSON type it came as: a number or a string.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    switch self {
    case .integer(let value): try container.encode(value)
    case .string(let value): try container.encode(value)
    }
  }
}

/// The payload's top level, `{"items": [...]}`, for callers that decode with
/// `JSONDecoder` rather than ``InboxDecoder``.
///
/// ```swift
/// let payload = try JSONDecoder().decode(InboxPayload.self, from: data)
/// let messages = payload.items
/// ```
public struct InboxPayload: Decodable, Sendable, Hashable {
  /// The messages, in payload order.
  public var items: [MessageAPIModel]

  /// Creates a payload.
  public init(items: [MessageAPIModel]) {
    self.items = items
  }
}
