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
/// the first comma at or past the next stretch's (``StretchReader/appendItems(after:through:to:)``),
/// and reports where it stopped. The pipeline takes the stretches in order
/// and keeps a stretch only if it starts where reading stopped before it: a
/// guess that fell inside a string or a nested object is read again from
/// there on the pipeline's own thread, as is a stretch whose JSON is
/// broken, in order (``StretchReading``). An item that is not a valid
/// message is read again alone, in order, to be reported exactly as reading
/// the whole input in order reports it. The output is the same either way;
/// only the time differs.
struct ItemStretches: @unchecked Sendable {
  // @unchecked: the closures hold a copy of a reader and a pointer to the
  // input's bytes, which the pipeline keeps valid and unchanged until every
  // worker has finished; each use reads with a copy of that reader.

  /// Where reading a stretch stopped.
  enum End: Equatable, Sendable {
    /// At the comma after an item, at this offset.
    case comma(Int)
    /// At the array's closing bracket, at this offset.
    case arrayEnd(Int)
  }

  private let bytes: UnsafeBufferPointer<UInt8>
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
  /// Reading with a copy of the reader that found the items.
  private let readItems: (Int, Int?, inout PendingMessages, inout [SkippedItem]) -> End?
  /// A copy of that reader, for reading in order.
  let readerInOrder: () -> any StretchReader

  /// The stretches after the comma at `start`, for a reader that has read
  /// `itemCount` items from `firstItem` on.
  init<Reader: StretchReader>(reader: Reader, start: Int, itemCount: Int, firstItem: Int, stretchLength: Int) {
    bytes = reader.bytes
    self.start = start
    self.itemCount = itemCount
    self.itemOpening = Self.objectOpening(in: reader.bytes, at: firstItem).map { Array(reader.bytes[$0]) }
    self.stretchLength = stretchLength
    // A little over the average, so that a stretch seldom grows its array.
    expectedItemCount = stretchLength * itemCount / max(start - firstItem, 1) * 9 / 8 + 16
    readItems = { comma, end, messages, skipped in
      var reader = reader
      return reader.appendItems(after: comma, through: end, to: &messages, skipped: &skipped)
    }
    readerInOrder = { reader }
  }

  /// The bytes an object at `offset` opens with, through its first key's
  /// closing quote; nil for an object with no key or a key with escapes.
  static func objectOpening(in bytes: UnsafeBufferPointer<UInt8>, at offset: Int) -> Range<Int>? {
    guard offset < bytes.count, bytes[offset] == UInt8(ascii: "{") else { return nil }
    var index = offset + 1
    while index < bytes.count, isJSONWhitespace(bytes[index]) { index += 1 }
    guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return nil }
    index += 1
    while index < bytes.count, index - offset < 64 {
      switch bytes[index] {
      case UInt8(ascii: "\""): return offset..<(index + 1)
      case UInt8(ascii: "\\"): return nil
      default: index += 1
      }
    }
    return nil
  }

  /// Where the stretch after the one starting at `comma` likely starts:
  /// the first comma at least ``stretchLength`` bytes on that lies between
  /// a `}` and the opening of an item. Nil: the stretch goes to the end.
  func boundary(after comma: Int) -> Int? {
    guard let itemOpening, let first = itemOpening.first else { return nil }
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

  /// Reads the stretch from `comma` to `end` on a worker: its messages,
  /// the items that are not messages, and where reading stopped; nil when
  /// the JSON is broken there.
  func read(
    after comma: Int, through end: Int?, to messages: inout PendingMessages, skipped: inout [SkippedItem]
  ) -> End? {
    readItems(comma, end, &messages, &skipped)
  }
}

/// An item of a stretch that is not a valid message: the comma before it,
/// and how many of the stretch's items come before it. Reading it again in
/// order says what is wrong with it, with its index and location.
struct SkippedItem: Sendable, Equatable {
  var comma: Int
  var itemsBefore: Int
}

/// A reader whose array of items can be read in ``ItemStretches``: the
/// post's (``InboxReader``) or a mapping's (``MappedReader``).
protocol StretchReader {
  /// The scanner over the input, at the offset reading has reached.
  var scanner: JSONScanner { get set }
  /// How many items have been read so far, counting from the input's first.
  var itemCount: Int { get }
  /// Whether a fatal error has ended reading.
  var hasFailed: Bool { get }
  /// Where the first item of the array of items starts, once it has been read.
  var firstItemStart: Int? { get }
  /// Appends the next message; false at the end. Problems as reading in
  /// order reports them.
  mutating func appendNext(to messages: inout PendingMessages) throws(InboxFormatError) -> Bool
  /// The offset of the comma after the array item last read, when one
  /// follows it.
  mutating func commaAfterItem() -> Int?
  /// Goes on reading the array from `offset`, the comma after an item or
  /// the array's closing bracket, which reading (of this reader or of a
  /// copy) has reached; `itemCount` items come before it.
  mutating func resume(at offset: Int, itemCount: Int)
  /// The depth of the array's items when reading is in an array of items
  /// that can be read in stretches and has not failed; nil otherwise.
  var stretchItemDepth: Int? { get }
  /// Reads the item at the scanner's position, at `depth`: appends it as
  /// ``appendNext(to:)`` does and returns true when it is a valid message,
  /// returns false (and keeps no problem) when it is not. Throws when the
  /// JSON is broken.
  mutating func appendItem(depth: Int, to messages: inout PendingMessages) throws(InboxFormatError) -> Bool
}

extension StretchReader {
  /// The input's bytes.
  var bytes: UnsafeBufferPointer<UInt8> { scanner.bytes }

  /// The offset reading has reached.
  var offset: Int { scanner.position }

  /// Reads the array's items after the comma at `comma` as far as the
  /// first comma at or past `end` that follows an item (nil: the array's
  /// end), appending the messages as ``appendNext(to:)`` does and each item
  /// that is not a valid message to `skipped`. Returns where reading
  /// stopped, or nil when the JSON is broken before then: reading in order
  /// reads those items again, and says what is wrong. Item indices and
  /// locations are not kept up to date: only ``appendNext(to:)`` reports
  /// them.
  mutating func appendItems(
    after comma: Int, through end: Int?, to messages: inout PendingMessages, skipped: inout [SkippedItem]
  ) -> ItemStretches.End? {
    guard let depth = stretchItemDepth else { return nil }
    scanner.position = comma
    var items = 0
    do throws(InboxFormatError) {
      while true {
        guard scanner.current == UInt8(ascii: ",") else {
          return scanner.current == UInt8(ascii: "]") ? .arrayEnd(scanner.position) : nil
        }
        if let end, scanner.position >= end { return .comma(scanner.position) }
        let itemComma = scanner.position
        scanner.position += 1
        scanner.skipWhitespace()
        if try !appendItem(depth: depth, to: &messages) {
          skipped.append(SkippedItem(comma: itemComma, itemsBefore: items))
        }
        items += 1
        scanner.skipWhitespace()
      }
    } catch {
      return nil
    }
  }

  /// The rest of the array's items as stretches, when reading has just
  /// read an item of an array of items, a comma follows it, and at least
  /// `minimumLength` bytes are left; nil to go on reading in order.
  mutating func stretches(minimumLength: Int, stretchLength: Int) -> ItemStretches? {
    guard !hasFailed, bytes.count - offset >= minimumLength, let firstItemStart, let comma = commaAfterItem()
    else { return nil }
    return ItemStretches(
      reader: self, start: comma, itemCount: itemCount, firstItem: firstItemStart, stretchLength: stretchLength)
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
