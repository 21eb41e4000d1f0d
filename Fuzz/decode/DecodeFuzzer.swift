import Foundation

@testable import InboxFormat

// The `decode` target: any bytes through InboxReader, InboxDecoder, the
// mapper, the encoder, the pipelined InboxFormatter and the inbox view.
// Nothing may trap, and:
//
// - the ways of reading agree: InboxReader item by item, InboxDecoder
//   (throwing and skipping) and InboxFormatter (throwing and skipping, the
//   whole input or read in pieces);
// - our reading agrees with Foundation's JSONSerialization on what is JSON
//   (see `ForeignReading` for the known differences) and, where both read
//   it, on every message: which are valid and what their fields hold;
// - JSONDecoder with the Codable path gives the same messages;
// - every row is the row the rules (PlainRules, no shortcut) make, keeps the
//   README's promises (initials, one-line text without controls, a label, an
//   expiry after now), and the output and the inbox view are well formed.

/// The contexts inputs are formatted in, built once (a mapper builds ICU
/// formatters), chosen by the input's length.
let contexts: [FormattingContext] = [
  FormattingContext(
    now: Date(timeIntervalSince1970: 1_643_630_400), locale: Locale(identifier: "en-US"),
    timeZone: TimeZone(identifier: "Europe/Paris")!),
  FormattingContext(
    now: Date(timeIntervalSince1970: 1_711_846_800), locale: Locale(identifier: "ar-EG"),
    timeZone: TimeZone(identifier: "Africa/Cairo")!, hourCycle: .twelveHour, previewLength: 12),
  FormattingContext(
    now: Date(timeIntervalSince1970: 1_300_000_000), locale: Locale(identifier: "ja-JP"),
    timeZone: TimeZone(identifier: "Asia/Tokyo")!, previewLength: 1),
  FormattingContext(
    now: Date(timeIntervalSince1970: 1_541_300_400), locale: Locale(identifier: "tr-TR"),
    timeZone: TimeZone(identifier: "America/Sao_Paulo")!, hourCycle: .twentyFourHour),
]
let formatters = contexts.map { InboxFormatter(context: $0, layout: .compact) }
let plainRules = contexts.map { PlainRules(context: $0) }

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDecode(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  let input = fuzzInput(data, size)
  let bytes = Array(input)
  let reading = ReaderRun(input)
  checkDecoderAPIs(reading, bytes, input: input)
  ForeignReading.check(reading, input: input)
  checkFormatting(reading, bytes, formatter: formatters[size % formatters.count], input: input)
  return 0
}

// MARK: Our reading

/// What InboxReader makes of the input, item by item.
struct ReaderRun {
  enum Item {
    case message(MessageAPIModel)
    case problem(InboxFormatError)
  }

  var items: [Item] = []
  /// The fatal error that ended reading, if any.
  var fatal: InboxFormatError?
  var form: InboxReader.Form?

  /// Reads libFuzzer's own buffer, which is exactly as long as the input,
  /// so that AddressSanitizer catches a read past its end.
  init(_ input: UnsafeBufferPointer<UInt8>) {
    var items: [Item] = []
    var fatal: InboxFormatError?
    var form: InboxReader.Form?
    do {
      var reader = InboxReader(bytes: input)
      while true {
        do throws(InboxFormatError) {
          guard let message = try reader.next() else { break }
          items.append(.message(message))
        } catch {
          if reader.hasFailed {
            fatal = error
            break
          }
          items.append(.problem(error))
        }
        // Every item takes at least one byte: more items than bytes is a loop.
        fuzzCheck(items.count <= input.count, "the reader returns items without reading on", input: input)
      }
      form = reader.form
      // A finished or failed reader stays so.
      if let fatal {
        fuzzCheck((try? reader.next()) == nil, "a failed reader read on", input: input)
        fuzzCheck(reader.hasFailed, "a failed reader forgot its failure: \(fatal)", input: input)
      } else {
        fuzzCheck((try? reader.next()) == .some(nil), "a finished reader read on", input: input)
      }
    }
    self.items = items
    self.fatal = fatal
    self.form = form
  }

