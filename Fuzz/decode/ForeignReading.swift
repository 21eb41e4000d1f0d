import Foundation

@testable import InboxFormat

/// Our reading checked against Foundation's: JSONSerialization decides what
/// is JSON, and its values say which messages are valid and what they hold;
/// JSONDecoder with the Codable path must give the same messages.
///
/// Known differences, which the checks leave aside:
/// - JSONSerialization accepts trailing commas (`[1,]`, `{"a":1,}`); we refuse them.
/// - JSONSerialization refuses numbers beyond Double (`1e400`, "not
///   representable"); we accept them where no integer is needed.
/// - JSONSerialization reads bytes with NULs or a UTF-16 byte order mark as
///   UTF-16 or UTF-32; we read UTF-8 only (a UTF-8 byte order mark is
///   skipped), so such inputs count as refused here.
/// - NDJSON: a message may span lines for us when it is not broken; by lines,
///   Foundation refuses both halves. Lines are compared only when every item
///   is one line.
/// - We stop at a second `items` key (a shape error); JSONSerialization keeps the last.
/// - JSONSerialization drops a U+FEFF at the start of a string and after an
///   escape (`"\u{FEFF}id"` is the key `id` to it); we keep every character.
///   Inputs holding one past their start are left aside.
enum ForeignReading {
  static func check(_ reading: ReaderRun, input: UnsafeBufferPointer<UInt8>) {
    let text = input.starts(with: [0xEF, 0xBB, 0xBF]) ? UnsafeBufferPointer(rebasing: input.dropFirst(3)) : input
    guard !containsByteOrderMark(text) else { return }
    if reading.form == .ndjson {
      checkLines(reading, text: text, input: input)
    } else {
      checkDocument(reading, text: text, input: input)
    }
  }

  // MARK: One document

  private static func checkDocument(
    _ reading: ReaderRun, text: UnsafeBufferPointer<UInt8>, input: UnsafeBufferPointer<UInt8>
  ) {
    let foreign = parse(text)
    switch reading.fatal {
    case nil:
      guard case .success(let object) = foreign else {
        if case .failure(let refusal) = foreign, isRepresentabilityProblem(refusal.reason) { return }
        fuzzFailure("we read the document, JSONSerialization refuses it: \(foreign)", input: input)
      }
      guard let items = items(of: object, form: reading.form) else {
        fuzzFailure(
          "we read \(reading.items.count) items; JSONSerialization has no items in \(type(of: object))", input: input)
      }
      fuzzCheck(
        items.count == reading.items.count, "we read \(reading.items.count) items, JSONSerialization \(items.count)",
        input: input)
      for (index, (ours, theirs)) in zip(reading.items, items).enumerated() {
        compare(ours, reference(theirs), index: index, input: input)
      }
      checkCodable(reading, object: object, input: input)
    case .emptyInput:
      fuzzCheck(!foreign.isSuccess, "we found nothing, JSONSerialization a value", input: input)
    case .syntax(let reason, _, _):
      if reason.hasPrefix("trailing comma") { return }
      if case .success = foreign {
        fuzzFailure("JSONSerialization reads what we refuse as \(reading.fatal!)", input: input)
      }
    default:
      // A shape error stops reading before the end: nothing to compare.
      return
    }
  }

  /// The items of a payload or of a bare array, as JSONSerialization read them.
  private static func items(of object: Any, form: InboxReader.Form?) -> [Any]? {
    switch form {
    case .array: object as? [Any]
    case .payload: (object as? [String: Any])?["items"] as? [Any]
    default: nil
    }
  }

