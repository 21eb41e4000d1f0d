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
    get { extras?[.unreadBadge]?.text }
    set { set(.unreadBadge, newValue.map(FieldValue.text)) }
  }
  /// What a screen reader should say for ``date`` (``RowField/spokenDate``).
  public var spokenDate: String? {
    get { extras?[.spokenDate]?.text }
    set { set(.spokenDate, newValue.map(FieldValue.text)) }
  }
  /// The direction of ``title`` (``RowField/titleDirection``).
  public var titleDirection: TextDirection? {
    get { extras?[.titleDirection]?.text.flatMap(TextDirection.init(rawValue:)) }
    set { set(.titleDirection, newValue.map { .text($0.rawValue) }) }
  }
  /// The direction of ``message`` (``RowField/messageDirection``).
  public var messageDirection: TextDirection? {
    get { extras?[.messageDirection]?.text.flatMap(TextDirection.init(rawValue:)) }
    set { set(.messageDirection, newValue.map { .text($0.rawValue) }) }
  }
  /// The avatar's colour, 0 to 7, stable for the id (``RowField/avatarColor``).
  public var avatarColor: Int? {
    get { extras?[.avatarColor]?.integer }
    set { set(.avatarColor, newValue.map(FieldValue.integer)) }
  }

  /// The optional fields the row carries, nil when it carries none: one
  /// reference for them all, nil in a default row.
  private(set) var extras: RowExtras?

  private mutating func set(_ field: RowField, _ value: FieldValue?) {
    var changed = extras ?? RowExtras([])
    changed[field] = value
    extras = changed.entries.isEmpty ? nil : changed
  }

  /// Creates a row of the fields every row has; the optional ones are set
  /// by their properties.
  public init(
    id: MessageID,
    initials: String,
    title: String,
    message: String,
    date: String,
    isUnread: Bool,
    dateValidUntil: Date?
  ) {
    self.id = id
    self.initials = initials
    self.title = title
    self.message = message
    self.date = date
    self.isUnread = isUnread
    self.dateValidUntil = dateValidUntil
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
    // A public row shows its labels' texts; only `date` says when it goes stale.
    var extras = extras
    extras?.showLabelsAsText()
    self.extras = extras
  }
}

extension MessageUIModel: Encodable {
  private struct Key: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(_ field: RowField) { stringValue = field.name }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
  }

  /// Encodes the row under the keys the formatter writes (``RowField``):
  /// the default ones, `dateValidUntil` (RFC 3339 in UTC, as the formatter
  /// writes it, or null), then each optional field the row carries, so that
  /// a service can put rows in its own `Codable` answers. The values are
  /// those ``InboxEncoder`` writes; the bytes are the encoder's.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: Key.self)
    try container.encode(id, forKey: Key(.id))
    try container.encode(initials, forKey: Key(.initials))
    try container.encode(title, forKey: Key(.title))
    try container.encode(message, forKey: Key(.message))
    try container.encode(date, forKey: Key(.date))
    try container.encode(isUnread, forKey: Key(.isUnread))
    try container.encode(dateValidUntil?.utcText, forKey: Key(.dateValidUntil))
    for entry in extras?.entries ?? [] {
      switch entry.value {
      case .text(let text): try container.encode(text, forKey: Key(entry.field))
      case .integer(let value): try container.encode(value, forKey: Key(entry.field))
      case .label(let label): try container.encode(label.text, forKey: Key(entry.field))
      }
    }
  }
}
