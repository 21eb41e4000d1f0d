import Dispatch
import Foundation
import Synchronization

/// The formatter's pipeline: messages are read on the calling thread, their
/// rows made and written in batches on other cores while the next batch is
/// read, and the output handed over in input order. A large array's items
/// after its first are read on the other cores too, in ``ItemStretches``.
struct Pipeline {
  let tables: ContextTables
  let layout: InboxEncoder.Layout

  /// Messages per batch: large enough to amortize handing work between
  /// threads, small enough to keep memory flat.
  static let batchSize = 1_024
  /// Batches being made or waiting to be written at any time: one per core
  /// of this machine kind and one being written keep both cores busy, and
  /// each batch more holds its messages and rows in memory.
  static let batchesInFlight = 3

  /// About how many bytes each of ``ItemStretches`` holds (about a batch),
  /// and how many an array must have left after its first message for the
  /// rest to be read in them: a few stretches per worker at least.
  var stretchLength = 256 * 1_024
  var minimumStretchedLength: Int { 4 * stretchLength }

  /// Runs the pipeline over what `reader` reads, on the calling thread;
  /// when the input is a large array, all its items after the first are
  /// read in ``ItemStretches`` on the workers.
  func run<Reader: StretchReader>(
    input: InputBytes,
    skipInvalid: ((InboxFormatError) -> Void)?,
    write: ([UInt8]) throws -> Void,
    reading reader: inout Reader
  ) throws -> Date? {
    try run(input: input, skipInvalid: skipInvalid, write: write) { messages in
      try markingRecoverable(reader.hasFailed) { try reader.appendNext(to: &messages) }
    } stretches: {
      reader.stretches(minimumLength: minimumStretchedLength, stretchLength: stretchLength)
    }
  }

  /// Runs the pipeline over `bytes` with the reader `mapping` takes: the
  /// post's reads the bytes straight, any other follows its queries.
  func run(
    bytes: UnsafeBufferPointer<UInt8>, mapping: InputMapping, skipInvalid: ((InboxFormatError) -> Void)?,
    write: ([UInt8]) throws -> Void
  ) throws -> Date? {
    guard mapping.isPost else {
      var reader = MappedReader(bytes: bytes, mapping: mapping)
      return try run(input: InputBytes(bytes: bytes), skipInvalid: skipInvalid, write: write, reading: &reader)
    }
    var reader = InboxReader(bytes: bytes)
    return try run(input: InputBytes(bytes: bytes), skipInvalid: skipInvalid, write: write, reading: &reader)
  }

