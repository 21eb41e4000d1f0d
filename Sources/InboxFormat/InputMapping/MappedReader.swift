import InboxFormatSupport

/// Reads a payload one item at a time through a mapping (``InputMapping``):
/// the items its `items` query selects, each made a message.
///
/// The input takes three forms, as for the post's reader (``InboxReader``):
/// - the document the mapping describes, whose items `items` selects;
/// - a bare array, each element an item (unless the document itself is an
///   array, which `items` then reads);
/// - NDJSON, one item per line: an input whose first line holds a whole
///   JSON value with more lines after it.
///
/// When `items` is names and indexes ending in a wildcard (`$.channels[*]`,
/// `$.rooms.*`, `$[*]`), the document is followed over its bytes to the
/// items, and each item's fields over its bytes too: in one pass along the
/// mapping's ``MessagePlan`` when it has one, else query by query
/// (``ByteQuery``); only a field's query outside the byte walker's subset
/// reads its item into a tree. Any other `items` query reads the whole
/// document into a tree first.
///
/// Problems with one item (a field that selects nothing or the wrong kind
/// of value) are thrown after the whole item has been read, so the next
/// call goes on with the next item, as are broken NDJSON lines. Any other
/// error is fatal: every later call throws it again.
struct MappedReader {
  private let mapping: InputMapping
  /// The scanner over the input (``StretchReader``'s, for the stretches' loop).
  var scanner: JSONScanner
  /// The mapping's fields compiled for one pass over each item, and its reader.
  private let plan: MessagePlan?
  private var planReader: ItemPlanReader?
  private var phase = Phase.start
  private var nextIndex = 0
  /// Where the last member name read starts, for an error about it.
  private var memberNameStart = 0
  /// The fatal error that ended reading, if one has.
  private(set) var failure: InboxFormatError?
  /// Where the first item of an array of items starts, once it has been read.
  private(set) var firstItemStart: Int?

  private enum Phase {
    case start
    /// The elements or member values of the container that holds the
    /// items, then the containers around it to close.
    case items(Container, enclosing: [Container])
    case lines
    /// Items selected from the whole document's tree.
    case selected([JSONPathNode])
    case finished
  }

  /// An array or object being read: how it closes, where it lies, whether
  /// its first member is still to come, and how deep it is.
  private struct Container {
    var isObject: Bool
    var location: JSONPathLocation
    var isFirst = true
    var depth: Int
  }

  /// Creates a reader over `bytes`, which must outlive it.
  init(bytes: UnsafeBufferPointer<UInt8>, mapping: InputMapping) {
    self.mapping = mapping
    scanner = JSONScanner(bytes: bytes)
    plan = mapping.fields.plan
    planReader = plan.map { ItemPlanReader(plan: $0.items, bytes: bytes, viewer: mapping.environment.viewer) }
  }

  /// Whether a fatal error has ended reading.
  var hasFailed: Bool { failure != nil }

  /// How many items (messages and skipped ones) have been read so far.
  var itemCount: Int { nextIndex }

  /// The problem with the item the last step read, instead of a message.
  private var itemProblem: InboxFormatError?

  /// The next message, or nil at the end of the input.
  ///
  /// After a problem with one item (``hasFailed`` is false) the next call
  /// goes on with the next item.
  mutating func next() throws(InboxFormatError) -> MessageAPIModel? {
    var messages = PendingMessages()
    guard try appendNext(to: &messages) else { return nil }
    return messages.message(at: 0, in: scanner.bytes)
  }

  /// Appends the next message, as the pipeline takes it (kept in the
  /// input's bytes when it can be); false at the end of the input. Errors
  /// as ``next()``.
  mutating func appendNext(to messages: inout PendingMessages) throws(InboxFormatError) -> Bool {
    if let failure { throw failure }
    let appended: Bool
    do {
      appended = try step(into: &messages)
    } catch {
      failure = error
      throw error
    }
    if let problem = itemProblem {
      itemProblem = nil
      throw problem
    }
    return appended
  }

