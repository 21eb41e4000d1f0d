import Dispatch
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
  let rules: Rules

  /// Creates a mapper for `context`, building its formatters.
  public init(context: FormattingContext) {
    self.context = context
    self.rules = Rules(context: context)
  }

  /// The row of one message.
  public func map(_ message: MessageAPIModel) -> MessageUIModel {
    rules.store.withMemo { rules.map(message, memo: &$0) }
  }

  /// The rows of `messages`, in the same order.
  ///
  /// A long array (``parallelThreshold`` messages or more) is cut in one
  /// part per core, mapped at the same time; the rows are the same.
  public func map(_ messages: [MessageAPIModel]) -> [MessageUIModel] {
    let parts = messages.count >= Self.parallelThreshold ? max(1, ProcessInfo.processInfo.activeProcessorCount) : 1
    return [MessageUIModel](unsafeUninitializedCapacity: messages.count) { rows, count in
      let output = RowsBuffer(rows: rows)
      DispatchQueue.concurrentPerform(iterations: parts) { part in
        let range = Self.part(part, of: parts, in: messages.indices)
        rules.store.withMemo { memo in
          // By index, as `Array.map` copies each message (retaining its strings) on the way in.
          for index in range {
            (output.rows.baseAddress! + index).initialize(to: rules.map(messages[index], memo: &memo))
          }
        }
      }
      count = messages.count
    }
  }

  /// Arrays shorter than this are mapped on the calling thread: handing
  /// work to other cores costs more than it saves.
  static let parallelThreshold = 8_192

  /// The `part`th of `count` nearly equal consecutive ranges of `indices`.
  private static func part(_ part: Int, of count: Int, in indices: Range<Int>) -> Range<Int> {
    let size = indices.count / count
    let extra = indices.count % count
    let start = indices.lowerBound + part * size + min(part, extra)
    return start..<start + size + (part < extra ? 1 : 0)
  }
}

/// The rows being made, written by several threads, each in its own range.
private struct RowsBuffer: @unchecked Sendable {
  let rows: UnsafeMutableBufferPointer<MessageUIModel>
}

