import Foundation
import InboxFormat

/// A value of a row as `check` compares it: what a row's JSON holds.
enum CheckedValue: Decodable, Equatable {
  case string(String)
  case integer(Int64)
  case number(Double)
  case bool(Bool)
  case null

  init(from decoder: any Decoder) throws {
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
  var json: String {
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
  var shown: String {
    guard case .string(let text) = self else { return json }
    return quoted(text, limit: 120)
      .replacingOccurrences(of: "\u{A0}", with: "\\u{A0}")
      .replacingOccurrences(of: "\u{202F}", with: "\\u{202F}")
  }
}

/// A row as JSON: its keys and values.
typealias CheckedRow = [String: CheckedValue]

/// One way the payload's rows and the expected ones differ.
struct RowDifference: Equatable {
  /// The row's place (1-based) in EXPECTED, or in the payload's rows for a
  /// row EXPECTED lacks.
  var row: Int
  var id: CheckedValue?
  var kind: Kind

  enum Kind: Equatable {
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
  func counts(strict: Bool) -> Bool {
    if case .field(_, _, _, let onlySpacing) = kind { return strict || !onlySpacing }
    return true
  }
}

/// The payload's rows against expected rows (a file the command wrote, or a
/// designer's mock with any subset of the keys).
///
/// Rows are matched by `id` when every expected row has one, else by
/// position. Only the keys an expected row has are compared.
struct RowCheck {
  let expected: [CheckedRow]
  let actual: [CheckedRow]

  /// Why EXPECTED cannot be checked against: ids on some rows only, or an
  /// id twice.
  struct Unusable: Error {
    var reason: String
  }

  /// Whether rows are matched by id.
  let byID: Bool

  init(expected: [CheckedRow], actual: [CheckedRow]) throws(Unusable) {
    self.expected = expected
    self.actual = actual
    let withIDs = expected.filter { $0["id"] != nil }.count
    guard withIDs == 0 || withIDs == expected.count else {
      throw Unusable(reason: "\(withIDs) of \(expected.count) rows have an \"id\": give every row one, or none (rows are then matched by position)")
    }
    byID = withIDs > 0
    if byID {
      var seen: [CheckedValue] = []
      for (index, row) in expected.enumerated() {
        let id = row["id"]!
        guard !seen.contains(id) else { throw Unusable(reason: "row \(index + 1): id \(id.shown) is on an earlier row too") }
        seen.append(id)
      }
    }
  }

  /// The pairs of rows compared: the expected row's index and the payload
  /// row's, either nil when that side lacks the row.
  var pairs: [(expected: Int?, actual: Int?)] {
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
  var differences: [RowDifference] {
    var differences: [RowDifference] = []
    for (expectedIndex, actualIndex) in pairs {
      switch (expectedIndex, actualIndex) {
      case (let e?, let a?):
        for key in Self.ordered(expected[e].keys) {
          let want = expected[e][key]!
          let got = actual[a][key]
          guard got != want else { continue }
          differences.append(
            RowDifference(
              row: e + 1, id: expected[e]["id"] ?? actual[a]["id"],
              kind: .field(key: key, expected: want, got: got, onlySpacing: Self.differOnlyInSpacing(want, got))))
        }
      case (let e?, nil):
        differences.append(RowDifference(row: e + 1, id: expected[e]["id"], kind: .missingRow))
      case (nil, let a?):
        differences.append(RowDifference(row: a + 1, id: actual[a]["id"], kind: .unexpectedRow))
      case (nil, nil):
        break
      }
    }
    return differences
  }

  /// Keys in the order rows write them, then any others by name.
  static func ordered(_ keys: some Sequence<String>) -> [String] {
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
  static func differOnlyInSpacing(_ expected: CheckedValue, _ got: CheckedValue?) -> Bool {
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
  /// every expected row has (all of them when EXPECTED has no rows).
  var updated: [[(key: String, value: CheckedValue)]] {
    let shared = expected.dropFirst().reduce(Set(expected.first?.keys ?? [:].keys)) { $0.intersection($1.keys) }
    var rows: [[(key: String, value: CheckedValue)]] = []
    for (expectedIndex, actualIndex) in pairs {
      guard let a = actualIndex else { continue }
      let keys: [String] =
        if let e = expectedIndex {
          Self.ordered(expected[e].keys)
        } else if expected.isEmpty {
          Self.ordered(actual[a].keys)
        } else {
          Self.ordered(shared)
        }
      rows.append(keys.compactMap { key in actual[a][key].map { (key, $0) } })
    }
    return rows
  }

  /// Rows as a JSON array, one row a line.
  static func json(_ rows: [[(key: String, value: CheckedValue)]]) -> String {
    let lines = rows.map { row in
      "  {" + row.map { "\(CheckedValue.string($0.key).json): \($0.value.json)" }.joined(separator: ", ") + "}"
    }
    return lines.isEmpty ? "[]\n" : "[\n" + lines.joined(separator: ",\n") + "\n]\n"
  }
}

/// How `check` writes its lines: colour on a terminal, unless `NO_COLOR`
/// is set or `TERM` is `dumb`.
struct CheckReport {
  var color: Bool

  private func paint(_ text: String, _ code: String) -> String {
    color ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
  }

  /// One difference, on one line: row, id, key, expected, got.
  func line(_ difference: RowDifference, strict: Bool) -> String {
    let place = "row \(difference.row)" + (difference.id.map { ", id \($0.shown)" } ?? "")
    switch difference.kind {
    case .field(let key, let expected, let got, let onlySpacing):
      let values = "expected \(paint(expected.shown, "31")), got \(paint(got?.shown ?? "no such key", "32"))"
      let note = onlySpacing ? (strict ? " (only spaces or bidi marks differ)" : paint(" only spaces or bidi marks differ;", "33")) : ""
      return onlySpacing && !strict ? "\(place): \(key):\(note) \(values)" : "\(place): \(key): \(values)\(note)"
    case .missingRow:
      return "\(place): \(paint("missing", "31")) from the payload's rows"
    case .unexpectedRow:
      return "payload \(place): \(paint("not in EXPECTED", "32"))"
    }
  }
}
