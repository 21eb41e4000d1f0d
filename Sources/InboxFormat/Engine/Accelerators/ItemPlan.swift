import Foundation

/// A mapping's byte queries (``ByteQuery``) compiled into one tree of steps
/// that an item's bytes are read along once: an accelerator of following
/// each query on its own (``ByteQuery/select(with:at:viewer:into:)``, itself
/// an accelerator of ``JSONPathQuery/select(from:environment:)``, the rule).
/// `ItemPlanTests` holds the two equal over random documents and queries.
///
/// Each query is a slot. Reading an item gives, for each slot, where the
/// first non-empty node the query selects starts (or, with `pick: last`,
/// the last one): null, `""`, `[]` and `{}` are passed over, as a mapping's
/// sources pass over them. The nodes of a query of child segments come in
/// the order of the document, so one pass meets them in the rule's order.
///
/// Reading gives up, and the caller reads the item the rule's way, on what
/// this order does not hold for or one pass cannot follow: an object that
/// repeats a member name the plan follows (the rule keeps the first place
/// and the last value), a wildcard or a filter over an object, and JSON
/// that is not valid, whose error the rule's reader then names.
struct ItemPlan: Sendable {
  /// A place in the tree of steps: the members it follows by name, the
  /// elements it follows by index, wildcard or filter, and the slots whose
  /// queries end there.
  struct Node: Sendable {
    var names: [(name: [UInt8], child: Int)] = []
    var elements: [(step: ElementStep, child: Int)] = []
    var slots: [Int] = []
    /// Whether `elements` has a wildcard or a filter, which would select
    /// an object's member values too.
    var selectsMembers = false
  }

  /// A step over an array's elements.
  enum ElementStep: Sendable, Equatable {
    case index(Int)
    case wildcard
    case filter(PlanFilter)
  }

  /// A filter of ``ByteQuery/Filter``, its literal string kept as bytes.
  struct PlanFilter: Sendable, Equatable {
    var filter: ByteQuery.Filter
    /// The UTF-8 of a literal string the filter compares with.
    var literalBytes: [UInt8]?

    static func == (lhs: PlanFilter, rhs: PlanFilter) -> Bool { lhs.filter == rhs.filter }
  }

  /// The most names one node follows: which of them an object has already
  /// shown is one bit each.
  static let maximumNames = 64
  /// Negative indexes count back at most this far: the starts of the last
  /// elements are kept in a ring this long.
  static let ringLength = 8
  /// The longest query followed: the walk recurses once per step.
  static let maximumSteps = 32

  private(set) var nodes: [Node] = [Node()]
  /// Per slot, whether the last non-empty node is wanted instead of the first.
  let picksLast: [Bool]

  /// The plan of `queries`, slot `n` for `queries[n]`; nil when one is
  /// outside what the plan follows.
  init?(_ queries: [(query: ByteQuery, picksLast: Bool)]) {
    picksLast = queries.map(\.picksLast)
    for (slot, (query, _)) in queries.enumerated() {
      guard query.steps.count <= Self.maximumSteps else { return nil }
      var node = 0
      for step in query.steps {
        switch step {
        case .name(let name):
          if let known = nodes[node].names.first(where: { $0.name == name }) {
            node = known.child
          } else {
            guard nodes[node].names.count < Self.maximumNames else { return nil }
            nodes.append(Node())
            nodes[node].names.append((name, nodes.count - 1))
            node = nodes.count - 1
          }
        case .index(let index):
          guard index >= -Self.ringLength else { return nil }
          node = child(of: node, .index(index))
        case .wildcard:
          node = child(of: node, .wildcard)
        case .filter(let filter):
          let literal: [UInt8]? =
            if case (_, .literal(.string(let text)))? = filter.comparison { Array(text.utf8) } else { nil }
          node = child(of: node, .filter(PlanFilter(filter: filter, literalBytes: literal)))
        }
      }
      nodes[node].slots.append(slot)
    }
  }

  private mutating func child(of node: Int, _ step: ElementStep) -> Int {
    if let known = nodes[node].elements.first(where: { $0.step == step }) { return known.child }
    nodes.append(Node())
    nodes[node].elements.append((step, nodes.count - 1))
    switch step {
    case .wildcard, .filter: nodes[node].selectsMembers = true
    case .index: break
    }
    return nodes.count - 1
  }
}

/// Reads items along an ``ItemPlan``, keeping what it needs between items.
struct ItemPlanReader {
  let plan: ItemPlan
  var scanner: JSONScanner
  /// Per slot, where its node starts, or -1 when its query selected none.
  private(set) var found: [Int]
  /// The UTF-8 of the viewer's id, when it is a string.
  private let viewerBytes: [UInt8]?
  private let viewer: JSONValue?
  /// The last object a filter read to its end, checking it: where it starts and ends.
  private var scannedObject = (start: -1, end: -1)

