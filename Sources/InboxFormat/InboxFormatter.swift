import Dispatch
#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif
import Synchronization

/// The whole job in one call: payload bytes in, output bytes out, as fast as
/// the machine allows.
///
/// It reads messages in batches and, while the calling thread reads the next
/// batch, maps and encodes the previous ones on other cores. Output comes out
/// in input order, in chunks, through `write`. The bytes are the same as
/// decoding with ``InboxDecoder``, mapping with ``MessageMapper`` and encoding
/// with ``InboxEncoder`` one step after the other.
///
/// ```swift
/// let formatter = InboxFormatter(context: context, layout: .compact)
/// var output: [UInt8] = []
/// try formatter.format(payloadBytes) { chunk in output += chunk }
/// ```
public struct InboxFormatter: Sendable {
  /// The mapper every row goes through.
  public let mapper: MessageMapper
  /// How the rows are laid out.
  public let layout: InboxEncoder.Layout

  /// Messages per batch: large enough to amortize handing work between
  /// threads, small enough to keep memory flat.
  static let batchSize = 2_048
  /// Batches being mapped or waiting to be written at any time.
  static let batchesInFlight = 4

  /// Creates a formatter for `context`.
  public init(context: FormattingContext, layout: InboxEncoder.Layout = .compact) {
    self.mapper = MessageMapper(context: context)
    self.layout = layout
  }

  /// Formats `payload`, handing the output to `write` in order.
  ///
  /// - Parameters:
  ///   - payload: An inbox payload: `{"items":[…]}`, a bare array, or NDJSON.
  ///   - skipInvalid: Called with each message that is valid JSON but not a
  ///     valid message (and each bad NDJSON line), which is then left out.
  ///     When nil, such a message is thrown like any other error.
  ///   - write: Receives the output, chunk after chunk, on the calling thread.
  /// - Throws: The first ``InboxFormatError`` (the output before it has been
  ///   written; a JSON array is then left unclosed), or what `write` throws.
  public func format(
    _ payload: [UInt8],
    skipInvalid: ((InboxFormatError) -> Void)? = nil,
    write: ([UInt8]) throws -> Void
  ) throws {
    try payload.withUnsafeBufferPointer { try format(bytes: $0, skipInvalid: skipInvalid, write: write) }
  }

  /// ``format(_:skipInvalid:write:)`` of bytes the caller holds, such as a
  /// mapped file, without copying them into an array.
  package func format(
    bytes: UnsafeBufferPointer<UInt8>,
    skipInvalid: ((InboxFormatError) -> Void)? = nil,
    write: ([UInt8]) throws -> Void
  ) throws {
    var reader = InboxReader(bytes: bytes)
    try run(input: InputBytes(bytes: bytes), skipInvalid: skipInvalid, write: write) { messages in
      try markingRecoverable(reader.hasFailed) { try reader.appendNext(to: &messages) }
    }
  }

  /// Whether `bytes`, a whole input, is NDJSON, which
  /// ``format(reading:expectedSize:skipInvalid:write:)`` streams in bounded
  /// memory.
  package static func isNDJSON(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    InputStart(bytes, isComplete: true) == .ndjson
  }

  /// Formats the payload that `read` returns piece by piece (nil at the
  /// end), handing the output to `write` in order. `expectedSize`, when
  /// known, spares the copies of gathering a large document.
  ///
  /// NDJSON is formatted as it arrives, in memory bounded by a few batches
  /// whatever its length; the other forms are one JSON document and are
  /// gathered whole first. Input that cannot be a payload fails where it
  /// starts, without being read further: a first character that begins no
  /// payload, a NUL byte, an NDJSON line that cannot become a message. Error
  /// locations count from the start of the input.
  ///
  /// ```swift
  /// try formatter.format(reading: { try file.read(upToCount: 1 << 20).map(Array.init) }) { chunk in
  ///   try output.write(contentsOf: chunk)
  /// }
  /// ```
  public func format(
    reading read: () throws -> [UInt8]?,
    expectedSize: Int = 0,
    skipInvalid: ((InboxFormatError) -> Void)? = nil,
    write: ([UInt8]) throws -> Void
  ) throws {
    var head: [UInt8] = []
    // Reserving only maps address space: a long NDJSON input that streams
    // never touches most of it.
    head.reserveCapacity(expectedSize)
    var start = InputStart.undecided
    var hasNUL = false
    while start == .undecided, !hasNUL, let piece = try read() {
      head += piece
      hasNUL = piece.contains(0)
      start = head.withUnsafeBufferPointer { InputStart($0, isComplete: false) }
    }
    guard start == .ndjson, !hasNUL else {
      // Read no further than the byte that fails it.
      if start != .invalid {
        while !hasNUL, let piece = try read() {
          head += piece
          hasNUL = piece.contains(0)
        }
      }
      return try format(head, skipInvalid: skipInvalid, write: write)
    }
    try withoutActuallyEscaping(read) { read in
      let lines = NDJSONPieces(head: head, read: read, goesPastBrokenLines: skipInvalid != nil)
      // Pieces are released as they are read: their messages go as `String`s.
      let noBytes = InputBytes(bytes: UnsafeBufferPointer(start: nil, count: 0))
      try run(input: noBytes, skipInvalid: skipInvalid, write: write) { messages in
        guard let message = try lines.next() else { return false }
        messages.append(.decoded(message))
        return true
      }
    }
  }

