extension Selector {
  /// The largest magnitude of an index or slice bound: I-JSON's exact
  /// integers, ±(2^53 − 1) (§2.1).
  static let maximumIndex = (1 << 53) - 1

  /// §2.3.3.2: the element at `index` of an array, counted from the end
  /// when negative; nothing when out of range or not an array.
  func selectIndex(_ index: Int, from node: JSONPathNode, into output: inout [JSONPathNode]) {
    guard case .array(let elements) = node.value else { return }
    let position = index < 0 ? elements.count + index : index
    guard elements.indices.contains(position) else { return }
    output.append(JSONPathNode(value: elements[position], location: node.location.appending(position)))
  }
}
