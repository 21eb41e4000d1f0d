extension Selector {
  /// §2.3.1.2: an object's member named `name`; nothing from anything else.
  func selectName(_ name: String, from node: JSONPathNode, into output: inout [JSONPathNode]) {
    guard case .object(let object) = node.value, let value = object[name] else { return }
    output.append(JSONPathNode(value: value, location: node.location.appending(name)))
  }
}
