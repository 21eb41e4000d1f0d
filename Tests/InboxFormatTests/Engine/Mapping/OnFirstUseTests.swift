import Dispatch
import Foundation
import Synchronization
import Testing

@testable import InboxFormat

/// What a context's tables make on first use: nothing before it is read,
/// once however many threads read it first, the same value for all.
@Suite struct OnFirstUseTests {
  @Test func madeOnceForThreadsThatReadItAtOnce() {
    let makings = Atomic<Int>(0)
    let value = OnFirstUse { () -> String in
      makings.add(1, ordering: .relaxed)
      return String(repeating: "word ", count: 20)
    }
    #expect(!value.isMade)
    let reads = Mutex<[String]>([])
    DispatchQueue.concurrentPerform(iterations: 64) { _ in
      let read = value.value
      reads.withLock { $0.append(read) }
    }
    #expect(value.isMade)
    #expect(makings.load(ordering: .relaxed) == 1)
    #expect(reads.withLock { $0.count == 64 && Set($0) == [String(repeating: "word ", count: 20)] })
  }

  /// A context's tables make no word, formatter or number until a row
  /// needs it, and the words a row needs are the rule's.
  @Test func contextTablesMakeNothingBeforeARowNeedsIt() throws {
    let context = Pinned.context().fields(RowField.all)
    let tables = ContextTables(context: context)
    #expect(tables.words.madeCount == 0)
    let words = DateWords(locale: context.locale, calendar: context.calendar, hourCycle: nil)
    let day = Int64(Pinned.now.timeIntervalSince1970) / 86_400 - 3
    #expect(tables.words.text(of: .weekday(localDay: day)) == words.text(of: .weekday(localDay: day)))
    #expect(tables.words.madeCount == 1)
  }
}
