/// A key of the rows written as JSON: the six of every row, and the ones a
/// context can ask for besides (``FormattingContext/fields``).
///
/// Rows carry the keys in the order the context lists them; the values of
/// keys it does not list are not even computed.
///
/// ```swift
/// let rows = MessageMapper(context: context.fields(RowField.defaults + [.unreadBadge, .avatarColor]))
/// // as JSON: {"id":1,…,"isUnread":true,"unreadBadge":"1","avatarColor":1}
/// ```
public struct RowField: Sendable, Hashable, CustomStringConvertible {
  /// Compared and hashed by its number, not its name: a context's fields are
  /// hashed and compared on every look-up of a kept formatter
  /// (``InboxFormatterCache``), and a `String` raw value hashes its string.
  enum Kind: UInt8, CaseIterable, Sendable {
    case id, initials, title, message, date, isUnread
    case dateValidUntil, unreadBadge, spokenDate, titleDirection, messageDirection, avatarColor

    /// The key as JSON writes it.
    var name: String {
      switch self {
      case .id: "id"
      case .initials: "initials"
      case .title: "title"
      case .message: "message"
      case .date: "date"
      case .isUnread: "isUnread"
      case .dateValidUntil: "dateValidUntil"
      case .unreadBadge: "unreadBadge"
      case .spokenDate: "spokenDate"
      case .titleDirection: "titleDirection"
      case .messageDirection: "messageDirection"
      case .avatarColor: "avatarColor"
      }
    }
  }
  let kind: Kind

  /// The message's id, an integer or a string as in the payload.
  public static let id = RowField(kind: .id)
  /// The avatar's letters.
  public static let initials = RowField(kind: .initials)
  /// The sender's name, else the phone number, else the placeholder.
  public static let title = RowField(kind: .title)
  /// The one-line preview.
  public static let message = RowField(kind: .message)
  /// The date label, in the context's ``DateStyle``.
  public static let date = RowField(kind: .date)
  /// The unread dot: `true` when `unread_count` > 0.
  public static let isUnread = RowField(kind: .isUnread)
  /// The first instant `date` stops being true, RFC 3339 in UTC with whole
  /// seconds rounded up (`2022-01-31T23:00:00Z`), or `null` when it never does.
  public static let dateValidUntil = RowField(kind: .dateValidUntil)
  /// The unread count in the locale's digits and grouping, capped at
  /// ``FormattingContext/badgeLimit`` followed by `+` (`99+`, `٩٩+`); `""`
  /// when nothing is unread.
  public static let unreadBadge = RowField(kind: .unreadBadge)
  /// What a screen reader should say for `date`: the time today, the word
  /// for yesterday, the full weekday where `date` shows the weekday, else the locale's
  /// long date (`January 3, 2022`).
  public static let spokenDate = RowField(kind: .spokenDate)
  /// The direction of the title as written in the row: `ltr`, `rtl` or
  /// `neutral` (``TextDirection``).
  public static let titleDirection = RowField(kind: .titleDirection)
  /// The direction of the preview as written in the row.
  public static let messageDirection = RowField(kind: .messageDirection)
  /// An integer from 0 to 7, the same for the same id: the avatar's colour.
  public static let avatarColor = RowField(kind: .avatarColor)

  /// The keys of every row, in their order: `id, initials, title, message,
  /// date, isUnread`. The word `default` in a field list stands for them.
  public static let defaults: [RowField] = [.id, .initials, .title, .message, .date, .isUnread]
  /// Every key there is, the default ones first.
  public static let all: [RowField] = Kind.allCases.map(RowField.init(kind:))

  /// Whether rows carry it only when asked, computed then by its rule
  /// (``RowRules/optionalValue(of:id:title:preview:updateDate:unreadCount:)``):
  /// every field but the default ones and `dateValidUntil`, which is part of
  /// every date label.
  var isOptional: Bool { !RowField.defaults.contains(self) && self != .dateValidUntil }

  /// Its place in ``all``: cases are numbered in order.
  var order: Int { Int(kind.rawValue) }

  /// The key as JSON writes it: `spokenDate`.
  public var name: String { kind.name }
  public var description: String { name }

  /// The field whose key is `name` (exactly, case included), or nil.
  public init?(name: String) {
    guard let kind = Kind.allCases.first(where: { $0.name == name }) else { return nil }
    self.kind = kind
  }

  init(kind: Kind) {
    self.kind = kind
  }
}
