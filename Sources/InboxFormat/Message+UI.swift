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
  public var unreadBadge: String?
  /// What a screen reader should say for ``date`` (``RowField/spokenDate``).
  public var spokenDate: String?
  /// The direction of ``title`` (``RowField/titleDirection``).
  public var titleDirection: TextDirection?
  /// The direction of ``message`` (``RowField/messageDirection``).
  public var messageDirection: TextDirection?
  /// The avatar's colour, 0 to 7, stable for the id (``RowField/avatarColor``).
  public var avatarColor: Int?

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
    self.unreadBadge = unreadBadge
    self.spokenDate = spokenDate
    self.titleDirection = titleDirection
    self.messageDirection = messageDirection
    self.avatarColor = avatarColor
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
      unreadBadge = extras.unreadBadge
      spokenDate = extras.spokenDate?.text
      titleDirection = extras.titleDirection
      messageDirection = extras.messageDirection
      avatarColor = extras.avatarColor
    }
  }
}