  init(plan: ItemPlan, bytes: UnsafeBufferPointer<UInt8>, viewer: JSONValue?) {
    self.plan = plan
    scanner = JSONScanner(bytes: bytes, origin: InputLocation(line: 1, column: 1, byteOffset: 0))
    found = Array(repeating: -1, count: plan.picksLast.count)
    self.viewer = viewer
    viewerBytes = if case .string(let text)? = viewer { Array(text.utf8) } else { nil }
  }

  /// Reads the item that starts at `start`, which `depth` containers
  /// enclose: true with ``found`` filled and the scanner past the item,
  /// false when reading gave up.
  mutating func read(at start: Int, depth: Int) -> Bool {
    for slot in found.indices { found[slot] = -1 }
    scanner.position = start
    // Handed down as a parameter: the walk then reads the plan's arrays
    // without retaining them around each change to the scanner.
    return walk(0, depth: depth, plan)
  }

  /// Follows node `index` of the plan over the value at the scanner's
  /// position, and moves past the value.
  private mutating func walk(_ index: Int, depth: Int, _ plan: borrowing ItemPlan) -> Bool {
    let start = scanner.position
    for slot in plan.nodes[index].slots { record(slot, at: start, plan) }
    switch scanner.current {
    case UInt8(ascii: "{") where plan.nodes[index].selectsMembers:
      return false
    case UInt8(ascii: "{") where !plan.nodes[index].names.isEmpty:
      return walkObject(index, depth: depth, plan)
    case UInt8(ascii: "[") where !plan.nodes[index].elements.isEmpty:
      return walkArray(index, depth: depth, plan)
    default:
      return skip(depth: depth)
    }
  }

  private mutating func record(_ slot: Int, at start: Int, _ plan: borrowing ItemPlan) {
    guard found[slot] < 0 || plan.picksLast[slot], !isEmptyValue(at: start) else { return }
    found[slot] = start
  }

  private mutating func walkObject(_ index: Int, depth: Int, _ plan: borrowing ItemPlan) -> Bool {
    guard depth < JSONScanner.maximumDepth else { return false }
    scanner.position += 1
    scanner.skipWhitespace()
    if scanner.current == UInt8(ascii: "}") {
      scanner.position += 1
      return true
    }
    var followed: UInt64 = 0
    while true {
      guard scanner.current == UInt8(ascii: "\""), let key = try? scanner.scanString(),
        (try? scanner.consumeColon()) != nil
      else { return false }
      if let name = plan.nodes[index].names.firstIndex(where: { keyEquals(key, $0.name) }) {
        let bit: UInt64 = 1 << UInt64(name)
        guard followed & bit == 0 else { return false }
        followed |= bit
        guard walk(plan.nodes[index].names[name].child, depth: depth + 1, plan) else { return false }
      } else {
        guard skip(depth: depth + 1) else { return false }
      }
      scanner.skipWhitespace()
      guard let more = try? scanner.moveToNextMember(closing: UInt8(ascii: "}")) else { return false }
      if !more { return true }
    }
  }

  private mutating func walkArray(_ index: Int, depth: Int, _ plan: borrowing ItemPlan) -> Bool {
    guard depth < JSONScanner.maximumDepth else { return false }
    scanner.position += 1
    scanner.skipWhitespace()
    if scanner.current == UInt8(ascii: "]") {
      scanner.position += 1
      return true
    }
    var ring = (0, 0, 0, 0, 0, 0, 0, 0)
    var count = 0
    let steps = plan.nodes[index].elements
    while true {
      let element = scanner.position
      var end = -1
      for (step, child) in steps {
        let selects: Bool
        switch step {
        case .wildcard: selects = true
        case .index(let wanted): selects = wanted == count
        case .filter(let filter):
          selects = holds(filter, at: element, depth: depth + 1)
          scanner.position = element
        }
        guard selects else { continue }
        scanner.position = element
        guard walk(child, depth: depth + 1, plan) else { return false }
        end = scanner.position
      }
      if end < 0 {
        // An element a filter read whole and passed over is not read again.
        if scannedObject.start == element && depth + 1 < JSONScanner.maximumDepth {
          scanner.position = scannedObject.end
        } else {
          guard skip(depth: depth + 1) else { return false }
        }
      }
      withUnsafeMutableBytes(of: &ring) { $0.storeBytes(of: element, toByteOffset: (count % 8) * 8, as: Int.self) }
      count += 1
      scanner.skipWhitespace()
      guard let more = try? scanner.moveToNextMember(closing: UInt8(ascii: "]")) else { return false }
      if !more { break }
    }
    // Negative indexes, once the count is known: their elements again.
    let after = scanner.position
    for (step, child) in steps {
      guard case .index(let wanted) = step, wanted < 0, count + wanted >= 0 else { continue }
      let element = withUnsafeBytes(of: ring) { $0.load(fromByteOffset: ((count + wanted) % 8) * 8, as: Int.self) }
      scanner.position = element
      guard walk(child, depth: depth + 1, plan) else { return false }
    }
    scanner.position = after
    return true
  }

