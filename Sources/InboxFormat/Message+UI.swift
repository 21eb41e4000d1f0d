public import Foundation

/// One row of the inbox screen, ready to show: every field is display text
/// except ``isUnread``, ``dateValidUntil``, the directions and ``avatarColor``.
///
/// The optional fields (``unreadBadge`` to ``avatarColor``) are nil unless the
/// context's ``FormattingContext/fields`` ask for them.
///
/// ```swift
/// MessageUIModel(id: .integer(1), initials: "AA", title: "Alexander Anderson",
///                message: "Hello!! How are you?", date: "9:45\u{202F}AM", isUnread: true,
///                dateValidUntil: nil)
/// ```
public struct MessageUIModel: Sendable, Hashable, Identifiable {
  /// The message's id, as the payload had it.
  public var id: MessageID
  /// The avatar's letters: one or two grapheme clusters, or `?`.
  public var initials: String
  /// The sender: full name, else the phone number, else a placeholder; never empty.
  public var title: String
  /// The one-line preview of the message.
  public var message: String
  /// The date label: a time today, the word for yesterday, a weekday, or a short date.
  public var date: String
  /// Whether the conversation has unread messages (the dot).
  public var isUnread: Bool
  /// The first instant at which ``date`` is no longer the right label (a local
  /// midnight), or nil when it never changes. A live view re-renders then.
  public var dateValidUntil: Date?
  /// The unread count in the locale's digits, capped (`99+`); `""` when
  /// nothing is unread (``RowField/unreadBadge``).
  public var unreadBadge: String? {
    get { optional?.unreadBadge }
    set { changeOptional { $0.unreadBadge = newValue } }
  }
  /// What a screen reader should say for ``date`` (``RowField/spokenDate``).
  public var spokenDate: String? {
    get { optional?.spokenDate }
    set { changeOptional { $0.spokenDate = newValue } }
  }
  /// The direction of ``title`` (``RowField/titleDirection``).
  public var titleDirection: TextDirection? {
    get { optional?.titleDirection }
    set { changeOptional { $0.titleDirection = newValue } }
  }
  /// The direction of ``message`` (``RowField/messageDirection``).
  public var messageDirection: TextDirection? {
    get { optional?.messageDirection }
    set { changeOptional { $0.messageDirection = newValue } }
  }
  /// The avatar's colour, 0 to 7, stable for the id (``RowField/avatarColor``).
  public var avatarColor: Int? {
    get { optional?.avatarColor }
    set { changeOptional { $0.avatarColor = newValue } }
  }

  /// The optional fields, behind one reference that is nil when the context
  /// asks for none: a default row holds one nil reference for all five.
  private var optional: OptionalFields?

  private mutating func changeOptional(_ change: (inout OptionalFields.Values) -> Void) {
    var values = optional?.values ?? OptionalFields.Values()
    change(&values)
    optional = values == OptionalFields.Values() ? nil : OptionalFields(values)
  }

  /// Creates a row.
  public init(
    id: MessageID,
    initials: String,
    title: String,
    message: String,
    date: String,
    isUnread: Bool,
    dateValidUntil: Date?,
    unreadBadge: String? = nil,
    spokenDate: String? = nil,
    titleDirection: TextDirection? = nil,
    messageDirection: TextDirection? = nil,
    avatarColor: Int? = nil
  ) {
    self.id = id
    self.initials = initials
    self.title = title
    self.message = message
    self.date = date
    self.isUnread = isUnread
    self.dateValidUntil = dateValidUntil
    let values = OptionalFields.Values(
      unreadBadge: unreadBadge, spokenDate: spokenDate, titleDirection: titleDirection,
      messageDirection: messageDirection, avatarColor: avatarColor)
    optional = values == OptionalFields.Values() ? nil : OptionalFields(values)
  }
}

extension MessageUIModel: RowValue {
  /// A public row made of the rules' values: the title's text joined.
  init(
    id: MessageID, initials: String, title: consuming Title<String>, message: String, date: DateLabel, isUnread: Bool,
    extras: RowExtras?
  ) {
    self.init(
      id: id, initials: initials, title: title.takeText(), message: message, date: date.text, isUnread: isUnread,
      dateValidUntil: date.validUntil)
    if let extras {
      optional = OptionalFields(
        OptionalFields.Values(
          unreadBadge: extras.unreadBadge, spokenDate: extras.spokenDate?.text, titleDirection: extras.titleDirection,
          messageDirection: extras.messageDirection, avatarColor: extras.avatarColor))
    }
  }
}

/// The optional fields of a public row, shared by its copies; never
/// changed once made (a row that changes one makes another).
private final class OptionalFields: Sendable, Hashable {
  struct Values: Sendable, Hashable {
    var unreadBadge: String?
    var spokenDate: String?
    var titleDirection: TextDirection?
    var messageDirection: TextDirection?
    var avatarColor: Int?
  }
  let values: Values

  init(_ values: Values) {
    self.values = values
  }

  var unreadBadge: String? { values.unreadBadge }
  var spokenDate: String? { values.spokenDate }
  var titleDirection: TextDirection? { values.titleDirection }
  var messageDirection: TextDirection? { values.messageDirection }
  var avatarColor: Int? { values.avatarColor }

  static func == (a: OptionalFields, b: OptionalFields) -> Bool { a.values == b.values }
  func hash(into hasher: inout Hasher) { hasher.combine(values) }
}

extension MessageUIModel: Encodable {
  private enum CodingKeys: String, CodingKey {
    case id, initials, title, message, date, isUnread, dateValidUntil
    case unreadBadge, spokenDate, titleDirection, messageDirection, avatarColor
  }

  /// Encodes the row under the keys the formatter writes (``RowField``):
  /// the default ones, `dateValidUntil` (RFC 3339 in UTC, as the formatter
  /// writes it, or null), then each optional field the row carries, so that
  /// a service can put rows in its own `Codable` answers. The values are
  /// those ``InboxEncoder`` writes; the bytes are the encoder's.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(id, forKey: .id)
    try container.encode(initials, forKey: .initials)
    try container.encode(title, forKey: .title)
    try container.encode(message, forKey: .message)
    try container.encode(date, forKey: .date)
    try container.encode(isUnread, forKey: .isUnread)
    try container.encode(dateValidUntil?.utcText, forKey: .dateValidUntil)
    try container.encodeIfPresent(unreadBadge, forKey: .unreadBadge)
    try container.encodeIfPresent(spokenDate, forKey: .spokenDate)
    try container.encodeIfPresent(titleDirection?.rawValue, forKey: .titleDirection)
    try container.encodeIfPresent(messageDirection?.rawValue, forKey: .messageDirection)
    try container.encodeIfPresent(avatarColor, forKey: .avatarColor)
  }
}
