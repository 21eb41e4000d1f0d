import Testing

@testable import InboxFormat

/// RFC 9535 §2.3.2: the wildcard selector.
@Suite struct WildcardSelectorTests {
  let document = #"{"o": {"j": 1, "k": 2}, "a": [5, 3]}"#

  @Test func theRFCExamples() throws {
    #expect(try JSONPathTesting.values("$[*]", in: document) == [#"{"j":1,"k":2}"#, "[5,3]"])
    #expect(try JSONPathTesting.values("$.o[*]", in: document) == ["1", "2"])
    #expect(try JSONPathTesting.values("$.o[*, *]", in: document) == ["1", "2", "1", "2"])
    #expect(try JSONPathTesting.values("$.a[*]", in: document) == ["5", "3"])
    #expect(try JSONPathTesting.values("$.a.*", in: document) == ["5", "3"])
  }

  @Test func nothingFromPrimitives() throws {
    #expect(try JSONPathTesting.values("$.o.j[*]", in: document) == [])
  }
}
