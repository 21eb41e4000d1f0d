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
  /// Everything built from the context, behind one reference, so that the
  /// mapper is cheap to copy and to capture.
  private let rules: Rules

  /// Creates a mapper for `context`, building its formatters.
  public init(context: FormattingContext) {
    self.context = context
    self.rules = Rules(context: context)
  }

  /// The row of one message.
  public func map(_ message: MessageAPIModel) -> MessageUIModel {
    var memo = LabelMemo(store: rules.store)
    return rules.map(message, memo: &memo)
  }

  /// The rows of `messages`, in the same order.
  public func map(_ messages: [MessageAPIModel]) -> [MessageUIModel] {
    var memo = LabelMemo(store: rules.store)
    return messages.map { rules.map($0, memo: &memo) }
  }
}

/// The rules of a row, with what they need built once from a context.
private final class Rules: Sendable {
  let locale: Locale
  let untitledPlaceholder: String
  let previewLength: Int?
  let dateLabels: DateLabels
  /// The title case of each ASCII letter and digit in the context's locale
  /// (`i` is `İ` in Turkish), indexed by byte; nil for other bytes.
  let asciiInitials: [String?]
  let store = LabelStore()

  init(context: FormattingContext) {
    locale = context.locale
    untitledPlaceholder = context.untitledPlaceholder
    previewLength = context.previewLength
    dateLabels = DateLabels(context: context)
    asciiInitials = (0..<128).map { byte in
      let scalar = Unicode.Scalar(UInt8(byte))
      return scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
        ? initial(of: String(scalar), locale: context.locale) : nil
    }
  }

  func map(_ message: MessageAPIModel, memo: inout LabelMemo) -> MessageUIModel {
    let firstname = singleLine(message.firstname)
    let lastname = singleLine(message.lastname)
    let preview = singleLine(message.message)
    let date = dateLabels.label(for: message.updateDate, memo: &memo)
    return MessageUIModel(
      id: message.id,
      initials: initials(firstname: firstname, lastname: lastname, memo: &memo),
      title: title(
        firstname: firstname, lastname: lastname,
        phoneNumber: singleLine(message.phoneNumber.international),
        placeholder: untitledPlaceholder),
      message: previewLength.map { truncated(preview, to: $0) } ?? preview,
      date: date.text,
      isUnread: message.unreadCount > 0,
      dateValidUntil: date.validUntil)
  }

  /// ``initials(firstname:lastname:locale:)``, without asking ICU for names
  /// that start with ASCII or were seen before.
  private func initials(firstname: String, lastname: String, memo: inout LabelMemo) -> String {
    if let first = asciiInitial(of: firstname), let last = asciiInitial(of: lastname) {
      let letters = first + last
      return letters.isEmpty ? "?" : letters
    }
    let names = LabelStore.NamePair(firstname: firstname, lastname: lastname)
    return memo.initials(of: names) {
      InboxFormat.initials(firstname: firstname, lastname: lastname, locale: locale)
    }
  }

  /// The initial of a name whose first letter or digit is ASCII and not
  /// followed by a combining mark: "" for a name with no letter or digit at
  /// all in ASCII, nil when the general rule has to decide.
  private func asciiInitial(of name: String) -> String? {
    var name = name
    return name.withUTF8 { bytes -> String? in
      for (index, byte) in bytes.enumerated() {
        guard byte < 0x80 else { return nil }
        guard let letter = asciiInitials[Int(byte)] else { continue }
        let next = index + 1
        return next == bytes.count || bytes[next] < 0x80 ? letter : nil
      }
      return ""
    }
  }
}
