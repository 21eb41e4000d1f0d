#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// NDJSON read piece by piece: each piece is cut after its last line break,
/// read by its own ``InboxReader`` that knows where it lies in the input, and
/// released once read.
///
/// Memory stays bounded by a few pieces and the longest valid line: an
/// unfinished line that can no longer become a message (a syntax error shows
/// in it) is not kept whole. Its start,
/// which holds its first error, is read as the line, and the rest of it is
/// passed over. A NUL byte ends the reading: the line that holds it fails.
final class NDJSONPieces {
  private let read: () throws -> [UInt8]?
  /// Bytes read but not yet handed to a reader: the start of an unfinished line.
  private var rest: [UInt8]
  private var isAtEnd = false
  private var piece = UnsafeMutableBufferPointer<UInt8>(start: nil, count: 0)
  private var reader: InboxReader?
  /// Where the next piece starts in the input.
  private var origin = InputLocation(line: 1, column: 1, byteOffset: 0)
  /// Bytes of the input passed over within the current piece's last line.
  private var passedOver = 0
  private var nextIndex = 0
  /// Whether a broken line is skipped, so reading goes on after it; if
  /// not, the first one ends the input.
  private let goesPastBrokenLines: Bool

  /// An unfinished line is checked for an error once it is this long, then
  /// again each time it doubles: checks cost at most as much as reading it.
  /// (An error is told only once the line holds it: the error a broken line
  /// reports can depend on what follows its first problem, such as the
  /// syntax error that replaces a message's problem when more follows it on
  /// the line, so the line's start is kept up to the error found.)
  private static let firstCheck = 1 << 12
  /// Errors this close to the end of an unfinished line may only be its
  /// cut (a UTF-8 sequence or an escape split between pieces).
  private static let cutMargin = 64

  init(head: [UInt8], read: @escaping () throws -> [UInt8]?, goesPastBrokenLines: Bool) {
    self.read = read
    self.goesPastBrokenLines = goesPastBrokenLines
    if head.starts(with: [0xEF, 0xBB, 0xBF]) {
      rest = Array(head.dropFirst(3))
      origin.byteOffset = 3
    } else {
      rest = head
    }
    if let nul = rest.firstIndex(of: 0) {
      rest.removeSubrange((nul + 1)...)
      isAtEnd = true
    }
  }

  deinit {
    piece.deallocate()
  }

  /// The next message; throws what the reader of a piece throws, and what `read` throws.
  func next() throws -> MessageAPIModel? {
    while true {
      if reader != nil {
        // A reader reports problems with its lines as it goes; past them, it goes on.
        if let message = try markingRecoverable(reader!.hasFailed, { try reader!.next() }) { return message }
        nextIndex = reader!.itemCount
        reader = nil
      }
      guard try loadPiece() else { return nil }
    }
  }

  /// Moves the next whole lines into `piece` and starts a reader on them;
  /// false at the end of the input.
  private func loadPiece() throws -> Bool {
    origin.line += piece.count(where: { $0 == UInt8(ascii: "\n") })
    origin.byteOffset += piece.count + passedOver
    passedOver = 0
    piece.deallocate()
    piece = UnsafeMutableBufferPointer(start: nil, count: 0)

    var lastLineBreak = rest.lastIndex(of: UInt8(ascii: "\n"))
    var nextCheck = Self.firstCheck
    while lastLineBreak == nil, !isAtEnd {
      if rest.count >= nextCheck {
        if cannotBecomeAMessage(rest) {
          if goesPastBrokenLines {
            lastLineBreak = try passOverRestOfLine()
          } else {
            isAtEnd = true  // the line's error ends the input
          }
          break
        }
        nextCheck = max(nextCheck, rest.count * 2)
      }
      guard var more = try read() else {
        isAtEnd = true
        break
      }
      if let nul = more.firstIndex(of: 0) {
        more.removeSubrange((nul + 1)...)
        isAtEnd = true
      }
      lastLineBreak = more.lastIndex(of: UInt8(ascii: "\n")).map { rest.count + $0 }
      rest += more
    }
    let end = lastLineBreak.map { $0 + 1 } ?? rest.count
    guard end > 0 else { return false }
    piece = .allocate(capacity: end)
    _ = piece.initialize(from: rest[..<end])
    rest.removeSubrange(..<end)
    reader = InboxReader(ndjsonLines: UnsafeBufferPointer(piece), origin: origin, firstIndex: nextIndex)
    return true
  }

  /// Whether the unfinished line `line` is already broken, whatever follows it.
  private func cannotBecomeAMessage(_ line: [UInt8]) -> Bool {
    line.withUnsafeBufferPointer { bytes in
      var probe = InboxReader(ndjsonLines: bytes, origin: origin, firstIndex: nextIndex)
      do throws(InboxFormatError) {
        _ = try probe.next()
        return false
      } catch {
        guard case .brokenLine(_, _, _, let location) = error else { return false }
        return location.byteOffset + Self.cutMargin < origin.byteOffset + line.count
      }
    }
  }

  /// Reads on to the end of the broken line in `rest` without keeping it:
  /// `rest` becomes the line's start, a NUL if the rest held one, a line
  /// break and what follows it. Returns where that line break is.
  private func passOverRestOfLine() throws -> Int? {
    var sawNUL = false
    var skipped = 0
    var after: [UInt8]?
    while !sawNUL, after == nil, let more = try read() {
      let lineEnd = more.firstIndex(of: UInt8(ascii: "\n")) ?? more.count
      sawNUL = more[..<lineEnd].contains(0)
      skipped += lineEnd
      if lineEnd < more.count { after = Array(more[(lineEnd + 1)...]) }
    }
    if sawNUL {
      // The line fails for good at its NUL: nothing after it is read.
      rest.append(0)
      skipped -= 1
      after = nil
      isAtEnd = true
    } else if after == nil {
      isAtEnd = true
    }
    passedOver = skipped
    guard let after else { return nil }
    rest.append(UInt8(ascii: "\n"))
    let lineBreak = rest.count - 1
    if let nul = after.firstIndex(of: 0) {
      rest += after[...nul]
      isAtEnd = true
    } else {
      rest += after
    }
    return lineBreak
  }
}
