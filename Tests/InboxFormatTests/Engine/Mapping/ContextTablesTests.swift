import Dispatch
import Foundation
import Synchronization
import Testing

@testable import InboxFormat

/// What the threads of one context share: the labels made, each once.
@Suite struct ContextTablesTests {
  /// Threads asking for the same minutes and days at once make each label
  /// once, and all read the one made.
  @Test func madeLabelsMakeEachMinuteAndDayOnceForAllThreads() {
    let made = MadeLabels()
    let makings = Atomic<Int>(0)
    let minutes: [Int64] = (0..<300).map { 27_000_000 + $0 * 7 }
    let times = Mutex<[Int64: Set<String>]>([:])
    let dates = Mutex<[Int64: Set<String>]>([:])
    DispatchQueue.concurrentPerform(iterations: 8) { thread in
      // Each thread in its own order, so that they meet on the same keys.
      for minute in thread.isMultiple(of: 2) ? minutes : minutes.reversed() {
        let time = made.time(atLocalMinute: minute) {
          makings.add(1, ordering: .relaxed)
          return "time \(minute)"
        }
        let date = made.shortDate(onLocalDay: minute / 1_440) {
          makings.add(1, ordering: .relaxed)
          return "day \(minute / 1_440)"
        }
        times.withLock { _ = $0[minute, default: []].insert(time) }
        dates.withLock { _ = $0[minute / 1_440, default: []].insert(date) }
      }
    }
    let days = Set(minutes.map { $0 / 1_440 })
    #expect(makings.load(ordering: .relaxed) == minutes.count + days.count)
    let (readTimes, readDates) = (times.withLock { $0 }, dates.withLock { $0 })
    #expect(minutes.allSatisfy { readTimes[$0] == ["time \($0)"] })
    #expect(days.allSatisfy { readDates[$0] == ["day \($0)"] })
  }

  /// Every memo table a context's pool hands out, at the same time or for
  /// another instant, asks the same made labels.
  @Test func everyThreadsMemoSharesTheContextsLabels() {
    let tables = ContextTables(context: Pinned.context())
    let later = tables.now(Pinned.now.addingTimeInterval(3_600))
    let shared = tables.withStringRules { first in
      tables.withStringRules { second in
        later.withStringRules { third in
          first.memo.made === second.memo.made && second.memo.made === third.memo.made
        }
      }
    }
    #expect(shared)
    let other = ContextTables(context: Pinned.context())
    #expect(other.withStringRules { other in tables.withStringRules { $0.memo.made !== other.memo.made } })
  }

  /// A page is served from short tables; tables that have served more than
  /// a page in all, or a long batch, or a count not known, are full ones.
  @Test func shortTablesServeAPageAndFullOnesTheRest() {
    let tables = ContextTables(context: Pinned.context())
    func isShort(_ count: Int?) -> Bool { tables.withByteRules(messageCount: count) { $0.strings.memo.isShort } }
    #expect(isShort(20))
    #expect(isShort(MemoTables.shortRun - 20))
    #expect(!isShort(1))
    #expect(!isShort(1))
    #expect(!ContextTables(context: Pinned.context()).withStringRules { $0.memo.isShort })
    #expect(!ContextTables(context: Pinned.context()).withStringRules(messageCount: 2_048) { $0.memo.isShort })
  }

  /// Short tables make their labels themselves, and leave the labels shared
  /// by the context's threads unmade; full tables ask them.
  @Test func onlyFullTablesAskTheSharedLabels() {
    let tables = ContextTables(context: Pinned.context())
    let earlier = [Pinned.now.addingTimeInterval(-60), Pinned.now.addingTimeInterval(-8 * 86_400)]
    let short = tables.withByteRules(messageCount: 2) { rules in
      earlier.map { tables.labeler.label(for: $0, style: .standard, words: tables.words, memo: &rules.strings.memo) }
    }
    #expect(tables.withByteRules(messageCount: 1) { $0.strings.memo.made.isUnasked })
    let full = tables.withStringRules { rules in
      earlier.map { tables.labeler.label(for: $0, style: .standard, words: tables.words, memo: &rules.memo) }
    }
    #expect(full == short)
    #expect(!tables.withStringRules { $0.memo.made.isUnasked })
  }
}
