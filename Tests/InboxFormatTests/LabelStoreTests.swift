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

  /// A pair of names gets back only what was made for that very pair:
  /// names split differently, long names (not kept) and empty names
  /// included, through enough pairs to fill and evict slots.
  @Test func recentNamesGiveEachPairItsOwnValue() {
    var names = RecentNames<String>(slots: 16)
    let long = String(repeating: "é", count: 40)
    var pairs: [(String, String)] = [
      ("ab", "c"), ("a", "bc"), ("", "abc"), ("abc", ""), ("", ""), (long, "x"), ("x", long),
    ]
    pairs += (0..<60).map { ("name\($0)", "Ünal\($0 % 7)") }
    for round in 0..<3 {
      for (first, last) in pairs {
        var (firstname, lastname) = (first, last)
        let value = firstname.withUTF8 { firstBytes in
          lastname.withUTF8 { lastBytes in
            names.value(for: firstBytes, lastBytes) {
              first + "|" + last
            }
          }
        }
        #expect(value == first + "|" + last, "round \(round)")
      }
    }
  }

  /// Pairs that fit in the slots are made about once: a pair's set of four
  /// slots holds four pairs, so only pairs in a set that five or more fall
  /// into are made again (a table with one slot per pair would remake a
  /// sixth of them on every pass).
  @Test func recentNamesKeepWhatFits() {
    var names = RecentNames<Int>(slots: 1024)
    let pairs = (0..<300).map { ("First\($0)", "Last\($0 * 7)") }
    var made = 0
    for _ in 0..<3 {
      for (index, (first, last)) in pairs.enumerated() {
        var (firstname, lastname) = (first, last)
        let value = firstname.withUTF8 { first in
          lastname.withUTF8 { last in
            names.value(for: first, last) {
              made += 1
              return index
            }
          }
        }
        #expect(value == index)
      }
    }
    #expect(made >= pairs.count)
    #expect(made < pairs.count + 30)
  }
}
