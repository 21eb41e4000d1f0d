import Foundation
import HTTPTypes
import Hummingbird
import InboxFormat
import InboxFormatOptions
import InboxFormatSupport
import NIOCore
import ServiceLifecycle

/// `GET /events`: the preview's screens as server-sent events, one `render`
/// event each time what they show changes.
///
/// A stream renders at once, again after each reading of the file, and
/// again at the instant the first label shown goes stale (one sleep until
/// then, no polling; none on a frozen clock). It ends when the client goes,
/// or when the server shuts down.
struct PreviewEvents: Sendable {
  let configuration: ServerConfiguration
  let preview: PreviewConfiguration
  let names: SettingsResolver
  let formatters: InboxFormatterCache
  /// The streams open now, for the metrics.
  let streams: OpenCount
  /// The rows of the latest payloads, by screen and instant: a page that
  /// scrolls a large file asks for another window of the same rows, which
  /// are then not made again.
  let madeRows = BoundedCache<MadeRows.Key, MadeRows>(capacity: PreviewConfiguration.mostLocales)

  /// The keys of the rows the page shows: the six of every row, what a
  /// screen reader says of the date, each text's direction and the avatar's
  /// colour.
  static let fields = RowField.defaults + [.spokenDate, .titleDirection, .messageDirection, .avatarColor]
  /// With a mock beside the screens: every field, so that any key the mock
  /// has is compared.
  static let comparedFields = RowField.all

  func respond(to request: Request) throws -> Response {
    let query = try PreviewQuery(request.uri.query, names: names)
    let locales = query.locales ?? preview.locales
    let fields = preview.expected == nil ? Self.fields : Self.comparedFields
    let screens = locales.map { locale in
      var settings = query.settings
      settings.locale = locale
      // Each screen's instant is the stream's, given at each render.
      let context = settings.applied(to: configuration.defaults).fields(fields)
      let formatter = formatters.formatter(for: context, mapping: configuration.mapping)
      return Screen(locale: locale, formatter: formatter, settings: context)
    }
    let shown = query.settings.applied(to: configuration.defaults)
    var settingsObject = JSONObject()
    settingsObject.add("file", string: preview.fileName)
    settingsObject.add("locale", string: locales.map { $0.identifier(.bcp47) }.joined(separator: ","))
    settingsObject.add("timeZone", string: shown.timeZone.identifier)
    settingsObject.add("hourCycle", string: shown.hourCycle?.description ?? "")
    settingsObject.add("dateStyle", string: shown.dateStyle.name)
    settingsObject.add("offset", integer: Int64(query.offset))
    settingsObject.add("expected", string: preview.expected?.fileName ?? "")
    settingsObject.add("mapping", string: configuration.mapping.name)
    settingsObject.add("viewer", string: configuration.mapping.viewer ?? "")
    let clock = configuration.frozenNow.map(StreamClock.frozen) ?? .running(configuration.clock)
    settingsObject.add("clock", string: clock.isRunning ? "running" : "frozen")
    let render = Render(
      screens: screens, settings: settingsObject.text, offset: TimeInterval(query.offset), clock: clock,
      expectedName: preview.expected?.fileName ?? "", window: query.count.map { (query.start ?? 0, $0) },
      firstRow: query.start ?? 0, madeRows: madeRows)
    let source = preview.source
    let expected = preview.expected?.source
    let streams = self.streams
    // Renders at once, then waits for the next reading or the next stale
    // label. The client going ends it, and so does the server's shutdown:
    // both end the wait. A client that goes closes the connection's input,
    // which ends the wait at once, since on a frozen clock and an unchanged
    // file nothing would be written that could fail.
    return Response(
      status: .ok,
      headers: [.contentType: "text/event-stream; charset=utf-8", .cacheControl: "no-store"],
      body: ResponseBody { writer in
        streams.open()
        defer { streams.close() }
        // A client that lost the stream tries again after a second.
        try await writer.write(ByteBuffer(string: "retry: 1000\n\n"))
        let (wakes, wake) = AsyncStream<Wake>.makeStream(bufferingPolicy: .bufferingNewest(2))
        try await request.body.consumeWithInboundCloseHandler { _ in
          try await stream(to: &writer, wakes: wakes, wake: wake, render: render, source: source, expected: expected)
        } onInboundClosed: {
          wake.finish()
        }
        try await writer.finish(nil)
      })
  }

