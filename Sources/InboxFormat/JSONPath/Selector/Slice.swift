/// An array slice selector, `start:end:step` (RFC 9535 §2.3.4), each part optional.
struct Slice: Sendable, Hashable {
  var start: Int?
  var end: Int?
  /// 1 when absent; 0 selects nothing.
  var step: Int?

  /// §2.3.4.2.2: the elements from `start` towards `end` (excluded), `step`
  /// apart, backwards for a negative step.
  func select(from node: JSONPathNode, into output: inout [JSONPathNode]) {
    guard case .array(let elements) = node.value else { return }
    for index in indices(count: elements.count) {
      output.append(JSONPathNode(value: elements[index], location: node.location.appending(index)))
    }
  }

  /// The selected indexes of an array of `count` elements, in order.
  func indices(count: Int) -> StrideTo<Int> {
    let step = self.step ?? 1
    guard step != 0 else { return stride(from: 0, to: 0, by: 1) }
    func normalize(_ index: Int) -> Int { index >= 0 ? index : count + index }
    if step > 0 {
      let start = normalize(self.start ?? 0)
      let end = normalize(self.end ?? count)
      let lower = min(max(start, 0), count)
      let upper = min(max(end, 0), count)
      return stride(from: lower, to: upper, by: step)
    } else {
      let start = normalize(self.start ?? count - 1)
      let end = self.end.map(normalize) ?? -1
      let upper = min(max(start, -1), count - 1)
      let lower = min(max(end, -1), count - 1)
      return stride(from: upper, to: lower, by: step)
    }
  }
}
