/// A JSONPath query followed over a value's bytes, without a tree: an
/// accelerator of ``JSONPathQuery/select(from:environment:)`` (the rule)
/// for the queries mappings are made of. `ByteQueryTests` holds the two
/// together over random documents and queries.
///
/// The subset: child segments of one selector each — a name, an index
/// (negative ones count from the end), a wildcard, or a filter that
/// compares a relative query of names (`@.user.id`) with a literal or
/// `viewer()` by `==` or `!=`, or tests that such a query selects a node.
/// Any other query has no `ByteQuery` and is run on a tree of its item.
struct ByteQuery: Sendable, Hashable {
  enum Step: Sendable, Hashable {
    case name([UInt8])
    case index(Int)
    case wildcard
    case filter(Filter)
  }

  /// `[?@.a.b == 'x']`, `[?@.a != viewer()]` or `[?@.a]`.
  struct Filter: Sendable, Hashable {
    /// The names from `@` to the value compared, UTF-8.
    var path: [[UInt8]]
    /// The comparison, or nil for an existence test.
    var comparison: (ComparisonOperator, Operand)?

    static func == (lhs: Filter, rhs: Filter) -> Bool {
      lhs.path == rhs.path && lhs.comparison?.0 == rhs.comparison?.0 && lhs.comparison?.1 == rhs.comparison?.1
    }

    func hash(into hasher: inout Hasher) {
      hasher.combine(path)
      hasher.combine(comparison?.0)
      hasher.combine(comparison?.1)
    }
  }

  /// What a filter's query is compared with.
  enum Operand: Sendable, Hashable {
    case literal(JSONValue)
    /// `viewer()`: the environment's viewer, or Nothing.
    case viewer
  }

  let steps: [Step]

  /// The byte query of `query`, or nil when it is not of the subset.
  init?(_ query: JSONPathQuery) {
    var steps: [Step] = []
    for segment in query.segments {
      guard case .child(let selectors) = segment, selectors.count == 1 else { return nil }
      switch selectors[0] {
      case .name(let name): steps.append(.name(Array(name.utf8)))
      case .index(let index): steps.append(.index(index))
      case .wildcard: steps.append(.wildcard)
      case .filter(let expression):
        guard let filter = Self.filter(expression) else { return nil }
        steps.append(.filter(filter))
      case .slice: return nil
      }
    }
    self.steps = steps
  }

  private static func filter(_ expression: FilterExpression) -> Filter? {
    switch expression {
    case .exists(let query):
      guard let path = names(query) else { return nil }
      return Filter(path: path, comparison: nil)
    case .comparison(let left, let comparison, let right):
      guard comparison == .equal || comparison == .notEqual else { return nil }
      // Equality is symmetric: the query may stand on either side.
      for (query, other) in [(left, right), (right, left)] {
        guard case .query(let filterQuery) = query, let path = names(filterQuery) else { continue }
        switch other {
        case .literal(let value): return Filter(path: path, comparison: (comparison, .literal(value)))
        case .function(let call) where call.function == .viewer:
          return Filter(path: path, comparison: (comparison, .viewer))
        default: return nil
        }
      }
      return nil
    default:
      return nil
    }
  }

  /// The names of a relative query of child name segments, UTF-8.
  private static func names(_ query: FilterQuery) -> [[UInt8]]? {
    guard query.isRelative else { return nil }
    var names: [[UInt8]] = []
    for segment in query.segments {
      guard case .child(let selectors) = segment, selectors.count == 1, case .name(let name) = selectors[0] else {
        return nil
      }
      names.append(Array(name.utf8))
    }
    return names
  }

