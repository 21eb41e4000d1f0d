/// The types of JSONPath's function extensions (RFC 9535 §2.4.1).
enum JSONPathType: Sendable, Hashable, CustomStringConvertible {
  /// A JSON value, or Nothing.
  case value
  /// True or false, which is not a JSON value.
  case logical
  /// A list of nodes.
  case nodes

  var description: String {
    switch self {
    case .value: "ValueType"
    case .logical: "LogicalType"
    case .nodes: "NodesType"
    }
  }
}

/// An argument or a result of a function extension: an instance of a ``JSONPathType``.
enum JSONPathFunctionValue: Sendable, Hashable {
  /// A JSON value, or nil for Nothing.
  case value(JSONValue?)
  case logical(Bool)
  case nodes([JSONPathNode])
}

/// What a query is evaluated with besides its document: what the
/// caller's function extensions read.
struct JSONPathEnvironment: Sendable, Hashable {
  /// What `viewer()` returns: the id of the person looking at the inbox,
  /// or nil when there is none (`viewer()` is then Nothing).
  var viewer: JSONValue?

  init(viewer: JSONValue? = nil) {
    self.viewer = viewer
  }
}

/// A function extension: its name, its declared types, and what it does.
///
/// Queries are type-checked against the declared types when they are
/// parsed (RFC 9535 §2.4.3), so the implementation receives arguments of
/// the declared types, in order; a result of another type than declared
/// counts as Nothing (or false, or no nodes).
struct JSONPathFunction: Sendable, Hashable {
  typealias Implementation =
    @Sendable (_ arguments: [JSONPathFunctionValue], _ environment: JSONPathEnvironment) -> JSONPathFunctionValue

  /// The name in queries: a lower-case letter, then lower-case letters, digits and `_`.
  let name: String
  let parameters: [JSONPathType]
  let result: JSONPathType
  let implementation: Implementation

  init(name: String, parameters: [JSONPathType], result: JSONPathType, implementation: @escaping Implementation) {
    precondition(Self.isValidName(name), "not a JSONPath function name: \(name)")
    self.name = name
    self.parameters = parameters
    self.result = result
    self.implementation = implementation
  }

  /// `function-name = function-name-first *function-name-char` (lower-case ASCII letters, digits, `_`).
  static func isValidName(_ name: String) -> Bool {
    guard let first = name.unicodeScalars.first, ("a"..."z").contains(first) else { return false }
    return name.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "_" }
  }

  /// Two functions are the same when their names and types are: the implementation cannot be compared.
  static func == (lhs: JSONPathFunction, rhs: JSONPathFunction) -> Bool {
    lhs.name == rhs.name && lhs.parameters == rhs.parameters && lhs.result == rhs.result
  }

  func hash(into hasher: inout Hasher) {
    hasher.combine(name)
  }
}

/// The function extensions a query may call, by name.
///
/// ```swift
/// let functions = JSONPathFunctions.standard.adding(.viewer)
/// let query = try JSONPathQuery("$.items[?@.author == viewer()]", functions: functions)
/// ```
struct JSONPathFunctions: Sendable, Hashable {
  private var table: [String: JSONPathFunction] = [:]

  /// No functions at all.
  static let none = JSONPathFunctions()

  /// RFC 9535's five: `length`, `count`, `match`, `search` and `value`.
  static let standard = JSONPathFunctions().adding(.length).adding(.count).adding(.match).adding(.search)
    .adding(.value)

  /// These functions and `function`, which replaces one of the same name.
  func adding(_ function: JSONPathFunction) -> JSONPathFunctions {
    var copy = self
    copy.table[function.name] = function
    return copy
  }

  /// The function called `name`, if registered.
  subscript(name: String) -> JSONPathFunction? { table[name] }
}

extension JSONPathFunction {
  /// `length(ValueType) -> ValueType`: the number of Unicode scalars of a
  /// string, elements of an array or members of an object; else Nothing.
  static let length = JSONPathFunction(name: "length", parameters: [.value], result: .value) { arguments, _ in
    guard case .value(let value)? = arguments.first else { return .value(nil) }
    switch value {
    case .string(let text)?: return .value(.number(JSONNumber(text.unicodeScalars.count)))
    case .array(let elements)?: return .value(.number(JSONNumber(elements.count)))
    case .object(let object)?: return .value(.number(JSONNumber(object.count)))
    default: return .value(nil)
    }
  }

  /// `count(NodesType) -> ValueType`: the number of nodes.
  static let count = JSONPathFunction(name: "count", parameters: [.nodes], result: .value) { arguments, _ in
    guard case .nodes(let nodes)? = arguments.first else { return .value(nil) }
    return .value(.number(JSONNumber(nodes.count)))
  }

  /// `match(ValueType, ValueType) -> LogicalType`: whether the whole string
  /// matches the I-Regexp; false for a non-string or an invalid pattern.
  static let match = JSONPathFunction(name: "match", parameters: [.value, .value], result: .logical) { arguments, _ in
    guard let (text, regexp) = textAndPattern(arguments) else { return .logical(false) }
    return .logical(regexp.matchesWhole(text))
  }

  /// `search(ValueType, ValueType) -> LogicalType`: whether some substring
  /// matches the I-Regexp; false for a non-string or an invalid pattern.
  static let search = JSONPathFunction(name: "search", parameters: [.value, .value], result: .logical) { arguments, _ in
    guard let (text, regexp) = textAndPattern(arguments) else { return .logical(false) }
    return .logical(regexp.matchesPart(of: text))
  }

  /// `value(NodesType) -> ValueType`: the value of the only node; Nothing
  /// for no nodes or several.
  static let value = JSONPathFunction(name: "value", parameters: [.nodes], result: .value) { arguments, _ in
    guard case .nodes(let nodes)? = arguments.first, nodes.count == 1 else { return .value(nil) }
    return .value(nodes[0].value)
  }

  /// `viewer() -> ValueType`: the environment's viewer, or Nothing when it
  /// has none. Not one of RFC 9535's: add it with `.standard.adding(.viewer)`.
  static let viewer = JSONPathFunction(name: "viewer", parameters: [], result: .value) { _, environment in
    .value(environment.viewer)
  }

  /// The string and the compiled pattern of `match` and `search`, when both
  /// arguments are strings and the pattern is an I-Regexp.
  private static func textAndPattern(_ arguments: [JSONPathFunctionValue]) -> (String, IRegexp)? {
    guard arguments.count == 2, case .value(.string(let text)?) = arguments[0],
      case .value(.string(let pattern)?) = arguments[1], let regexp = IRegexp.cached(pattern)
    else { return nil }
    return (text, regexp)
  }
}