  /// Runs the pipeline: `appendNext` reads messages (appending one, or
  /// returning false at the end), and `write` receives the output in order.
  /// `input` holds the bytes `.raw` messages lie in. Returns the first
  /// instant a label written stops being true.
  ///
  /// After the first message, `stretches` may hand the rest of the input
  /// over to be read on the workers; `appendNext` is then not called again.
  func run(
    input: InputBytes,
    skipInvalid: ((InboxFormatError) -> Void)?,
    write: ([UInt8]) throws -> Void,
    appendNext: (inout PendingMessages) throws -> Bool,
    stretches: () -> ItemStretches? = { nil }
  ) throws -> Date? {
    let writer = RowWriter(layout: layout, fields: tables.writtenFields)
    var pending: [PendingBatch] = []
    var isFirstBatch = true
    var validUntil: Date?
    var textRows: [MessageUIModel] = []
    var stretched: ItemStretches?
    defer {
      // On an error, let the batches still running finish before their
      // results are dropped (they read the input's bytes); those not
      // started never start.
      for batch in pending { batch.abandon() }
    }
    func hand(_ batch: Batch) throws {
      validUntil = earliest(validUntil, batch.validUntil)
      textRows += batch.rows
      try write(batch.bytes)
    }
    func start(_ batch: PendingBatch) {
      DispatchQueue.global().async { batch.run() }
      pending.append(batch)
    }

    try write(writer.opening)
    while true {
      var messages = PendingMessages()
      messages.reserveCapacity(Self.batchSize)
      while messages.count < Self.batchSize {
        do {
          guard try appendNext(&messages) else { break }
        } catch let problem as RecoverableProblem {
          guard let skipInvalid else { throw problem.error }
          skipInvalid(problem.error)
          continue
        }
        if isFirstBatch, messages.count == 1, let rest = stretches() {
          stretched = rest
          break
        }
      }
      if messages.isEmpty { break }
      if messages.count < Self.batchSize && pending.isEmpty && stretched == nil {
        // The whole input in one short batch (a page): made on this thread,
        // which would otherwise only wait for it. Handing it over cost a
        // service more than making it.
        try hand(Pipeline.batch(of: messages, in: input, tables: tables, writer: writer, isFirst: isFirstBatch))
        isFirstBatch = false
        break
      }
      let (tables, isFirst, batchMessages) = (self.tables, isFirstBatch, messages)
      isFirstBatch = false
      start(
        PendingBatch {
          Pipeline.batch(of: batchMessages, in: input, tables: tables, writer: writer, isFirst: isFirst)
        })
      // Write what is done, in order; wait only when too much is in flight.
      while let first = pending.first, pending.count >= Self.batchesInFlight || first.isDone {
        pending.removeFirst()
        try hand(first.wait())
      }
      if stretched != nil { break }
    }
    if let stretched {
      // The first row comes first: every row from here follows another.
      var reading = StretchReading(stretches: stretched)
      let tables = self.tables
      while !reading.isFinished {
        while pending.count < Self.batchesInFlight, let stretch = reading.nextStretch() {
          start(
            PendingBatch {
              var messages = PendingMessages()
              var skipped: [SkippedItem] = []
              messages.reserveCapacity(stretched.expectedItemCount)
              let end = stretched.read(after: stretch.start, through: stretch.end, to: &messages, skipped: &skipped)
              var batch =
                end == nil
                ? Batch() : Pipeline.batch(of: messages, in: input, tables: tables, writer: writer, isFirst: false)
              batch.stretch = StretchRead(
                stretch: stretch, end: end, itemCount: messages.count + skipped.count, skipped: skipped)
              return batch
            })
        }
        guard !pending.isEmpty else {
          // The last stretch runs to the array's end, so taking it finishes
          // reading; were it ever not so, the rest is read here, in order.
          let messages = try reading.readRest(skipInvalid: skipInvalid)
          try hand(Pipeline.batch(of: messages, in: input, tables: tables, writer: writer, isFirst: false))
          break
        }
        let batch = pending.removeFirst().wait()
        guard let read = batch.stretch else {
          try hand(batch)
          continue
        }
        switch try reading.take(read, skipInvalid: skipInvalid) {
        case .keep: try hand(batch)
        case .drop: break
        case .replace(let messages):
          try hand(Pipeline.batch(of: messages, in: input, tables: tables, writer: writer, isFirst: false))
        }
      }
    }
    if stretched != nil {
      // Stretches guessed past the array's end.
      for batch in pending { batch.abandon() }
      pending.removeAll()
    }
    while !pending.isEmpty {
      try hand(pending.removeFirst().wait())
    }
    if case .text(let view) = layout.kind { try write(Array(view.render(textRows).utf8)) }
    try write(writer.closing(isEmpty: isFirstBatch))
    return validUntil
  }
}

/// One stretch of ``ItemStretches``: from the comma at `start` as far as
/// the first comma at or past `end` (nil: the array's end).
struct Stretch: Sendable {
  var start: Int
  var end: Int?
}

/// What a worker read of a stretch.
struct StretchRead: Sendable {
  var stretch: Stretch
  /// Where reading stopped; nil when the JSON is broken in the stretch.
  var end: ItemStretches.End?
  /// The items read, messages or not.
  var itemCount: Int
  /// The items that are not valid messages.
  var skipped: [SkippedItem] = []
}

