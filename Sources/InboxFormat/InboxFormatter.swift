public import Foundation

/// The whole job in one call: payload bytes in, output bytes out, as fast as
/// the machine allows.
///
/// It reads messages in batches and, while the calling thread reads the next
/// batch, makes and writes the rows of the previous ones on other cores; a
/// large array's items are read on the other cores too. Output comes out in
/// input order, in chunks, through `write`. The bytes
/// are the same as decoding with ``InboxDecoder``, mapping with
/// ``MessageMapper`` and encoding with ``InboxEncoder`` one step after the
/// other.
///
/// ```swift
/// let formatter = InboxFormatter(context: context, layout: .compact)
/// var output: [UInt8] = []
/// let validUntil = try formatter.format(payloadBytes) { chunk in output += chunk }
/// // validUntil: when the first label written stops being true (nil: never)
/// ```
public struct InboxFormatter: Sendable {
  /// The mapper every row goes through.
  public let mapper: MessageMapper
  /// How the rows are laid out.
  public let layout: InboxEncoder.Layout
  /// Where the payload keeps its messages and their fields.
  public let mapping: InputMapping

  /// Creates a formatter for `context`, reading payloads that `mapping`
  /// describes (the post's shape unless told otherwise).
  public init(context: FormattingContext, layout: InboxEncoder.Layout = .compact, mapping: InputMapping = .post) {
    self.init(mapper: MessageMapper(context: context), layout: layout, mapping: mapping)
  }

  private init(mapper: MessageMapper, layout: InboxEncoder.Layout, mapping: InputMapping) {
    self.mapper = mapper
    self.layout = layout
    self.mapping = mapping
  }

  /// A formatter for the same context at another instant, which shares this
  /// one's formatters and the labels they made (``MessageMapper/now(_:)``).
  public func now(_ now: Date) -> InboxFormatter {
    self.now(now, layout: layout, mapping: mapping)
  }

  /// ``now(_:)``, laid out as `layout` says and reading as `mapping` says,
  /// made in one step: a kept formatter is handed out this way on every
  /// request.
  func now(_ now: Date, layout: InboxEncoder.Layout, mapping: InputMapping) -> InboxFormatter {
    InboxFormatter(mapper: mapper.now(now), layout: layout, mapping: mapping)
  }

  /// A formatter that lays the rows out as `layout` says, with this one's
  /// mapper.
  public func layout(_ layout: InboxEncoder.Layout) -> InboxFormatter {
    InboxFormatter(mapper: mapper, layout: layout, mapping: mapping)
  }

  /// A formatter that reads payloads as `mapping` says, with this one's
  /// mapper.
  public func mapping(_ mapping: InputMapping) -> InboxFormatter {
    InboxFormatter(mapper: mapper, layout: layout, mapping: mapping)
  }

  /// Formats `payload`, handing the output to `write` in order.
  ///
  /// - Parameters:
  ///   - payload: An inbox payload: `{"items":[…]}`, a bare array, or NDJSON.
  ///   - skipInvalid: Called with each message that is valid JSON but not a
  ///     valid message (and each bad NDJSON line), which is then left out.
  ///     When nil, such a message is thrown like any other error.
  ///   - write: Receives the output, chunk after chunk, on the calling thread.
  /// - Returns: The first instant at which a date label written stops being
  ///   true (``MessageUIModel/dateValidUntil``), or nil when none ever does.
  /// - Throws: The first ``InboxFormatError`` (the output before it has been
  ///   written; a JSON array is then left unclosed), or what `write` throws.
  @discardableResult
  public func format(
    _ payload: [UInt8],
    skipInvalid: ((InboxFormatError) -> Void)? = nil,
    write: ([UInt8]) throws -> Void
  ) throws -> Date? {
    try payload.withUnsafeBufferPointer { try format(bytes: $0, skipInvalid: skipInvalid, write: write) }
  }

