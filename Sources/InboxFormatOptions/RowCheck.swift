import Foundation
package import InboxFormat
import InboxFormatSupport

/// A value of a row as `check` and `preview --expect` compare it: what a
/// row's JSON holds.
package enum CheckedValue: Decodable, Equatable, Sendable {
  case string(String)
  case integer(Int64)
  case number(Double)
  case bool(Bool)
  case null

  package init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if container.decodeNil() {
      self = .null
    } else if let value = try? container.decode(Bool.self) {
      self = .bool(value)
    } else if let value = try? container.decode(Int64.self) {
      self = .integer(value)
    } else if let value = try? container.decode(Double.self) {
      self = .number(value)
    } else if let value = try? container.decode(String.self) {
      self = .string(value)
    } else {
      throw DecodingError.dataCorruptedError(
        in: container, debugDescription: "a row's values are strings, numbers, booleans or null")
    }
  }

  /// The value as JSON, strings as rows write them (``jsonStringLiteral(_:)``).
  package var json: String {
    switch self {
    case .string(let text): return jsonStringLiteral(text)
    case .integer(let value): return String(value)
    case .number(let value): return String(value)
    case .bool(let value): return String(value)
    case .null: return "null"
    }
  }

  /// The value for a line of the report: a string quoted so that nothing in
  /// it can drive the terminal, and the spaces CLDR writes in labels
  /// (U+00A0, U+202F) spelled out, so that two labels that look alike show
  /// where they differ.
  package var shown: String {
    guard case .string(let text) = self else { return json }
    return quoted(text, limit: 120)
      .replacingOccurrences(of: "\u{A0}", with: "\\u{A0}")
      .replacingOccurrences(of: "\u{202F}", with: "\\u{202F}")
  }
}

/// A row as JSON: its keys and values.
package typealias CheckedRow = [String: CheckedValue]

/// One way the payload's rows and the expected ones differ.
package struct RowDifference: Equatable, Sendable {
  /// The row's place (1-based) in EXPECTED, or in the payload's rows for a
  /// row EXPECTED lacks.
  package var row: Int
  package var id: CheckedValue?
  package var kind: Kind
  /// The pair of rows compared (``RowCheck/pairs``): its index there.
  package var pair: Int

  package enum Kind: Equatable, Sendable {
    /// A field differs. `onlySpacing`: only in the spaces CLDR puts in
    /// labels (U+0020, U+00A0, U+202F) or in bidi marks, which `--strict`
    /// counts and otherwise only reports.
    case field(key: String, expected: CheckedValue, got: CheckedValue?, onlySpacing: Bool)
    /// EXPECTED has the row, the payload does not.
    case missingRow
    /// The payload has the row, EXPECTED does not.
    case unexpectedRow
  }

  /// Whether this counts against the rows agreeing.
  package func counts(strict: Bool) -> Bool {
    if case .field(_, _, _, let onlySpacing) = kind { return strict || !onlySpacing }
    return true
  }
}

