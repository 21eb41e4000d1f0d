import Testing

@testable import InboxFormat

/// Helpers for the JSONPath tests: documents from JSON text, results as
/// compact JSON text, so that expectations read as the RFC's tables do.
enum JSONPathTesting {
  /// The document in `json`; the test fails when it is not JSON.
  static func document(_ json: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> JSONValue {
    do {
      return try JSONValue.read(from: Array(json.utf8))
    } catch {
      Issue.record("not JSON: \(error)", sourceLocation: sourceLocation)
      throw error
    }
  }

  /// The values `query` selects from `json`, each as compact JSON text.
  static func values(
    _ query: String, in json: String, functions: JSONPathFunctions = .standard,
    environment: JSONPathEnvironment = .init(), sourceLocation: SourceLocation = #_sourceLocation
  ) throws -> [String] {
    let parsed = try JSONPathQuery(query, functions: functions)
    return parsed.select(from: try document(json, sourceLocation: sourceLocation), environment: environment)
      .map(\.value.jsonText)
  }

  /// The normalized paths of the nodes `query` selects from `json`.
  static func paths(_ query: String, in json: String, sourceLocation: SourceLocation = #_sourceLocation) throws
    -> [String]
  {
    try JSONPathQuery(query).select(from: try document(json, sourceLocation: sourceLocation)).map(\.normalizedPath)
  }

  /// The error parsing `query` reports; the test fails when it parses.
  static func error(
    _ query: String, functions: JSONPathFunctions = .standard, sourceLocation: SourceLocation = #_sourceLocation
  ) -> JSONPathError? {
    do {
      let parsed = try JSONPathQuery(query, functions: functions)
      Issue.record("parsed as \(parsed.segments)", sourceLocation: sourceLocation)
      return nil
    } catch {
      return error
    }
  }

  /// RFC 9535 §1.5's example document: a bookstore.
  static let bookstore = """
    { "store": {
        "book": [
          { "category": "reference", "author": "Nigel Rees", "title": "Sayings of the Century", "price": 8.95 },
          { "category": "fiction", "author": "Evelyn Waugh", "title": "Sword of Honour", "price": 12.99 },
          { "category": "fiction", "author": "Herman Melville", "title": "Moby Dick", "isbn": "0-553-21311-3",
            "price": 8.99 },
          { "category": "fiction", "author": "J. R. R. Tolkien", "title": "The Lord of the Rings",
            "isbn": "0-395-19395-8", "price": 22.99 }
        ],
        "bicycle": { "color": "red", "price": 399 }
      }
    }
    """
}