/// The pipeline's thread's side of ``ItemStretches``: which stretch comes
/// next, which of the workers' readings are kept, and what is read again in
/// order.
struct StretchReading {
  let stretches: ItemStretches
  /// Where reading in order has reached: the comma after the last item
  /// whose row is written.
  private var reached: Int
  private var itemCount: Int
  /// Where the next stretch starts; nil when the last one has been handed out.
  private var nextStart: Int?
  /// Whether the whole input has been read.
  private(set) var isFinished = false
  /// The reader that reads in order what is read again. It only ever moves
  /// forward, so the locations it reports cost one pass over the input.
  private var inOrder: any StretchReader

  init(stretches: ItemStretches) {
    self.stretches = stretches
    reached = stretches.start
    itemCount = stretches.itemCount
    nextStart = stretches.start
    inOrder = stretches.readerInOrder()
  }

  /// The next stretch to hand to a worker, if any is left.
  mutating func nextStretch() -> Stretch? {
    guard !isFinished, let start = nextStart else { return nil }
    let end = stretches.boundary(after: start)
    nextStart = end
    return Stretch(start: start, end: end)
  }

  enum Taken {
    /// The worker read the items that come next: its rows are written.
    case keep
    /// The stretch lies before where reading has reached, or past the
    /// input's end.
    case drop
    /// The stretch's items, read again from where reading had reached.
    case replace(PendingMessages)
  }

  /// Takes the workers' stretches in order. The items of a kept stretch
  /// that are not messages are reported through `skipInvalid`, or the
  /// first is thrown, as reading in order reports them.
  mutating func take(_ read: StretchRead, skipInvalid: ((InboxFormatError) -> Void)?) throws -> Taken {
    guard !isFinished else { return .drop }
    if read.stretch.start == reached, let end = read.end {
      guard let problems = try problems(of: read.skipped) else {
        return .replace(try reread(through: read.stretch.end, skipInvalid: skipInvalid))
      }
      for problem in problems {
        guard let skipInvalid else { throw problem }
        skipInvalid(problem)
      }
      itemCount += read.itemCount
      switch end {
      case .comma(let comma): reached = comma
      case .arrayEnd(let bracket):
        try finish(at: bracket)
        isFinished = true
      }
      return .keep
    }
    if let end = read.stretch.end, end <= reached { return .drop }
    return .replace(try reread(through: read.stretch.end, skipInvalid: skipInvalid))
  }

  /// The items from where reading has reached to the end of the input,
  /// read in order.
  mutating func readRest(skipInvalid: ((InboxFormatError) -> Void)?) throws -> PendingMessages {
    guard !isFinished else { return PendingMessages() }
    return try reread(through: nil, skipInvalid: skipInvalid)
  }

  /// What reading in order says of each skipped item of the stretch that
  /// starts where reading has reached; nil if one turns out to be a
  /// message after all (never expected: the stretch is then read again).
  private mutating func problems(of skipped: [SkippedItem]) throws -> [InboxFormatError]? {
    var problems: [InboxFormatError] = []
    var none = PendingMessages()
    for item in skipped {
      inOrder.resume(at: item.comma, itemCount: itemCount + item.itemsBefore)
      do {
        _ = try markingRecoverable(inOrder.hasFailed) { try inOrder.appendNext(to: &none) }
        return nil
      } catch let problem as RecoverableProblem {
        problems.append(problem.error)
      }
    }
    return problems
  }

