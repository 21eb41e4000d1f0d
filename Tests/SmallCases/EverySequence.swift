/// Every sequence of at most `length` elements of `pool`, the shorter
/// first and each length in the pool's order, the empty one included:
/// the cases of the tests that hold a shortcut equal to its rule over all
/// small inputs.
public func everySequence<Element>(of pool: [Element], upTo length: Int) -> [[Element]] {
  var sequences: [[Element]] = [[]]
  var longer: [[Element]] = [[]]
  for _ in 0..<length {
    longer = longer.flatMap { prefix in pool.map { prefix + [$0] } }
    sequences += longer
  }
  return sequences
}

/// Every string of at most `length` pieces of `alphabet`
/// (``everySequence(of:upTo:)``, each joined).
public func everyString(of alphabet: [String], upTo length: Int) -> [String] {
  everySequence(of: alphabet, upTo: length).map { $0.joined() }
}
