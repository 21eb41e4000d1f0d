import Foundation

/// Turns API messages into inbox rows for one ``FormattingContext``.
///
/// Building a mapper builds the context's formatters and day boundaries once;
/// mapping a message then never fails and never reads the system clock,
/// locale or time zone. Mappers are values: share one across threads.
///
/// ```swift
/// let mapper = MessageMapper(context: FormattingContext(
///   now: Date(timeIntervalSince1970: 1_643_630_400),  // 2022-01-31 12:00 UTC
///   locale: Locale(identifier: "en-US"),
///   timeZone: TimeZone(identifier: "Europe/Paris")!))
/// let row = mapper.map(MessageAPIModel(
///   id: .integer(1), firstname: "Alexander", lastname: "Anderson",
///   message: "Hello!! How are you?",
///   updateDate: Date(timeIntervalSince1970: 1_643_618_733),  // 09:45:33 Paris
///   unreadCount: 1))
/// // row.initials == "AA", row.title == "Alexander Anderson", row.date == "9:45\u{202F}AM"
/// ```
public struct MessageMapper: Sendable {
  /// The context every row is formatted for.
  public let context: FormattingContext
  private let dateLabels: DateLabels

  /// Creates a mapper for `context`, building its formatters.
  public init(context: FormattingContext) {
    self.context = context
    self.dateLabels = DateLabels(context: context)
  }

  /// The row of one message.
  public func map(_ message: MessageAPIModel) -> MessageUIModel {
    var cache = DateLabelCache()
    return map(message, cache: &cache)
  }

  /// The rows of `messages`, in the same order.
  public func map(_ messages: [MessageAPIModel]) -> [MessageUIModel] {
    var cache = DateLabelCache()
    return messages.map { map($0, cache: &cache) }
  }

  func map(_ message: MessageAPIModel, cache: inout DateLabelCache) -> MessageUIModel {
    let firstname = singleLine(message.firstname)
    let lastname = singleLine(message.lastname)
    let preview = singleLine(message.message)
    let date = dateLabels.label(for: message.updateDate, cache: &cache)
    return MessageUIModel(
      id: message.id,
      initials: initials(firstname: firstname, lastname: lastname, locale: context.locale),
      title: title(
        firstname: firstname, lastname: lastname,
        phoneNumber: singleLine(message.phoneNumber.international),
        placeholder: context.untitledPlaceholder),
      message: context.previewLength.map { truncated(preview, to: $0) } ?? preview,
      date: date.text,
      isUnread: message.unreadCount > 0,
      dateValidUntil: date.validUntil)
  }
}