  /// The pipeline: `appendNext` reads messages on this thread (appending
  /// one, or returning false at the end), workers map and encode batches,
  /// and finished batches are written in order. `input` holds the bytes
  /// `.raw` messages lie in.
  private func run(
    input: InputBytes,
    skipInvalid: ((InboxFormatError) -> Void)?,
    write: ([UInt8]) throws -> Void,
    appendNext: (inout [PendingMessage]) throws -> Bool
  ) throws {
    let encoder = InboxEncoder(layout: layout)
    var pending: [Pending] = []
    var isFirstBatch = true
    defer {
      // On an error, let the batches still running finish before their
      // results are dropped.
      for batch in pending { _ = batch.wait() }
    }

    try write(encoder.opening)
    while true {
      var messages: [PendingMessage] = []
      messages.reserveCapacity(Self.batchSize)
      while messages.count < Self.batchSize {
        do {
          guard try appendNext(&messages) else { break }
        } catch let problem as RecoverableProblem {
          guard let skipInvalid else { throw problem.error }
          skipInvalid(problem.error)
        }
      }
      if messages.isEmpty { break }
      let batch = Pending()
      let (mapper, isFirst, batchMessages) = (self.mapper, isFirstBatch, messages)
      DispatchQueue.global().async {
        var output = ByteWriter(capacity: batchMessages.count * 256)
        mapper.appendRows(of: batchMessages, in: input, encoder: encoder, isFirst: isFirst, to: &output)
        batch.fulfil(output.takeBytes())
      }
      isFirstBatch = false
      pending.append(batch)
      // Write what is done, in order; wait only when too much is in flight.
      while let first = pending.first, pending.count >= Self.batchesInFlight || first.isDone {
        pending.removeFirst()
        try write(first.wait())
      }
    }
    while !pending.isEmpty {
      try write(pending.removeFirst().wait())
    }
    try write(encoder.closing(isEmpty: isFirstBatch))
  }
}

/// A problem with one item that reading can go past: a message that is not
/// valid, or a broken NDJSON line.
private struct RecoverableProblem: Error {
  var error: InboxFormatError
}

/// What `read` returns; a problem that reading can go past comes wrapped in
/// ``RecoverableProblem``, a fatal one (`hasFailed` is then true) as it is.
private func markingRecoverable<Value>(
  _ hasFailed: @autoclosure () -> Bool, _ read: () throws -> Value
) throws -> Value {
  do {
    return try read()
  } catch let error as InboxFormatError where !hasFailed() {
    throw RecoverableProblem(error: error)
  }
}

/// NDJSON read piece by piece: each piece is cut after its last line break,
/// read by its own ``InboxReader`` that knows where it lies in the input, and
/// released once read.
///
/// Memory stays bounded by a few pieces and the longest valid line: an
/// unfinished line that can no longer become a message (its first character
/// is not `{`, or a syntax error shows in it) is not kept whole. Its start,
/// which holds its first error, is read as the line, and the rest of it is
/// passed over. A NUL byte ends the reading: the line that holds it fails.
private final class NDJSONPieces {
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
  private static let firstCheck = 1 << 16
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
      if rest.count >= nextCheck || startsWithoutObject(rest) {
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

  /// Whether the unfinished line `line` begins with something other than `{`.
  private func startsWithoutObject(_ line: [UInt8]) -> Bool {
    line.first(where: { !isJSONWhitespace($0) }).map { $0 != UInt8(ascii: "{") } ?? false
  }

  /// Whether the unfinished line `line` is already broken, whatever follows it.
  private func cannotBecomeAMessage(_ line: [UInt8]) -> Bool {
    if startsWithoutObject(line) { return true }
    return line.withUnsafeBufferPointer { bytes in
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

/// The encoded bytes of one batch, once a worker has made them.
private final class Pending: Sendable {
  private let result = Mutex<[UInt8]?>(nil)
  private let done = DispatchSemaphore(value: 0)

  var isDone: Bool { result.withLock { $0 != nil } }

  func fulfil(_ bytes: [UInt8]) {
    result.withLock { $0 = bytes }
    done.signal()
  }

  func wait() -> [UInt8] {
    if let bytes = result.withLock({ $0 }) { return bytes }
    done.wait()
    done.signal()  // so that a second wait returns at once
    return result.withLock { $0 } ?? []
  }
}

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
