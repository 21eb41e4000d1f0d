package import Foundation
import InboxFormatOptions

/// What `inbox-format preview` adds to the service: the file it shows and
/// the screens shown until the page asks for others.
package struct PreviewConfiguration: Sendable {
  /// The file, as its watcher reads it.
  package var source: PreviewSource
  /// One screen per locale, side by side, in this order (`--locale en-US,ar-EG`).
  package var locales: [Locale]
  /// The file's name as the page's title shows it (already made safe to show).
  package var fileName: String
  /// The mock shown beside each screen (`--expect MOCK`), compared with
  /// the file's rows as `check` compares them; nil without one.
  package var expected: ExpectedFile?

  /// A file of expected rows, as its watcher reads it.
  package struct ExpectedFile: Sendable {
    /// Its latest reading that is a JSON array of row objects.
    package var source: PreviewSource
    /// Its name as the page shows it (already made safe to show).
    package var fileName: String

    package init(source: PreviewSource, fileName: String) {
      self.source = source
      self.fileName = fileName
    }
  }

  /// Creates the configuration of a preview of `source`.
  /// The clock is the server's: frozen at ``ServerConfiguration/frozenNow`` when
  /// that is set (labels then never go stale, and the page's moves shift the
  /// frozen instant), else ``ServerConfiguration/clock``, running.
  package init(source: PreviewSource, locales: [Locale], fileName: String, expected: ExpectedFile? = nil) {
    self.source = source
    self.locales = locales
    self.fileName = fileName
    self.expected = expected
  }

  /// The most screens side by side.
  package static let mostLocales = PreviewLimits.mostLocales
  /// A file of at most this many rows goes to the page whole; a larger one
  /// as a window of rows (`start`, `count` of `GET /events`), so that the
  /// page holds only the rows in view.
  static let wholeFileRows = 200
  /// The window of a larger file when the page names none.
  static let firstWindow = 100
  /// The largest window a page may ask for.
  static let largestWindow = 500
  /// Seconds after which a window of a large file renders again on a
  /// running clock: the formatter says when a label goes stale only after
  /// making every row, which a window does not.
  static let windowRefresh: TimeInterval = 60
  /// The farthest the page may move the clock, either way: a hundred years, in seconds.
  static let farthestMove = 3_155_760_000
}