  /// Reads the items from where reading has reached as far as the first
  /// comma at or past `end` (nil: the input's end), in order: problems are
  /// reported with their item's index and location, and skipped through
  /// `skipInvalid` or thrown.
  private mutating func reread(through end: Int?, skipInvalid: ((InboxFormatError) -> Void)?) throws
    -> PendingMessages
  {
    inOrder.resume(at: reached, itemCount: itemCount)
    var messages = PendingMessages()
    while true {
      do {
        guard try markingRecoverable(inOrder.hasFailed, { try inOrder.appendNext(to: &messages) }) else {
          itemCount = inOrder.itemCount
          isFinished = true
          return messages
        }
      } catch let problem as RecoverableProblem {
        guard let skipInvalid else { throw problem.error }
        skipInvalid(problem.error)
      }
      if let end, let next = inOrder.commaAfterItem(), next >= end {
        itemCount = inOrder.itemCount
        reached = next
        return messages
      }
    }
  }

  /// Reads what follows the array's closing bracket at `offset`: the
  /// payload's other keys and the end of the input.
  private mutating func finish(at offset: Int) throws {
    inOrder.resume(at: offset, itemCount: itemCount)
    var none = PendingMessages()
    _ = try inOrder.appendNext(to: &none)
  }
}

/// Messages on their way to the pipeline's workers, in order.
///
/// Those still in the input's bytes are ``RawMessage``s, trivial values: an
/// array of them is copied and freed as bytes. Those read into `String`s
/// wait beside them, so that they alone are copied and freed one by one.
struct PendingMessages: Sendable {
  /// One message: where it is.
  enum Item {
    /// A message whose texts need no unescaping, still in the input's bytes.
    case raw(RawMessage)
    /// A message read into `String`s: its index in ``decoded``.
    case decoded(Int)
  }

  private(set) var items: [Item] = []
  private(set) var decoded: [MessageAPIModel] = []

  var count: Int { items.count }
  var isEmpty: Bool { items.isEmpty }

  mutating func reserveCapacity(_ count: Int) {
    items.reserveCapacity(count)
  }

  mutating func append(_ raw: RawMessage) {
    items.append(.raw(raw))
  }

  mutating func append(_ message: MessageAPIModel) {
    items.append(.decoded(decoded.count))
    decoded.append(message)
  }

  /// The message at `index`, read into `String`s: `bytes` are those its
  /// raw messages lie in.
  func message(at index: Int, in bytes: UnsafeBufferPointer<UInt8>) -> MessageAPIModel {
    switch items[index] {
    case .raw(let raw): raw.decoded(in: bytes)
    case .decoded(let index): decoded[index]
    }
  }
}

/// The input's bytes, handed to the pipeline's workers. The pipeline waits
/// for every worker before it lets go of them.
struct InputBytes: @unchecked Sendable {
  let bytes: UnsafeBufferPointer<UInt8>
}

/// What a worker made of a batch: its output, or for the text layout its
/// rows, and the first instant one of its labels stops being true.
struct Batch: Sendable {
  var bytes: [UInt8] = []
  var rows: [MessageUIModel] = []
  var validUntil: Date?
  /// The stretch a worker read the batch's messages from, if it did.
  var stretch: StretchRead?
}

