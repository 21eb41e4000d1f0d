import Foundation
import Testing

@testable import InboxFormat

@Suite struct LabelStoreTests {
  /// The store's pool keeps memos' tables, not memos: a memo holds its store,
  /// and a pool of them would keep a mapper's labels alive for ever (a
  /// service that builds a mapper per request would grow without end).
  @Test func aMapperLetsGoOfItsLabels() {
    weak var store: LabelStore?
    do {
      let mapper = MessageMapper(context: Pinned.context())
      let message = MessageAPIModel(
        id: .integer(1), firstname: "Ann", lastname: "王", message: "Hi", updateDate: Pinned.now, unreadCount: 0)
      #expect(mapper.map([message, message]).count == 2)
      store = mapper.rules.store
      #expect(store != nil)
    }
    #expect(store == nil)
  }

  @Test func aFormatterLetsGoOfItsLabels() throws {
    weak var store: LabelStore?
    do {
      let formatter = InboxFormatter(context: Pinned.context())
      try formatter.format(Array(#"[{"id":1,"firstname":"Søren","update_date":"2022-01-31T08:45:33Z"}]"#.utf8)) { _ in }
      store = formatter.mapper.rules.store
      #expect(store != nil)
    }
    // A worker thread lets go of its batch's mapper just after handing the
    // batch's bytes over: give it a moment, not for ever.
    let deadline = Date().addingTimeInterval(5)
    while store != nil, Date() < deadline { usleep(1_000) }
    #expect(store == nil)
  }
}
