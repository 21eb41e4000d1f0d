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

  /// Whether `bytes`, the start of an input (or all of it), open with a
  /// whole line holding one valid message: the input is then NDJSON, which
  /// ``format(reading:expectedSize:skipInvalid:write:)`` streams in bounded
  /// memory.
  package static func startsWithNDJSONLine(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    var searched = 0
    guard let line = firstLine(of: bytes, searchingFrom: &searched) else { return false }
    return isNDJSONMessage(UnsafeBufferPointer(rebasing: bytes[line]))
  }

  /// Formats the payload that `read` returns piece by piece (nil at the
  /// end), handing the output to `write` in order. `expectedSize`, when
  /// known, spares the copies of gathering a large document.
  ///
  /// NDJSON is formatted as it arrives, in memory bounded by a few batches
  /// whatever its length; the other forms are one JSON document and are
  /// gathered whole first. Error locations count from the start of the input.
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
    var firstLine: Range<Int>?
    var searched = 0
    while firstLine == nil, let piece = try read() {
      head += piece
      firstLine = head.withUnsafeBufferPointer { Self.firstLine(of: $0, searchingFrom: &searched) }
    }
    let isNDJSON = firstLine.map { line in
      head.withUnsafeBufferPointer { Self.isNDJSONMessage(UnsafeBufferPointer(rebasing: $0[line])) }
    }
    guard isNDJSON == true else {
      while let piece = try read() { head += piece }
      return try format(head, skipInvalid: skipInvalid, write: write)
    }
    try withoutActuallyEscaping(read) { read in
      let lines = NDJSONPieces(head: head, read: read)
      // Pieces are released as they are read: their messages go as `String`s.
      let noBytes = InputBytes(bytes: UnsafeBufferPointer(start: nil, count: 0))
      try run(input: noBytes, skipInvalid: skipInvalid, write: write) { messages in
        guard let message = try lines.next() else { return false }
        messages.append(.decoded(message))
        return true
      }
    }
  }

  /// The range of the first line holding something, after a byte order
  /// mark and blank lines, once a line break ends it. `searched` keeps how
  /// far an earlier call looked, so a long first line is scanned once.
  private static func firstLine(
    of bytes: UnsafeBufferPointer<UInt8>, searchingFrom searched: inout Int
  ) -> Range<Int>? {
    let textStart = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
    guard let start = bytes[textStart...].firstIndex(where: { !isJSONWhitespace($0) }) else {
      searched = bytes.count
      return nil
    }
    defer { searched = bytes.count }
    let from = max(start, searched)
    return memchr(bytes.baseAddress! + from, 0x0A, bytes.count - from).map {
      start..<UnsafeRawPointer(bytes.baseAddress!).distance(to: UnsafeRawPointer($0))
    }
  }

  /// Whether `line` is one whole, valid message object: then the input is NDJSON.
  private static func isNDJSONMessage(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
    guard line.first == UInt8(ascii: "{") else { return false }
    var reader = InboxReader(bytes: line)
    guard (try? reader.next()) != nil, reader.form == .ndjson else { return false }
    return (try? reader.next()) == nil
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
private final class NDJSONPieces {
  private let read: () throws -> [UInt8]?
  /// Bytes read but not yet handed to a reader: the start of an unfinished line.
  private var rest: [UInt8]
  private var isAtEnd = false
  private var piece = UnsafeMutableBufferPointer<UInt8>(start: nil, count: 0)
  private var reader: InboxReader?
  /// Where the next piece starts in the input.
  private var origin = InputLocation(line: 1, column: 1, byteOffset: 0)
  private var nextIndex = 0

  init(head: [UInt8], read: @escaping () throws -> [UInt8]?) {
    self.read = read
    if head.starts(with: [0xEF, 0xBB, 0xBF]) {
      rest = Array(head.dropFirst(3))
      origin.byteOffset = 3
    } else {
      rest = head
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
    origin.byteOffset += piece.count
    piece.deallocate()
    piece = UnsafeMutableBufferPointer(start: nil, count: 0)

    var lastLineBreak = rest.lastIndex(of: UInt8(ascii: "\n"))
    while lastLineBreak == nil, !isAtEnd {
      guard let more = try read() else {
        isAtEnd = true
        break
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

@inline(__always)
private func isJSONWhitespace(_ byte: UInt8) -> Bool {
  byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
}