  var messages: [MessageAPIModel] {
    items.compactMap { if case .message(let message) = $0 { message } else { nil } }
  }

  var problems: [InboxFormatError] {
    items.compactMap { if case .problem(let problem) = $0 { problem } else { nil } }
  }

  /// The first error in input order: what a reading that stops at errors throws.
  var firstError: InboxFormatError? { problems.first ?? fatal }
}

/// InboxDecoder, throwing and skipping, gives what the reader gave, and
/// every error is one located line.
func checkDecoderAPIs(_ reading: ReaderRun, _ bytes: [UInt8], input: UnsafeBufferPointer<UInt8>) {
  switch Result(catching: { () throws(InboxFormatError) in try InboxDecoder().decode(bytes) }) {
  case .success(let messages):
    fuzzCheck(reading.firstError == nil, "decode succeeded past \(reading.firstError!)", input: input)
    fuzzCheck(messages == reading.messages, "decode and the reader disagree", input: input)
  case .failure(let error):
    fuzzCheck(
      error == reading.firstError, "decode threw \(error), the reader \(String(describing: reading.firstError))",
      input: input)
  }
  switch Result(catching: { () throws(InboxFormatError) in try InboxDecoder().decodeSkippingInvalid(bytes) }) {
  case .success(let (messages, skipped)):
    fuzzCheck(reading.fatal == nil, "decodeSkippingInvalid succeeded past \(reading.fatal!)", input: input)
    fuzzCheck(
      messages == reading.messages && skipped == reading.problems, "decodeSkippingInvalid and the reader disagree",
      input: input)
  case .failure(let error):
    fuzzCheck(
      error == reading.fatal, "decodeSkippingInvalid threw \(error), not \(String(describing: reading.fatal))",
      input: input)
  }
  // Every error is one located line without controls (the first problem
  // and the fatal error: describing each of hundreds would slow the runs).
  for error in [reading.problems.first, reading.problems.last, reading.fatal].compactMap({ $0 }) {
    let text = error.description
    fuzzCheck(
      !text.unicodeScalars.contains(where: isUnsafeForDisplay),
      "an error message carries a control: \(text.debugDescription)", input: input)
    fuzzCheck(error == .emptyInput || error.location != nil, "an error without a location: \(text)", input: input)
    if let location = error.location {
      fuzzCheck(
        location.line >= 1 && location.column >= 1 && (0...bytes.count).contains(location.byteOffset),
        "an error located outside the input: \(location.line):\(location.column)@\(location.byteOffset)", input: input)
    }
  }
  for (index, item) in reading.items.enumerated() {
    if case .problem(let problem) = item, let reference = problem.item {
      fuzzCheck(reference.index == index, "item \(index) reported as \(reference.path)", input: input)
    }
  }
}

// MARK: Formatting

