// The formatter's fast path: rows written straight from the input's bytes.
// A message whose texts are already clean single lines without escapes (most
// of them) has the same texts in its row as in the input, so they are copied
// byte for byte, without making a `String` of each and escaping it again.
// Any other message goes through ``MessageMapper/map(_:)`` and the encoder.
// Both give the same bytes; `InboxFormatterTests` holds them to it.

/// A message on its way to the formatter's workers.
enum PendingMessage: Sendable {
  /// A message whose texts need no unescaping, still in the input's bytes.
  case raw(RawMessage)
  /// A message read into `String`s.
  case decoded(MessageAPIModel)
}

/// The input's bytes, handed to the formatter's workers. The formatter waits
/// for every worker before it lets go of them.
struct InputBytes: @unchecked Sendable {
  let bytes: UnsafeBufferPointer<UInt8>
}

extension MessageMapper {
  /// Appends the rows of `messages` as `encoder` lays them out: the bytes
  /// that ``map(_:)`` and ``InboxEncoder`` give, `.raw` ones read from `input`.
  func appendRows(
    of messages: [PendingMessage], in input: InputBytes, encoder: InboxEncoder, isFirst: Bool,
    to output: inout ByteWriter
  ) {
    rules.store.withMemo { memo in
      appendRows(of: messages, in: input, encoder: encoder, isFirst: isFirst, memo: &memo, to: &output)
    }
  }

  private func appendRows(
    of messages: [PendingMessage], in input: InputBytes, encoder: InboxEncoder, isFirst: Bool,
    memo: inout LabelMemo, to output: inout ByteWriter
  ) {
    var isFirst = isFirst
    for pending in messages {
      switch pending {
      case .raw(let raw):
        if !rules.appendRow(of: raw, in: input.bytes, encoder: encoder, isFirst: isFirst, memo: &memo, to: &output) {
          let row = rules.map(raw.decoded(in: input.bytes), memo: &memo)
          encoder.appendElements(CollectionOfOne(row), isFirst: isFirst, to: &output)
        }
      case .decoded(let message):
        encoder.appendElements(CollectionOfOne(rules.map(message, memo: &memo)), isFirst: isFirst, to: &output)
      }
      isFirst = false
    }
  }
}

extension Rules {
  /// Appends the row of `raw` when its texts can be copied as they are:
  /// names, message and (when it is the title) phone number already single
  /// lines, and no preview to cut. Returns false, having appended nothing,
  /// otherwise.
  ///
  /// The title and initials rules are those of ``map(_:memo:)``, on bytes.
  fileprivate func appendRow(
    of raw: RawMessage, in bytes: UnsafeBufferPointer<UInt8>, encoder: InboxEncoder, isFirst: Bool,
    memo: inout LabelMemo, to output: inout ByteWriter
  ) -> Bool {
    let firstname = raw.firstname.contents(in: bytes)
    let lastname = raw.lastname.contents(in: bytes)
    let message = raw.message.contents(in: bytes)
    guard isSingleLine(firstname), isSingleLine(lastname), isSingleLine(message),
      firstname.isEmpty || hasVisibleCharacter(firstname), lastname.isEmpty || hasVisibleCharacter(lastname)
    else { return false }
    // A preview no longer than the limit in bytes is no longer in clusters.
    if let previewLength, message.count > previewLength { return false }

    let (initials, familyNameFirst) = initialsAndOrder(firstname: firstname, lastname: lastname, memo: &memo) {
      (String(decoding: firstname, as: UTF8.self), String(decoding: lastname, as: UTF8.self))
    }
    var phoneNumber = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
    if firstname.isEmpty && lastname.isEmpty {
      phoneNumber = raw.phoneNumber.contents(in: bytes)
      guard isSingleLine(phoneNumber), phoneNumber.isEmpty || hasVisibleCharacter(phoneNumber) else { return false }
    }
    let title = TitleSource(
      hasFirstname: !firstname.isEmpty, hasLastname: !lastname.isEmpty, hasPhoneNumber: !phoneNumber.isEmpty,
      familyNameFirst: { familyNameFirst })
    let date = dateLabels.label(for: raw.updateDate, memo: &memo)

    encoder.appendElement(id: raw.id, isUnread: raw.unreadCount > 0, isFirst: isFirst, to: &output) { text, output in
      switch text {
      case .initials: appendEscaped(initials, to: &output)
      case .title:
        switch title {
        case .names(familyNameFirst: true):
          output.append(lastname)
          output.append(firstname)
        case .names(familyNameFirst: false):
          output.append(firstname)
          output.append(0x20)
          output.append(lastname)
        case .firstname: output.append(firstname)
        case .lastname: output.append(lastname)
        case .phoneNumber: output.append(phoneNumber)
        case .placeholder: appendEscaped(untitledPlaceholder, to: &output)
        }
      case .message: output.append(message)
      case .date: appendEscaped(date.text, to: &output)
      }
    }
    return true
  }
}

extension RawMessage {
  /// The message with its texts copied out of `bytes`. Only for a message
  /// whose texts have no escapes, as ``PendingMessage/raw(_:)`` ones.
  fileprivate func decoded(in bytes: UnsafeBufferPointer<UInt8>) -> MessageAPIModel {
    func text(_ token: JSONScanner.StringToken?) -> String {
      String(decoding: token.contents(in: bytes), as: UTF8.self)
    }
    return MessageAPIModel(
      id: id, firstname: text(firstname), lastname: text(lastname), message: text(message),
      phoneNumber: .init(international: text(phoneNumber)), updateDate: updateDate, unreadCount: unreadCount)
  }

  /// Whether every text can be read without unescaping.
  var hasPlainTexts: Bool {
    !(firstname?.hasEscapes ?? false) && !(lastname?.hasEscapes ?? false) && !(message?.hasEscapes ?? false)
      && !(phoneNumber?.hasEscapes ?? false)
  }
}

extension JSONScanner.StringToken? {
  /// The bytes between the quotes, empty for no string.
  fileprivate func contents(in bytes: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
    guard let self else { return UnsafeBufferPointer(start: nil, count: 0) }
    return UnsafeBufferPointer(rebasing: bytes[self.range])
  }
}
