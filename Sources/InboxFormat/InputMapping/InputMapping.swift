import Foundation

/// Where a backend's payload keeps its messages, and where each field of a
/// message comes from: RFC 9535 JSONPath queries, read once from a JSON
/// document and followed for every item.
///
/// ```json
/// {
///   "items": "$.channels[*]",
///   "id": "$.channel_url",
///   "name": ["$.name", "$.members[?@.user_id != viewer()].nickname"],
///   "message": {"path": "$.last_message.message", "markup": "text"},
///   "date": {"path": "$.last_message.created_at", "encoding": "unix-ms"},
///   "unread": {"path": "$.unread_message_count", "kind": "count"}
/// }
/// ```
///
/// `items` runs from the document's root; every other query runs with the
/// item as its root. A field takes one source or a list of them, and the
/// first that selects a non-empty value wins. The built-in mappings
/// (``builtIns``) read the post's payload (``post``, the default) and the
/// answers of common messaging backends.
///
/// ```swift
/// let mapping = InputMapping.builtIn(named: "sendbird")!.viewer("me")
/// let formatter = InboxFormatter(context: context, mapping: mapping)
/// ```
public struct InputMapping: Sendable, Hashable, CustomStringConvertible {
  /// The built-in's name (`sendbird`), or the name the mapping was read under.
  public let name: String
  /// The mapping's JSON document, as it was read.
  public let document: String
  /// What the mapping reads, from its document's `description`.
  public var summary: String? { fields.description }
  /// The viewer's id, which the `viewer()` function of the queries returns;
  /// nil when none is set (`viewer()` then selects nothing).
  public private(set) var viewer: String?

  /// The queries and options, read from ``document``.
  var fields: MappingFields { readFields ?? .post }
  /// The fields read from the document; nil for ``post``, whose fields
  /// are read only when asked: its reader follows the bytes, not the
  /// queries, so a run with the default mapping reads no mapping document.
  private let readFields: MappingFields?
  /// Whether this is the post's mapping (``post``, or a document with its
  /// fields), which is read straight from the input's bytes without a tree,
  /// and with which ``InboxFormatter`` streams NDJSON in bounded memory.
  public let isPost: Bool

  /// Reads a mapping from its JSON document.
  ///
  /// - Parameters:
  ///   - json: The mapping's JSON text (UTF-8).
  ///   - name: What to call the mapping, e.g. its file's name.
  /// - Throws: ``InputMappingError``, naming the key (and, for a query, the
  ///   position in it) that is wrong.
  public init(json: [UInt8], name: String) throws(InputMappingError) {
    self.init(name: name, document: String(decoding: json, as: UTF8.self), fields: try MappingFields(json: json))
  }

  /// A mapping of fields already read from `document`.
  init(name: String, document: String, fields: MappingFields) {
    self.name = name
    self.document = document
    readFields = fields
    isPost = fields == MappingFields.post
  }

  /// The post's mapping, its fields (``MappingFields/post``) read when first asked.
  init(postNamed name: String, document: String) {
    self.name = name
    self.document = document
    readFields = nil
    isPost = true
  }

  /// A copy whose queries see `viewer` as the viewer's id.
  public func viewer(_ viewer: String?) -> InputMapping {
    var copy = self
    copy.viewer = viewer
    return copy
  }

  /// The name.
  public var description: String { name }

  /// Mappings are the same when they come from the same document under the
  /// same name, for the same viewer.
  public static func == (lhs: InputMapping, rhs: InputMapping) -> Bool {
    lhs.name == rhs.name && lhs.document == rhs.document && lhs.viewer == rhs.viewer
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(name)
    hasher.combine(document)
    hasher.combine(viewer)
  }

  /// What the queries' `viewer()` returns.
  var environment: JSONPathEnvironment {
    JSONPathEnvironment(viewer: viewer.map { .string($0) })
  }
}
