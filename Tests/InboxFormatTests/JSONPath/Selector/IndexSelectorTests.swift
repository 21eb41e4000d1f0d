import Testing

@testable import InboxFormat

/// RFC 9535 §2.3.3: index selectors, I-JSON's integer range.
@Suite struct IndexSelectorTests {
  @Test func theRFCExamples() throws {
    #expect(try JSONPathTesting.values("$[1]", in: #"["a","b"]"#) == [#""b""#])
    #expect(try JSONPathTesting.values("$[-2]", in: #"["a","b"]"#) == [#""a""#])
  }

  @Test func outOfBoundsAndNonArraysSelectNothing() throws {
    #expect(try JSONPathTesting.values("$[2]", in: #"["a","b"]"#) == [])
    #expect(try JSONPathTesting.values("$[-3]", in: #"["a","b"]"#) == [])
    #expect(try JSONPathTesting.values("$[0]", in: #"{"0":1}"#) == [])
    #expect(try JSONPathTesting.values("$[9007199254740991]", in: #"["a"]"#) == [])
    #expect(try JSONPathTesting.values("$[-9007199254740991]", in: #"["a"]"#) == [])
  }

  @Test func integersAsTheABNFWritesThem() {
    #expect(JSONPathTesting.error("$[-0]")?.position == 3)
    #expect(JSONPathTesting.error("$[01]")?.position == 3)
    #expect(JSONPathTesting.error("$[9007199254740992]")?.position == 3)
    #expect(JSONPathTesting.error("$[-9007199254740992]")?.position == 3)
    #expect(JSONPathTesting.error("$[1.0]")?.position == 4)
    #expect(JSONPathTesting.error("$[+1]")?.position == 3)
    #expect(JSONPathTesting.error("$[0")?.position == 4)
  }

  @Test func theMessageNamesThePositionAndWhatWasExpected() throws {
    let error = try #require(JSONPathTesting.error("$.items[0 x]"))
    #expect(error.description == #"position 11: unexpected "x"; expected "," or "]" after a selector"#)
  }
}
