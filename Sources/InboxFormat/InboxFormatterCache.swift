import Foundation
import InboxFormatSupport

/// Formatters kept by their settings, for a service that formats for many
/// viewers: the ICU work of a locale, zone and style is done once, and a
/// request pays only for its rows.
///
/// A formatter is kept for everything in its context but the instant
/// ``FormattingContext/now``, which ``InboxFormatter/now(_:)`` sets on a kept
/// one without making its ICU formatters again, and is handed out with the layout and mapping asked for.
/// At most `capacity` are kept; the one used longest ago makes room. The
/// cache is safe to share between threads and tasks.
///
/// ```swift
/// let formatters = InboxFormatterCache(capacity: 64)
/// // per request:
/// let formatter = formatters.formatter(for: context.now(requestTime), mapping: .builtIn(named: "sendbird")!)
/// try formatter.format(bytes: body) { chunk in … }
/// ```
public final class InboxFormatterCache: Sendable {
  private let kept: BoundedCache<FormattingContext, InboxFormatter>

  /// The instant every kept formatter's context holds.
  private static let keptNow = Date(timeIntervalSince1970: 0)

  /// Creates a cache that keeps at most `capacity` formatters (at least one).
  public init(capacity: Int) {
    kept = BoundedCache(capacity: capacity)
  }

  /// The most formatters kept.
  public var capacity: Int { kept.capacity }

  /// How many formatters are kept.
  public var count: Int { kept.count }

  /// What the cache has done since it was made, read at once: for a
  /// service's metrics, read when they are asked for, so that a request
  /// pays nothing more than its look-up.
  public var statistics: Statistics {
    let (hits, misses, evictions, count) = kept.statistics
    return Statistics(hits: hits, misses: misses, evictions: evictions, count: count, capacity: capacity)
  }

  /// The counts of an ``InboxFormatterCache``, as ``InboxFormatterCache/statistics`` reads them.
  ///
  /// `hits + misses` is the number of formatters asked for; every miss
  /// makes a formatter (two callers missing the same settings at once both
  /// make one, and the second is kept). ``hits``, ``misses`` and
  /// ``evictions`` only grow.
  public struct Statistics: Sendable, Hashable {
    /// Formatters asked for that were kept.
    public var hits: Int
    /// Formatters asked for that were not kept, and were made.
    public var misses: Int
    /// Formatters dropped to make room for another, the one used longest ago each time.
    public var evictions: Int
    /// Formatters kept now.
    public var count: Int
    /// The most formatters kept.
    public var capacity: Int

    /// Counts as given.
    public init(hits: Int, misses: Int, evictions: Int, count: Int, capacity: Int) {
      self.hits = hits
      self.misses = misses
      self.evictions = evictions
      self.count = count
      self.capacity = capacity
    }
  }

  /// A formatter for `context`, at its instant, laid out as `layout` says
  /// and reading payloads as `mapping` says: made on the first call for
  /// these settings, kept for the next ones.
  public func formatter(
    for context: FormattingContext, layout: InboxEncoder.Layout = .compact, mapping: InputMapping = .post
  ) -> InboxFormatter {
    kept.value(for: context.now(Self.keptNow)) { InboxFormatter(context: context.now(Self.keptNow)) }
      .now(context.now, layout: layout, mapping: mapping)
  }
}