  /// JSONDecoder through the Codable path: when we read every message, it
  /// reads the same ones; when it reads them all, so do we.
  ///
  /// Of duplicate keys JSONDecoder keeps the first, where JSONSerialization
  /// and we keep the last; so the comparison is made on JSONSerialization's
  /// own writing of the document, which has none. (That writing may turn a
  /// message valid: it writes `1e3` as `1000`. Messages valid in both read
  /// the same. It also hides that JSONDecoder reads `1.0` as an integer,
  /// which we refuse: the Codable path accepts a little more.)
  private static func checkCodable(_ reading: ReaderRun, object: Any, input: UnsafeBufferPointer<UInt8>) {
    guard let canonical = try? JSONSerialization.data(withJSONObject: object, options: [.fragmentsAllowed]) else {
      fuzzFailure("JSONSerialization cannot write what it read", input: input)
    }
    let again = canonical.withUnsafeBytes { ReaderRun($0.bindMemory(to: UInt8.self)) }
    fuzzCheck(
      again.fatal == nil && again.items.count == reading.items.count,
      "we read JSONSerialization's writing otherwise: \(String(describing: again.fatal)), \(again.items.count) items",
      input: input)
    for (index, (first, second)) in zip(reading.items, again.items).enumerated() {
      if case .message(let a) = first, case .message(let b) = second {
        fuzzCheck(sameMessage(a, b), "item \(index) reads otherwise once JSONSerialization wrote it", input: input)
      }
    }
    let decoded: [MessageAPIModel]?
    switch reading.form {
    case .array: decoded = try? JSONDecoder().decode([MessageAPIModel].self, from: canonical)
    case .payload: decoded = (try? JSONDecoder().decode(InboxPayload.self, from: canonical))?.items
    default: return
    }
    if again.problems.isEmpty {
      guard let decoded else { fuzzFailure("JSONDecoder refuses the messages we read", input: input) }
      fuzzCheck(
        decoded.count == again.messages.count && zip(decoded, again.messages).allSatisfy(sameMessage),
        "JSONDecoder reads other messages", input: input)
    } else if decoded != nil {
      fuzzFailure("JSONDecoder reads every message; we refuse \(again.problems[0])", input: input)
    }
  }

  // MARK: NDJSON

  private static func checkLines(
    _ reading: ReaderRun, text: UnsafeBufferPointer<UInt8>, input: UnsafeBufferPointer<UInt8>
  ) {
    let lines = text.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
      .filter { !$0.allSatisfy(isJSONWhitespace) }
    let foreign = lines.map { parse(UnsafeBufferPointer(rebasing: $0)) }
    if foreign.allSatisfy(\.isSuccess) {
      // Every line is JSON on its own: each is one item for us too.
      fuzzCheck(
        reading.fatal == nil && reading.items.count == lines.count,
        "JSONSerialization reads \(lines.count) lines; we read \(reading.items.count) items, \(String(describing: reading.fatal))",
        input: input)
    }
    guard reading.fatal == nil, reading.items.count == lines.count else { return }
    for (index, (ours, theirs)) in zip(reading.items, foreign).enumerated() {
      switch (ours, theirs) {
      case (.problem(.brokenLine(_, let reason, _, _)), .success):
        fuzzCheck(
          reason.hasPrefix("trailing comma"), "JSONSerialization reads line item \(index), we refuse: \(reason)",
          input: input)
      case (.problem(.brokenLine), .failure):
        break
      case (_, .failure(let refusal)):
        fuzzCheck(
          isRepresentabilityProblem(refusal.reason),
          "we read line item \(index), JSONSerialization refuses it: \(refusal.reason)", input: input)
      case (_, .success(let object)):
        compare(ours, reference(object), index: index, input: input)
      }
    }
  }

  // MARK: Messages

