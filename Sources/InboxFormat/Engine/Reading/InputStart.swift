/// What the start of an input says about how to read it.
enum InputStart: Equatable {
  /// Not yet known: more of the input is needed.
  case undecided
  /// One message per line: read line by line, in bounded memory.
  case ndjson
  /// One JSON document (a payload or an array, or a single object): read whole.
  case document
  /// Nothing more needs reading: the input fails where it starts (its
  /// first character begins no payload).
  case invalid

  /// Decides from `head`, the start of an input (all of it when
  /// `isComplete`), as ``InboxReader`` does with the whole: NDJSON when the
  /// first line holds one whole message object.
  init(_ head: UnsafeBufferPointer<UInt8>, isComplete: Bool) {
    let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]
    guard isComplete || head.count >= 3 || !byteOrderMark.starts(with: head) else {
      self = .undecided
      return
    }
    let textStart = head.starts(with: byteOrderMark) ? 3 : 0
    guard let start = head[textStart...].firstIndex(where: { !isJSONWhitespace($0) }) else {
      self = isComplete ? .document : .undecided
      return
    }
    switch head[start] {
    case UInt8(ascii: "["): self = .document
    case UInt8(ascii: "{"):
      guard let lineFeed = head[start...].firstIndex(of: 0x0A) else {
        self = isComplete ? .document : .undecided
        return
      }
      self = Self.isOneMessage(UnsafeBufferPointer(rebasing: head[start..<lineFeed])) ? .ndjson : .document
    default: self = .invalid
    }
  }

  /// Whether `line` is one whole, valid message object.
  private static func isOneMessage(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
    var reader = InboxReader(bytes: line)
    guard (try? reader.next()) != nil, reader.form == .ndjson else { return false }
    return (try? reader.next()) == nil
  }
}