  /// Reads the next item and appends its message; false at the end, or
  /// with ``itemProblem`` set. Throws only fatal errors.
  private mutating func step(into messages: inout PendingMessages) throws(InboxFormatError) -> Bool {
    while true {
      switch phase {
      case .start:
        try readStart()
      case .items(var container, let enclosing):
        guard let name = try moveToNextMember(of: &container) else {
          try close(enclosing)
          phase = .finished
          continue
        }
        phase = .items(container, enclosing: enclosing)
        let start = scanner.position
        let index = nextIndex
        nextIndex += 1
        if index == 0, !container.isObject { firstItemStart = start }
        let memberName = container.isObject ? name : nil
        if let end = appendPlanned(at: start, depth: container.depth, memberName: memberName, to: &messages) {
          scanner.position = end
          return true
        }
        try scanner.skipValue(depth: container.depth)
        let item = MappedItem.bytes(scanner.bytes, range: start..<scanner.position)
        return append(item, memberName: memberName, to: &messages) { scanner in
          let location = container.isObject ? container.location.appending(name) : container.location.appending(index)
          return ItemReference(path: location.normalizedPath, index: 0, id: nil, location: scanner.location(at: start))
        }
      case .lines:
        guard let (item, start, index) = try nextLine() else {
          if itemProblem != nil { return false }
          phase = .finished
          continue
        }
        if appendPlanned(at: start, depth: 0, memberName: nil, to: &messages) != nil { return true }
        return append(item, memberName: nil, to: &messages) { scanner in
          ItemReference(path: "[\(index)]", index: 0, id: nil, location: scanner.location(at: start))
        }
      case .selected(let nodes):
        guard nextIndex < nodes.count else {
          phase = .finished
          continue
        }
        let node = nodes[nextIndex]
        nextIndex += 1
        let memberName: String? = if case .name(let name) = node.location.elements.last { name } else { nil }
        return append(.tree(node.value), memberName: memberName, to: &messages) { scanner in
          ItemReference(path: node.normalizedPath, index: 0, id: nil, location: scanner.location(at: 0))
        }
      case .finished:
        return false
      }
    }
  }

  /// Appends the message of the item at `start`, read in one pass along
  /// the mapping's plan: where the item ends; nil when the mapping has no
  /// plan or the plan gives the item up to the rule.
  private mutating func appendPlanned(
    at start: Int, depth: Int, memberName: String?, to messages: inout PendingMessages
  ) -> Int? {
    guard let plan, planReader?.read(at: start, depth: depth) == true, let end = planReader?.scanner.position,
      planReader?.appendMessage(plan, memberName: memberName, to: &messages) == true
    else { return nil }
    return end
  }

  /// Appends the message of the item just read, by the rule
  /// (``InputMapping/message(of:memberName:reference:)``); false with
  /// ``itemProblem`` set. `reference` names the item in an error: working
  /// its path and location out costs more than reading the item, so only
  /// an item with a problem pays for it.
  private mutating func append(
    _ item: MappedItem, memberName: String?, to messages: inout PendingMessages,
    reference: (inout JSONScanner) -> ItemReference
  ) -> Bool {
    let index = nextIndex - 1
    let unnamed = ItemReference(
      path: "", index: index, id: nil, location: InputLocation(line: 1, column: 1, byteOffset: 0))
    do {
      messages.append(try mapping.message(of: item, memberName: memberName, reference: unnamed))
      return true
    } catch {
      var named = reference(&scanner)
      named.index = index
      itemProblem = error.locating(named)
      return false
    }
  }

  // MARK: Stretches (``StretchReader``)

  mutating func commaAfterItem() -> Int? {
    guard case .items(let container, _) = phase, !container.isObject, !container.isFirst else { return nil }
    scanner.skipWhitespace()
    return scanner.current == UInt8(ascii: ",") ? scanner.position : nil
  }

  mutating func resume(at offset: Int, itemCount: Int) {
    guard case .items(var container, let enclosing) = phase else { return }
    container.isFirst = false
    phase = .items(container, enclosing: enclosing)
    scanner.position = offset
    nextIndex = itemCount
  }

  var stretchItemDepth: Int? {
    guard case .items(let container, _) = phase, !container.isObject, failure == nil else { return nil }
    return container.depth
  }

  mutating func appendItem(depth: Int, to messages: inout PendingMessages) throws(InboxFormatError) -> Bool {
    let start = scanner.position
    nextIndex += 1
    if let itemEnd = appendPlanned(at: start, depth: depth, memberName: nil, to: &messages) {
      scanner.position = itemEnd
      return true
    }
    try scanner.skipValue(depth: depth)
    let item = MappedItem.bytes(scanner.bytes, range: start..<scanner.position)
    // The reference is never reported: the pipeline has the item read
    // again in order (`appendNext(to:)`), which names it.
    let isMessage = append(item, memberName: nil, to: &messages) { _ in
      ItemReference(path: "", index: 0, id: nil, location: InputLocation(line: 1, column: 1, byteOffset: start))
    }
    if !isMessage { itemProblem = nil }
    return isMessage
  }

