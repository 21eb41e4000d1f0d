import Foundation

// A row of the inbox, made of the rules in this folder. This is what the
// product does; the engine (Engine/) does the same faster, and its tests
// compare each of its shortcuts with the rule it stands for.

/// One row as the rules make it: the values ``MessageUIModel`` carries,
/// with each text of the message held as `Text` (strings, or in the engine
/// the input's own bytes when they are already what the row shows).
///
/// Not copyable: a row is made, then written or turned into a
/// ``MessageUIModel`` whose strings it hands over without copying them.
struct Row<Text>: ~Copyable {
  var id: MessageID
  var initials: String
  var title: Title<Text>
  var message: Text
  var date: DateLabel
  var isUnread: Bool
}

/// The rules of a row for one context: how a message's names, text and
/// date become what the row shows. ``row(id:firstname:lastname:message:phoneNumber:updateDate:unreadCount:)``
/// puts them together, the same way for every set of rules.
protocol RowRules {
  /// How the message's texts are held.
  associatedtype Text

  /// The message's preview, or nil when `message` cannot be shown as it is
  /// held (only texts kept as input bytes, which must be cleaned first).
  mutating func preview(_ message: Text) -> Text?

  /// The initials and the title of the message's names and phone number, or
  /// nil when they cannot be shown as they are held.
  mutating func names(firstname: Text, lastname: Text, phoneNumber: Text) -> (initials: String, title: Title<Text>)?

  /// The date label of a message updated at `date`.
  mutating func dateLabel(for date: Date) -> DateLabel
}

extension RowRules {
  /// The row of a message, made as a `Value`, or nil when one of its texts
  /// cannot be shown as it is held.
  @inline(__always)
  mutating func row<Value: RowValue & ~Copyable>(
    id: MessageID, firstname: Text, lastname: Text, message: Text, phoneNumber: Text, updateDate: Date,
    unreadCount: Int64, as value: Value.Type
  ) -> Value? where Value.Text == Text {
    // The date first: made last, between the other parts and the row, it
    // costs the preview a retain and a release on every row.
    let date = dateLabel(for: updateDate)
    guard let preview = preview(message),
      let (initials, title) = names(firstname: firstname, lastname: lastname, phoneNumber: phoneNumber)
    else { return nil }
    return Value(
      id: id, initials: initials, title: title, message: preview, date: date, isUnread: isUnread(unreadCount: unreadCount))
  }
}

/// What a row is made as: the engine's ``Row``, written as it is, or the
/// public ``MessageUIModel``, made at once without a row in between.
protocol RowValue: ~Copyable {
  associatedtype Text
  init(id: MessageID, initials: String, title: Title<Text>, message: Text, date: DateLabel, isUnread: Bool)
}

extension Row: RowValue {}

/// The unread dot: whether the conversation has unread messages.
func isUnread(unreadCount: Int64) -> Bool {
  unreadCount > 0
}

/// The rules exactly as the README states them, for one context, with
/// nothing remembered and no shortcut: the specification the engine is
/// tested against.
struct PlainRules: RowRules {
  let context: FormattingContext
  let words: DateWords
  let days: LocalDays

  init(context: FormattingContext) {
    self.context = context
    words = DateWords(locale: context.locale, calendar: context.calendar, hourCycle: context.hourCycle)
    days = LocalDays(timeZone: context.timeZone)
  }

  func preview(_ message: String) -> String? {
    InboxFormat.preview(message, length: context.previewLength)
  }

  func names(firstname: String, lastname: String, phoneNumber: String) -> (initials: String, title: Title<String>)? {
    let title = title(
      firstname: firstname, lastname: lastname, phoneNumber: phoneNumber, placeholder: context.untitledPlaceholder)
    let (first, last) = (shown(firstname) ?? "", shown(lastname) ?? "")
    return (initials(firstname: first, lastname: last, locale: context.locale), title)
  }

  func dateLabel(for date: Date) -> DateLabel {
    InboxFormat.dateLabel(for: date, now: context.now, days: days, words: words)
  }

  /// The row of `message`.
  mutating func row(of message: MessageAPIModel) -> MessageUIModel {
    row(of: message, as: MessageUIModel.self)
  }
}

extension RowRules where Text == String {
  /// The row of `message`.
  @inline(__always)
  mutating func row<Value: RowValue & ~Copyable>(
    of message: borrowing MessageAPIModel, as value: Value.Type
  ) -> Value where Value.Text == String {
    // Strings are always shown, cleaned as needed: never nil.
    row(
      id: message.id, firstname: message.firstname, lastname: message.lastname, message: message.message,
      phoneNumber: message.phoneNumber.international, updateDate: message.updateDate, unreadCount: message.unreadCount,
      as: value)!
  }
}

extension Row<String> {
  /// The row of a public row, its title as one piece.
  init(_ row: MessageUIModel) {
    self.init(
      id: row.id, initials: row.initials, title: .single(row.title), message: row.message,
      date: DateLabel(text: row.date, validUntil: row.dateValidUntil), isUnread: row.isUnread)
  }
}
