#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The rest of a large array's items, cut into stretches that the
/// pipeline's workers read at the same time.
///
/// Where one item ends can only be known by reading every item before it,
/// so the cuts are guesses: a comma between a `}` and the bytes the array's
/// first item opens with (`{"id"`, say), about ``stretchLength`` bytes
/// apart. A worker reads its stretch's items from its first comma as far as
/// the first comma at or past the next stretch's (``InboxReader/appendItems(after:through:to:)``),
/// and reports where it stopped. The pipeline takes the stretches in order
/// and keeps a stretch only if it starts where reading stopped before it: a
/// guess that fell inside a string or a nested object is read again from
/// there on the pipeline's own thread (``reread(after:through:itemCount:skipInvalid:)``),
/// as is any stretch holding a problem, which is then reported exactly as
/// reading the whole input in order reports it. The output is the same
/// either way; only the time differs.
struct ItemStretches: @unchecked Sendable {
  // @unchecked: the reader holds a pointer to the input's bytes, which the
  // pipeline keeps valid and unchanged until every worker has finished;
  // each use reads with a copy of the reader.

  /// Where reading a stretch stopped.
  enum End: Equatable, Sendable {
    /// At the comma after an item, at this offset.
    case comma(Int)
    /// At the array's closing bracket, at this offset.
    case arrayEnd(Int)
  }

  /// A reader that has found the input's form, copied for each stretch.
  private let reader: InboxReader
  /// The comma the first stretch starts at.
  let start: Int
  /// How many items come before ``start``.
  let itemCount: Int
  /// The bytes the array's first item opens with, up to its first key's
  /// closing quote; nil when they are not a plain key (no guesses are made).
  private let itemOpening: [UInt8]?
  /// About how many bytes each stretch holds.
  let stretchLength: Int
  /// About how many items a stretch holds, judging by those before ``start``.
  let expectedItemCount: Int

  /// The stretches after the comma at `start`, for a reader that has read
  /// `itemCount` items from `firstItem` on.
  init(reader: InboxReader, start: Int, itemCount: Int, firstItem: Int, stretchLength: Int) {
    self.reader = reader
    self.start = start
    self.itemCount = itemCount
    self.itemOpening = reader.objectOpening(at: firstItem).map { Array(reader.bytes[$0]) }
    self.stretchLength = stretchLength
    // A little over the average, so that a stretch seldom grows its array.
    expectedItemCount = stretchLength * itemCount / max(start - firstItem, 1) * 9 / 8 + 16
  }

  /// Where the stretch after the one starting at `comma` likely starts:
  /// the first comma at least ``stretchLength`` bytes on that lies between
  /// a `}` and the opening of an item. Nil: the stretch goes to the end.
  func boundary(after comma: Int) -> Int? {
    guard let itemOpening, let first = itemOpening.first else { return nil }
    let bytes = reader.bytes
    var offset = comma + stretchLength
    while offset < bytes.count, let found = bytes.firstIndex(of: first, from: offset) {
      offset = found + 1
      guard bytes.matches(itemOpening, at: found) else { continue }
      var before = found - 1
      while before > comma, isJSONWhitespace(bytes[before]) { before -= 1 }
      guard before > comma, bytes[before] == UInt8(ascii: ",") else { continue }
      let candidate = before
      before -= 1
      while before > comma, isJSONWhitespace(bytes[before]) { before -= 1 }
      if bytes[before] == UInt8(ascii: "}") { return candidate }
    }
    return nil
  }

  /// Reads the stretch from `comma` to `end` on a worker: its messages and
  /// where reading stopped, or nil when something in it is not a message.
  func read(after comma: Int, through end: Int?, to messages: inout [PendingMessage]) -> End? {
    var reader = reader
    return reader.appendItems(after: comma, through: end, to: &messages)
  }

  /// What ``reread(after:through:itemCount:skipInvalid:)`` read.
  struct Reread {
    var messages: [PendingMessage] = []
    /// The comma where reading stopped, or nil when it read to the end of
    /// the input (the array and what follows it, checked).
    var comma: Int?
    var itemCount: Int
  }

  /// Reads the items after `comma`, which reading in order has reached with
  /// `itemCount` items before it, as far as the first comma at or past
  /// `end` (nil: the input's end), as ``InboxReader/appendNext(to:)`` reads
  /// them: problems are reported with their item's index and location, and
  /// skipped through `skipInvalid` or thrown.
  func reread(
    after comma: Int, through end: Int?, itemCount: Int, skipInvalid: ((InboxFormatError) -> Void)?
  ) throws -> Reread {
    var reader = reader
    reader.resume(at: comma, itemCount: itemCount)
    var result = Reread(itemCount: itemCount)
    while true {
      do {
        guard try markingRecoverable(reader.hasFailed, { try reader.appendNext(to: &result.messages) }) else {
          result.itemCount = reader.itemCount
          return result
        }
      } catch let problem as RecoverableProblem {
        guard let skipInvalid else { throw problem.error }
        skipInvalid(problem.error)
      }
      if let end, let next = reader.commaAfterItem(), next >= end {
        result.comma = next
        result.itemCount = reader.itemCount
        return result
      }
    }
  }

  /// Reads what follows the array's closing bracket at `offset`, which a
  /// stretch reached with `itemCount` items before it: the payload's other
  /// keys and the end of the input, as ``InboxReader/appendNext(to:)`` does.
  func finish(at offset: Int, itemCount: Int) throws {
    var reader = reader
    reader.resume(at: offset, itemCount: itemCount)
    var none: [PendingMessage] = []
    _ = try reader.appendNext(to: &none)
  }
}

extension UnsafeBufferPointer<UInt8> {
  /// The first offset at or after `offset` holding `byte`.
  fileprivate func firstIndex(of byte: UInt8, from offset: Int) -> Int? {
    guard let base = baseAddress, offset < count, let found = memchr(base + offset, Int32(byte), count - offset)
    else { return nil }
    return UnsafeRawPointer(base).distance(to: UnsafeRawPointer(found))
  }

  /// Whether the bytes at `offset` are `pattern`.
  fileprivate func matches(_ pattern: [UInt8], at offset: Int) -> Bool {
    guard offset + pattern.count <= count else { return false }
    return pattern.indices.allSatisfy { self[offset + $0] == pattern[$0] }
  }
}