  // MARK: Form

  private mutating func readStart() throws(InboxFormatError) {
    scanner.skipWhitespace()
    guard !scanner.isAtEnd else { throw .emptyInput }
    guard let steps = mapping.fields.items.query.simpleSteps, steps.last == .wildcard,
      let prefix = Self.prefix(of: steps)
    else {
      try selectFromTree()
      return
    }
    switch scanner.current {
    case UInt8(ascii: "["):
      // The document's own array when `items` starts there; otherwise a
      // bare array of items.
      phase = .items(try open(at: .root, depth: 0), enclosing: [])
    case UInt8(ascii: "{"):
      if startsNDJSON() {
        phase = .lines
        return
      }
      var enclosing: [Container] = []
      var location = JSONPathLocation.root
      for step in prefix {
        enclosing.append(try open(at: location, depth: enclosing.count))
        location = step.appended(to: location)
        try find(step, in: &enclosing[enclosing.count - 1])
      }
      guard scanner.current == UInt8(ascii: "[") || scanner.current == UInt8(ascii: "{") else {
        throw itemsNotFound(at: location, found: JSONValueKind(firstByte: scanner.current)?.description ?? "no value")
      }
      let items = try open(at: location, depth: enclosing.count)
      phase = .items(items, enclosing: Array(enclosing.reversed()))
    default:
      guard let kind = JSONValueKind(firstByte: scanner.current) else {
        throw scanner.unexpected(expected: "a JSON object or array")
      }
      throw itemsNotFound(at: .root, found: kind.description)
    }
  }

  /// The steps before the last wildcard, when they are names and indexes.
  private static func prefix(of steps: [JSONPathQuery.Step]) -> [JSONPathQuery.Step]? {
    let prefix = steps.dropLast()
    return prefix.contains(.wildcard) ? nil : Array(prefix)
  }

  /// Whether the input is NDJSON: its first line holds one whole value,
  /// and more follows. Only the first line is read.
  private func startsNDJSON() -> Bool {
    let start = scanner.position
    guard let lineFeed = scanner.lineFeed(from: start) else { return false }
    // Only whitespace after the first line: one document, not read twice.
    var rest = scanner
    rest.position = lineFeed
    rest.skipWhitespace()
    guard !rest.isAtEnd else { return false }
    var firstLine = JSONScanner(bytes: UnsafeBufferPointer(rebasing: scanner.bytes[..<lineFeed]))
    firstLine.position = start
    // A value that does not end on its first line (a syntax error there
    // included) makes the input one document.
    guard (try? firstLine.skipValue(depth: 0)) != nil else { return false }
    firstLine.skipWhitespaceOnLine()
    return firstLine.isAtEnd
  }

  /// Reads the whole document into a tree and selects its items.
  private mutating func selectFromTree() throws(InboxFormatError) {
    let document = try JSONValue.read(from: scanner.bytes)
    phase = .selected(mapping.fields.items.query.select(from: document, environment: mapping.environment))
  }

  // MARK: Containers

  /// Moves into the array or object at the scanner's position.
  private mutating func open(at location: JSONPathLocation, depth: Int) throws(InboxFormatError) -> Container {
    let isObject = scanner.current == UInt8(ascii: "{")
    guard isObject || scanner.current == UInt8(ascii: "[") else {
      let found = JSONValueKind(firstByte: scanner.current)?.description ?? "no value"
      throw itemsNotFound(at: location, found: found)
    }
    scanner.position += 1
    return Container(isObject: isObject, location: location, depth: depth + 1)
  }

  /// Moves to the value of `step` in `container`, skipping what comes before it.
  private mutating func find(_ step: JSONPathQuery.Step, in container: inout Container) throws(InboxFormatError) {
    var index = 0
    while let memberName = try moveToNextMember(of: &container) {
      switch step {
      case .name(let name) where memberName == name: return
      case .index(let wanted) where !container.isObject && index == wanted: return
      default: break
      }
      try scanner.skipValue(depth: container.depth)
      index += 1
    }
    let found =
      switch step {
      case .name(let name): "no member \(quoted(name))"
      case .index(let index): "no element \(index)"
      case .wildcard: "nothing"
      }
    throw itemsNotFound(at: container.location, found: found)
  }

