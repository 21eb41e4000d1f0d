import Foundation

/// A mapping's fields read along one ``ItemPlan``: an accelerator of
/// ``InputMapping/message(of:memberName:reference:)``, the rule of how an
/// item becomes a message. `ItemPlanTests` holds the two equal.
///
/// An item read this way becomes the post reader's ``RawMessage``: its
/// texts stay where they lie in the input, so that the row rules over bytes
/// (``ByteRules``) write them without copying. A value the rule would refuse
/// (a field of the wrong kind, a date that does not parse) gives nil, and
/// the rule reads the item and names the problem.
///
/// A class: the reader hands it on for every item, and a structure of
/// arrays would be copied, retaining each array, every time.
final class MessagePlan: Sendable {
  let items: ItemPlan
  let id: [PlannedSource]
  let firstname: [PlannedSource]
  let lastname: [PlannedSource]
  let displayName: [PlannedSource]?
  let phone: [PlannedSource]
  let message: [PlannedSource]
  let date: [PlannedSource]
  let unread: [PlannedSource]

  /// A source's slot in ``items`` (nil for the member name), and its options.
  struct PlannedSource: Sendable {
    var slot: Int?
    var encoding: MappingSource.DateEncoding
    var kind: MappingSource.UnreadKind
    var markup: MappingSource.Markup

    init(_ source: MappingSource, slot: Int?) {
      (self.slot, encoding, kind, markup) = (slot, source.encoding, source.kind, source.markup)
    }
  }

  /// The plan of `fields`, or nil when one of their queries is outside
  /// the byte walker's subset (``ByteQuery``).
  init?(_ fields: MappingFields) {
    var queries: [(query: ByteQuery, picksLast: Bool)] = []
    func planned(_ sources: [MappingSource]) -> [PlannedSource]? {
      var planned: [PlannedSource] = []
      for source in sources {
        switch source.origin {
        case .memberName:
          planned.append(PlannedSource(source, slot: nil))
        case .query:
          guard let query = source.byteQuery else { return nil }
          queries.append((query, source.pick == .last))
          planned.append(PlannedSource(source, slot: queries.count - 1))
        }
      }
      return planned
    }
    guard let id = planned(fields.id), let phone = planned(fields.phone), let message = planned(fields.message),
      let date = planned(fields.date), let unread = planned(fields.unread)
    else { return nil }
    switch fields.names {
    case .pair(let first, let last):
      guard let first = planned(first), let last = planned(last) else { return nil }
      (firstname, lastname, displayName) = (first, last, nil)
    case .display(let sources):
      guard let display = planned(sources) else { return nil }
      (firstname, lastname, displayName) = ([], [], display)
    }
    guard let items = ItemPlan(queries) else { return nil }
    (self.items, self.id, self.phone, self.message, self.date, self.unread) = (items, id, phone, message, date, unread)
  }
}

extension ItemPlanReader {
  /// What a field's first source with a value selected.
  fileprivate enum Chosen {
    case memberName(String)
    /// Where the node starts.
    case node(Int)
  }

  /// A text field's value: none, a string in the input, or a string made.
  fileprivate enum TextValue {
    case none
    case token(JSONScanner.StringToken)
    case string(String)
  }

  /// Appends the message of the item just read (``read(at:depth:)``),
  /// `memberName` the name of the member it was selected as; false when a
  /// field's value is not one the field takes.
  mutating func appendMessage(_ plan: MessagePlan, memberName: String?, to messages: inout PendingMessages) -> Bool {
    guard let idValue = id(plan.id, memberName), let date = date(plan.date, memberName),
      let unread = unreadCount(plan.unread, memberName),
      let phone = text(plan.phone, memberName), let message = text(plan.message, memberName)
    else { return false }
    let names: (first: TextValue, last: TextValue, display: TextValue?)
    if let display = plan.displayName {
      guard let name = text(display, memberName) else { return false }
      names = (.none, .none, name)
    } else {
      guard let first = text(plan.firstname, memberName), let last = text(plan.lastname, memberName) else {
        return false
      }
      names = (first, last, nil)
    }
    let displayToken: JSONScanner.StringToken?? = if let display = names.display { display.token } else { .some(nil) }
    if case .input(let id) = idValue, let first = names.first.token, let last = names.last.token,
      let text = message.token, let number = phone.token, let display = displayToken
    {
      let raw = RawMessage(
        id: id, firstname: first, lastname: last, message: text, phoneNumber: number, updateDate: date,
        unreadCount: unread, hasDisplayName: names.display != nil, displayName: display)
      // Appended where it is made: a message is some two hundred bytes, and
      // each copy on its way to the batch is a memmove.
      if raw.hasPlainTexts {
        messages.append(raw)
        return true
      }
      guard let decoded = try? raw.decoded(by: &scanner) else { return false }
      messages.append(decoded)
      return true
    }
    // A text made by the mapping (the member name, HTML read as text).
    guard let id = messageID(idValue), let firstname = string(names.first), let lastname = string(names.last),
      let text = string(message), let phoneNumber = string(phone)
    else { return false }
    var decoded = MessageAPIModel(
      id: id, firstname: firstname, lastname: lastname, message: text, phoneNumber: .init(international: phoneNumber),
      updateDate: date, unreadCount: unread)
    if let display = names.display {
      guard let name = string(display) else { return false }
      decoded.displayName = name
    }
    messages.append(decoded)
    return true
  }