  /// What a message should read as, from JSONSerialization's value: nil when
  /// it is not a valid message.
  private static func reference(_ value: Any) -> MessageAPIModel? {
    guard let object = value as? [String: Any] else { return nil }
    let id: MessageID
    switch object["id"] {
    case let text as String: id = .string(text)
    case let number as NSNumber:
      guard let integer = integer(number) else { return nil }
      id = .integer(integer)
    default: return nil
    }
    guard let dateText = object["update_date"] as? String, case .success(let date) = RFC3339.parse(dateText) else {
      return nil
    }
    guard let firstname = optionalString(object["firstname"]), let lastname = optionalString(object["lastname"]),
      let message = optionalString(object["message"])
    else { return nil }
    var international = ""
    switch object["phone_number"] {
    case nil, is NSNull: break
    case let phone as [String: Any]:
      guard let number = optionalString(phone["international"]) else { return nil }
      international = number
    default: return nil
    }
    var unreadCount: Int64 = 0
    switch object["unread_count"] {
    case nil, is NSNull: break
    case let number as NSNumber:
      guard let count = integer(number) else { return nil }
      unreadCount = count
    default: return nil
    }
    return MessageAPIModel(
      id: id, firstname: firstname, lastname: lastname, message: message,
      phoneNumber: .init(international: international), updateDate: date, unreadCount: unreadCount)
  }

  private static func compare(
    _ ours: ReaderRun.Item, _ expected: MessageAPIModel?, index: Int, input: UnsafeBufferPointer<UInt8>
  ) {
    switch (ours, expected) {
    case (.message(let message), let expected?):
      fuzzCheck(
        sameMessage(message, expected), "item \(index): we read \(message), JSONSerialization \(expected)", input: input
      )
    case (.message(let message), nil):
      fuzzFailure("item \(index): we read \(message); by JSONSerialization's values it is invalid", input: input)
    case (.problem(let problem), let expected?):
      fuzzFailure(
        "item \(index): we refuse it (\(problem)); by JSONSerialization's values it is \(expected)", input: input)
    case (.problem, nil):
      break
    }
  }

  /// An integer as we read one: JSONSerialization keeps integers that fit in
  /// 64 bits as signed integer types, and the rest as doubles, decimals or
  /// (above Int64.max) unsigned ones. Booleans are NSNumbers of type `c`.
  /// Negative integers from −2^62 down to Int64.min come as decimals; their
  /// text says whether they are integers of 64 bits.
  private static func integer(_ number: NSNumber) -> Int64? {
    if number is NSDecimalNumber { return Int64(number.stringValue) }
    let type = String(cString: number.objCType)
    guard ["s", "i", "l", "q"].contains(type) else { return nil }
    return number.int64Value
  }

  /// A string field's value: "" when absent or null, nil when not a string.
  private static func optionalString(_ value: Any?) -> String? {
    switch value {
    case nil, is NSNull: ""
    case let text as String: text
    default: nil
    }
  }

  // MARK: JSONSerialization

  /// JSONSerialization's reading of UTF-8 bytes. Bytes it would take for
  /// UTF-16 or UTF-32 (a NUL, which valid UTF-8 JSON never holds outside a
  /// `\u0000` escape, or a UTF-16 byte order mark) are refused here, as we
  /// refuse them.
  private static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> Result<Any, Refusal> {
    if bytes.contains(0) || bytes.starts(with: [0xFE, 0xFF]) || bytes.starts(with: [0xFF, 0xFE]) {
      return .failure(Refusal(reason: "not UTF-8"))
    }
    do {
      return .success(try JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed]))
    } catch {
      return .failure(Refusal(error: error))
    }
  }

  private static func isRepresentabilityProblem(_ reason: String) -> Bool {
    reason.contains("not representable")
  }

  private static func containsByteOrderMark(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    var index = bytes.startIndex
    while let found = bytes[index...].firstIndex(of: 0xEF) {
      if bytes[found...].starts(with: [0xEF, 0xBB, 0xBF]) { return true }
      index = found + 1
    }
    return false
  }

  private static func isJSONWhitespace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
  }
}

extension Result<Any, Refusal> {
  var isSuccess: Bool { if case .success = self { true } else { false } }
}

/// Why JSONSerialization refused some bytes (described only when asked:
/// describing an NSError is slow).
struct Refusal: Error {
  private var error: (any Error)?
  private var given: String?

  init(reason: String) { given = reason }
  init(error: any Error) { self.error = error }

  var reason: String { given ?? error.map { "\($0)" } ?? "" }
}
