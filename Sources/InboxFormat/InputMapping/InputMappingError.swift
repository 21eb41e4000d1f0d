import InboxFormatSupport

/// What can be wrong with a mapping's document (``InputMapping``).
///
/// Each case names the key it is about, as a path into the document
/// (`date`, `name[1]`, `date[0].encoding`), and ``description`` renders one
/// line, for example:
///
/// ```
/// name[1]: invalid query "$.members[?@.user_id != viewer(]": position 32: too many arguments: "viewer" takes 0
/// ```
public enum InputMappingError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The document is not JSON: the syntax error, as the payload reader
  /// reports it, with its location.
  case invalidJSON(InboxFormatError)

  /// The document is JSON but not an object.
  case notAnObject(found: String)

  /// A key the mapping format does not have, with the ones it has.
  case unknownKey(key: String, known: [String])

  /// A key every mapping needs (`items`, `id`, `date`) is missing.
  case missingKey(key: String)

  /// A value of the wrong kind, or an option's value that is not one of its
  /// choices: what was found and what was expected.
  case invalidValue(key: String, found: String, expected: String)

  /// A query that is not RFC 9535 JSONPath, or that the field cannot use:
  /// the query, the 1-based position (in Unicode scalars) where it fails,
  /// and why.
  case invalidQuery(key: String, query: String, position: Int, reason: String)

  /// The key the problem is about, as a path into the document; empty for
  /// the document itself.
  public var key: String {
    switch self {
    case .invalidJSON, .notAnObject: ""
    case .unknownKey(let key, _), .missingKey(let key), .invalidValue(let key, _, _),
      .invalidQuery(let key, _, _, _):
      key
    }
  }

  public var description: String {
    switch self {
    case .invalidJSON(let error):
      return "not a mapping: \(error)"
    case .notAnObject(let found):
      return "found \(found); expected a mapping: a JSON object with \"items\", \"id\" and \"date\""
    case .unknownKey(let key, let known):
      return "\(key): unknown key; expected one of \(known.joined(separator: ", "))"
    case .missingKey(let key):
      return "\(key): missing; every mapping needs \"items\", \"id\" and \"date\""
    case .invalidValue(let key, let found, let expected):
      return "\(key): found \(found); expected \(expected)"
    case .invalidQuery(let key, let query, let position, let reason):
      return "\(key): invalid query \(quoted(query, limit: 120)): position \(position): \(reason)"
    }
  }
}
