#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What the start of an input says about how to read it.
enum InputStart: Equatable {
  /// Not yet known: more of the input is needed.
  case undecided
  /// One message per line: read line by line, in bounded memory.
  case ndjson
  /// One JSON document (a payload or an array, or a single object): read whole.
  case document
  /// Nothing more needs reading: the input fails in what has been read (a
  /// first character that begins no payload, a NUL byte, a syntax error).
  case invalid

  /// Decides from `head`, the start of an input (all of it when
  /// `isComplete`), as ``InboxReader`` does with the whole: NDJSON when the
  /// first line holds one whole message object. `searched` is how much of
  /// `head` an earlier call has searched for a line feed.
  init(_ head: UnsafeBufferPointer<UInt8>, isComplete: Bool, searched: inout Int) {
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
      // An object that names its items before any message key is a
      // payload, one document, however long its first line: no need to
      // search it for a line feed (a whole payload often is one line).
      if Self.opensPayload(UnsafeBufferPointer(rebasing: head[start...])) {
        self = .document
        return
      }
      let from = max(start, searched)
      searched = head.count
      guard let lineFeed = firstIndex(of: 0x0A, in: UnsafeBufferPointer(rebasing: head[from...])).map({ from + $0 })
      else {
        self = isComplete ? .document : .undecided
        return
      }
      self = Self.isOneMessage(UnsafeBufferPointer(rebasing: head[start..<lineFeed])) ? .ndjson : .document
    default:
      // Invalid from here on; the message describes the character, which
      // may take up to four bytes.
      self = isComplete || head.count - start >= 4 ? .invalid : .undecided
    }
  }

  /// Whether `bytes` open a payload object: its `items` key comes before
  /// any `id` key (``InboxReader/Form/payload``). Only the keys before
  /// `items` and the first message are read.
  private static func opensPayload(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    var reader = InboxReader(bytes: bytes)
    _ = try? reader.next()
    return reader.form == .payload
  }

  /// Whether `line` is one whole, valid message object.
  private static func isOneMessage(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
    var reader = InboxReader(bytes: line)
    guard (try? reader.next()) != nil, reader.form == .ndjson else { return false }
    return (try? reader.next()) == nil
  }
}

/// The start of an input read piece by piece, until it decides how the
/// rest is read (``InputStart``), and while a document is gathered whole:
/// input that already fails is not read further. A NUL byte fails any
/// input; a first line or a document with a syntax error in it fails
/// there, whatever follows. (Such errors are looked for when the head has
/// grown eightfold since the last look, so looking costs a fraction of
/// reading.)
struct InputHead {
  private(set) var bytes: [UInt8] = []
  private(set) var start = InputStart.undecided
  private var searched = 0
  private var nextCheck = 1 << 16

  /// Errors this close to the end of the head may only be its cut (a UTF-8
  /// sequence, an escape or a literal split between pieces).
  private static let cutMargin = 64

  init(reserving capacity: Int) {
    // Reserving only maps address space: a long NDJSON input that streams
    // never touches most of it.
    bytes.reserveCapacity(capacity)
  }

  /// Whether more of the input is to be read into the head.
  var wantsMore: Bool { start == .undecided || start == .document }

  mutating func append(_ piece: [UInt8]) {
    bytes += piece
    if piece.withUnsafeBufferPointer({ firstIndex(of: 0, in: $0) }) != nil {
      start = .invalid
      return
    }
    if start == .undecided {
      start = bytes.withUnsafeBufferPointer { InputStart($0, isComplete: false, searched: &searched) }
    }
    guard bytes.count >= nextCheck, start == .undecided || start == .document else { return }
    nextCheck = bytes.count * 8
    if let failing = failure() { start = failing }
  }

  /// How the head fails before its end, if it does: a broken first NDJSON
  /// line (the rest is NDJSON, read past it) or a broken document.
  private func failure() -> InputStart? {
    bytes.withUnsafeBufferPointer { head in
      let end = head.count - Self.cutMargin
      if start == .undecided {
        // A first line with no line feed yet: what the reader makes of it.
        var reader = InboxReader(bytes: head)
        do throws(InboxFormatError) {
          _ = try reader.next()
        } catch {
          guard let location = error.location, location.byteOffset < end else { return nil }
          if case .brokenLine = error { return .ndjson }
          return reader.hasFailed ? .invalid : nil
        }
        return nil
      }
      var scanner = JSONScanner(bytes: head)
      scanner.skipWhitespace()
      do throws(InboxFormatError) {
        try scanner.skipValue(depth: 0)
      } catch {
        guard let location = error.location, location.byteOffset < end else { return nil }
        return .invalid
      }
      return nil
    }
  }
}

/// The index of the first `byte` in `bytes` (memchr: every byte of a long
/// first line is searched).
func firstIndex(of byte: UInt8, in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
  guard let base = bytes.baseAddress, let found = memchr(base, Int32(byte), bytes.count) else { return nil }
  return UnsafeRawPointer(base).distance(to: UnsafeRawPointer(found))
}