  /// Moves past a comma (or the opening) to the next element or member
  /// value, returning the member's name (`""` for an element); nil after
  /// the container's end, which is consumed.
  private mutating func moveToNextMember(of container: inout Container) throws(InboxFormatError) -> String? {
    scanner.skipWhitespace()
    let closing = container.isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")
    if container.isFirst {
      container.isFirst = false
      if scanner.current == closing {
        scanner.position += 1
        return nil
      }
    } else if try !scanner.moveToNextMember(closing: closing) {
      return nil
    }
    guard container.isObject else { return "" }
    guard scanner.current == UInt8(ascii: "\"") else {
      throw scanner.unexpected(expected: "a key (a string in double quotes)")
    }
    memberNameStart = scanner.position
    let key = try scanner.string(scanner.scanString())
    try scanner.consumeColon()
    return key
  }

  /// Reads what follows the items in each container around them, refusing
  /// a second member of the name that led to the items, then the end of
  /// the input.
  private mutating func close(_ enclosing: [Container]) throws(InboxFormatError) {
    for var container in enclosing {
      while let name = try moveToNextMember(of: &container) {
        if container.isObject, name == nextStepName(after: container) {
          // `mappedItems`, not the post's `unexpectedShape`, whose message expects an "items" array.
          throw .mappedItems(
            query: mapping.fields.items.text, path: container.location.appending(name).normalizedPath,
            found: "a second \(quoted(name)) key", location: scanner.location(at: memberNameStart))
        }
        try scanner.skipValue(depth: container.depth)
      }
    }
    scanner.skipWhitespace()
    guard scanner.isAtEnd else {
      throw scanner.syntaxError(
        "trailing data after the JSON document", expected: "the end of the input", at: scanner.position)
    }
  }

  /// The member name `items` follows out of `container`.
  private func nextStepName(after container: Container) -> String? {
    guard let steps = mapping.fields.items.query.simpleSteps, container.location.elements.count < steps.count,
      case .name(let name) = steps[container.location.elements.count]
    else { return nil }
    return name
  }

  // MARK: Items

  /// The next line of NDJSON: its item, where it starts and its index;
  /// nil at the end of the input, or for a broken line, with
  /// ``itemProblem`` set.
  private mutating func nextLine() throws(InboxFormatError) -> (MappedItem, Int, Int)? {
    scanner.skipWhitespace()
    guard !scanner.isAtEnd else { return nil }
    let start = scanner.position
    let index = nextIndex
    nextIndex += 1
    do throws(InboxFormatError) {
      try scanner.skipValue(depth: 0)
      if let lineFeed = scanner.lineFeed(from: start), lineFeed < scanner.position {
        throw scanner.syntaxError(
          "unexpected end of line", expected: "the rest of the item on the same line (NDJSON holds one item per line)",
          at: lineFeed)
      }
      scanner.skipWhitespaceOnLine()
      guard scanner.isAtEnd || scanner.current == UInt8(ascii: "\n") else {
        throw scanner.unexpected(expected: "a line break after the item")
      }
    } catch {
      guard case .syntax(let reason, let expected, let location) = error else { throw error }
      scanner.moveToNextLine(from: start)
      itemProblem = .brokenLine(index: index, reason: reason, expected: expected, location: location)
      return nil
    }
    return (.bytes(scanner.bytes, range: start..<scanner.position), start, index)
  }

  private mutating func itemsNotFound(at location: JSONPathLocation, found: String) -> InboxFormatError {
    .mappedItems(
      query: mapping.fields.items.text, path: location.normalizedPath, found: found,
      location: scanner.location(at: scanner.position))
  }
}

extension InboxFormatError {
  /// The error with its item's path and location taken from `reference`,
  /// its id kept.
  fileprivate func locating(_ reference: ItemReference) -> InboxFormatError {
    guard case .mappedField(let item, let field, let sources, let problem, let expected) = self else { return self }
    var located = reference
    located.id = item.id
    return .mappedField(item: located, field: field, sources: sources, problem: problem, expected: expected)
  }
}

extension JSONPathQuery.Step {
  fileprivate func appended(to location: JSONPathLocation) -> JSONPathLocation {
    switch self {
    case .name(let name): location.appending(name)
    case .index(let index): location.appending(index)
    case .wildcard: location
    }
  }
}

/// A reader of messages, one at a time: the post's (``InboxReader``) or a
/// mapping's (``MappedReader``).
protocol MessageReading {
  /// The next message, or nil at the end; after a problem with one item
  /// (``hasFailed`` false) the next call goes on with the next item.
  mutating func next() throws(InboxFormatError) -> MessageAPIModel?
  /// Whether a fatal error has ended reading.
  var hasFailed: Bool { get }
}

extension InboxReader: MessageReading {}
extension MappedReader: MessageReading {}
extension MappedReader: StretchReader {}
