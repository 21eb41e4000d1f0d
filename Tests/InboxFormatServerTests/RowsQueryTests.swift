import Testing

@testable import InboxFormatServer

/// Reading `POST /v1/rows`'s query (its settings' values are
/// `FormattingSettings`' and are tested through the endpoint).
@Suite struct RowsQueryTests {
  /// The query is split at the bytes `&` and `=`, as forms are: a combining
  /// mark after either does not make one character with it and hide it.
  @Test func theQueryIsSplitAtItsBytes() throws {
    let parameters = try queryParameters("a=1=2&\u{301}b=%C3%A9&&c", names: ["a", "\u{301}b", "c"])
    #expect(parameters.map { $0.name } == ["a", "\u{301}b", "c"])
    #expect(parameters.map { $0.value } == ["1=2", "é", ""])
  }
}
