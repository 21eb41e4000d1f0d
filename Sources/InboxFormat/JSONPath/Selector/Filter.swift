/// A filter's logical expression (RFC 9535 §2.3.5), type-checked when parsed.
indirect enum FilterExpression: Sendable, Hashable {
  /// `a || b || …`
  case or([FilterExpression])
  /// `a && b && …`
  case and([FilterExpression])
  /// `!a`
  case not(FilterExpression)
  /// `@.a` or `$.a` alone: true when the query selects at least one node.
  case exists(FilterQuery)
  /// A function of LogicalType, or of NodesType (true when it returns nodes).
  case function(FunctionCall)
  /// `a < b` and the other comparisons.
  case comparison(Comparable, ComparisonOperator, Comparable)

  /// §2.3.5.2: the children of `node` for which the expression holds.
  func select(from node: JSONPathNode, in context: EvaluationContext, into output: inout [JSONPathNode]) {
    switch node.value {
    case .array(let elements):
      for (index, element) in elements.enumerated() {
        let child = JSONPathNode(value: element, location: node.location.appending(index))
        if holds(for: child, in: context) { output.append(child) }
      }
    case .object(let object):
      for (key, value) in object {
        let child = JSONPathNode(value: value, location: node.location.appending(key))
        if holds(for: child, in: context) { output.append(child) }
      }
    default: break
    }
  }

  /// Whether the expression holds with `current` as `@`.
  func holds(for current: JSONPathNode, in context: EvaluationContext) -> Bool {
    switch self {
    case .or(let operands): operands.contains { $0.holds(for: current, in: context) }
    case .and(let operands): operands.allSatisfy { $0.holds(for: current, in: context) }
    case .not(let operand): !operand.holds(for: current, in: context)
    case .exists(let query): !query.select(current: current, in: context).isEmpty
    case .function(let call):
      switch call.evaluate(current: current, in: context) {
      case .logical(let value): value
      case .nodes(let nodes): !nodes.isEmpty
      case .value: false
      }
    case .comparison(let left, let comparison, let right):
      comparison.compare(left.evaluate(current: current, in: context), right.evaluate(current: current, in: context))
    }
  }
}

/// A query inside a filter: relative to `@`, or absolute from `$`.
struct FilterQuery: Sendable, Hashable {
  var isRelative: Bool
  var segments: [Segment]

  func select(current: JSONPathNode, in context: EvaluationContext) -> [JSONPathNode] {
    segments.select(from: isRelative ? current : context.rootNode, in: context)
  }

  var isSingular: Bool { segments.isSingular }
}

/// One side of a comparison: a value, or Nothing.
enum Comparable: Sendable, Hashable {
  case literal(JSONValue)
  /// A singular query: the value of its node, or Nothing when it selects none.
  case query(FilterQuery)
  /// A function of ValueType.
  case function(FunctionCall)

  /// The value, or nil for Nothing.
  func evaluate(current: JSONPathNode, in context: EvaluationContext) -> JSONValue? {
    switch self {
    case .literal(let value): return value
    case .query(let query):
      let nodes = query.select(current: current, in: context)
      return nodes.count == 1 ? nodes[0].value : nil
    case .function(let call):
      guard case .value(let value) = call.evaluate(current: current, in: context) else { return nil }
      return value
    }
  }
}

/// `==`, `!=`, `<`, `<=`, `>`, `>=`.
enum ComparisonOperator: String, Sendable, Hashable, CaseIterable {
  case equal = "=="
  case notEqual = "!="
  case less = "<"
  case lessOrEqual = "<="
  case greater = ">"
  case greaterOrEqual = ">="

  /// §2.3.5.2.2: Nothing equals only Nothing and is less than nothing;
  /// `!=`, `>`, `<=` and `>=` are defined from `==` and `<`.
  func compare(_ left: JSONValue?, _ right: JSONValue?) -> Bool {
    switch self {
    case .equal: Self.equal(left, right)
    case .notEqual: !Self.equal(left, right)
    case .less: Self.less(left, right)
    case .lessOrEqual: Self.less(left, right) || Self.equal(left, right)
    case .greater: Self.less(right, left)
    case .greaterOrEqual: Self.less(right, left) || Self.equal(left, right)
    }
  }

  private static func equal(_ left: JSONValue?, _ right: JSONValue?) -> Bool {
    guard let left, let right else { return left == nil && right == nil }
    return left.isEqualInValue(to: right)
  }

  /// Numbers by value, strings by Unicode scalar values; no other `<`.
  private static func less(_ left: JSONValue?, _ right: JSONValue?) -> Bool {
    switch (left, right) {
    case (.number(let a)?, .number(let b)?): a.value < b.value
    case (.string(let a)?, .string(let b)?): a.unicodeScalars.lexicographicallyPrecedes(b.unicodeScalars)
    default: false
    }
  }
}

/// A call of a function extension, its arguments checked against the
/// parameters' declared types.
struct FunctionCall: Sendable, Hashable {
  let function: JSONPathFunction
  let arguments: [FunctionArgument]

  func evaluate(current: JSONPathNode, in context: EvaluationContext) -> JSONPathFunctionValue {
    let values = arguments.map { $0.evaluate(current: current, in: context) }
    return function.implementation(values, context.environment)
  }
}

/// An argument, in the form its parameter's type asks for (§2.4.3).
enum FunctionArgument: Sendable, Hashable {
  /// For a ValueType parameter: a literal, a singular query's value (or
  /// Nothing), or a ValueType function's result.
  case value(Comparable)
  /// For a LogicalType parameter.
  case logical(FilterExpression)
  /// For a NodesType parameter: the nodes a query selects.
  case nodes(FilterQuery)
  /// For a NodesType parameter: a NodesType function's result.
  case nodesFunction(FunctionCall)

  func evaluate(current: JSONPathNode, in context: EvaluationContext) -> JSONPathFunctionValue {
    switch self {
    case .value(let comparable): .value(comparable.evaluate(current: current, in: context))
    case .logical(let expression): .logical(expression.holds(for: current, in: context))
    case .nodes(let query): .nodes(query.select(current: current, in: context))
    case .nodesFunction(let call):
      if case .nodes(let nodes) = call.evaluate(current: current, in: context) { .nodes(nodes) } else { .nodes([]) }
    }
  }
}
