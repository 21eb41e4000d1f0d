import Testing

@testable import InboxFormat

/// RFC 9535 §1.5, Table 2: the example queries on the bookstore, and the
/// query value's own promises (parsed once, singular, simple steps).
@Suite struct QueryTests {
  let store = JSONPathTesting.bookstore

  @Test func authorsOfAllBooks() throws {
    let authors = [#""Nigel Rees""#, #""Evelyn Waugh""#, #""Herman Melville""#, #""J. R. R. Tolkien""#]
    #expect(try JSONPathTesting.values("$.store.book[*].author", in: store) == authors)
    #expect(try JSONPathTesting.values("$..author", in: store) == authors)
  }

  @Test func everythingInTheStore() throws {
    let things = try JSONPathTesting.values("$.store.*", in: store)
    #expect(things.count == 2)
    #expect(things.last == #"{"color":"red","price":399}"#)
  }

  @Test func pricesOfEverything() throws {
    #expect(try JSONPathTesting.values("$.store..price", in: store) == ["8.95", "12.99", "8.99", "22.99", "399"])
  }

  @Test func booksByPosition() throws {
    #expect(try JSONPathTesting.values("$..book[2].author", in: store) == [#""Herman Melville""#])
    #expect(try JSONPathTesting.values("$..book[2].publisher", in: store) == [])
    #expect(try JSONPathTesting.values("$..book[-1].title", in: store) == [#""The Lord of the Rings""#])
    let firstTwo = [#""Sayings of the Century""#, #""Sword of Honour""#]
    #expect(try JSONPathTesting.values("$..book[0,1].title", in: store) == firstTwo)
    #expect(try JSONPathTesting.values("$..book[:2].title", in: store) == firstTwo)
  }

  @Test func booksByFilter() throws {
    #expect(
      try JSONPathTesting.values("$..book[?@.isbn].title", in: store)
        == [#""Moby Dick""#, #""The Lord of the Rings""#])
    #expect(
      try JSONPathTesting.values("$..book[?@.price<10].title", in: store)
        == [#""Sayings of the Century""#, #""Moby Dick""#])
  }

  @Test func allMemberValuesAndArrayElements() throws {
    // store; book and bicycle; 4 books; their 4 + 4 + 5 + 5 members; the bicycle's 2.
    #expect(try JSONPathTesting.values("$..*", in: store).count == 1 + 2 + 4 + 18 + 2)
  }

  @Test func theRootAloneSelectsTheDocument() throws {
    #expect(try JSONPathTesting.values("$", in: #"{"k":"v"}"#) == [#"{"k":"v"}"#])
  }

  @Test func parsedOnceEvaluatedOnEachDocument() throws {
    let query = try JSONPathQuery("$.a")
    #expect(query.select(from: try JSONPathTesting.document(#"{"a":1}"#)).map(\.value.jsonText) == ["1"])
    #expect(query.select(from: try JSONPathTesting.document(#"{"a":[2]}"#)).map(\.value.jsonText) == ["[2]"])
    #expect(query == (try JSONPathQuery("$['a']")))
  }

  @Test func singularQueries() throws {
    #expect(try JSONPathQuery("$.a[0]['b']").isSingular)
    #expect(try JSONPathQuery("$").isSingular)
    #expect(try !JSONPathQuery("$.a[0,1]").isSingular)
    #expect(try !JSONPathQuery("$..a").isSingular)
    #expect(try !JSONPathQuery("$.*").isSingular)
    #expect(try !JSONPathQuery("$[1:2]").isSingular)
  }

  @Test func simpleStepsForAByteWalker() throws {
    #expect(try JSONPathQuery("$.items[0].id").simpleSteps == [.name("items"), .index(0), .name("id")])
    #expect(try JSONPathQuery("$['items'][*]").simpleSteps == [.name("items"), .wildcard])
    #expect(try JSONPathQuery("$").simpleSteps == [])
    #expect(try JSONPathQuery("$.items[-1]").simpleSteps == nil)
    #expect(try JSONPathQuery("$.items[0,1]").simpleSteps == nil)
    #expect(try JSONPathQuery("$..id").simpleSteps == nil)
    #expect(try JSONPathQuery("$.items[?@.id]").simpleSteps == nil)
  }
}
