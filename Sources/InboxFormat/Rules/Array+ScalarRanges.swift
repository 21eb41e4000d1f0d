extension [ClosedRange<UInt32>] {
  /// Whether a sorted table of disjoint ranges contains `scalar`.
  func containsScalar(_ scalar: Unicode.Scalar) -> Bool {
    indexOfRange(containing: scalar.value) { $0 } != nil
  }
}

extension Array {
  /// The index of the element whose range (`range(element)`) contains
  /// `value`, in a table sorted by those ranges, which are disjoint; nil
  /// when none does.
  @inline(__always)
  func indexOfRange(containing value: UInt32, _ range: (Element) -> ClosedRange<UInt32>) -> Int? {
    // Binary search for the last range starting at or before `value`.
    var low = 0
    var high = count
    while low < high {
      let middle = (low + high) / 2
      if range(self[middle]).lowerBound <= value { low = middle + 1 } else { high = middle }
    }
    return low > 0 && range(self[low - 1]).contains(value) ? low - 1 : nil
  }
}
