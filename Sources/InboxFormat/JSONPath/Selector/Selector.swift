/// A selector (RFC 9535 §2.3): what a segment picks from one node.
enum Selector: Sendable, Hashable {
  /// `'name'`, `"name"` or `.name`: the member of that name (§2.3.1).
  case name(String)
  /// `*`: every element or member value (§2.3.2).
  case wildcard
  /// `3`, `-1`: the element at that index, from the end when negative (§2.3.3).
  case index(Int)
  /// `start:end:step` (§2.3.4).
  case slice(Slice)
  /// `?expression`: the children for which the expression holds (§2.3.5).
  case filter(FilterExpression)

  /// Appends what the selector selects from `node` to `output`.
  func select(from node: JSONPathNode, in context: EvaluationContext, into output: inout [JSONPathNode]) {
    switch self {
    case .name(let name): selectName(name, from: node, into: &output)
    case .wildcard: selectAll(from: node, into: &output)
    case .index(let index): selectIndex(index, from: node, into: &output)
    case .slice(let slice): slice.select(from: node, into: &output)
    case .filter(let expression): expression.select(from: node, in: context, into: &output)
    }
  }
}
