import Foundation
import Testing

@testable import InboxFormat

/// Queries written to hurt: each is refused cleanly or runs quickly.
@Suite struct HostileQueryTests {
  @Test func deepFilterNestingIsRefused() throws {
    let parentheses = "$[?" + String(repeating: "(", count: 10_000) + "@" + String(repeating: ")", count: 10_000) + "]"
    let error = try #require(JSONPathTesting.error(parentheses))
    #expect(error.reason.contains("nesting deeper than \(JSONPathQuery.maximumNesting)"))
    let negations = "$[?" + String(repeating: "!", count: 10_000) + "@]"
    #expect(JSONPathTesting.error(negations) != nil)
    let filters = String(repeating: "$[?@", count: 10_000) + String(repeating: "]", count: 10_000)
    #expect(JSONPathTesting.error(filters) != nil)
    let functions =
      "$[?" + String(repeating: "length(", count: 10_000) + "@" + String(repeating: ")", count: 10_000) + "]"
    #expect(JSONPathTesting.error(functions) != nil)
  }

  @Test func nestingWithinTheBoundIsFine() throws {
    let depth = JSONPathQuery.maximumNesting - 1
    let query = "$[?" + String(repeating: "(", count: depth) + "@" + String(repeating: ")", count: depth) + "]"
    #expect(try JSONPathTesting.values(query, in: "[1]") == ["1"])
  }

  @Test func overlongQueriesAreRefused() throws {
    let query = "$" + String(repeating: ".a", count: JSONPathQuery.maximumLength)
    let error = try #require(JSONPathTesting.error(query))
    #expect(error.position == JSONPathQuery.maximumLength + 1)
  }

  @Test func hugeIndexesAreRefusedOrSelectNothing() throws {
    #expect(JSONPathTesting.error("$[" + String(repeating: "9", count: 10_000) + "]")?.position == 3)
    #expect(try JSONPathTesting.values("$[9007199254740991]", in: "[1]") == [])
    #expect(try JSONPathTesting.values("$[::0]", in: "[1, 2]") == [])
  }

  @Test func longAndCatastrophicPatternsEndQuickly() throws {
    let long = String(repeating: "a", count: IRegexp.maximumPatternLength + 1)
    #expect(try JSONPathTesting.values("$[?match(@, '\(long)')]", in: "[\"a\"]") == [])
    let subject = String(repeating: "a", count: 50_000)
    let started = ContinuousClock.now
    #expect(try JSONPathTesting.values("$[?match(@, '(a|a)*b')]", in: "[\"\(subject)\"]") == [])
    #expect(try JSONPathTesting.values("$[?search(@, '(a*)*b')]", in: "[\"\(subject)\"]") == [])
    // Exponential backtracking would take longer than the universe has left;
    // linear time takes well under this bound even on a loaded machine.
    #expect(ContinuousClock.now - started < .seconds(30))
  }

  @Test func descendantsOfTheDeepestDocument() throws {
    let depth = JSONScanner.maximumDepth
    let json = String(repeating: "[", count: depth) + "1" + String(repeating: "]", count: depth)
    #expect(try JSONPathTesting.values("$..[0]", in: json).count == depth)
    #expect(try JSONPathTesting.values("$..[?@ == 1]", in: json) == ["1"])
  }
}