  /// ``format(_:skipInvalid:write:)`` of bytes the caller holds, such as a
  /// mapped file or a SwiftNIO buffer's readable bytes, without copying
  /// them into an array. The bytes must stay valid and unchanged until the
  /// call returns; nothing keeps them after it.
  ///
  /// ```swift
  /// try buffer.withUnsafeReadableBytes { raw in
  ///   try formatter.format(bytes: raw.bindMemory(to: UInt8.self)) { output += $0 }
  /// }
  /// ```
  @discardableResult
  public func format(
    bytes: UnsafeBufferPointer<UInt8>,
    skipInvalid: ((InboxFormatError) -> Void)? = nil,
    write: ([UInt8]) throws -> Void
  ) throws -> Date? {
    do {
      return try pipeline.run(bytes: bytes, mapping: mapping, skipInvalid: skipInvalid, write: write)
    } catch let error as InboxFormatError where error.isAboutShape {
      guard let other = mapping.likelyBuiltIn(for: bytes) else { throw error }
      throw InboxFormatError.likelyOtherMapping(error, mapping: other.name)
    }
  }

  /// Whether `bytes`, a whole input, is NDJSON, which
  /// ``format(reading:expectedSize:skipInvalid:write:)`` streams in bounded
  /// memory.
  public static func isNDJSON(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    var searched = 0
    return InputStart(bytes, isComplete: true, searched: &searched) == .ndjson
  }

  /// Formats the payload that `read` returns piece by piece (nil at the
  /// end), handing the output to `write` in order. `expectedSize`, when
  /// known, spares the copies of gathering a large document.
  ///
  /// With the post's mapping, NDJSON is formatted as it arrives, in memory
  /// bounded by a few batches whatever its length; the other forms are one
  /// JSON document and are gathered whole first, as is every payload read
  /// through another mapping. Input that cannot be a payload fails where it
  /// starts, without being read further: a first character that begins no
  /// payload, a NUL byte, an NDJSON line that cannot become a message. Error
  /// locations count from the start of the input.
  ///
  /// ```swift
  /// try formatter.format(reading: { try file.read(upToCount: 1 << 20).map(Array.init) }) { chunk in
  ///   try output.write(contentsOf: chunk)
  /// }
  /// ```
  @discardableResult
  public func format(
    reading read: () throws -> [UInt8]?,
    expectedSize: Int = 0,
    skipInvalid: ((InboxFormatError) -> Void)? = nil,
    write: ([UInt8]) throws -> Void
  ) throws -> Date? {
    guard mapping.isPost else {
      // A mapping's payload is read whole: its items are found by its query.
      var payload: [UInt8] = []
      payload.reserveCapacity(expectedSize)
      while let piece = try read() { payload += piece }
      return try format(payload, skipInvalid: skipInvalid, write: write)
    }
    var head = InputHead(reserving: expectedSize)
    while head.wantsMore, let piece = try read() { head.append(piece) }
    guard head.start == .ndjson else { return try format(head.bytes, skipInvalid: skipInvalid, write: write) }
    return try withoutActuallyEscaping(read) { read in
      // The head's buffer was reserved for a whole document (`expectedSize`):
      // the lines start from a copy of what it holds, sized to it, so that no
      // later growth of theirs copies that reservation.
      let start = head.bytes.withUnsafeBufferPointer { [UInt8]($0) }
      let lines = NDJSONPieces(head: start, read: read, goesPastBrokenLines: skipInvalid != nil)
      // Pieces are released as they are read: their messages go as `String`s.
      let noBytes = InputBytes(bytes: UnsafeBufferPointer(start: nil, count: 0))
      return try pipeline.run(input: noBytes, skipInvalid: skipInvalid, write: write) { messages in
        guard let message = try lines.next() else { return false }
        messages.append(message)
        return true
      }
    }
  }

  private var pipeline: Pipeline { Pipeline(tables: mapper.tables, layout: layout) }
}