extension Pipeline {
  /// The batch of `messages`: each row written by `writer` (or, for the
  /// text layout, kept), `.raw` ones read from `input` by ``ByteRules``
  /// when their texts can be written as they are.
  static func batch(
    of messages: PendingMessages, in input: InputBytes, tables: ContextTables, writer: RowWriter, isFirst: Bool
  ) -> Batch {
    let isText = if case .text = writer.layout.kind { true } else { false }
    return tables.withByteRules(messageCount: messages.count) { rows in
      var validUntil: Date?
      var textRows: [MessageUIModel] = []
      var isFirst = isFirst
      let bytes = ByteWriter.bytes(capacity: isText ? 0 : messages.count * 256) { output in
        for item in messages.items {
          let message: MessageAPIModel
          switch item {
          case .raw(let raw):
            let text = { (token: JSONScanner.StringToken?) in
              InputText(bytes: RawMessage.contents(of: token, in: input.bytes))
            }
            if !isText,
              let row = rows.row(
                id: raw.id.messageID(in: input.bytes), message: text(raw.message), updateDate: raw.updateDate,
                unreadCount: raw.unreadCount,
                as: Row<InputText>.self,
                names: { rules in
                  raw.hasDisplayName
                    ? rules.names(displayName: text(raw.displayName), phoneNumber: text(raw.phoneNumber))
                    : rules.names(
                      firstname: text(raw.firstname), lastname: text(raw.lastname), phoneNumber: text(raw.phoneNumber))
                })
            {
              validUntil = earliest(validUntil, row.validUntil)
              writer.append(row, isFirst: isFirst, to: &output)
              rows.reuse(row.extras)
              isFirst = false
              continue
            }
            message = raw.decoded(in: input.bytes)
          case .decoded(let index):
            message = messages.decoded[index]
          }
          if isText {
            let row = rows.strings.row(of: message, as: MessageUIModel.self)
            validUntil = earliest(validUntil, row.dateValidUntil)
            textRows.append(row)
          } else {
            let row = rows.strings.row(of: message, as: Row<String>.self)
            validUntil = earliest(validUntil, row.validUntil)
            writer.append(row, isFirst: isFirst, to: &output)
            rows.strings.reuse(row.extras)
            isFirst = false
          }
        }
      }
      return Batch(bytes: bytes, rows: textRows, validUntil: validUntil)
    }
  }
}

/// A problem with one item that reading can go past: a message that is not
/// valid, or a broken NDJSON line.
struct RecoverableProblem: Error {
  var error: InboxFormatError
}

/// What `read` returns; a problem that reading can go past comes wrapped in
/// ``RecoverableProblem``, a fatal one (`hasFailed` is then true) as it is.
func markingRecoverable<Value>(
  _ hasFailed: @autoclosure () -> Bool, _ read: () throws -> Value
) throws -> Value {
  do {
    return try read()
  } catch let error as InboxFormatError where !hasFailed() {
    throw RecoverableProblem(error: error)
  }
}

/// A batch handed to a worker, made by whichever thread starts it first:
/// the worker, or the pipeline's own thread once it needs the result.
///
/// The pipeline's thread may itself be one of the global queue's (a
/// service formats on them): if it only waited, a few formatters at once
/// would hold every thread of the queue while their batches sat queued
/// behind them, until the queue started more threads (seconds:
/// `Benchmarks/Results/2026-11-26-service.md`). Waiting only for a batch that another thread is making
/// waits for work under way: that thread needs no other.
private final class PendingBatch: Sendable {
  private enum State {
    case notStarted(@Sendable () -> Batch)
    case running
    case done(Batch)
  }

  private let state: Mutex<State>
  private let done = DispatchSemaphore(value: 0)

  init(_ make: @escaping @Sendable () -> Batch) {
    state = Mutex(.notStarted(make))
  }

  var isDone: Bool { state.withLock { if case .done = $0 { true } else { false } } }

  /// Makes the batch on this thread, unless another thread has started it.
  func run() {
    let make: (@Sendable () -> Batch)? = state.withLock { state in
      guard case .notStarted(let make) = state else { return nil }
      state = .running
      return make
    }
    guard let make else { return }
    finish(make())
  }

  /// The batch: made here if no worker has started it, else waited for.
  func wait() -> Batch {
    run()
    if let batch = result { return batch }
    done.wait()
    done.signal()  // so that a second wait returns at once
    return result ?? Batch()
  }

  /// Drops the batch: one not started never starts, one being made is
  /// waited for (it reads the input's bytes, which the caller lets go of next).
  func abandon() {
    let isRunning = state.withLock { state in
      switch state {
      case .notStarted:
        state = .done(Batch())
        return false
      case .running: return true
      case .done: return false
      }
    }
    if isRunning { _ = wait() }
  }

  private var result: Batch? {
    state.withLock { if case .done(let batch) = $0 { batch } else { nil } }
  }

  private func finish(_ batch: Batch) {
    state.withLock { $0 = .done(batch) }
    done.signal()
  }
}
