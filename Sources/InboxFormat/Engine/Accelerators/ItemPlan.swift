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
  /// A class: the walk hands it on for every element it tests, and a
  /// structure would retain each of its arrays every time.
  final class PlanFilter: Sendable, Equatable {
    let filter: ByteQuery.Filter
    /// The UTF-8 of a literal string the filter compares with.
    let literalBytes: [UInt8]?

    init(filter: ByteQuery.Filter, literalBytes: [UInt8]?) {
      (self.filter, self.literalBytes) = (filter, literalBytes)
    }

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

  /// Per slot, whether the last non-empty node is wanted instead of the first.
  let picksLast: [Bool]
  /// The tree of steps as the walk reads it; ``Node`` is only how it is built.
  let layout: Layout

  /// The plan of `queries`, slot `n` for `queries[n]`; nil when one is
  /// outside what the plan follows.
  init?(_ queries: [(query: ByteQuery, picksLast: Bool)]) {
    var nodes = [Node()]
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
          node = Self.child(of: node, .index(index), in: &nodes)
        case .wildcard:
          node = Self.child(of: node, .wildcard, in: &nodes)
        case .filter(let filter):
          let literal: [UInt8]? =
            if case (_, .literal(.string(let text)))? = filter.comparison { Array(text.utf8) } else { nil }
          node = Self.child(of: node, .filter(PlanFilter(filter: filter, literalBytes: literal)), in: &nodes)
        }
      }
      nodes[node].slots.append(slot)
    }
    picksLast = queries.map(\.picksLast)
    layout = Layout(nodes, picksLast: picksLast)
  }

  private static func child(of node: Int, _ step: ElementStep, in nodes: inout [Node]) -> Int {
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

extension ItemPlan {
  /// The nodes laid out in buffers of plain values, which the walk reads
  /// at every key without retaining or releasing anything: read from
  /// arrays of arrays (names, steps, filters), each read would do both, at
  /// a quarter of a mapped payload's reading
  /// (`Benchmarks/Results/2026-11-26-mappings.md`). Immutable once made.
  final class Layout: @unchecked Sendable {
    struct Node {
      /// Indexes into ``Buffers/names``, ``Buffers/elements`` and ``Buffers/slots``.
      let names: Range<Int>
      let elements: Range<Int>
      let slots: Range<Int>
      let selectsMembers: Bool
    }
    /// A name a node follows: its UTF-8 in ``Buffers/nameBytes``, and the node it leads to.
    struct Name {
      let bytes: Range<Int>
      let child: Int
    }
    /// A step over an array's elements; a filter is its index in ``filters``.
    enum Step {
      case index(Int)
      case wildcard
      case filter(Int)
    }
    struct Element {
      let step: Step
      let child: Int
    }

    /// The buffers, which live as long as the layout: plain values a
    /// reader keeps beside the layout.
    struct Buffers {
      let nodes: UnsafeBufferPointer<Node>
      let names: UnsafeBufferPointer<Name>
      let nameBytes: UnsafeBufferPointer<UInt8>
      let elements: UnsafeBufferPointer<Element>
      let slots: UnsafeBufferPointer<Int>
      let picksLast: UnsafeBufferPointer<Bool>
    }

    let buffers: Buffers
    /// The filters, read only when an element is tested.
    let filters: [PlanFilter]

    init(_ planNodes: [ItemPlan.Node], picksLast: [Bool]) {
      var (nodes, names, nameBytes, elements, slots) = ([Node](), [Name](), [UInt8](), [Element](), [Int]())
      var filters: [PlanFilter] = []
      for node in planNodes {
        let (firstName, firstElement, firstSlot) = (names.count, elements.count, slots.count)
        for (name, child) in node.names {
          names.append(Name(bytes: nameBytes.count..<nameBytes.count + name.count, child: child))
          nameBytes += name
        }
        for (step, child) in node.elements {
          switch step {
          case .index(let index): elements.append(Element(step: .index(index), child: child))
          case .wildcard: elements.append(Element(step: .wildcard, child: child))
          case .filter(let filter):
            elements.append(Element(step: .filter(filters.count), child: child))
            filters.append(filter)
          }
        }
        slots += node.slots
        nodes.append(
          Node(
            names: firstName..<names.count, elements: firstElement..<elements.count, slots: firstSlot..<slots.count,
            selectsMembers: node.selectsMembers))
      }
      buffers = Buffers(
        nodes: Self.copy(nodes), names: Self.copy(names), nameBytes: Self.copy(nameBytes),
        elements: Self.copy(elements), slots: Self.copy(slots), picksLast: Self.copy(picksLast))
      self.filters = filters
    }

    deinit {
      for buffer in [
        UnsafeRawBufferPointer(buffers.nodes), UnsafeRawBufferPointer(buffers.names),
        UnsafeRawBufferPointer(buffers.nameBytes), UnsafeRawBufferPointer(buffers.elements),
        UnsafeRawBufferPointer(buffers.slots), UnsafeRawBufferPointer(buffers.picksLast),
      ] {
        buffer.baseAddress.map { UnsafeMutableRawPointer(mutating: $0).deallocate() }
      }
    }

    /// A buffer of its own holding `values` (never without a base address).
    private static func copy<Value>(_ values: [Value]) -> UnsafeBufferPointer<Value> {
      let buffer = UnsafeMutableBufferPointer<Value>.allocate(capacity: max(values.count, 1))
      _ = buffer.initialize(from: values)
      return UnsafeBufferPointer(start: buffer.baseAddress, count: values.count)
    }
  }
}

/// Reads items along an ``ItemPlan``, keeping what it needs between items.
struct ItemPlanReader {
  let plan: ItemPlan
  /// The plan's layout, which `plan` keeps alive.
  private let layout: ItemPlan.Layout.Buffers
  var scanner: JSONScanner
  /// Per slot, where its node starts, or -1 when its query selected none.
  private(set) var found: [Int]
  /// The UTF-8 of the viewer's id, when it is a string.
  private let viewerBytes: [UInt8]?
  private let viewer: JSONValue?
  /// The last object a filter read to its end, checking it: where it starts and ends.
  private var scannedObject = (start: -1, end: -1)
  /// The element whose filter the last test (``holds(_:at:depth:child:)``)
  /// read whole, checking it, with the names its step's node follows: the
  /// node, where the element ends, and each name met with where its value
  /// starts, in the element's order. `node` is -1 when the last test read
  /// no such element.
  private var recordedFor = (element: -1, node: -1, end: -1)
  private var recorded: [(name: Int, start: Int)] = []
  /// Whether an element a filter selects is walked from what the filter
  /// recorded (``walkRecorded(_:at:depth:)``) instead of read again: off,
  /// the plain walk, which tests compare it with.
  var readsFilteredElementsOnce = true

  init(plan: ItemPlan, bytes: UnsafeBufferPointer<UInt8>, viewer: JSONValue?) {
    self.plan = plan
    layout = plan.layout.buffers
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
    return walk(0, depth: depth)
  }

  /// Follows node `index` of the plan over the value at the scanner's
  /// position, and moves past the value.
  private mutating func walk(_ index: Int, depth: Int) -> Bool {
    let start = scanner.position
    let node = layout.nodes[index]
    for slot in layout.slots[node.slots] { record(slot, at: start) }
    switch scanner.current {
    case UInt8(ascii: "{") where node.selectsMembers:
      return false
    case UInt8(ascii: "{") where !node.names.isEmpty:
      return walkObject(node, depth: depth)
    case UInt8(ascii: "[") where !node.elements.isEmpty:
      return walkArray(node, depth: depth)
    default:
      return skip(depth: depth)
    }
  }

  private mutating func record(_ slot: Int, at start: Int) {
    guard found[slot] < 0 || layout.picksLast[slot], !isEmptyValue(at: start) else { return }
    found[slot] = start
  }

  private mutating func walkObject(_ node: ItemPlan.Layout.Node, depth: Int) -> Bool {
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
      if let name = followedName(key, node) {
        let bit: UInt64 = 1 << UInt64(name - node.names.lowerBound)
        guard followed & bit == 0 else { return false }
        followed |= bit
        guard walk(layout.names[name].child, depth: depth + 1) else { return false }
      } else {
        guard skip(depth: depth + 1) else { return false }
      }
      scanner.skipWhitespace()
      guard let more = try? scanner.moveToNextMember(closing: UInt8(ascii: "}")) else { return false }
      if !more { return true }
    }
  }

  /// The index in the layout's names of the name of `node` that `key` is.
  private mutating func followedName(_ key: JSONScanner.StringToken, _ node: ItemPlan.Layout.Node) -> Int? {
    guard !key.hasEscapes else {
      for name in node.names
      where keyEquals(key, UnsafeBufferPointer(rebasing: layout.nameBytes[layout.names[name].bytes])) {
        return name
      }
      return nil
    }
    let length = key.end - key.start
    let keyBytes = UnsafeRawPointer(scanner.bytes.baseAddress! + key.start)
    let nameBytes = UnsafeRawPointer(layout.nameBytes.baseAddress!)
    for name in node.names {
      let bytes = layout.names[name].bytes
      if bytes.count == length, sameBytes(keyBytes, nameBytes + bytes.lowerBound, count: length) { return name }
    }
    return nil
  }

  private mutating func walkArray(_ node: ItemPlan.Layout.Node, depth: Int) -> Bool {
    guard depth < JSONScanner.maximumDepth else { return false }
    scanner.position += 1
    scanner.skipWhitespace()
    if scanner.current == UInt8(ascii: "]") {
      scanner.position += 1
      return true
    }
    var ring = (0, 0, 0, 0, 0, 0, 0, 0)
    var count = 0
    let steps = layout.elements[node.elements]
    while true {
      let element = scanner.position
      var end = -1
      for step in steps {
        let selects: Bool
        switch step.step {
        case .wildcard: selects = true
        case .index(let wanted): selects = wanted == count
        case .filter(let filter):
          selects = holds(plan.layout.filters[filter], at: element, depth: depth + 1, child: step.child)
          scanner.position = element
        }
        guard selects else { continue }
        if readsFilteredElementsOnce && recordedFor.element == element && recordedFor.node == step.child {
          // The element the filter read is not read again.
          guard walkRecorded(step.child, at: element, depth: depth + 1) else { return false }
        } else {
          scanner.position = element
          guard walk(step.child, depth: depth + 1) else { return false }
        }
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
    for step in steps {
      guard case .index(let wanted) = step.step, wanted < 0, count + wanted >= 0 else { continue }
      let element = withUnsafeBytes(of: ring) { $0.load(fromByteOffset: ((count + wanted) % 8) * 8, as: Int.self) }
      scanner.position = element
      guard walk(step.child, depth: depth + 1) else { return false }
    }
    scanner.position = after
    return true
  }

  private mutating func skip(depth: Int) -> Bool {
    (try? scanner.skipValue(depth: depth)) != nil
  }

  /// ``walk(_:depth:)`` of node `index` over the object at `start` that a
  /// filter has just read whole and checked (``recordedFor``), from the
  /// values it recorded: the same slots in the same order, each value read
  /// at the same depth, without reading the object again. A leaf's value
  /// is not read again either: the filter has checked it, which is all
  /// the walk would do with it.
  private mutating func walkRecorded(_ index: Int, at start: Int, depth: Int) -> Bool {
    let node = layout.nodes[index]
    let end = recordedFor.end
    for slot in layout.slots[node.slots] { record(slot, at: start) }
    guard depth < JSONScanner.maximumDepth else { return false }
    // A walk below may test elements of its own and record them.
    var entries: [(name: Int, start: Int)] = []
    swap(&entries, &recorded)
    defer { swap(&entries, &recorded) }
    for entry in entries {
      let child = layout.names[entry.name].child
      let childNode = layout.nodes[child]
      if childNode.names.isEmpty && childNode.elements.isEmpty {
        for slot in layout.slots[childNode.slots] { record(slot, at: entry.start) }
      } else {
        scanner.position = entry.start
        guard walk(child, depth: depth + 1) else { return false }
      }
    }
    scanner.position = end
    return true
  }

  // MARK: Filters

  /// Whether `filter` holds for the element at `start` as `@`
  /// (``ValueWalker/holds(_:at:viewer:)``). Moves the scanner. When it
  /// reads the element whole, it records the values of the names node
  /// `child` follows (``recordedFor``).
  private mutating func holds(_ filter: ItemPlan.PlanFilter, at start: Int, depth: Int, child: Int) -> Bool {
    recordedFor = (-1, -1, -1)
    var value: Int? = start
    for (level, name) in filter.filter.path.enumerated() {
      guard let current = value else { break }
      value = member(name, ofObjectAt: current, depth: depth + level, recordingFor: level == 0 ? child : -1)
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
        let equal =
          token.end - token.start == compared.count
          && compared.withUnsafeBufferPointer {
            $0.isEmpty || sameBytes(scanner.bytes.baseAddress! + token.start, $0.baseAddress!, count: $0.count)
          }
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
  /// starts, or nil. When `recordingFor` is a node the walk would follow
  /// into the object by its names, records them (``recordedFor``), unless
  /// one repeats, which the walk gives up on.
  private mutating func member(_ name: [UInt8], ofObjectAt start: Int, depth: Int, recordingFor: Int = -1) -> Int? {
    guard scanner.byte(at: start) == UInt8(ascii: "{") else { return nil }
    scanner.position = start + 1
    scanner.skipWhitespace()
    if scanner.current == UInt8(ascii: "}") { return nil }
    var last: Int?
    let recording: ItemPlan.Layout.Node? =
      if recordingFor >= 0, case let node = layout.nodes[recordingFor], !node.names.isEmpty, !node.selectsMembers {
        node
      } else {
        nil
      }
    if recording != nil { recorded.removeAll(keepingCapacity: true) }
    var met: UInt64 = 0
    var repeats = false
    while true {
      guard scanner.current == UInt8(ascii: "\""), let key = try? scanner.scanString(),
        (try? scanner.consumeColon()) != nil
      else { return nil }
      if name.withUnsafeBufferPointer({ keyEquals(key, $0) }) { last = scanner.position }
      if let recording, let followed = followedName(key, recording) {
        let bit: UInt64 = 1 << UInt64(followed - recording.names.lowerBound)
        repeats = repeats || met & bit != 0
        met |= bit
        recorded.append((followed, scanner.position))
      }
      guard skip(depth: depth + 1) else { return nil }
      scanner.skipWhitespace()
      guard let more = try? scanner.moveToNextMember(closing: UInt8(ascii: "}")) else { return nil }
      if !more {
        scannedObject = (start, scanner.position)
        if recording != nil && !repeats { recordedFor = (start, recordingFor, scanner.position) }
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
  private mutating func keyEquals(_ key: JSONScanner.StringToken, _ name: UnsafeBufferPointer<UInt8>) -> Bool {
    if !key.hasEscapes {
      return key.end - key.start == name.count
        && (name.isEmpty || sameBytes(scanner.bytes.baseAddress! + key.start, name.baseAddress!, count: name.count))
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