  /// Appends where each node the query selects from the value starting at
  /// `start` starts, in the rule's order. `walker` moves over the bytes
  /// the value lies in, which must be valid JSON (the reader has checked
  /// the item), and keeps what it reads for the item's other queries.
  func select(with walker: inout ValueWalker, at start: Int, viewer: JSONValue?, into output: inout [Int]) {
    if isSingular {
      // One node at most: followed without lists.
      var node = start
      for step in steps {
        switch step {
        case .name(let name):
          guard let value = walker.member(name, ofObjectAt: node) else { return }
          node = value
        case .index(let index):
          guard let value = walker.element(index, ofArrayAt: node) else { return }
          node = value
        case .wildcard, .filter:
          return
        }
      }
      output.append(node)
      return
    }
    var nodes = [start]
    var next: [Int] = []
    for step in steps {
      next.removeAll(keepingCapacity: true)
      for node in nodes {
        switch step {
        case .name(let name):
          if let value = walker.member(name, ofObjectAt: node) { next.append(value) }
        case .index(let index):
          if let value = walker.element(index, ofArrayAt: node) { next.append(value) }
        case .wildcard:
          walker.children(of: node, into: &next)
        case .filter(let filter):
          var children: [Int] = []
          walker.children(of: node, into: &children)
          for child in children where walker.holds(filter, at: child, viewer: viewer) { next.append(child) }
        }
      }
      swap(&nodes, &next)
      if nodes.isEmpty { return }
    }
    output += nodes
  }

  /// Whether every step is a name or an index: the query selects one node at most.
  private var isSingular: Bool {
    steps.allSatisfy { step in
      switch step {
      case .name, .index: true
      case .wildcard, .filter: false
      }
    }
  }
}

/// Moves over valid JSON by its bytes: members, elements, where values end.
///
/// The members of the objects it has read are kept, so that the queries of
/// one item read each of its objects once.
struct ValueWalker {
  private var scanner: JSONScanner
  /// The members of the objects read, by where each object starts: each
  /// key once, at its first place with its last value, as the tree keeps it.
  private var objects: [(start: Int, members: [(key: JSONScanner.StringToken, value: Int)])] = []

  init(bytes: UnsafeBufferPointer<UInt8>) {
    scanner = JSONScanner(bytes: bytes, origin: InputLocation(line: 1, column: 1, byteOffset: 0))
  }

  /// Where the value of member `name` of the object at `start` starts, or
  /// nil when it is no object or has no such member.
  mutating func member(_ name: [UInt8], ofObjectAt start: Int) -> Int? {
    guard scanner.byte(at: start) == UInt8(ascii: "{") else { return nil }
    let object = readObject(at: start)
    let bytes = scanner.bytes
    return objects[object].members.first { Self.keyEquals($0.key, name, in: bytes) }?.value
  }

  /// Where element `index` of the array at `start` starts (a negative
  /// index counts from the end), or nil.
  mutating func element(_ index: Int, ofArrayAt start: Int) -> Int? {
    guard scanner.byte(at: start) == UInt8(ascii: "[") else { return nil }
    var elements: [Int] = []
    children(of: start, into: &elements)
    let position = index < 0 ? elements.count + index : index
    return elements.indices.contains(position) ? elements[position] : nil
  }

  /// Appends where each element of the array, or each member value of
  /// the object, at `start` starts; nothing for any other value.
  mutating func children(of start: Int, into output: inout [Int]) {
    switch scanner.byte(at: start) {
    case UInt8(ascii: "["):
      scanner.position = start + 1
      scanner.skipWhitespace()
      if scanner.current == UInt8(ascii: "]") { return }
      while true {
        output.append(scanner.position)
        guard (try? scanner.skipValue(depth: 0)) != nil else { return }
        scanner.skipWhitespace()
        guard (try? scanner.moveToNextMember(closing: UInt8(ascii: "]"))) == true else { return }
      }
    case UInt8(ascii: "{"):
      let object = readObject(at: start)
      for member in objects[object].members { output.append(member.value) }
    default:
      return
    }
  }

  /// Objects with up to this many members find a repeated key by comparing
  /// it with each other key.
  private static let searchedMembers = 16

  /// Reads the members of the object at `start`, once: its place in ``objects``.
  private mutating func readObject(at start: Int) -> Int {
    if let known = objects.firstIndex(where: { $0.start == start }) { return known }
    var members: [(key: JSONScanner.StringToken, value: Int)] = []
    let bytes = scanner.bytes
    // Past a few members, repeated keys are found by their text: a hostile
    // object of many keys costs a hash each, not a search of the others.
    var positions: [String: Int]?
    forEachMember(ofObjectAt: start) { key, value in
      if members.count == Self.searchedMembers {
        positions = [:]
        for (index, member) in members.enumerated() { positions?[Self.text(of: member.key, in: bytes) ?? ""] = index }
      }
      let earlier: Int? =
        if positions != nil {
          positions?[Self.text(of: key, in: bytes) ?? ""]
        } else {
          members.firstIndex { Self.keyEquals($0.key, key, in: bytes) }
        }
      if let earlier {
        members[earlier].value = value
      } else {
        positions?[Self.text(of: key, in: bytes) ?? ""] = members.count
        members.append((key, value))
      }
    }
    objects.append((start, members))
    return objects.count - 1
  }

