/// A JSON value as a tree: what a JSONPath query selects from.
///
/// Built from bytes by ``read(from:)`` with the project's strict scanner, so
/// a tree holds only valid JSON. Numbers keep their literal text, and
/// objects their members in document order, so that writing a value back
/// (``jsonText``) shows what the document held.
///
/// `==` is structural, as written: numbers equal when their text does, and
/// objects when they hold the same members in any order. JSONPath's own
/// comparison, where `1` equals `1.0`, is ``isEqualInValue(to:)``.
enum JSONValue: Sendable, Hashable {
  case null
  case bool(Bool)
  case number(JSONNumber)
  case string(String)
  case array([JSONValue])
  case object(JSONObject)

  /// Whether the two values are equal as JSONPath compares them (RFC 9535
  /// §2.3.5.2.2): numbers by value, strings by code points, arrays element by
  /// element, objects member by member regardless of order.
  func isEqualInValue(to other: JSONValue) -> Bool {
    switch (self, other) {
    case (.null, .null): true
    case (.bool(let a), .bool(let b)): a == b
    case (.number(let a), .number(let b)): a.value == b.value
    case (.string(let a), .string(let b)): a.unicodeScalars.elementsEqual(b.unicodeScalars)
    case (.array(let a), .array(let b)): a.count == b.count && zip(a, b).allSatisfy { $0.isEqualInValue(to: $1) }
    case (.object(let a), .object(let b)):
      a.count == b.count
        && a.allSatisfy { member in b[member.key].map { member.value.isEqualInValue(to: $0) } ?? false }
    default: false
    }
  }
}

extension JSONValue {
  /// What kind of value this is, for messages (``JSONValueKind``).
  var kind: JSONValueKind {
    switch self {
    case .null: .null
    case .bool: .boolean
    case .number: .number
    case .string: .string
    case .array: .array
    case .object: .object
    }
  }

  /// ``kind``'s description: `a string`, `an object`…
  var kindDescription: String { kind.description }

  /// Whether the value has nothing to show: null, `""`, `[]` or `{}`. A
  /// mapping's source that selects such a value is passed over for the next.
  var isEmpty: Bool {
    switch self {
    case .null: true
    case .string(let text): text.isEmpty
    case .array(let elements): elements.isEmpty
    case .object(let members): members.isEmpty
    case .bool, .number: false
    }
  }
}

/// A JSON number: its literal text, for faithful output, and its value.
struct JSONNumber: Sendable, Hashable, CustomStringConvertible {
  /// The number as the document spelled it, e.g. `1.50e3`.
  let text: String
  /// The value as a `Double`, for comparisons; ±infinity beyond its range.
  let value: Double
  /// The exact value when the literal is an integer (no fraction, no
  /// exponent) that fits 64 bits.
  let int64: Int64?

  /// A number from its literal text, which must follow the JSON grammar.
  init(text: String, int64: Int64?) {
    self.text = text
    self.value = Double(text) ?? .nan
    self.int64 = int64
  }

  /// A number for an integer, e.g. a function's count.
  init(_ integer: Int) {
    self.text = String(integer)
    self.value = Double(integer)
    self.int64 = Int64(integer)
  }

  var description: String { text }

  static func == (lhs: JSONNumber, rhs: JSONNumber) -> Bool { lhs.text == rhs.text }
  func hash(into hasher: inout Hasher) { hasher.combine(text) }
}

/// The members of a JSON object, in document order.
///
/// Keys are told apart by their Unicode scalars, as RFC 9535 compares
/// member names (§2.3.1.2), not by Swift's canonical equivalence: `"é"` and
/// `"e\u{301}"` are two keys. A key that occurs twice keeps its first position and its last value, as
/// the payload reader (and JavaScript's `JSON.parse`) does: a lookup finds
/// the value a consumer of the document would see.
struct JSONObject: Sendable, Hashable, RandomAccessCollection {
  /// One member: a key and its value.
  typealias Element = (key: String, value: JSONValue)

  private(set) var keys: [String] = []
  private(set) var values: [JSONValue] = []
  /// Positions by key, kept once the object is large enough that a linear
  /// search would cost more than the dictionary.
  private var positions: [ExactKey: Int]?

  private static let indexedCount = 12

  init() {}

  /// An object holding `members`; a repeated key keeps its first position and its last value.
  init(_ members: [(String, JSONValue)]) {
    for (key, value) in members { self[key] = value }
  }

  var startIndex: Int { 0 }
  var endIndex: Int { keys.count }
  subscript(position: Int) -> Element { (keys[position], values[position]) }

  /// The value of `key`, or nil when the object has no such member.
  subscript(key: String) -> JSONValue? {
    get { position(of: key).map { values[$0] } }
    set {
      guard let newValue else { return }
      if let index = position(of: key) {
        values[index] = newValue
        return
      }
      keys.append(key)
      values.append(newValue)
      if positions != nil {
        positions?[ExactKey(key)] = keys.count - 1
      } else if keys.count > Self.indexedCount {
        positions = Dictionary(keys.enumerated().map { (ExactKey($1), $0) }, uniquingKeysWith: { first, _ in first })
      }
    }
  }

  private func position(of key: String) -> Int? {
    if let positions { return positions[ExactKey(key)] }
    return keys.firstIndex { $0.utf8.elementsEqual(key.utf8) }
  }

  /// A key compared and hashed by its UTF-8 bytes, hence by its scalars.
  private struct ExactKey: Hashable, Sendable {
    let text: String

    init(_ text: String) { self.text = text }

    static func == (lhs: ExactKey, rhs: ExactKey) -> Bool { lhs.text.utf8.elementsEqual(rhs.text.utf8) }

    func hash(into hasher: inout Hasher) {
      for byte in text.utf8 { hasher.combine(byte) }
    }
  }

  /// Equal when both hold the same keys with equal values, in any order:
  /// member order carries no meaning in JSON.
  static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
    lhs.count == rhs.count && lhs.allSatisfy { rhs[$0.key] == $0.value }
  }

  func hash(into hasher: inout Hasher) {
    // Order-independent, as `==` is.
    hasher.combine(count)
    var combined = 0
    for (key, value) in self {
      var member = Hasher()
      member.combine(key)
      member.combine(value)
      combined ^= member.finalize()
    }
    hasher.combine(combined)
  }
}