/// The rows of the valid messages keep the README's promises, the pipelined
/// formatter writes the same bytes as decoding, mapping and encoding, and the
/// inbox view is safe for a terminal.
func checkFormatting(
  _ reading: ReaderRun, _ bytes: [UInt8], formatter: InboxFormatter, input: UnsafeBufferPointer<UInt8>
) {
  let context = formatter.mapper.context
  let rows = formatter.mapper.map(reading.messages)
  fuzzCheck(rows.map(\.id) == reading.messages.map(\.id), "rows lost their ids", input: input)
  for row in rows { checkRow(row, context: context, input: input) }
  // The engine's rows are the rules' rows, stated plainly.
  var rules = plainRules[bytes.count % plainRules.count]
  if rules.context == context {
    for (message, row) in zip(reading.messages, rows) {
      let expected = rules.row(of: message)
      fuzzCheck(row == expected, "the engine made \(row), the rules \(expected)", input: input)
    }
  }

  // The encoder's output is JSON that reads back as the rows.
  let encoded = InboxEncoder(layout: .compact).encode(rows)
  guard let decoded = try? JSONSerialization.jsonObject(with: Data(encoded)) as? [[String: Any]] else {
    fuzzFailure(
      "the output is not a JSON array of objects: \(String(decoding: encoded.prefix(300), as: UTF8.self))", input: input
    )
  }
  fuzzCheck(decoded.count == rows.count, "the output has \(decoded.count) rows, not \(rows.count)", input: input)
  for (object, row) in zip(decoded, rows) {
    for (key, value) in [
      ("initials", row.initials), ("title", row.title), ("message", row.message), ("date", row.date),
    ] {
      // JSONSerialization drops a U+FEFF at the start of a string and after
      // an escape: compare without them.
      fuzzCheck(
        sameScalars((object[key] as? String).map(withoutZeroWidthNoBreakSpaces), withoutZeroWidthNoBreakSpaces(value)),
        "\(key) reads back as \(String(describing: object[key]))", input: input)
    }
  }
  let ndjson = InboxEncoder(layout: .ndjson).encode(rows)
  let lines = ndjson.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).dropLast()
  fuzzCheck(
    lines.count == rows.count || (rows.isEmpty && ndjson.isEmpty),
    "NDJSON output has \(lines.count) lines for \(rows.count) rows", input: input)

  // The pipelined formatter, throwing or skipping (one of them per input,
  // to keep the runs fast).
  var output: [UInt8] = []
  if bytes.count.isMultiple(of: 2) {
    do {
      try formatter.format(bytes) { output += $0 }
      fuzzCheck(reading.firstError == nil, "the formatter succeeded past \(reading.firstError!)", input: input)
      fuzzCheck(output == encoded, "the formatter and decode-map-encode disagree", input: input)
    } catch {
      fuzzCheck(error as? InboxFormatError == reading.firstError, "the formatter threw \(error)", input: input)
    }
  } else {
    var skipped: [InboxFormatError] = []
    do {
      try formatter.format(bytes, skipInvalid: { skipped.append($0) }) { output += $0 }
      fuzzCheck(reading.fatal == nil, "the skipping formatter succeeded past \(reading.fatal!)", input: input)
      fuzzCheck(output == encoded, "the skipping formatter and decode-map-encode disagree", input: input)
    } catch {
      fuzzCheck(error as? InboxFormatError == reading.fatal, "the skipping formatter threw \(error)", input: input)
    }
    fuzzCheck(
      skipped == reading.problems, "the formatter skipped \(skipped.count), the reader found \(reading.problems.count)",
      input: input)
  }

  // Read in pieces, as the command reads a file or a pipe: NDJSON streams
  // line by line, the other forms are gathered first; either way the same
  // bytes come out, and the same errors.
  checkPieces(bytes, formatter: formatter, skipping: bytes.count % 3 == 0, input: input)

  // Read in stretches on the workers, cut short enough that an input of a
  // few messages is cut: the same bytes, the same skipped messages, the same
  // error as reading in order.
  checkStretches(reading, encoded: encoded, formatter: formatter, skipping: bytes.count % 5 < 2, input: input)

  // The inbox view: every line fits, and nothing from the data drives a terminal.
  let width = 1 + bytes.count % 90
  // With colour or without, one of them per input.
  do {
    let color = bytes.count % 4 < 2
    let view = InboxTextView(width: width, color: color, height: bytes.count % 3 == 0 ? 1 + bytes.count % 7 : nil)
    let text = view.render(rows)
    fuzzCheck(text.hasSuffix("\n"), "the view does not end a line", input: input)
    // Without colour the view writes no escape at all; with it, only its own
    // SGR sequences (data's escapes would show without colour first).
    let plain = color ? withoutOurStyles(text) : text
    fuzzCheck(
      !plain.unicodeScalars.contains { $0 != "\n" && isUnsafeForDisplay($0) && !isOurIsolate($0) },
      "the view writes a control: \(plain.debugDescription)", input: input)
    for line in plain.split(separator: "\n", omittingEmptySubsequences: false).dropLast() {
      fuzzCheck(
        displayWidth(of: line) <= width, "a line is wider than \(width): \(line.debugDescription)", input: input)
      // Our isolates pair up, so a field cannot leave the row reordered.
      var open = 0
      for scalar in line.unicodeScalars {
        if scalar == "\u{2068}" { open += 1 }
        if scalar == "\u{2069}" {
          open -= 1
          fuzzCheck(open >= 0, "an isolate closed before it opened: \(line.debugDescription)", input: input)
        }
      }
      fuzzCheck(open == 0, "an isolate left open: \(line.debugDescription)", input: input)
    }
  }
}

