extension Selector {
  /// §2.3.2.2: every element of an array, every member value of an object,
  /// in document order; nothing from a primitive value.
  func selectAll(from node: JSONPathNode, into output: inout [JSONPathNode]) {
    switch node.value {
    case .array(let elements):
      for (index, element) in elements.enumerated() {
        output.append(JSONPathNode(value: element, location: node.location.appending(index)))
      }
    case .object(let object):
      for (key, value) in object {
        output.append(JSONPathNode(value: value, location: node.location.appending(key)))
      }
    default: break
    }
  }
}