  /// Whether `filter` holds for the value at `start` as `@`.
  mutating func holds(_ filter: ByteQuery.Filter, at start: Int, viewer: JSONValue?) -> Bool {
    var value: Int? = start
    for name in filter.path {
      guard let current = value else { break }
      value = member(name, ofObjectAt: current)
    }
    guard let (comparison, operand) = filter.comparison else { return value != nil }
    let compared: JSONValue? =
      switch operand {
      case .literal(let literal): literal
      case .viewer: viewer
      }
    return comparison.compare(value.flatMap { self.value(at: $0) }, compared)
  }

  /// Whether the value at `start` is one a mapping's source passes over:
  /// null, `""`, `[]` or `{}` (``JSONValue/isEmpty``).
  mutating func isEmptyValue(at start: Int) -> Bool {
    switch scanner.byte(at: start) {
    case UInt8(ascii: "n"): return true
    case UInt8(ascii: "\""): return scanner.byte(at: start + 1) == UInt8(ascii: "\"")
    case UInt8(ascii: "["), UInt8(ascii: "{"):
      let closing = scanner.byte(at: start) == UInt8(ascii: "[") ? UInt8(ascii: "]") : UInt8(ascii: "}")
      scanner.position = start + 1
      scanner.skipWhitespace()
      return scanner.current == closing
    default: return false
    }
  }

  /// The value at `start`, read into a tree.
  mutating func value(at start: Int) -> JSONValue? {
    scanner.position = start
    // A string, the common case, is read in one pass.
    if scanner.current == UInt8(ascii: "\"") {
      guard let token = try? scanner.scanString() else { return nil }
      return (try? scanner.string(token)).map { .string($0) }
    }
    guard (try? scanner.skipValue(depth: 0)) != nil else { return nil }
    return try? JSONValue.read(from: scanner.bytes, at: start..<scanner.position)
  }

  /// Calls `body` with each member's key and where its value starts.
  private mutating func forEachMember(ofObjectAt start: Int, _ body: (JSONScanner.StringToken, Int) -> Void) {
    scanner.position = start + 1
    scanner.skipWhitespace()
    if scanner.current == UInt8(ascii: "}") { return }
    while true {
      guard let key = try? scanner.scanString(), (try? scanner.consumeColon()) != nil else { return }
      let value = scanner.position
      guard (try? scanner.skipValue(depth: 0)) != nil else { return }
      body(key, value)
      scanner.skipWhitespace()
      guard (try? scanner.moveToNextMember(closing: UInt8(ascii: "}"))) == true else { return }
    }
  }

  /// Whether a key's text is `name` (UTF-8), its escapes read.
  private static func keyEquals(
    _ key: JSONScanner.StringToken, _ name: [UInt8], in bytes: UnsafeBufferPointer<UInt8>
  ) -> Bool {
    if !key.hasEscapes {
      return key.end - key.start == name.count && bytes[key.start..<key.end].elementsEqual(name)
    }
    return text(of: key, in: bytes).map { Array($0.utf8) == name } ?? false
  }

  /// Whether two keys have the same text.
  private static func keyEquals(
    _ a: JSONScanner.StringToken, _ b: JSONScanner.StringToken, in bytes: UnsafeBufferPointer<UInt8>
  ) -> Bool {
    if !a.hasEscapes && !b.hasEscapes { return bytes[a.start..<a.end].elementsEqual(bytes[b.start..<b.end]) }
    return text(of: a, in: bytes) == text(of: b, in: bytes)
  }

  /// A key's text, its escapes read.
  private static func text(of key: JSONScanner.StringToken, in bytes: UnsafeBufferPointer<UInt8>) -> String? {
    var scanner = JSONScanner(bytes: bytes, origin: InputLocation(line: 1, column: 1, byteOffset: 0))
    return try? scanner.string(key)
  }
}