/// The payload's rows against expected rows (a file the command wrote, or a
/// designer's mock with any subset of the keys).
///
/// Rows are matched by `id` when every expected row has one, else by
/// position. Only the keys an expected row has are compared.
///
/// `check` and `preview --expect` both compare with this: what one reports
/// as a difference, the other marks.
package struct RowCheck: Sendable {
  package let expected: [CheckedRow]
  package let actual: [CheckedRow]

  /// Why EXPECTED cannot be checked against: not an array of row objects,
  /// an unknown key, ids on some rows only, or an id twice.
  package struct Unusable: Error {
    package var reason: String
  }

  /// Whether rows are matched by id.
  package let byID: Bool

  package init(expected: [CheckedRow], actual: [CheckedRow]) throws(Unusable) {
    self.expected = expected
    self.actual = actual
    let withIDs = expected.filter { $0["id"] != nil }.count
    guard withIDs == 0 || withIDs == expected.count else {
      throw Unusable(
        reason:
          "\(withIDs) of \(expected.count) rows have an \"id\": give every row one, or none (rows are then matched by position)"
      )
    }
    byID = withIDs > 0
    if byID {
      var seen: [CheckedValue] = []
      for (index, row) in expected.enumerated() {
        let id = row["id"]!
        guard !seen.contains(id) else {
          throw Unusable(reason: "row \(index + 1): id \(id.shown) is on an earlier row too")
        }
        seen.append(id)
      }
    }
  }

  /// The pairs of rows compared: the expected row's index and the payload
  /// row's, either nil when that side lacks the row.
  package var pairs: [(expected: Int?, actual: Int?)] {
    guard byID else {
      return (0..<max(expected.count, actual.count)).map {
        ($0 < expected.count ? $0 : nil, $0 < actual.count ? $0 : nil)
      }
    }
    var pairs: [(expected: Int?, actual: Int?)] = []
    var matched = Set<Int>()
    for (index, row) in expected.enumerated() {
      let found = actual.indices.first { !matched.contains($0) && actual[$0]["id"] == row["id"] }
      if let found { matched.insert(found) }
      pairs.append((index, found))
    }
    for index in actual.indices where !matched.contains(index) { pairs.append((nil, index)) }
    return pairs
  }

  /// Every difference, in EXPECTED's order, then the payload's extra rows;
  /// fields in the row's order.
  package var differences: [RowDifference] {
    var differences: [RowDifference] = []
    for (pair, (expectedIndex, actualIndex)) in pairs.enumerated() {
      switch (expectedIndex, actualIndex) {
      case (let e?, let a?):
        for key in Self.ordered(expected[e].keys) {
          let want = expected[e][key]!
          let got = actual[a][key]
          guard got != want else { continue }
          differences.append(
            RowDifference(
              row: e + 1, id: expected[e]["id"] ?? actual[a]["id"],
              kind: .field(key: key, expected: want, got: got, onlySpacing: Self.differOnlyInSpacing(want, got)),
              pair: pair))
        }
      case (let e?, nil):
        differences.append(RowDifference(row: e + 1, id: expected[e]["id"], kind: .missingRow, pair: pair))
      case (nil, let a?):
        differences.append(RowDifference(row: a + 1, id: actual[a]["id"], kind: .unexpectedRow, pair: pair))
      case (nil, nil):
        break
      }
    }
    return differences
  }

  /// Keys in the order rows write them, then any others by name.
  package static func ordered(_ keys: some Sequence<String>) -> [String] {
    let order = RowField.all.map(\.name)
    return keys.sorted { a, b in
      switch (order.firstIndex(of: a), order.firstIndex(of: b)) {
      case (let x?, let y?): x < y
      case (_?, nil): true
      case (nil, _?): false
      case (nil, nil): a < b
      }
    }
  }

  /// Whether two strings are the same once CLDR's space variants are one
  /// space and bidi marks are left out.
  package static func differOnlyInSpacing(_ expected: CheckedValue, _ got: CheckedValue?) -> Bool {
    guard case .string(let a) = expected, case .string(let b)? = got else { return false }
    func plain(_ text: String) -> String {
      var scalars = String.UnicodeScalarView()
      for scalar in text.unicodeScalars {
        switch scalar.value {
        case 0x00A0, 0x202F: scalars.append(" ")
        case 0x200E, 0x200F, 0x061C: continue
        default: scalars.append(scalar)
        }
      }
      return String(scalars)
    }
    return plain(a) == plain(b)
  }

  /// The rows EXPECTED would hold to agree: the payload's rows, each with
  /// only the keys its expected row has; a row EXPECTED lacks gets the keys
  /// every expected row has (all of them when EXPECTED has no rows). Keys
  /// come in the order of `fields` (the command's `--fields`), then in the
  /// row's, so that rows with every key are the ones the command writes.
  package func updated(inOrderOf fields: [RowField]) -> [[(key: String, value: CheckedValue)]] {
    let shared = expected.dropFirst().reduce(Set(expected.first?.keys ?? [:].keys)) { $0.intersection($1.keys) }
    let first = fields.map(\.name)
    func ordered(_ keys: some Sequence<String>) -> [String] {
      let keys = Set(keys)
      return first.filter(keys.contains) + Self.ordered(keys.subtracting(first))
    }
    var rows: [[(key: String, value: CheckedValue)]] = []
    for (expectedIndex, actualIndex) in pairs {
      guard let a = actualIndex else { continue }
      let keys: [String] =
        if let e = expectedIndex {
          ordered(expected[e].keys)
        } else if expected.isEmpty {
          ordered(actual[a].keys)
        } else {
          ordered(shared)
        }
      rows.append(keys.compactMap { key in actual[a][key].map { (key, $0) } })
    }
    return rows
  }

  /// Rows as a JSON array in the layout of `--pretty`, so that rows with
  /// every key are the bytes the command writes: a golden file recorded
  /// with `--update` is the one the golden tests compare.
  package static func json(_ rows: [[(key: String, value: CheckedValue)]]) -> String {
    let objects = rows.map { row in
      row.isEmpty
        ? "  {}"
        : "  {\n" + row.map { "    \(CheckedValue.string($0.key).json): \($0.value.json)" }.joined(separator: ",\n")
          + "\n  }"
    }
    return objects.isEmpty ? "[]\n" : "[\n" + objects.joined(separator: ",\n") + "\n]\n"
  }

  /// Rows as one line of JSON (an event's data ends at a line break).
  package static func jsonLine(_ rows: [CheckedRow]) -> String {
    "["
      + rows.map { row in
        "{" + ordered(row.keys).map { "\(CheckedValue.string($0).json):\(row[$0]!.json)" }.joined(separator: ",") + "}"
      }.joined(separator: ",") + "]"
  }

  /// The rows of an EXPECTED file: a JSON array of objects whose keys are
  /// row fields. Throws, saying where, when it is not.
  package static func expectedRows(decoding bytes: [UInt8]) throws(Unusable) -> [CheckedRow] {
    let rows: [CheckedRow]
    do {
      rows = try JSONDecoder().decode([CheckedRow].self, from: Data(bytes))
    } catch {
      throw Unusable(reason: "not a JSON array of row objects: \(reason(error))")
    }
    for (index, row) in rows.enumerated() {
      for key in ordered(row.keys) where RowField(name: key) == nil {
        throw Unusable(
          reason:
            "row \(index + 1): unknown key \(quoted(key)); a row's keys are \(RowField.all.map(\.name).joined(separator: ", "))"
        )
      }
    }
    return rows
  }

  /// The fields to make the payload's rows with to compare them to
  /// `expected`: the keys it names and the six of every row, in the row's
  /// order; `otherwise` when it has no rows.
  package static func fields(comparingWith expected: [CheckedRow], otherwise: [RowField]) -> [RowField] {
    var keys = Set(expected.flatMap(\.keys))
    if expected.isEmpty { keys = Set(otherwise.map(\.name)) }
    return RowField.all.filter { keys.contains($0.name) || RowField.defaults.contains($0) }
  }

  /// A decoding error in a few words, with where it is.
  package static func reason(_ error: any Error) -> String {
    guard let error = error as? DecodingError else { return "\(error)" }
    switch error {
    case .dataCorrupted(let context), .typeMismatch(_, let context), .valueNotFound(_, let context),
      .keyNotFound(_, let context):
      let path = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
      let detail = (context.underlyingError as NSError?)?.userInfo[NSDebugDescriptionErrorKey] as? String
      return (path.isEmpty ? "" : "\(path): ") + (detail ?? context.debugDescription)
    @unknown default:
      return "\(error)"
    }
  }
}
