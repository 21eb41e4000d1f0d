import Testing

@testable import InboxFormat

/// RFC 9535 §2.5 (child and descendant segments) and §2.6 (null).
@Suite struct SegmentTests {
  @Test func childSegments() throws {
    let letters = #"["a", "b", "c", "d", "e", "f", "g"]"#
    #expect(try JSONPathTesting.values("$[0, 3]", in: letters) == [#""a""#, #""d""#])
    #expect(try JSONPathTesting.values("$[0:2, 5]", in: letters) == [#""a""#, #""b""#, #""f""#])
    #expect(try JSONPathTesting.values("$[0, 0]", in: letters) == [#""a""#, #""a""#])
  }

  let nested = #"{"o": {"j": 1, "k": 2}, "a": [5, 3, [{"j": 4}, {"k": 6}]]}"#

  @Test func descendantSegments() throws {
    #expect(try JSONPathTesting.values("$..j", in: nested) == ["1", "4"])
    #expect(try JSONPathTesting.paths("$..j", in: nested) == ["$['o']['j']", "$['a'][2][0]['j']"])
    #expect(try JSONPathTesting.values("$..[0]", in: nested) == ["5", #"{"j":4}"#])
    let everything = [
      #"{"j":1,"k":2}"#, #"[5,3,[{"j":4},{"k":6}]]"#, "1", "2", "5", "3", #"[{"j":4},{"k":6}]"#, #"{"j":4}"#,
      #"{"k":6}"#, "4", "6",
    ]
    #expect(try JSONPathTesting.values("$..[*]", in: nested) == everything)
    #expect(try JSONPathTesting.values("$..*", in: nested) == everything)
    #expect(try JSONPathTesting.values("$..o", in: nested) == [#"{"j":1,"k":2}"#])
    #expect(try JSONPathTesting.values("$.o..[*, *]", in: nested) == ["1", "2", "1", "2"])
    #expect(try JSONPathTesting.values("$.a..[0, 1]", in: nested) == ["5", "3", #"{"j":4}"#, #"{"k":6}"#])
  }

  @Test func blankSpaceWhereTheABNFAllowsIt() throws {
    #expect(try JSONPathTesting.values("$ .o\t[ 'j' ,\n'k' ]", in: nested) == ["1", "2"])
    #expect(try JSONPathTesting.values("$.a[? @ == 5 ]", in: nested) == ["5"])
    #expect(JSONPathTesting.error(" $.o")?.position == 1)
    #expect(JSONPathTesting.error("$.o ")?.position == 4)
    #expect(JSONPathTesting.error("$. o")?.position == 3)
    #expect(JSONPathTesting.error("$.. o")?.position == 4)
    #expect(JSONPathTesting.error("$.o[?@.j==1 &\t& @.k==2]")?.position == 13)
  }

  @Test func nullIsAValue() throws {
    let json = #"{"a": null, "b": [null], "c": [{}], "null": 1}"#
    #expect(try JSONPathTesting.values("$.a", in: json) == ["null"])
    #expect(try JSONPathTesting.values("$.a[0]", in: json) == [])
    #expect(try JSONPathTesting.values("$.a.d", in: json) == [])
    #expect(try JSONPathTesting.values("$.b[0]", in: json) == ["null"])
    #expect(try JSONPathTesting.values("$.b[*]", in: json) == ["null"])
    #expect(try JSONPathTesting.values("$.b[?@]", in: json) == ["null"])
    #expect(try JSONPathTesting.values("$.b[?@==null]", in: json) == ["null"])
    #expect(try JSONPathTesting.values("$.c[?@.d==null]", in: json) == [])
    #expect(try JSONPathTesting.values("$.null", in: json) == ["1"])
  }
}
