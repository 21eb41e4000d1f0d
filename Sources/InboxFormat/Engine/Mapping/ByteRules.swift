import Foundation

/// The row rules of a context (``RowRules``) over the input's own bytes: a
/// message whose texts are already clean lines without escapes (most of
/// them) has the same texts in its row as in the input, so they are
/// written byte for byte, without making a `String` of each and escaping
/// it again. A text that is not gives nil, and the message goes through
/// ``strings`` instead.
struct ByteRules: RowRules {
  var strings: StringRules

  @inline(__always)
  mutating func preview(_ message: InputText) -> InputText? {
    guard isSingleLine(message.bytes) else { return nil }
    // A text no longer than the limit in bytes is no longer in clusters.
    if let limit = strings.previewLength, message.bytes.count > limit { return nil }
    return message
  }

  @inline(__always)
  mutating func names(firstname: InputText, lastname: InputText, phoneNumber: InputText)
    -> (initials: String, title: Title<InputText>)?
  {
    guard let first = shown(firstname), let last = shown(lastname) else { return nil }
    var phone: InputText??
    if first == nil && last == nil {
      phone = shown(phoneNumber)
      guard phone != nil else { return nil }
    }
    let (initials, familyNameFirst) = strings.initialsAndOrder(
      firstname: firstname.bytes, lastname: lastname.bytes
    ) { (String(decoding: firstname.bytes, as: UTF8.self), String(decoding: lastname.bytes, as: UTF8.self)) }
    let title = Title(
      firstname: first, lastname: last, phoneNumber: phone ?? nil, placeholder: strings.placeholder,
      familyNameFirst: { _, _ in familyNameFirst })
    return (initials, title)
  }

  /// A display name that is a clean line is its own title, as it lies in
  /// the input; its initials are the strings' rules'.
  @inline(__always)
  mutating func names(displayName: InputText, phoneNumber: InputText) -> (initials: String, title: Title<InputText>)? {
    guard let name = shown(displayName) else { return nil }
    guard let name else {
      // Nothing of the name is seen: no initial, and the phone number's title.
      guard let phone = shown(phoneNumber) else { return nil }
      return ("?", phone.map { .single($0) } ?? .placeholder(strings.placeholder))
    }
    let initials = strings.displayNameInitials(of: name.bytes) { String(decoding: name.bytes, as: UTF8.self) }
    return (initials, .single(name))
  }

  var extraFields: ExtraFields? { strings.extraFields }

  var spareEntries: [RowExtras.Entry] {
    get { strings.spareEntries }
    set { strings.spareEntries = newValue }
  }

  @inline(__always)
  mutating func dateLabel(for date: Date) -> DateLabel {
    strings.dateLabel(for: date)
  }

  mutating func spokenDate(for date: Date) -> DateLabel {
    strings.spokenDate(for: date)
  }

  mutating func unreadBadge(count: Int64) -> String {
    strings.unreadBadge(count: count)
  }

  /// ``shown(_:)`` of a text that is already a clean line: `.some(nil)` when
  /// it is empty or has nothing seen, and nil when it is not a clean line.
  @inline(__always)
  private func shown(_ text: InputText) -> InputText?? {
    guard isSingleLine(text.bytes) else { return nil }
    guard !text.bytes.isEmpty, hasVisibleCharacter(text.bytes) else { return .some(nil) }
    return .some(text)
  }
}

/// A text of the input, between its quotes and without escapes: exactly
/// the JSON of the same text in the output. Its bytes live as long as the
/// input the formatter reads.
struct InputText {
  let bytes: UnsafeBufferPointer<UInt8>
}

extension InputText: ScalarText {
  /// The text's scalars, decoded from its bytes (valid UTF-8: the reader checked it).
  var scalars: UTF8Scalars { UTF8Scalars(bytes: bytes) }
}

/// The scalars of valid UTF-8 bytes, decoded as they are read.
struct UTF8Scalars: Sequence, IteratorProtocol {
  private var bytes: UnsafeBufferPointer<UInt8>.Iterator
  private var decoder = UTF8()

  init(bytes: UnsafeBufferPointer<UInt8>) {
    self.bytes = bytes.makeIterator()
  }

  mutating func next() -> Unicode.Scalar? {
    switch decoder.decode(&bytes) {
    case .scalarValue(let scalar): scalar
    case .emptyInput: nil
    case .error: "\u{FFFD}"
    }
  }
}
