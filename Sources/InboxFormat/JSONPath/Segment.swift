/// A segment (RFC 9535 §2.5): selectors applied to each input node's
/// children, or to the node and all its descendants.
enum Segment: Sendable, Hashable {
  /// `[…]`, `.name` or `.*`: the selectors applied to the node (§2.5.1).
  case child([Selector])
  /// `..[…]`, `..name` or `..*`: the selectors applied to the node and to
  /// each of its descendants, parents before children (§2.5.2).
  case descendant([Selector])

  /// Appends what the segment selects from `node` to `output`.
  func select(from node: JSONPathNode, in context: EvaluationContext, into output: inout [JSONPathNode]) {
    switch self {
    case .child(let selectors):
      for selector in selectors { selector.select(from: node, in: context, into: &output) }
    case .descendant(let selectors):
      visit(node, selectors: selectors, in: context, into: &output)
    }
  }

  /// Applies `selectors` to `node`, then to its children in order, depth
  /// first: the document's nesting bound limits the recursion.
  private func visit(
    _ node: JSONPathNode, selectors: [Selector], in context: EvaluationContext, into output: inout [JSONPathNode]
  ) {
    for selector in selectors { selector.select(from: node, in: context, into: &output) }
    switch node.value {
    case .array(let elements):
      for (index, element) in elements.enumerated() {
        visit(
          JSONPathNode(value: element, location: node.location.appending(index)), selectors: selectors,
          in: context, into: &output)
      }
    case .object(let object):
      for (key, value) in object {
        visit(
          JSONPathNode(value: value, location: node.location.appending(key)), selectors: selectors,
          in: context, into: &output)
      }
    default: break
    }
  }

  /// Whether the segment is a child segment of one name or index selector.
  var isSingular: Bool {
    guard case .child(let selectors) = self, selectors.count == 1 else { return false }
    switch selectors[0] {
    case .name, .index: return true
    default: return false
    }
  }
}

extension [Segment] {
  /// The nodes the segments select in turn, starting from `start`.
  func select(from start: JSONPathNode, in context: EvaluationContext) -> [JSONPathNode] {
    var nodes = [start]
    for segment in self {
      var output: [JSONPathNode] = []
      for node in nodes { segment.select(from: node, in: context, into: &output) }
      nodes = output
      if nodes.isEmpty { break }
    }
    return nodes
  }

  /// Whether the query made of these segments is singular (§2.3.5.1).
  var isSingular: Bool { allSatisfy(\.isSingular) }
}