  /// Writes a `render` event at once and after each wake, until `wakes` ends.
  private func stream(
    to writer: inout any ResponseBodyWriter, wakes: AsyncStream<Wake>, wake: AsyncStream<Wake>.Continuation,
    render: Render, source: PreviewSource, expected: PreviewSource?
  ) async throws {
    // The next reading of the file, or of the mock, wakes the stream.
    let readings = [source.changes()] + (expected.map { [$0.changes()] } ?? [])
    let reading = readings.map { changes in
      Task {
        for await _ in changes { wake.yield(.read) }
      }
    }
    var timer: Task<Void, Never>?
    defer {
      for task in reading { task.cancel() }
      timer?.cancel()
    }
    try await withGracefulShutdownHandler {
      var validUntil: Date?
      var event = Wake.read
      var iterator = wakes.makeAsyncIterator()
      while true {
        // Woken by its timer, a stream renders as of the stale instant at
        // least: the clock's reading may round a hair below it.
        let frame = render.frame(
          notBefore: event == .stale ? validUntil : nil, document: source.document, expected: expected?.document)
        try await writer.write(ByteBuffer(string: frame.event))
        validUntil = frame.validUntil
        timer?.cancel()
        timer = frame.wait.map { wait in
          Task {
            try? await Task.sleep(for: .seconds(wait))
            if !Task.isCancelled { wake.yield(.stale) }
          }
        }
        guard let next = await iterator.next() else { break }
        event = next
      }
    } onGracefulShutdown: {
      wake.finish()
    }
  }

  /// What wakes a stream.
  private enum Wake: Sendable {
    case read, stale
  }
}

/// The clock of a stream, before the page's move.
private enum StreamClock: Sendable {
  /// At the server's `now`: labels never go stale.
  case frozen(Date)
  /// The server's clock: labels go stale while a page looks.
  case running(@Sendable () -> Date)

  var isRunning: Bool {
    if case .running = self { true } else { false }
  }

  func now() -> Date {
    switch self {
    case .frozen(let instant): instant
    case .running(let clock): clock()
    }
  }
}

/// A payload's rows for one screen at one instant, from its first: all of
/// them, or as many as the windows asked for so far needed.
struct MadeRows: Sendable {
  struct Key: Hashable, Sendable {
    var version: Int
    var settings: FormattingContext
    var now: Date
  }

  /// Each row's JSON.
  var rows: [Substring]
  /// When the first label of these rows goes stale; nil when none does.
  var validUntil: Date?
  /// Whether these are all the payload's rows.
  var isComplete: Bool
}

/// One locale's screen.
private struct Screen: Sendable {
  let locale: Locale
  let formatter: InboxFormatter
  /// What its formatter was made for (at any instant): its rows are kept under it.
  let settings: FormattingContext
  /// Right to left for Arabic, Hebrew, Persian and the like: the page lays
  /// the screen out that way.
  let direction: TextDirection

  init(locale: Locale, formatter: InboxFormatter, settings: FormattingContext) {
    self.locale = locale
    self.formatter = formatter
    self.settings = settings
    let isRightToLeft = Locale.Language(identifier: locale.identifier).characterDirection == .rightToLeft
    direction = isRightToLeft ? .rightToLeft : .leftToRight
  }
}

/// A render of a stream's screens: the event written, and when to render again.
private struct Render: Sendable {
  let screens: [Screen]
  /// The settings the screens were made with, as a JSON object: the page
  /// shows them in its controls.
  let settings: String
  /// How far the page moved the clock.
  let offset: TimeInterval
  /// The clock before the page's move.
  let clock: StreamClock
  /// The mock's name as the page shows it, for its problems.
  let expectedName: String
  /// The rows the page asked for (first index, count); nil when it named
  /// no count: the whole file when it is small, else a first window.
  let window: (start: Int, count: Int)?
  /// Where a first window starts: the page's `start` without a `count`.
  let firstRow: Int
  let madeRows: BoundedCache<MadeRows.Key, MadeRows>

  struct Frame {
    /// The `render` event, ready to write.
    var event: String
    /// When the first label shown goes stale; nil when none does.
    var validUntil: Date?
    /// Seconds until then on a running clock; nil on a frozen one, or when
    /// nothing goes stale.
    var wait: TimeInterval?
  }

  func now() -> Date {
    clock.now().addingTimeInterval(offset)
  }