/// `text` without the SGR sequences the view writes with colour: ESC `[`,
/// digits and semicolons, `m`. Anything else after an ESC is kept, ESC
/// included, for the check to find.
private func withoutOurStyles(_ text: String) -> String {
  var result = String.UnicodeScalarView()
  var scalars = text.unicodeScalars[...]
  while let scalar = scalars.popFirst() {
    if scalar == "\u{1B}", scalars.first == "[" {
      let parameters = scalars.dropFirst().prefix { ("0"..."9").contains($0) || $0 == ";" }
      let end = parameters.endIndex
      if end < scalars.endIndex, scalars[end] == "m" {
        scalars = scalars[scalars.index(after: end)...]
        continue
      }
    }
    result.append(scalar)
  }
  return String(result)
}

/// `format(reading:)` with pieces of a size taken from the input gives what
/// `format(_:)` gives for the whole.
func checkPieces(_ bytes: [UInt8], formatter: InboxFormatter, skipping: Bool, input: UnsafeBufferPointer<UInt8>) {
  func run(_ format: (((InboxFormatError) -> Void)?, ([UInt8]) throws -> Void) throws -> Void) -> (
    output: [UInt8], skipped: [InboxFormatError], error: InboxFormatError?
  ) {
    var output: [UInt8] = []
    var skipped: [InboxFormatError] = []
    do {
      try format(skipping ? { skipped.append($0) } : nil) { output += $0 }
      return (output, skipped, nil)
    } catch {
      return (output, skipped, error as? InboxFormatError)
    }
  }
  let whole = run { try formatter.format(bytes, skipInvalid: $0, write: $1) }
  let size = 1 + Int(bytes.first ?? 0) % 97
  var offset = 0
  let pieces = run {
    try formatter.format(
      reading: {
        guard offset < bytes.count else { return nil }
        defer { offset += size }
        return Array(bytes[offset..<min(offset + size, bytes.count)])
      }, skipInvalid: $0, write: $1)
  }
  fuzzCheck(
    pieces.error == whole.error,
    "in pieces of \(size): \(String(describing: pieces.error)), whole: \(String(describing: whole.error))", input: input
  )
  fuzzCheck(
    pieces.skipped == whole.skipped, "in pieces of \(size) skipped \(pieces.skipped), whole \(whole.skipped)",
    input: input)
  if whole.error == nil {
    fuzzCheck(pieces.output == whole.output, "in pieces of \(size) the output differs", input: input)
  }
}

/// The view's own FSI and PDI: the only bidi controls it may write.
private func isOurIsolate(_ scalar: Unicode.Scalar) -> Bool {
  scalar == "\u{2068}" || scalar == "\u{2069}"
}

