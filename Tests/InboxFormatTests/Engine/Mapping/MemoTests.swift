import Foundation
import Testing

@testable import InboxFormat

@Suite struct MemoTests {
  /// The pool keeps memo tables, not the context's tables: a mapper's labels go with it
  /// (a service that builds a mapper per request would otherwise grow
  /// without end).
  @Test func aMapperLetsGoOfItsLabels() {
    weak var tables: ContextTables?
    do {
      let mapper = MessageMapper(context: Pinned.context())
      let message = MessageAPIModel(
        id: .integer(1), firstname: "Ann", lastname: "王", message: "Hi", updateDate: Pinned.now, unreadCount: 0)
      #expect(mapper.map([message, message]).count == 2)
      tables = mapper.tables
      #expect(tables != nil)
    }
    #expect(tables == nil)
  }

  @Test func aFormatterLetsGoOfItsLabels() throws {
    weak var tables: ContextTables?
    do {
      let formatter = InboxFormatter(context: Pinned.context())
      try formatter.format(Array(#"[{"id":1,"firstname":"Søren","update_date":"2022-01-31T08:45:33Z"}]"#.utf8)) { _ in }
      tables = formatter.mapper.tables
      #expect(tables != nil)
    }
    // A worker thread lets go of its batch's tables just after handing the
    // batch's bytes over: give it a moment, not for ever.
    let deadline = Date().addingTimeInterval(5)
    while tables != nil, Date() < deadline { usleep(1_000) }
    #expect(tables == nil)
  }

  /// Every key gets back only what was made for it: keys that share a slot,
  /// the extremes of Int64 (minute and day -1 among them), through enough
  /// keys to evict, in memos of one and of four ways.
  @Test(arguments: [1, 4])
  func eachKeyGetsItsOwnValue(ways: Int) {
    var memo = Memo<Int64, Int64>(slots: 16, ways: ways)
    let keys: [Int64] = [0, -1, 1, .min, .max, 16, -16, 32] + (0..<100).map { $0 * 7 - 300 }
    for _ in 0..<3 {
      for key in keys {
        #expect(memo.value(for: key) { key &* 3 } == key &* 3)
        if let seen = memo.peek(key) { #expect(seen == key &* 3) }
      }
    }
  }

  /// A pair of names gets back only what was made for that very pair:
  /// names split differently, long names (not packed) and empty names
  /// included, through enough pairs to fill and evict slots.
  @Test func packedNamesGiveEachPairItsOwnValue() {
    var memo = Memo<PackedNames, String>(slots: 16, ways: 4)
    let long = String(repeating: "é", count: 40)
    var pairs: [(String, String)] = [
      ("ab", "c"), ("a", "bc"), ("", "abc"), ("abc", ""), ("", ""), (long, "x"), ("x", long),
    ]
    pairs += (0..<60).map { ("name\($0)", "Ünal\($0 % 7)") }
    for round in 0..<3 {
      for (first, last) in pairs {
        var (firstname, lastname) = (first, last)
        let key = firstname.withUTF8 { first in lastname.withUTF8 { last in PackedNames(first, last) } }
        guard let key else {
          #expect(first.utf8.count + last.utf8.count > PackedNames.longestNames)
          continue
        }
        #expect(memo.value(for: key) { first + "|" + last } == first + "|" + last, "round \(round)")
      }
    }
  }

  /// Pairs that fit are made about once: a set of four slots holds four
  /// pairs, so only pairs in a set that five or more fall into are made
  /// again (one slot per pair would remake a sixth of them on every pass).
  @Test func fourWaysKeepWhatFits() {
    var memo = Memo<PackedNames, Int>(slots: 1024, ways: 4)
    let pairs = (0..<300).map { ("First\($0)", "Last\($0 * 7)") }
    var made = 0
    for _ in 0..<3 {
      for (index, (first, last)) in pairs.enumerated() {
        var (firstname, lastname) = (first, last)
        let key = firstname.withUTF8 { first in lastname.withUTF8 { last in PackedNames(first, last)! } }
        let value = memo.value(for: key) {
          made += 1
          return index
        }
        #expect(value == index)
      }
    }
    #expect(made >= pairs.count)
    #expect(made < pairs.count + 30)
  }
}
