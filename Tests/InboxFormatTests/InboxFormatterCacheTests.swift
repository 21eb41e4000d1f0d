import Foundation
import Testing

@testable import InboxFormat

/// The formatter cache: a kept formatter gives the bytes of a new one for
/// the same context at any instant, layout and mapping; it is kept for its
/// settings, not its instant; and no more than the capacity are kept.
@Suite struct InboxFormatterCacheTests {
  static let payload = Array(
    #"{"items":[{"id":1,"firstname":"Ana","lastname":"Lima","message":"Oi","phone_number":{"international":"+55 11 5555 0000"},"update_date":"2022-01-31T08:45:33Z","unread_count":2},{"id":2,"firstname":"","lastname":"","message":"","phone_number":{"international":""},"update_date":"2022-01-25T17:12:33Z","unread_count":0}]}"#
      .utf8)

  func output(_ formatter: InboxFormatter, _ payload: [UInt8] = payload) throws -> [UInt8] {
    var bytes: [UInt8] = []
    _ = try formatter.format(payload) { bytes += $0 }
    return bytes
  }

  @Test func aKeptFormatterGivesANewOnesBytes() throws {
    let cache = InboxFormatterCache(capacity: 4)
    let contexts = [
      Pinned.context(),
      Pinned.context(locale: "ar-EG", timeZone: "Asia/Tokyo").fields(RowField.all).dateStyle(.compact),
      Pinned.context(locale: "fa-IR", timeZone: "Asia/Tehran").dateStyle(.relative),
    ]
    for context in contexts {
      for hours: Double in [0, 5, 30, 24 * 400] {
        let now = Pinned.now.addingTimeInterval(hours * 3_600)
        for layout in [InboxEncoder.Layout.compact, .ndjson, .pretty] {
          let kept = cache.formatter(for: context.now(now), layout: layout)
          let fresh = InboxFormatter(context: context.now(now), layout: layout)
          #expect(try output(kept) == output(fresh), "\(context.locale.identifier) +\(hours) h \(layout)")
        }
      }
    }
    // One formatter per context, whatever the instants and layouts.
    #expect(cache.count == contexts.count)
  }

  @Test func theMappingAskedForIsTheOneRead() throws {
    let cache = InboxFormatterCache(capacity: 2)
    let sendbird = try #require(InputMapping.builtIn(named: "sendbird")).viewer("me")
    let channels = Array(
      #"{"channels":[{"channel_url":"c1","name":"Team","members":[],"last_message":{"message":"Hi","created_at":1643618733000},"unread_message_count":1}]}"#
        .utf8)
    let kept = cache.formatter(for: Pinned.context(), mapping: sendbird)
    #expect(kept.mapping == sendbird)
    #expect(
      try output(kept, channels) == output(InboxFormatter(context: Pinned.context(), mapping: sendbird), channels))
    // The post's shape through the same kept formatter.
    #expect(try output(cache.formatter(for: Pinned.context())) == output(InboxFormatter(context: Pinned.context())))
    #expect(cache.count == 1)
  }

  @Test func noMoreThanTheCapacityIsKept() {
    let cache = InboxFormatterCache(capacity: 2)
    for locale in ["en-US", "fr-FR", "de-DE", "ja-JP"] {
      _ = cache.formatter(for: Pinned.context(locale: locale))
    }
    #expect(cache.count == 2)
    #expect(InboxFormatterCache(capacity: 0).capacity == 1)
  }

  /// Every formatter asked for is a hit or a miss; a miss past the
  /// capacity evicts one.
  @Test func theStatisticsCountHitsMissesAndEvictions() {
    let cache = InboxFormatterCache(capacity: 2)
    #expect(cache.statistics == .init(hits: 0, misses: 0, evictions: 0, count: 0, capacity: 2))
    _ = cache.formatter(for: Pinned.context(locale: "en-US"))
    _ = cache.formatter(for: Pinned.context(locale: "en-US").now(Pinned.now.addingTimeInterval(60)), layout: .ndjson)
    _ = cache.formatter(for: Pinned.context(locale: "fr-FR"))
    #expect(cache.statistics == .init(hits: 1, misses: 2, evictions: 0, count: 2, capacity: 2))
    _ = cache.formatter(for: Pinned.context(locale: "de-DE"))
    _ = cache.formatter(for: Pinned.context(locale: "en-US"))
    #expect(cache.statistics == .init(hits: 1, misses: 4, evictions: 2, count: 2, capacity: 2))
  }
}
