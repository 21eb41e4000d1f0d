import Dispatch
import Synchronization

/// The whole job in one call: payload bytes in, output bytes out, as fast as
/// the machine allows.
///
/// It reads messages in batches and, while the calling thread reads the next
/// batch, maps and encodes the previous ones on other cores. Output comes out
/// in input order, in chunks, through `write`; memory stays bounded by the
/// batches in flight, so NDJSON of any length streams. The bytes are the
/// same as decoding with ``InboxDecoder``, mapping with ``MessageMapper`` and
/// encoding with ``InboxEncoder`` one step after the other.
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
  /// Batches mapped or waiting to be written at any time.
  static let batchesInFlight = 8

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
  /// - Throws: The first ``InboxFormatError`` (output before it has been
  ///   written; a JSON array is then left unclosed), or what `write` throws.
  public func format(
    _ payload: [UInt8],
    skipInvalid: ((InboxFormatError) -> Void)? = nil,
    write: ([UInt8]) throws -> Void
  ) throws {
    try payload.withUnsafeBufferPointer { bytes in
      try format(bytes, skipInvalid: skipInvalid, write: write)
    }
  }

  private func format(
    _ bytes: UnsafeBufferPointer<UInt8>,
    skipInvalid: ((InboxFormatError) -> Void)?,
    write: ([UInt8]) throws -> Void
  ) throws {
    var reader = InboxReader(bytes: bytes)
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
      let messages = try readBatch(&reader, skipInvalid: skipInvalid)
      if messages.isEmpty { break }
      let batch = Pending()
      let (mapper, isFirst) = (self.mapper, isFirstBatch)
      DispatchQueue.global().async {
        var output: [UInt8] = []
        output.reserveCapacity(messages.count * 256)
        encoder.appendElements(mapper.map(messages), isFirst: isFirst, to: &output)
        batch.fulfil(output)
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

  private func readBatch(
    _ reader: inout InboxReader, skipInvalid: ((InboxFormatError) -> Void)?
  ) throws(InboxFormatError) -> [MessageAPIModel] {
    var messages: [MessageAPIModel] = []
    messages.reserveCapacity(Self.batchSize)
    while messages.count < Self.batchSize {
      do {
        guard let message = try reader.next() else { break }
        messages.append(message)
      } catch {
        guard let skipInvalid, !reader.hasFailed else { throw error }
        skipInvalid(error)
      }
    }
    return messages
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
