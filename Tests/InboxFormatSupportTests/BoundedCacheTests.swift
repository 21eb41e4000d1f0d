import InboxFormatSupport
import Testing

/// The bounded cache behind the formatter cache and the service's name caches.
@Suite struct BoundedCacheTests {
  @Test func theLeastRecentlyUsedEntryMakesRoom() {
    let cache = BoundedCache<Int, Int>(capacity: 2)
    _ = cache.value(for: 1) { 10 }
    _ = cache.value(for: 2) { 20 }
    _ = cache.value(for: 1) { 11 }  // kept: 1 is now the most recent
    _ = cache.value(for: 3) { 30 }  // 2 goes
    #expect(cache.count == 2)
    #expect(cache.value(for: 1) { 12 } == 10)
    #expect(cache.value(for: 2) { 21 } == 21)
  }

  @Test func theStatisticsCountEveryLookUp() {
    let cache = BoundedCache<Int, Int>(capacity: 1)
    _ = cache.value(for: 1) { 10 }
    _ = cache.kept(1)
    _ = cache.value(for: 2) { 20 }
    let statistics = cache.statistics
    #expect(statistics.hits == 1 && statistics.misses == 2 && statistics.evictions == 1 && statistics.count == 1)
    #expect(BoundedCache<Int, Int>(capacity: 0).capacity == 1)
  }
}
