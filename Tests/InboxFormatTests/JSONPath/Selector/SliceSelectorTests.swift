import Testing

@testable import InboxFormat

/// RFC 9535 §2.3.4: array slices, their defaults and negative steps.
@Suite struct SliceSelectorTests {
  let alphabet = #"["a", "b", "c", "d", "e", "f", "g"]"#

  func letters(_ query: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
    try JSONPathTesting.values(query, in: alphabet, sourceLocation: sourceLocation)
      .map { $0.replacingOccurrences(of: "\"", with: "") }.joined()
  }

  @Test func theRFCExamples() throws {
    #expect(try letters("$[1:3]") == "bc")
    #expect(try letters("$[5:]") == "fg")
    #expect(try letters("$[1:5:2]") == "bd")
    #expect(try letters("$[5:1:-2]") == "fd")
    #expect(try letters("$[::-1]") == "gfedcba")
  }

  @Test func defaultsAndBounds() throws {
    #expect(try letters("$[:]") == "abcdefg")
    #expect(try letters("$[::]") == "abcdefg")
    #expect(try letters("$[-2:]") == "fg")
    #expect(try letters("$[:-5]") == "ab")
    #expect(try letters("$[-100:100]") == "abcdefg")
    #expect(try letters("$[100:-100:-1]") == "gfedcba")
    #expect(try letters("$[3:3]") == "")
    #expect(try letters("$[5:2]") == "")
    #expect(try letters("$[:2:-1]") == "gfed")
    #expect(try letters("$[ 1 : 3 : 1 ]") == "bc")
  }

  @Test func stepZeroSelectsNothing() throws {
    #expect(try letters("$[::0]") == "")
    #expect(try letters("$[1:5:0]") == "")
  }

  @Test func hugeBoundsAndStepsStayWithinTheArray() throws {
    #expect(try letters("$[::9007199254740991]") == "a")
    #expect(try letters("$[-9007199254740991::-9007199254740991]") == "")
    #expect(try letters("$[9007199254740991::-9007199254740991]") == "g")
    #expect(JSONPathTesting.error("$[::9007199254740992]")?.position == 5)
  }

  @Test func slicesSelectNothingFromNonArrays() throws {
    #expect(try JSONPathTesting.values("$[0:1]", in: #"{"0":1}"#) == [])
  }
}
