import Foundation
import Testing

@testable import InboxFormat

/// ``ByteQuery`` against the rule it accelerates, ``JSONPathQuery/select(from:environment:)``
/// on a tree: the same values in the same order, over random documents and
/// random queries of its subset, and over the built-in mappings' queries.
@Suite struct ByteQueryTests {
  /// The values `query` selects from `json`, by the rule and by the byte walker.
  func bothSelections(_ query: JSONPathQuery, _ json: [UInt8], viewer: JSONValue?)
    throws -> (rule: [JSONValue], bytes: [JSONValue])
  {
    let byteQuery = try #require(ByteQuery(query), "\(query.text) is of the byte walker's subset")
    let tree = try JSONValue.read(from: json)
    let rule = query.select(from: tree, environment: JSONPathEnvironment(viewer: viewer)).map(\.value)
    let bytes = try json.withUnsafeBufferPointer { buffer in
      var scanner = JSONScanner(bytes: buffer)
      scanner.skipWhitespace()
      var starts: [Int] = []
      var walker = ValueWalker(bytes: buffer)
      byteQuery.select(with: &walker, at: scanner.position, viewer: viewer, into: &starts)
      var values: [JSONValue] = []
      for start in starts {
        let read = walker.value(at: start)
        let value = try #require(read)
        // The byte walker's emptiness is the tree's (``JSONValue/isEmpty``).
        let isEmpty = walker.isEmptyValue(at: start)
        #expect(isEmpty == value.isEmpty, "\(value)")
        values.append(value)
      }
      return values
    }
    return (rule, bytes)
  }

  @Test func theQueriesOfMappingsAreOfTheSubset() throws {
    for text in [
      "$.channel_url", "$.members[?@.user_id != viewer()].nickname", "$.messages[-1].text",
      "$.read[?@.user.id == viewer()].unread_messages", "$.timeline[?@.type == 'm.room.message'].content.body",
      "$.rooms.*", "$[*]", "$.a[0].b", "$.a[?@.b]", "$.a[?'x' == @.b]",
    ] {
      #expect(ByteQuery(try JSONPathQuery(text, functions: MappingFields.functions)) != nil, "\(text)")
    }
    for text in [
      "$..a", "$.a[1:2]", "$.a[?@.b < 1]", "$.a[?@.b == $.c]", "$.a['b','c']", "$.a[?length(@.b) == 1]",
      "$.a[?@.b == 1 && @.c]", "$.a[?@[0] == 1]",
    ] {
      #expect(ByteQuery(try JSONPathQuery(text, functions: MappingFields.functions)) == nil, "\(text)")
    }
  }

  @Test func builtInQueriesSelectTheSameOnEveryBackendsItems() throws {
    let backends = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Data/golden/inputs/backends")
    for mapping in InputMapping.builtIns where mapping.name != "post" {
      let payload = try JSONValue.read(
        from: [UInt8](Data(contentsOf: backends.appendingPathComponent("\(mapping.name).json"))))
      let items = mapping.fields.items.query.select(from: payload).map(\.value)
      #expect(!items.isEmpty)
      let fields = mapping.fields
      var sources = fields.id + fields.phone + fields.message + fields.date + fields.unread
      switch fields.names {
      case .pair(let first, let last): sources += first + last
      case .display(let names): sources += names
      }
      for item in items {
        let json = Array(item.jsonText.utf8)
        for source in sources {
          guard case .query(let query) = source.origin, ByteQuery(query.query) != nil else { continue }
          for viewer: JSONValue? in [nil, .string("me"), .string("@me:example.org")] {
            let (rule, bytes) = try bothSelections(query.query, json, viewer: viewer)
            #expect(bytes == rule, "\(mapping.name): \(query.text) on \(item.jsonText)")
          }
        }
      }
    }
  }

  @Test func randomQueriesOnRandomDocuments() throws {
    var random = SplitMix(seed: 0x1B0A_F0E2)
    var selecting = 0
    for round in 0..<3000 {
      let document = randomValue(&random, depth: 0)
      let json = Array(document.text.utf8)
      let text = randomQuery(&random)
      let query = try JSONPathQuery(text, functions: MappingFields.functions)
      let viewer: JSONValue? = [nil, .string("a"), .string("b")][Int(random.next() % 3)]
      let (rule, bytes) = try bothSelections(query, json, viewer: viewer)
      #expect(bytes == rule, "round \(round): \(text) on \(document.text)")
      if !rule.isEmpty { selecting += 1 }
    }
    // Enough rounds select something for the comparison to mean something.
    #expect(selecting > 300, "only \(selecting) of 3000 queries select a node")
  }

  // MARK: Random documents and queries

  /// A document as text, written by hand so that it can repeat keys and escape them.
  struct Document {
    var text: String
  }

  private static let keys = ["a", "b", "c", "user_id", "ü", "a\\u0062"]

  func randomValue(_ random: inout SplitMix, depth: Int) -> Document {
    // The root is a container, so that queries have something to select.
    let choice = depth == 0 ? 6 + random.next() % 3 : random.next() % (depth > 3 ? 6 : 9)
    switch choice {
    case 0: return Document(text: "null")
    case 1: return Document(text: random.next() % 2 == 0 ? "true" : "false")
    case 2: return Document(text: ["0", "1", "-1", "1.0", "1e0", "2", "10"][Int(random.next() % 7)])
    case 3, 4:
      return Document(text: ["\"a\"", "\"b\"", "\"\"", "\"\\u0061\"", "\"me\"", "\"é\""][Int(random.next() % 6)])
    case 5: return Document(text: ["[]", "{}"][Int(random.next() % 2)])
    case 6, 7:
      let count = Int(random.next() % 5)
      let members = (0..<count).map { _ in
        "\"\(Self.keys[Int(random.next() % UInt64(Self.keys.count))])\": \(randomValue(&random, depth: depth + 1).text)"
      }
      return Document(text: "{" + members.joined(separator: ", ") + "}")
    default:
      let count = Int(random.next() % 4)
      let elements = (0..<count).map { _ in randomValue(&random, depth: depth + 1).text }
      return Document(text: "[ " + elements.joined(separator: ",") + " ]")
    }
  }

  func randomQuery(_ random: inout SplitMix) -> String {
    let names = ["a", "b", "c", "user_id", "ü"]
    var query = "$"
    for _ in 0..<Int(1 + random.next() % 2) {
      switch random.next() % 5 {
      case 0: query += ".\(names[Int(random.next() % 3)])"
      case 1: query += "[\(Int(random.next() % 5) - 2)]"
      case 2: query += "[*]"
      case 3:
        let path = (0..<Int(1 + random.next() % 2)).map { _ in ".\(names[Int(random.next() % 3)])" }.joined()
        let operand = ["viewer()", "'a'", "1", "null", "true", "\"\""][Int(random.next() % 6)]
        let comparison = random.next() % 2 == 0 ? "==" : "!="
        query +=
          random.next() % 2 == 0 ? "[?@\(path) \(comparison) \(operand)]" : "[?\(operand) \(comparison) @\(path)]"
      default:
        query += "[?@.\(names[Int(random.next() % 3)])]"
      }
    }
    return query
  }
}