/// The rules of a row, with what they need built once from a context.
final class Rules: Sendable {
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
        ? InboxFormat.initial(of: String(scalar), locale: context.locale) : nil
    }
  }

  @inline(__always)
  func map(_ message: borrowing MessageAPIModel, memo: inout LabelMemo) -> MessageUIModel {
    let date = dateLabels.label(for: message.updateDate, memo: &memo)
    let initials: String
    let title: String
    // Most rows have two names that are already clean: looked up by their
    // bytes, without making strings of them.
    if let known = nameRow(firstname: message.firstname, lastname: message.lastname, memo: &memo) {
      (initials, title) = known
    } else {
      (initials, title) = initialsAndTitle(
        firstname: message.firstname, lastname: message.lastname, phoneNumber: message.phoneNumber.international,
        memo: &memo)
    }
    let preview = singleLine(message.message)
    return MessageUIModel(
      id: message.id,
      initials: initials,
      title: title,
      message: previewLength.map { truncated(preview, to: $0) } ?? preview,
      date: date.text,
      isUnread: message.unreadCount > 0,
      dateValidUntil: date.validUntil)
  }

  /// The initials and title of a message whose names are not both given and
  /// clean: its names are cleaned first.
  private func initialsAndTitle(firstname: String, lastname: String, phoneNumber: String, memo: inout LabelMemo)
    -> (String, String)
  {
    let firstname = seen(singleLine(firstname))
    let lastname = seen(singleLine(lastname))
    if let known = nameRow(firstname: firstname, lastname: lastname, memo: &memo) { return known }
    let initials = initialsAndOrder(firstname: firstname, lastname: lastname, memo: &memo).initials
    // Cleaned only when it is shown.
    let phoneNumber = firstname.isEmpty && lastname.isEmpty ? seen(singleLine(phoneNumber)) : ""
    // The order is asked only of two names, which this row does not have.
    let source = TitleSource(
      hasFirstname: !firstname.isEmpty, hasLastname: !lastname.isEmpty, hasPhoneNumber: !phoneNumber.isEmpty,
      familyNameFirst: { false })
    let title = source.title(
      firstname: firstname, lastname: lastname, phoneNumber: phoneNumber, placeholder: untitledPlaceholder)
    return (initials, title)
  }

  /// The initials and title of two names, when both are given and already
  /// clean (nil otherwise); the title is made (an allocation, most often)
  /// only for a pair the memo has not seen.
  @inline(__always)
  private func nameRow(firstname: String, lastname: String, memo: inout LabelMemo) -> (String, String)? {
    withUTF8(firstname, lastname) { first, last in
      guard !first.isEmpty, !last.isEmpty, isSingleLine(first), isSingleLine(last) else { return nil }
      let (known, key) = memo.nameRow(first, last)
      if let known { return (known.initials, known.title) }
      guard hasVisibleCharacter(first), hasVisibleCharacter(last) else { return nil }
      let (initials, familyNameFirst) = initialsAndOrder(firstname: first, lastname: last, memo: &memo) {
        (firstname, lastname)
      }
      let title = TitleSource.names(familyNameFirst: familyNameFirst).title(
        firstname: firstname, lastname: lastname, phoneNumber: "", placeholder: untitledPlaceholder)
      memo.remember(NameRow(initials: initials, title: title), key: key)
      return (initials, title)
    }
  }

  /// ``initialsAndOrder(firstname:lastname:memo:strings:)`` of two cleaned names.
  private func initialsAndOrder(firstname: String, lastname: String, memo: inout LabelMemo)
    -> (initials: String, familyNameFirst: Bool)
  {
    withUTF8(firstname, lastname) { first, last in
      initialsAndOrder(firstname: first, lastname: last, memo: &memo) { (firstname, lastname) }
    }
  }

  /// ``initials(firstname:lastname:locale:)`` of two cleaned names' UTF-8
  /// bytes, and whether their title puts the last name first, asking ICU
  /// only for a letter or a pair of names not seen before. Names that
  /// ``leadingLetter(of:)`` decides are looked up by their two letters; for
  /// others `strings` is called to make them when the pair is not in the
  /// memo's slots.
  func initialsAndOrder(
    firstname: UnsafeBufferPointer<UInt8>, lastname: UnsafeBufferPointer<UInt8>, memo: inout LabelMemo,
    strings: () -> (firstname: String, lastname: String)
  ) -> (initials: String, familyNameFirst: Bool) {
    if let first = leadingLetter(of: firstname), let last = leadingLetter(of: lastname) {
      // Such a name is never written family name first (its letter is not
      // Han, Kana or Hangul), so each initial depends on its name alone.
      let pair = LeadingLetter.pairKey(first, last)
      if let initials = memo.recentInitials(ofLetters: pair) { return (initials, false) }
      return (memo.initials(ofLetters: pair) { combinedInitials(initial(of: first), initial(of: last)) }, false)
    }
    let rules = memo.names(firstname, lastname) {
      let (firstname, lastname) = strings()
      let names = LabelStore.NamePair(firstname: firstname, lastname: lastname)
      return NameRules(
        initials: store.initials(of: names) {
          InboxFormat.initials(firstname: firstname, lastname: lastname, locale: locale)
        },
        familyNameFirst: isWrittenFamilyNameFirst(firstname) && isWrittenFamilyNameFirst(lastname))
    }
    return (rules.initials, rules.familyNameFirst)
  }

  private func initial(of letter: LeadingLetter) -> String? {
    switch letter {
    case .none: return nil
    case .scalar(let value) where value < 0x80: return asciiInitials[Int(value)]
    case .scalar(let value):
      return store.initial(ofLetter: value) {
        let letter = String(Unicode.Scalar(value)!)
        return InboxFormat.initial(of: letter, locale: locale) ?? letter
      }
    }
  }
}

/// `text`, or nothing when no character of it is seen (``hasVisibleCharacter(_:)``).
private func seen(_ text: String) -> String {
  hasVisibleCharacter(text) ? text : ""
}

/// Runs `body` on the UTF-8 bytes of two strings, in place (native and small
/// strings are contiguous), or in contiguous copies of them otherwise.
@inline(__always)
func withUTF8<Result>(
  _ first: String, _ second: String,
  _ body: (UnsafeBufferPointer<UInt8>, UnsafeBufferPointer<UInt8>) -> Result
) -> Result {
  let inPlace = first.utf8.withContiguousStorageIfAvailable { first in
    second.utf8.withContiguousStorageIfAvailable { second in body(first, second) }
  }
  if case .some(.some(let result)) = inPlace { return result }
  var (first, second) = (first, second)
  return first.withUTF8 { first in second.withUTF8 { second in body(first, second) } }
}
