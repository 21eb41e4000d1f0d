extension [ClosedRange<UInt32>] {
  /// Whether a sorted table of disjoint ranges contains `scalar`.
  package func containsScalar(_ scalar: Unicode.Scalar) -> Bool {
    let value = scalar.value
    // Binary search for the last range starting at or before `value`.
    var low = 0
    var high = count
    while low < high {
      let middle = (low + high) / 2
      if self[middle].lowerBound <= value { low = middle + 1 } else { high = middle }
    }
    return low > 0 && self[low - 1].contains(value)
  }
}
