import Foundation
import Testing

@testable import InboxFormat

/// ``ItemPlan`` and ``MessagePlan`` against the rules they accelerate: each
/// slot's node is the first (or last) non-empty node its query selects by
/// ``JSONPathQuery/select(from:environment:)``, and each message is the one
/// ``InputMapping/message(of:memberName:reference:)`` makes of a tree, over
/// random documents, queries and mappings. Giving an item up is always
/// allowed (the rule then reads it); enough items must be read for the
/// comparison to mean something.
@Suite struct ItemPlanTests {
  /// The value at `start` of `bytes`, read into a tree.
  func value(at start: Int, in bytes: UnsafeBufferPointer<UInt8>) throws -> JSONValue {
    var scanner = JSONScanner(bytes: bytes, origin: InputLocation(line: 1, column: 1, byteOffset: 0))
    scanner.position = start
    try scanner.skipValue(depth: 0)
    return try JSONValue.read(from: bytes, at: start..<scanner.position)
  }

  @Test func slotsHoldTheRulesFirstAndLastNonEmptyNodes() throws {
    var random = SplitMix(seed: 0x17E4_9A11)
    let documents = ByteQueryTests()
    var read = 0
    var selecting = 0
    for round in 0..<3000 {
      let document = documents.randomValue(&random, depth: 0)
      let json = Array(document.text.utf8)
      let tree = try JSONValue.read(from: json)
      let queries = try (0..<Int(1 + random.next() % 4)).map { _ in
        try JSONPathQuery(documents.randomQuery(&random), functions: MappingFields.functions)
      }
      let picksLast = queries.map { _ in random.next() % 2 == 0 }
      let viewer: JSONValue? = [nil, .string("a"), .string("b")][Int(random.next() % 3)]
      let planned = try zip(queries, picksLast).map { query, last -> (query: ByteQuery, picksLast: Bool) in
        (try #require(ByteQuery(query)), last)
      }
      let plan = try #require(ItemPlan(planned))
      try json.withUnsafeBufferPointer { bytes in
        var reader = ItemPlanReader(plan: plan, bytes: bytes, viewer: viewer)
        guard reader.read(at: 0, depth: 0) else { return }
        read += 1
        #expect(reader.scanner.position == bytes.count, "round \(round): the reader stops after the item")
        for (slot, query) in queries.enumerated() {
          let nodes = query.select(from: tree, environment: JSONPathEnvironment(viewer: viewer)).filter {
            !$0.value.isEmpty
          }
          let expected = picksLast[slot] ? nodes.last?.value : nodes.first?.value
          let found = reader.found[slot]
          let actual = found < 0 ? nil : try value(at: found, in: bytes)
          #expect(actual == expected, "round \(round): \(query.text) on \(document.text)")
          if expected != nil { selecting += 1 }
        }
      }
    }
    // Given up: repeated keys the plan follows, and wildcards or filters
    // over objects, which these documents are full of.
    #expect(read > 1000, "only \(read) of 3000 documents were read along the plan")
    #expect(selecting > 200, "only \(selecting) slots selected a node")
  }

  @Test func invalidJSONIsGivenUp() throws {
    let query = try #require(ByteQuery(try JSONPathQuery("$.a.b")))
    // A filter reads elements it passes over: they are checked all the same.
    let filtered = try #require(ByteQuery(try JSONPathQuery("$.a[?@.b == 2].c", functions: MappingFields.functions)))
    let plan = try #require(ItemPlan([(query, false), (filtered, false)]))
    for text in [
      #"{"a": {"b": 1,}}"#, #"{"a": {"b": tru}}"#, #"{"a" {"b": 1}}"#, #"{"a": [1 2]}"#, #"{"c": "\x"}"#,
      #"{"a": {"b": "1"}"#, "[" + String(repeating: "[", count: 600) + String(repeating: "]", count: 601),
    ]
      + [#"{"a": [{"b": 1, "c": tru}]}"#, #"{"a": [{"b": 1, "c": [1,]}]}"#, #"{"a": [{"b": 1} {"b": 2}]}"#]
    {
      let json = Array(text.utf8)
      json.withUnsafeBufferPointer { bytes in
        var reader = ItemPlanReader(plan: plan, bytes: bytes, viewer: nil)
        let isRead = reader.read(at: 0, depth: 0)
        #expect(!isRead, "\(text)")
      }
    }
  }

  @Test func aRepeatedFollowedNameIsGivenUpAndOthersAreNot() throws {
    let query = try #require(ByteQuery(try JSONPathQuery("$.a")))
    let plan = try #require(ItemPlan([(query, false)]))
    for (text, isRead) in [
      (#"{"a": 1, "a": 2}"#, false), (#"{"b": 1, "b": 2, "a": 3}"#, true), (#"{"a\u0062": 1, "ab": 2, "a": 3}"#, true),
    ] {
      let json = Array(text.utf8)
      json.withUnsafeBufferPointer { bytes in
        var reader = ItemPlanReader(plan: plan, bytes: bytes, viewer: nil)
        let wasRead = reader.read(at: 0, depth: 0)
        #expect(wasRead == isRead, "\(text)")
      }
    }
  }

  // MARK: Messages

  /// Mappings over the random items below: every encoding, kind, markup and
  /// pick, display names and pairs, member names and fallbacks.
  static let mappings: [String] = [
    #"{"items": "$[*]", "id": "$.id", "name": ["$.name", "$.people[?@.id != viewer()].name"], "phone": "$.phone", "message": "$.text", "date": "$.at", "unread": "$.unread"}"#,
    #"{"items": "$[*]", "id": ["$.missing", "$.id"], "firstname": "$.first", "lastname": {"path": "$.people[*].name", "pick": "last"}, "message": {"path": "$.text", "markup": "html"}, "date": {"path": "$.ms", "encoding": "unix-ms"}, "unread": {"path": "$.flag", "kind": "flag"}}"#,
    #"{"items": "$[*]", "id": "$.id", "name": "$.people[-1].name", "message": "$.text", "date": [{"path": "$.s", "encoding": "unix-s"}, "$.at"], "unread": {"path": "$.flag", "kind": "read-flag"}}"#,
    #"{"items": "$.*", "id": {"member-name": true}, "name": {"member-name": true}, "message": "$.people[?@.id == 'a'].name", "date": "$.at", "unread": "$.people[0].unread"}"#,
  ]

  static let texts = [
    #""Ann Lee""#, #""""#, #""a\"b\\c""#, #""\u00e9t\u00e9""#, #""<p>Hi&amp;<br>there</p>""#, "null",
    "1", "true", #""山田 太郎""#, #""Émile Zola""#, "[]", #""x\ny""#,
  ]
  static let dates = [
    #""2022-01-31T08:45:33Z""#, #""2022-01-31T08:45:33.5+01:00""#, #""2022-02-30T00:00:00Z""#,
    "1643618733", "1643618733000", #""1643618733.000200""#, "-5", "1e3", "null", #""soon""#, "true", "1.5e400",
  ]
  static let numbers = ["0", "3", "-1", "1.0", "1e2", "true", "false", "null", #""4""#, "99999999999999999999"]
  static let ids = [#""c1""#, #""""#, "7", "-7", "1.5", "null", "true", #""\u0063""#, "{}", "12345678901234567890"]

  func randomItem(_ random: inout SplitMix) -> String {
    func pick(_ values: [String]) -> String { values[Int(random.next() % UInt64(values.count))] }
    var members: [String] = []
    func maybe(_ key: String, _ value: @autoclosure () -> String) {
      if random.next() % 5 != 0 { members.append("\"\(key)\": \(value())") }
    }
    maybe("id", pick(Self.ids))
    maybe("name", pick(Self.texts))
    maybe("first", pick(Self.texts))
    maybe("phone", pick(Self.texts))
    maybe("text", pick(Self.texts))
    maybe("at", pick(Self.dates))
    maybe("ms", pick(Self.dates))
    maybe("s", pick(Self.dates))
    maybe("unread", pick(Self.numbers))
    maybe("flag", pick(Self.numbers))
    let people = (0..<Int(random.next() % 4)).map { _ in
      "{\"id\": \(pick([#""a""#, #""me""#, "1", "null"])), \"name\": \(pick(Self.texts)), \"unread\": \(pick(Self.numbers))}"
    }
    maybe("people", "[" + people.joined(separator: ", ") + "]")
    if random.next() % 8 == 0, let first = members.first { members.append(first) }
    return "{" + members.joined(separator: ", ") + "}"
  }

  @Test func messagesAreTheRulesMessages() throws {
    var random = SplitMix(seed: 0x3E55_A6E5)
    var planned = 0
    var accepted = 0
    for text in Self.mappings {
      let mapping = try InputMapping(json: Array(text.utf8), name: "test").viewer("me")
      let plan = try #require(mapping.fields.plan, "\(text)")
      for round in 0..<1500 {
        let item = randomItem(&random)
        let memberName: String? = random.next() % 3 == 0 ? nil : ["", "room1", "Jo Ann"][Int(random.next() % 3)]
        let json = Array(item.utf8)
        let reference = ItemReference(
          path: "", index: 0, id: nil, location: InputLocation(line: 1, column: 1, byteOffset: 0))
        let rule = Result { () throws(InboxFormatError) in
          try mapping.message(of: .tree(try JSONValue.read(from: json)), memberName: memberName, reference: reference)
        }
        if (try? rule.get()) != nil { accepted += 1 }
        try json.withUnsafeBufferPointer { bytes in
          var reader = ItemPlanReader(plan: plan.items, bytes: bytes, viewer: .string("me"))
          var messages = PendingMessages()
          guard reader.read(at: 0, depth: 0), reader.appendMessage(plan, memberName: memberName, to: &messages),
            messages.count == 1
          else { return }
          planned += 1
          let message = messages.message(at: 0, in: bytes)
          let expected = try #require(try? rule.get(), "round \(round): the rule refuses what the plan reads: \(item)")
          #expect(message == expected, "round \(round), member \(memberName ?? "none"): \(item) under \(text)")
        }
      }
    }
    // Given up beside what the rule refuses: items that repeat a key the plan follows.
    #expect(
      accepted > 150 && planned > accepted * 3 / 4,
      "\(planned) of the \(accepted) items the rule reads were read along the plan")
  }
}

/// An element a filter selects, walked from what the filter recorded while
/// testing it (``ItemPlanReader/readsFilteredElementsOnce``), against the
/// plain walk that reads it again: over random arrays of objects that
/// repeat names, spell them with escapes, nest filters and hold invalid
/// JSON, the two give up on the same items and fill the same slots, and
/// the slots are the rule's.
@Suite struct FilteredElementTests {
  static let queries = [
    "$.m[?@.k == 'a'].n", "$.m[?@.k != viewer()].n", "$.m[?@.k != viewer()].o", "$.m[?@.k].n.x",
    "$.m[?@.k == 'a'].n[?@.k == 'b'].n", "$.m[?@.k.x == 1].n", "$.m[?@.k != viewer()]", "$.m[0].n",
    "$.m[*].o", "$.m[-1].n",
  ]
  static let keys = [#""k""#, #""n""#, #""o""#, #""p""#, #""\u006e""#, #""k""#]
  static let values = [
    #""a""#, #""b""#, #""me""#, #""""#, "1", "null", "{}", "[]", #"{"x": 1}"#, #"{"x": "a", "x": 2}"#,
    #"[{"k": "b", "n": 3}]"#, #"{"k": "a"}"#, "tru", "[1,]", #""\x""#, #""é""#,
  ]

  func randomDocument(_ random: inout SplitMix) -> String {
    func pick(_ values: [String]) -> String { values[random.next(below: values.count)] }
    let elements = (0..<random.next(below: 5)).map { _ -> String in
      guard random.next(below: 8) != 0 else { return pick(Self.values) }
      let members = (0..<random.next(below: 5)).map { _ -> String in
        // Mostly valid: one value in eight from the whole list, invalid ones included.
        let value = random.next(below: 8) == 0 ? pick(Self.values) : pick(Array(Self.values.prefix(12)))
        return "\(pick(Self.keys)): \(value)"
      }
      return "{" + members.joined(separator: ", ") + "}"
    }
    return #"{"m": ["# + elements.joined(separator: ", ") + "]}"
  }

  @Test func recordedElementsAreWalkedAsThePlainWalkWalksThem() throws {
    var random = SplitMix(seed: 0xF117_E2ED)
    var read = 0
    var selecting = 0
    for round in 0..<6000 {
      let text = randomDocument(&random)
      let json = Array(text.utf8)
      let queries = try (0..<(1 + random.next(below: 3))).map { _ in
        try JSONPathQuery(Self.queries[random.next(below: Self.queries.count)], functions: MappingFields.functions)
      }
      let picksLast = queries.map { _ in random.next() % 2 == 0 }
      let viewer: JSONValue? = [nil, .string("a"), .string("me")][random.next(below: 3)]
      var planned: [(query: ByteQuery, picksLast: Bool)] = []
      for (query, last) in zip(queries, picksLast) { planned.append((try #require(ByteQuery(query)), last)) }
      let plan = try #require(ItemPlan(planned))
      try json.withUnsafeBufferPointer { bytes in
        var once = ItemPlanReader(plan: plan, bytes: bytes, viewer: viewer)
        var plain = ItemPlanReader(plan: plan, bytes: bytes, viewer: viewer)
        plain.readsFilteredElementsOnce = false
        let onceRead = once.read(at: 0, depth: 0)
        let plainRead = plain.read(at: 0, depth: 0)
        #expect(onceRead == plainRead, "round \(round): \(text)")
        guard onceRead, plainRead else { return }
        read += 1
        #expect(once.found == plain.found, "round \(round): \(queries.map(\.text)) on \(text)")
        #expect(once.scanner.position == plain.scanner.position)
        let tree = try JSONValue.read(from: json)
        for (slot, query) in queries.enumerated() {
          let nodes = query.select(from: tree, environment: JSONPathEnvironment(viewer: viewer)).filter {
            !$0.value.isEmpty
          }
          let expected = picksLast[slot] ? nodes.last?.value : nodes.first?.value
          let actual = once.found[slot] < 0 ? nil : try ItemPlanTests().value(at: once.found[slot], in: bytes)
          #expect(actual == expected, "round \(round): \(query.text) on \(text)")
          if expected != nil { selecting += 1 }
        }
      }
    }
    #expect(read > 1500, "only \(read) of 6000 documents were read along the plan")
    #expect(selecting > 1000, "only \(selecting) slots selected a node")
  }
}
