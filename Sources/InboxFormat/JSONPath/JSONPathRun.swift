/// A JSONPath query (RFC 9535) as a mapping's queries are read, tried on a
/// whole JSON document: what `inbox-format query` does, without its I/O. The
/// query is parsed once, then run on a document's bytes, the result written
/// as JSON text.
public struct JSONPathRun: Sendable {
  private let query: JSONPathQuery
  private let environment: JSONPathEnvironment

  /// Parses `query`, with RFC 9535's functions and `viewer()`, which
  /// returns `viewer` as a string (Nothing when nil).
  public init(query: String, viewer: String?) throws(JSONPathError) {
    self.query = try JSONPathQuery(query, functions: .standard.adding(.viewer))
    self.environment = JSONPathEnvironment(viewer: viewer.map { .string($0) })
  }

  /// The selected nodes of the JSON text in `bytes` as one compact JSON
  /// array and a line feed: their values, or with `paths` their
  /// normalized paths. Throws when `bytes` is not one JSON value.
  public func output(for bytes: UnsafeBufferPointer<UInt8>, paths: Bool) throws(InboxFormatError) -> [UInt8] {
    let document = try JSONValue.read(from: bytes)
    let nodes = query.select(from: document, environment: environment)
    return ByteWriter.bytes(capacity: 256) { output in
      output.append(UInt8(ascii: "["))
      for (index, node) in nodes.enumerated() {
        if index > 0 { output.append(UInt8(ascii: ",")) }
        if paths {
          appendString(node.normalizedPath, to: &output)
        } else {
          node.value.write(to: &output)
        }
      }
      output.append("]\n")
    }
  }
}