/// The README's promises for one row.
func checkRow(_ row: MessageUIModel, context: FormattingContext, input: UnsafeBufferPointer<UInt8>) {
  // Initials: `?`, or one or two graphemes that each begin with a letter or
  // a digit (a ZERO WIDTH NON-JOINER between two joining letters extends
  // the first grapheme).
  if row.initials != "?" {
    fuzzCheck(
      (1...2).contains(row.initials.count), "initials \(row.initials.debugDescription) are not one or two graphemes",
      input: input)
    for grapheme in row.initials {
      fuzzCheck(
        grapheme.unicodeScalars.first.map(isLetterOrDigit) ?? false,
        "initial \(String(grapheme).debugDescription) does not begin with a letter or digit", input: input)
    }
  }
  for (name, text) in [("title", row.title), ("message", row.message), ("date", row.date), ("initials", row.initials)] {
    fuzzCheck(
      !text.unicodeScalars.contains(where: isUnsafeForDisplay), "\(name) carries a control: \(text.debugDescription)",
      input: input)
  }
  for (name, text) in [("title", row.title), ("message", row.message)] {
    // One line: single ASCII spaces between other characters.
    fuzzCheck(
      !text.hasPrefix(" ") && !text.hasSuffix(" ") && !text.contains("  "),
      "\(name) is not trimmed: \(text.debugDescription)", input: input)
    fuzzCheck(
      !text.unicodeScalars.contains { $0 != " " && $0.properties.isWhitespace },
      "\(name) keeps whitespace: \(text.debugDescription)", input: input)
  }
  fuzzCheck(!row.title.isEmpty, "an empty title", input: input)
  fuzzCheck(!row.date.isEmpty, "an empty date label", input: input)
  if let limit = context.previewLength {
    fuzzCheck(row.message.count <= limit, "a preview of \(row.message.count) graphemes, limit \(limit)", input: input)
  }
  if let expiry = row.dateValidUntil {
    fuzzCheck(expiry > context.now, "a label that expired already, at \(expiry)", input: input)
  }
}

func withoutZeroWidthNoBreakSpaces(_ text: String) -> String {
  String(String.UnicodeScalarView(text.unicodeScalars.filter { $0 != "\u{FEFF}" }))
}

/// Equal scalar by scalar (String's `==` would equate canonical equivalents).
func sameScalars(_ left: String?, _ right: String?) -> Bool {
  guard let left, let right else { return left == nil && right == nil }
  return left.unicodeScalars.elementsEqual(right.unicodeScalars)
}

func sameMessage(_ left: MessageAPIModel, _ right: MessageAPIModel) -> Bool {
  let sameID =
    switch (left.id, right.id) {
    case (.integer(let a), .integer(let b)): a == b
    case (.string(let a), .string(let b)): sameScalars(a, b)
    default: false
    }
  return sameID && sameScalars(left.firstname, right.firstname) && sameScalars(left.lastname, right.lastname)
    && sameScalars(left.message, right.message)
    && sameScalars(left.phoneNumber.international, right.phoneNumber.international)
    && left.updateDate == right.updateDate && left.unreadCount == right.unreadCount
}

/// The pipeline reading an array's items in stretches of 16 bytes
/// (``ItemStretches``) gives what reading in order gave.
func checkStretches(
  _ reading: ReaderRun, encoded: [UInt8], formatter: InboxFormatter, skipping: Bool,
  input: UnsafeBufferPointer<UInt8>
) {
  var pipeline = Pipeline(tables: formatter.mapper.tables, layout: .compact)
  pipeline.stretchLength = 16
  var output: [UInt8] = []
  var skipped: [InboxFormatError] = []
  var reader = InboxReader(bytes: input)
  do {
    _ = try pipeline.run(
      input: InputBytes(bytes: input), skipInvalid: skipping ? { skipped.append($0) } : nil,
      write: { output += $0 }, reading: &reader)
    let expected = skipping ? reading.fatal : reading.firstError
    fuzzCheck(expected == nil, "reading in stretches succeeded past \(expected!)", input: input)
    fuzzCheck(output == encoded, "reading in stretches and decode-map-encode disagree", input: input)
  } catch {
    let expected = skipping ? reading.fatal : reading.firstError
    fuzzCheck(error as? InboxFormatError == expected, "reading in stretches threw \(error)", input: input)
  }
  if skipping {
    fuzzCheck(
      skipped == reading.problems,
      "reading in stretches skipped \(skipped.count), the reader found \(reading.problems.count)", input: input)
  }
}