  func frame(notBefore floor: Date?, document: PreviewDocument, expected: PreviewDocument?) -> Frame {
    var now = now()
    if let floor, floor > now { now = floor }
    var problem = document.problem ?? expected?.problem
    // The mock's rows, read as `check` reads EXPECTED; its watcher passes
    // only readings that are.
    let expectedRows = expected?.payload.flatMap { try? RowCheck.expectedRows(decoding: $0) }
    var validUntil: Date?
    var screenObjects: [String] = []
    for screen in screens {
      var rows = "null"
      var comparison = "null"
      var total = 0
      var first = 0
      if let payload = document.payload {
        do {
          // Beside a mock, every row: the comparison pairs them all. Else a
          // window, when the page names one or the file is large.
          var asked: (start: Int, count: Int)?
          if expectedRows == nil {
            asked = window
            if asked == nil, let rowCount = document.rowCount, rowCount > PreviewConfiguration.wholeFileRows {
              asked = (firstRow, PreviewConfiguration.firstWindow)
            }
          }
          let key = MadeRows.Key(version: document.version, settings: screen.settings, now: now)
          let made = try madeRows(
            key, of: payload, with: screen.formatter.now(now), upTo: asked.map { $0.start + $0.count })
          total = made.isComplete ? made.rows.count : document.rowCount ?? made.rows.count
          var shown = made.rows[...]
          if let asked {
            first = min(asked.start, made.rows.count)
            shown = made.rows[first..<min(made.rows.count, first + asked.count)]
          }
          // One line: an event's data ends at a line break.
          rows = "[" + shown.joined(separator: ",") + "]"
          if let expectedRows {
            comparison = try Self.comparison(expected: expectedRows, rows: Array(rows.utf8))
          }
          if let screenValidUntil = made.validUntil {
            validUntil = min(validUntil ?? screenValidUntil, screenValidUntil)
          }
        } catch let error as RowCheck.Unusable {
          problem = problem ?? "\(expectedName): \(error.reason)"
        } catch {
          // A payload that decoded once decodes again; should it not, it is said.
          problem = problem ?? "\(error)"
        }
      }
      var object = JSONObject()
      object.add("locale", string: screen.locale.identifier(.bcp47))
      object.add("direction", string: screen.direction.rawValue)
      object.add("start", integer: Int64(first))
      object.add("total", integer: Int64(total))
      object.add("expected", json: comparison)
      // Last: a screen's object ends with its rows.
      object.add("rows", json: rows)
      screenObjects.append(object.text)
    }
    var object = JSONObject()
    object.add("now", string: InboxFormatter.utcText(roundingDown: now))
    object.add("settings", json: settings)
    object.add("problem", json: problem.map { jsonStringLiteral($0) } ?? "null")
    object.add("screens", json: "[" + screenObjects.joined(separator: ",") + "]")
    let wait = clock.isRunning ? validUntil.map { max(0, $0.timeIntervalSince(now)) } : nil
    return Frame(event: "event: render\ndata: \(object.text)\n\n", validUntil: validUntil, wait: wait)
  }
}

extension Render {
  /// The rows of `payload` up to `limit` (all of them when nil), as kept
  /// under `key` or made now. Making stops once `limit` rows are written, so
  /// that the first window of a large file costs its rows, not the file's;
  /// a window further on makes the rows up to its end, once.
  func madeRows(_ key: MadeRows.Key, of payload: [UInt8], with formatter: InboxFormatter, upTo limit: Int?) throws
    -> MadeRows
  {
    if let kept = madeRows.kept(key), kept.isComplete || limit.map({ kept.rows.count >= $0 }) == true {
      return kept
    }
    /// Thrown by the writer to stop making rows.
    struct Enough: Error {}
    var bytes: [UInt8] = []
    var lines = 0
    var validUntil: Date?
    var isComplete = true
    do {
      validUntil = try formatter.layout(.ndjson).format(payload) { chunk in
        bytes += chunk
        guard let limit else { return }
        lines += chunk.reduce(0) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
        if lines >= limit { throw Enough() }
      }
    } catch is Enough {
      isComplete = false
      // The rows written so far: whole lines only.
      while let last = bytes.last, last != UInt8(ascii: "\n") { bytes.removeLast() }
      // The formatter tells when a label goes stale only once it has made
      // every row: a window renders again within a minute instead.
      validUntil = formatter.mapper.context.now.addingTimeInterval(PreviewConfiguration.windowRefresh)
    }
    let rows = String(decoding: bytes, as: UTF8.self).split(separator: "\n")
    let made = MadeRows(rows: rows, validUntil: validUntil, isComplete: isComplete)
    madeRows.keep(made, for: key)
    return made
  }

  /// A screen's rows against the mock's, compared by ``RowCheck`` as
  /// `check` compares them (without `--strict`), as the JSON the page draws:
  /// `rows` (the mock's), `pairs` (each a mock row's index and a payload
  /// row's, either null when that side lacks the row), `differences` (each
  /// with its `pair`, its `kind`, and for a field its `key`, `expected`,
  /// `got` and whether it `counts`: a difference only in spaces or bidi
  /// marks does not) and `rowsDiffer` (the pairs with a difference that
  /// counts).
  static func comparison(expected: [CheckedRow], rows: [UInt8]) throws -> String {
    let actual = try JSONDecoder().decode([CheckedRow].self, from: Data(rows))
    let check = try RowCheck(expected: expected, actual: actual)
    let differences = check.differences
    var items: [String] = []
    for difference in differences {
      var item = JSONObject()
      item.add("pair", integer: Int64(difference.pair))
      switch difference.kind {
      case .field(let key, let want, let got, _):
        item.add("kind", string: "field")
        item.add("key", string: key)
        item.add("expected", json: want.json)
        item.add("got", json: got?.json ?? "null")
      case .missingRow:
        item.add("kind", string: "missingRow")
      case .unexpectedRow:
        item.add("kind", string: "unexpectedRow")
      }
      item.add("counts", json: difference.counts(strict: false) ? "true" : "false")
      items.append(item.text)
    }
    let pairs = check.pairs.map {
      "[\($0.expected.map(String.init) ?? "null"),\($0.actual.map(String.init) ?? "null")]"
    }
    var object = JSONObject()
    object.add("rows", json: RowCheck.jsonLine(expected))
    object.add("pairs", json: "[" + pairs.joined(separator: ",") + "]")
    object.add("differences", json: "[" + items.joined(separator: ",") + "]")
    object.add("rowsDiffer", integer: Int64(Set(differences.filter { $0.counts(strict: false) }.map(\.pair)).count))
    return object.text
  }
}
