import Testing

@testable import InboxFormat

/// The two-byte scalars the initial's shortcut (``leadingLetter(of:)``)
/// decides by itself, as written in its tables, are those the general rule
/// gives: the standard library's cluster breaking and ``beginsInitial(_:)``,
/// asked of every scalar from U+0080 to U+07FF.
@Suite struct LeadingLetterTests {
  /// The ranges of two-byte scalars for which `holds` is true.
  private static func ranges(where holds: (Unicode.Scalar) -> Bool) -> [ClosedRange<UInt32>] {
    var ranges: [ClosedRange<UInt32>] = []
    for value in UInt32(0x80)..<0x800 where holds(Unicode.Scalar(value)!) {
      if let last = ranges.last, last.upperBound == value - 1 {
        ranges[ranges.count - 1] = last.lowerBound...value
      } else {
        ranges.append(value...value)
      }
    }
    return ranges
  }

  /// How a table is written in LeadingLetter.swift, to paste there when
  /// the standard library's Unicode data moves.
  private static func literal(_ ranges: [ClosedRange<UInt32>]) -> String {
    let hex = { (value: UInt32) in
      let digits = String(value, radix: 16, uppercase: true)
      return "0x" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
    return ranges.map { "\(hex($0.lowerBound))...\(hex($0.upperBound))" }.joined(separator: ", ")
  }

  @Test func theTablesAreTheRules() {
    // Nothing before it joins its cluster (it is not an extender or a
    // spacing mark): a cluster begins with it after a letter.
    let beginsCluster = { (scalar: Unicode.Scalar) in ("a" + String(scalar)).count == 2 }
    // And it joins nothing after it (it is not a prepended character):
    // a cluster of its own between ASCII letters.
    let standsAlone = { (scalar: Unicode.Scalar) in beginsCluster(scalar) && (String(scalar) + "a").count == 2 }
    let initials = Self.ranges { standsAlone($0) && beginsInitial($0) }
    let clusterStarts = Self.ranges(where: beginsCluster)
    #expect(twoByteInitials == initials, "twoByteInitials should be: \(Self.literal(initials))")
    #expect(twoByteClusterStarts == clusterStarts, "twoByteClusterStarts should be: \(Self.literal(clusterStarts))")
  }
}