  /// The first of `sources` that selected a value, and that source.
  private func chosen(_ sources: [MessagePlan.PlannedSource], _ memberName: String?)
    -> (Chosen, MessagePlan.PlannedSource)?
  {
    for planned in sources {
      if let slot = planned.slot {
        if found[slot] >= 0 { return (.node(found[slot]), planned) }
      } else if let memberName, !memberName.isEmpty {
        return (.memberName(memberName), planned)
      }
    }
    return nil
  }

  /// An id's value: one in the input, or the member name.
  fileprivate enum IDValue {
    case input(RawMessage.ID)
    case memberName(String)
  }

  private mutating func id(_ sources: [MessagePlan.PlannedSource], _ memberName: String?) -> IDValue? {
    switch chosen(sources, memberName)?.0 {
    case .memberName(let name)?: return .memberName(name)
    case .node(let start)?:
      scanner.position = start
      switch scanner.current {
      case UInt8(ascii: "\""):
        guard let token = try? scanner.scanString() else { return nil }
        return .input(.text(token))
      case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
        guard case .integer(let value)? = try? scanner.scanNumber() else { return nil }
        return .input(.integer(value))
      default: return nil
      }
    case nil: return nil
    }
  }

  private mutating func messageID(_ value: IDValue) -> MessageID? {
    switch value {
    case .input(let id): try? id.messageID(by: &scanner)
    case .memberName(let name): .string(name)
    }
  }

  private mutating func date(_ sources: [MessagePlan.PlannedSource], _ memberName: String?) -> Date? {
    guard let (chosen, source) = chosen(sources, memberName) else { return nil }
    guard case .node(let start) = chosen else {
      guard case .memberName(let name) = chosen else { return nil }
      return Self.date(of: name, source.encoding)
    }
    scanner.position = start
    let text: Range<Int>
    switch scanner.current {
    case UInt8(ascii: "\""):
      guard let token = try? scanner.scanString() else { return nil }
      guard !token.hasEscapes else {
        return (try? scanner.string(token)).flatMap { Self.date(of: $0, source.encoding) }
      }
      if source.encoding == .rfc3339 {
        return try? RFC3339.parse(UnsafeBufferPointer(rebasing: scanner.bytes[token.range])).get()
      }
      text = token.range
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
      guard source.encoding != .rfc3339, (try? scanner.scanNumber()) != nil else { return nil }
      text = start..<scanner.position
    default:
      return nil
    }
    let perSecond: Double = source.encoding == .unixMilliseconds ? 1000 : 1
    if let time = UnixTime(digits: UnsafeBufferPointer(rebasing: scanner.bytes[text])) {
      return time.date(unitsPerSecond: perSecond)
    }
    return Self.date(of: scanner.text(text), source.encoding)
  }

  /// The date `text` holds, read as the rule reads it.
  private static func date(of text: String, _ encoding: MappingSource.DateEncoding) -> Date? {
    switch encoding {
    case .rfc3339: try? RFC3339.parse(text).get()
    case .unixSeconds: UnixTime(text)?.date(unitsPerSecond: 1)
    case .unixMilliseconds: UnixTime(text)?.date(unitsPerSecond: 1000)
    }
  }

  private mutating func unreadCount(_ sources: [MessagePlan.PlannedSource], _ memberName: String?) -> Int64? {
    guard let (chosen, source) = chosen(sources, memberName) else { return 0 }
    guard case .node(let start) = chosen else { return nil }
    scanner.position = start
    switch (source.kind, scanner.current) {
    case (.count, UInt8(ascii: "-")), (.count, UInt8(ascii: "0")...UInt8(ascii: "9")):
      guard case .integer(let count)? = try? scanner.scanNumber() else { return nil }
      return count
    case (.flag, UInt8(ascii: "t")), (.readFlag, UInt8(ascii: "f")): return 1
    case (.flag, UInt8(ascii: "f")), (.readFlag, UInt8(ascii: "t")): return 0
    default: return nil
    }
  }

  private mutating func text(_ sources: [MessagePlan.PlannedSource], _ memberName: String?) -> TextValue? {
    guard let (chosen, source) = chosen(sources, memberName) else { return TextValue.none }
    switch chosen {
    case .memberName(let name):
      return .string(source.markup == .html ? textOfHTML(name) : name)
    case .node(let start):
      scanner.position = start
      guard scanner.current == UInt8(ascii: "\""), let token = try? scanner.scanString() else { return nil }
      guard source.markup == .html else { return .token(token) }
      return (try? scanner.string(token)).map { .string(textOfHTML($0)) }
    }
  }

  private mutating func string(_ value: TextValue) -> String? {
    switch value {
    case .none: ""
    case .token(let token): try? scanner.string(token)
    case .string(let text): text
    }
  }
}

extension ItemPlanReader.TextValue {
  /// The token, `.some(nil)` for no text, or nil for a string made.
  fileprivate var token: JSONScanner.StringToken?? {
    switch self {
    case .none: .some(nil)
    case .token(let token): .some(token)
    case .string: nil
    }
  }
}

extension UnixTime {
  /// ``init(_:)`` of a time written in decimal digits alone, the common
  /// case, read without a `String`: fifteen digits at most, so that the
  /// integer is exactly the `Double` the rule reads (below 2^53). Nil for
  /// any other text, which the rule then reads.
  init?(digits: UnsafeBufferPointer<UInt8>) {
    guard (1...15).contains(digits.count), digits.count == 1 || digits[0] != UInt8(ascii: "0") else { return nil }
    var integer = 0
    for digit in digits {
      guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(digit) else { return nil }
      integer = integer * 10 + Int(digit - UInt8(ascii: "0"))
    }
    value = Double(integer)
  }
}
