import Foundation

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

  /// A formatter for `context`, at its instant, laid out as `layout` says
  /// and reading payloads as `mapping` says: made on the first call for
  /// these settings, kept for the next ones.
  public func formatter(
    for context: FormattingContext, layout: InboxEncoder.Layout = .compact, mapping: InputMapping = .post
  ) -> InboxFormatter {
    kept.value(for: context.now(Self.keptNow)) { InboxFormatter(context: context.now(Self.keptNow)) }
      .now(context.now).layout(layout).mapping(mapping)
  }
}