  private mutating func skip(depth: Int) -> Bool {
    (try? scanner.skipValue(depth: depth)) != nil
  }

  // MARK: Filters

  /// Whether `filter` holds for the element at `start` as `@`
  /// (``ValueWalker/holds(_:at:viewer:)``). Moves the scanner.
  private mutating func holds(_ filter: ItemPlan.PlanFilter, at start: Int, depth: Int) -> Bool {
    var value: Int? = start
    for (level, name) in filter.filter.path.enumerated() {
      guard let current = value else { break }
      value = member(name, ofObjectAt: current, depth: depth + level)
    }
    guard let (comparison, operand) = filter.filter.comparison else { return value != nil }
    let compared: [UInt8]? =
      switch operand {
      case .literal: filter.literalBytes
      case .viewer: viewerBytes
      }
    // A string compared with a string, the common case, by their bytes.
    if let compared, let value, scanner.byte(at: value) == UInt8(ascii: "\"") {
      scanner.position = value
      if let token = try? scanner.scanString(), !token.hasEscapes {
        let equal = scanner.bytes[token.range].elementsEqual(compared)
        return comparison == .equal ? equal : !equal
      }
    }
    let other: JSONValue? =
      switch operand {
      case .literal(let literal): literal
      case .viewer: viewer
      }
    return comparison.compare(value.flatMap { self.value(at: $0, depth: depth) }, other)
  }

  /// Where the value of the last member `name` of the object at `start`
  /// starts, or nil.
  private mutating func member(_ name: [UInt8], ofObjectAt start: Int, depth: Int) -> Int? {
    guard scanner.byte(at: start) == UInt8(ascii: "{") else { return nil }
    scanner.position = start + 1
    scanner.skipWhitespace()
    if scanner.current == UInt8(ascii: "}") { return nil }
    var last: Int?
    while true {
      guard scanner.current == UInt8(ascii: "\""), let key = try? scanner.scanString(),
        (try? scanner.consumeColon()) != nil
      else { return nil }
      if keyEquals(key, name) { last = scanner.position }
      guard skip(depth: depth + 1) else { return nil }
      scanner.skipWhitespace()
      guard let more = try? scanner.moveToNextMember(closing: UInt8(ascii: "}")) else { return nil }
      if !more {
        scannedObject = (start, scanner.position)
        return last
      }
    }
  }

  /// The value at `start`, read into a tree.
  private mutating func value(at start: Int, depth: Int) -> JSONValue? {
    scanner.position = start
    guard skip(depth: depth) else { return nil }
    return try? JSONValue.read(from: scanner.bytes, at: start..<scanner.position)
  }

  // MARK: Bytes

  /// Whether a key's text is `name` (UTF-8), its escapes read.
  private mutating func keyEquals(_ key: JSONScanner.StringToken, _ name: [UInt8]) -> Bool {
    if !key.hasEscapes {
      return key.end - key.start == name.count
        && (name.isEmpty
          || name.withUnsafeBufferPointer { name in
            memcmp(scanner.bytes.baseAddress! + key.start, name.baseAddress!, name.count) == 0
          })
    }
    return (try? scanner.string(key)).map { $0.utf8.elementsEqual(name) } ?? false
  }

  /// Whether the value at `start` is null, `""`, `[]` or `{}`
  /// (``JSONValue/isEmpty``).
  private mutating func isEmptyValue(at start: Int) -> Bool {
    switch scanner.byte(at: start) {
    case UInt8(ascii: "n"): return true
    case UInt8(ascii: "\""): return scanner.byte(at: start + 1) == UInt8(ascii: "\"")
    case UInt8(ascii: "["), UInt8(ascii: "{"):
      let closing = scanner.byte(at: start) == UInt8(ascii: "[") ? UInt8(ascii: "]") : UInt8(ascii: "}")
      let position = scanner.position
      defer { scanner.position = position }
      scanner.position = start + 1
      scanner.skipWhitespace()
      return scanner.current == closing
    default: return false
    }
  }
}
