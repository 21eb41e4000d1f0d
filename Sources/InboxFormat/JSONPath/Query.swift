/// A JSONPath query (RFC 9535), parsed once from its text and evaluated
/// against any number of documents.
///
/// ```swift
/// let query = try JSONPathQuery("$.store.book[?@.price < 10].title")
/// query.select(from: document).map(\.value)  // [.string("Sayings of the Century"), …]
/// ```
///
/// Function extensions are those of `functions`, checked against their
/// declared types while parsing: a query that calls an unknown function or
/// passes an argument of the wrong type is invalid (§2.4.3).
struct JSONPathQuery: Sendable, Hashable {
  /// The query's text, as given.
  let text: String
  /// `segments` of RFC 9535 §2.5, applied in order from the root.
  let segments: [Segment]

  /// Longer queries are refused: a mapping path is a line, not a file.
  static let maximumLength = 64 * 1024
  /// Filters, parentheses, negations and function calls nested deeper than this are refused.
  static let maximumNesting = 64

  /// Parses `text`; throws where it stops being a valid query.
  init(_ text: String, functions: JSONPathFunctions = .standard) throws(JSONPathError) {
    var parser = JSONPathParser(text: text, functions: functions)
    self.text = text
    self.segments = try parser.parseQuery()
  }

  /// The nodes the query selects from `root`, in the order of RFC 9535
  /// (document order within each selector, selectors in their order).
  func select(from root: JSONValue, environment: JSONPathEnvironment = .init()) -> [JSONPathNode] {
    let context = EvaluationContext(root: root, environment: environment)
    return segments.select(from: JSONPathNode(value: root, location: .root), in: context)
  }

  /// Whether the query is singular (§2.3.5.1): it selects at most one node,
  /// having only child segments of one name or index selector each.
  var isSingular: Bool { segments.isSingular }

  /// One step of a simple query.
  enum Step: Sendable, Hashable {
    /// A member, by name.
    case name(String)
    /// An array element, counted from the start (never negative).
    case index(Int)
    /// Every element or member value.
    case wildcard
  }

  /// The steps of a simple query — child segments of one name selector,
  /// non-negative index selector or wildcard each, as in `$.items[0].id`
  /// or `$.items[*]` — which a byte walker can follow without a tree; nil
  /// for any other query.
  var simpleSteps: [Step]? {
    var steps: [Step] = []
    for segment in segments {
      guard case .child(let selectors) = segment, selectors.count == 1 else { return nil }
      switch selectors[0] {
      case .name(let name): steps.append(.name(name))
      case .index(let index) where index >= 0: steps.append(.index(index))
      case .wildcard: steps.append(.wildcard)
      default: return nil
      }
    }
    return steps
  }

  static func == (lhs: JSONPathQuery, rhs: JSONPathQuery) -> Bool { lhs.segments == rhs.segments }
  func hash(into hasher: inout Hasher) { hasher.combine(segments) }
}

/// What every part of a query is evaluated with.
struct EvaluationContext {
  /// The document: what `$` refers to, in filters too.
  let root: JSONValue
  let environment: JSONPathEnvironment

  var rootNode: JSONPathNode { JSONPathNode(value: root, location: .root) }
}
