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
  /// The values of the fields beyond the default ones that the context asks
  /// for; nil when it asks for none.
  var extras: RowExtras?
}

/// The value of an optional field (``RowField``) as a row holds it, which
/// says how JSON writes it.
enum FieldValue: Sendable, Hashable {
  /// Written as a JSON string.
  case text(String)
  /// Written as a JSON number.
  case integer(Int)
  /// Written as its text; when it stops being true bounds the row's
  /// ``Row/validUntil``.
  case label(DateLabel)

  /// The text of a text or a label.
  var text: String? {
    switch self {
    case .text(let text): text
    case .label(let label): label.text
    case .integer: nil
    }
  }

  /// The number of an integer.
  var integer: Int? {
    if case .integer(let value) = self { value } else { nil }
  }
}

/// The values of a row's optional fields: those the context asks for, or
/// those set on a public row, each field once, in ``RowField/all``'s order.
struct RowExtras: Sendable, Hashable {
  struct Entry: Sendable, Hashable {
    let field: RowField
    var value: FieldValue
  }
  private(set) var entries: [Entry]

  init(_ entries: [Entry]) {
    self.entries = entries
  }

  /// The value of `field`, or nil when the row does not carry it. Setting
  /// nil takes it out.
  subscript(field: RowField) -> FieldValue? {
    get {
      for entry in entries where entry.field == field { return entry.value }
      return nil
    }
    set {
      entries.removeAll { $0.field == field }
      guard let newValue else { return }
      let place = entries.firstIndex { $0.field.order > field.order } ?? entries.endIndex
      entries.insert(Entry(field: field, value: newValue), at: place)
    }
  }

  /// Holds each label as its text, as a public row does.
  mutating func showLabelsAsText() {
    for index in entries.indices {
      if case .label(let label) = entries[index].value { entries[index].value = .text(label.text) }
    }
  }

  /// The first instant one of its labels stops being true.
  var validUntil: Date? {
    var first: Date?
    for entry in entries {
      if case .label(let label) = entry.value { first = earliest(first, label.validUntil) }
    }
    return first
  }
}

/// Which optional fields a context asks for (``RowField/isOptional``), in
/// ``RowField/all``'s order: made once from its field list.
struct ExtraFields: Sendable, Equatable {
  let fields: [RowField]

  /// The optional fields of `fields`, or nil when there are none to compute.
  init?(_ fields: [RowField]) {
    self.fields = RowField.all.filter { $0.isOptional && fields.contains($0) }
    if self.fields.isEmpty { return nil }
  }

  func contains(_ field: RowField) -> Bool { fields.contains(field) }
}

/// The rules of a row for one context: how a message's names, text and
/// date become what the row shows. ``row(id:firstname:lastname:message:phoneNumber:updateDate:unreadCount:)``
/// puts them together, the same way for every set of rules.
protocol RowRules {
  /// How the message's texts are held.
  associatedtype Text: ScalarText

  /// The optional fields rows carry, or nil for none: then nothing beyond
  /// the default row is computed.
  var extraFields: ExtraFields? { get }

  /// Storage for the next row's optional values: a row written and gone
  /// hands its own back (``reuse(_:)``), so that rows written one after
  /// another allocate none.
  var spareEntries: [RowExtras.Entry] { get set }

  /// The message's preview, or nil when `message` cannot be shown as it is
  /// held (only texts kept as input bytes, which must be cleaned first).
  mutating func preview(_ message: Text) -> Text?

  /// The initials and the title of the message's names and phone number, or
  /// nil when they cannot be shown as they are held.
  mutating func names(firstname: Text, lastname: Text, phoneNumber: Text) -> (initials: String, title: Title<Text>)?

  /// The initials and the title of a display name and a phone number
  /// (``names(displayName:phoneNumber:placeholder:locale:)``), or nil when
  /// they cannot be shown as they are held.
  mutating func names(displayName: Text, phoneNumber: Text) -> (initials: String, title: Title<Text>)?

  /// The date label of a message updated at `date`.
  mutating func dateLabel(for date: Date) -> DateLabel

  /// What a screen reader should say for the date of a message updated at `date`.
  mutating func spokenDate(for date: Date) -> DateLabel

  /// The unread badge of a conversation with `count` unread messages.
  mutating func unreadBadge(count: Int64) -> String
}

extension RowRules {
  /// The row of a message, made as a `Value`, or nil when one of its texts
  /// cannot be shown as it is held.
  @inline(__always)
  mutating func row<Value: RowValue & ~Copyable>(
    id: MessageID, firstname: Text, lastname: Text, message: Text, phoneNumber: Text, updateDate: Date,
    unreadCount: Int64, as value: Value.Type
  ) -> Value? where Value.Text == Text {
    row(id: id, message: message, updateDate: updateDate, unreadCount: unreadCount, as: value) { rules in
      rules.names(firstname: firstname, lastname: lastname, phoneNumber: phoneNumber)
    }
  }

