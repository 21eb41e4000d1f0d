package import Foundation
package import InboxFormat

/// Everything `inbox-format serve` is started with: where it listens, the
/// formatting defaults a request does not override, and its limits.
///
/// ```swift
/// var configuration = ServerConfiguration(defaults: FormattingContext(
///   now: Date(), locale: Locale(identifier: "en-US"), timeZone: TimeZone(identifier: "Europe/Paris")!))
/// configuration.port = 0  // any free port; `onListening` is told which
/// ```
package struct ServerConfiguration: Sendable {
  /// The address to bind: loopback unless told otherwise.
  package var host = "127.0.0.1"
  /// The port to bind; 0 takes any free one.
  package var port = 8080
  /// The settings of a request that does not name its own: the command's
  /// (`--locale`, `--time-zone`, …), resolved as `format` resolves them.
  /// Their `now` is never used: a request's instant is its `now`, else
  /// ``frozenNow``, else ``clock``'s.
  package var defaults: FormattingContext
  /// The instant of requests without `now` when the command froze the clock
  /// (`--now`, `SOURCE_DATE_EPOCH`); nil lets ``clock`` run.
  package var frozenNow: Date?
  /// The largest request body read, in bytes; a larger one gets 413 without being read whole.
  package var maxBodySize = 8 << 20
  /// How long a connection may stay idle, and how long a client has to send
  /// a request's head; each part of a request received starts it again.
  /// Also how long an answer the connection cannot take may wait without
  /// any of it being sent (its client does not read) before the connection closes.
  package var idleTimeout: Duration = .seconds(10)
  /// How long a client has to send a whole request body, from its head on:
  /// a client trickling its body holds nothing but its own connection, and
  /// that only this long.
  package var bodyTimeout: Duration = .seconds(30)
  /// The most requests formatted or answered at once, once their bodies
  /// are read; the next gets 503.
  package var maxRequestsInFlight = 256
  /// The most bytes of request bodies held at once, from the first byte
  /// read until the answer is written; a body that does not fit gets 503
  /// (its declared length is checked before any of it is read).
  package var maxBodyMemory = 128 << 20
  /// The most formatters kept (one per locale, time zone, hour cycle, preview
  /// length, fields, date style and badge limit).
  package var maxCachedFormatters = 64
  /// How long a graceful shutdown may take, once the drain delay is over,
  /// before what is left is cancelled.
  package var shutdownGracePeriod: Duration = .seconds(8)
  /// How long, from SIGTERM on, `GET /readyz` answers 503 while every
  /// request is still answered, before the server stops accepting.
  package var drainDelay: Duration = .zero
  /// The clock of requests without `now` when ``frozenNow`` is nil,
  /// and of `Expires`: the system clock, or a test's.
  package var clock: @Sendable () -> Date = { Date() }
  /// How a request without `map` is read: the post's mapping unless
  /// `--map` says otherwise, with `--viewer`'s viewer.
  package var mapping = InputMapping.post
  /// The mappings a request may name with `map`: the built-in ones, then
  /// those of `--mappings DIR`, read at start.
  package var mappings = InputMapping.builtIns
  /// Whether `GET /metrics` answers the service's metrics in the
  /// Prometheus text format (``ServerMetrics``); `--no-metrics` turns it off,
  /// and the path is then a 404 like any other.
  package var metrics = true
  /// The command's version, which the metrics give as `inbox_format_build_info{version}`.
  package var version = "unknown"
  /// The file and screens of `inbox-format preview`, which adds its page
  /// (`GET /`) and its events (`GET /events`) to the service; nil for `serve`.
  package var preview: PreviewConfiguration?
  /// Called once the server listens, with the address and the port bound
  /// (the real one when ``port`` is 0).
  package var onListening: (@Sendable (_ host: String, _ port: Int) -> Void)?

  /// Creates a configuration with the defaults of `inbox-format serve`.
  package init(defaults: FormattingContext, frozenNow: Date? = nil) {
    self.defaults = defaults
    self.frozenNow = frozenNow
  }
}