  /// The row of a message whose initials and title `names` gives (two
  /// names, or a display name), or nil when a text cannot be shown as it is held.
  @inline(__always)
  mutating func row<Value: RowValue & ~Copyable>(
    id: MessageID, message: Text, updateDate: Date, unreadCount: Int64, as value: Value.Type,
    names: (inout Self) -> (initials: String, title: Title<Text>)?
  ) -> Value? where Value.Text == Text {
    // The date first: made last, between the other parts and the row, it
    // costs the preview a retain and a release on every row.
    let date = dateLabel(for: updateDate)
    guard let preview = preview(message), let names = names(&self) else { return nil }
    return row(id: id, names: names, preview: preview, date: date, updateDate: updateDate, unreadCount: unreadCount)
  }

  /// The row of a message whose names, preview and date label are made.
  @inline(__always)
  mutating func row<Value: RowValue & ~Copyable>(
    id: MessageID, names: (initials: String, title: Title<Text>), preview: Text, date: DateLabel, updateDate: Date,
    unreadCount: Int64, as value: Value.Type = Value.self
  ) -> Value where Value.Text == Text {
    let (initials, title) = names
    // The optional fields, of the row's parts as it writes them; none at all
    // unless the context asks.
    var extras: RowExtras?
    if let wanted = extraFields {
      var entries: [RowExtras.Entry] = []
      swap(&entries, &spareEntries)
      entries.removeAll(keepingCapacity: true)
      entries.reserveCapacity(wanted.fields.count)
      for field in wanted.fields {
        guard
          let value = optionalValue(
            of: field, id: id, title: title, preview: preview, updateDate: updateDate, unreadCount: unreadCount)
        else { continue }
        entries.append(RowExtras.Entry(field: field, value: value))
      }
      extras = RowExtras(entries)
    }
    return Value(
      id: id, initials: initials, title: title, message: preview, date: date,
      isUnread: isUnread(unreadCount: unreadCount),
      extras: extras)
  }
}

extension RowRules {
  /// Keeps the storage of a written row's optional values for the next
  /// row; call it once the row is written, and the row's storage is free
  /// as soon as the row goes.
  mutating func reuse(_ extras: RowExtras?) {
    if let extras { spareEntries = extras.entries }
  }

  /// The value of the optional field `field` of a row made of these parts,
  /// nil for the fields every row has: where each optional field is
  /// declared, by the rule it calls and the kind of value it writes.
  @inline(__always)
  mutating func optionalValue(
    of field: RowField, id: MessageID, title: borrowing Title<Text>, preview: Text, updateDate: Date,
    unreadCount: Int64
  ) -> FieldValue? {
    switch field.kind {
    case .id, .initials, .title, .message, .date, .isUnread, .dateValidUntil: nil
    case .unreadBadge: .text(unreadBadge(count: unreadCount))
    case .spokenDate: .label(spokenDate(for: updateDate))
    case .titleDirection: .text(title.direction.rawValue)
    case .messageDirection: .text(direction(of: preview.scalars).rawValue)
    case .avatarColor: .integer(avatarColor(of: id))
    }
  }
}

/// What a row is made as: the engine's ``Row``, written as it is, or the
/// public ``MessageUIModel``, made at once without a row in between.
protocol RowValue: ~Copyable {
  associatedtype Text
  init(
    id: MessageID, initials: String, title: Title<Text>, message: Text, date: DateLabel, isUnread: Bool,
    extras: RowExtras?)
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
  let numbers: BadgeNumbers
  let extraFields: ExtraFields?
  var spareEntries: [RowExtras.Entry] = []

  init(context: FormattingContext) {
    self.context = context
    words = DateWords(locale: context.locale, calendar: context.calendar, hourCycle: context.hourCycle)
    days = LocalDays(timeZone: context.timeZone)
    numbers = BadgeNumbers(locale: context.locale)
    extraFields = ExtraFields(context.fields)
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

  func names(displayName: String, phoneNumber: String) -> (initials: String, title: Title<String>)? {
    InboxFormat.names(
      displayName: displayName, phoneNumber: phoneNumber, placeholder: context.untitledPlaceholder,
      locale: context.locale)
  }

  func dateLabel(for date: Date) -> DateLabel {
    InboxFormat.dateLabel(for: date, now: context.now, days: days, words: words, style: context.dateStyle.style)
  }

  func spokenDate(for date: Date) -> DateLabel {
    InboxFormat.dateLabel(for: date, now: context.now, days: days, words: words, style: .spoken)
  }

  func unreadBadge(count: Int64) -> String {
    InboxFormat.unreadBadge(count: count, limit: context.badgeLimit, numbers: numbers)
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
    if let displayName = message.displayName {
      return row(
        id: message.id, message: message.message, updateDate: message.updateDate,
        unreadCount: message.unreadCount, as: value
      ) { rules in
        rules.names(displayName: displayName, phoneNumber: message.phoneNumber.international)
      }!
    }
    return row(
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
      date: DateLabel(text: row.date, validUntil: row.dateValidUntil), isUnread: row.isUnread, extras: row.extras)
  }
}

extension Row {
  /// The first instant a label of the row stops being true: its date's, or
  /// an optional field's (``RowField/spokenDate``) when it carries one.
  var validUntil: Date? {
    earliest(date.validUntil, extras?.validUntil)
  }
}
