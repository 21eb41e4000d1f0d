import Foundation
import HTTPTypes
import Hummingbird
import InboxFormat
import InboxFormatOptions
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
  let settings: SettingsResolver
  let formatters: BoundedCache<FormatterKey, InboxFormatter>

  /// The keys of the rows the page shows: the six of every row, what a
  /// screen reader says of the date, each text's direction and the avatar's
  /// colour.
  static let fields = RowField.defaults + [.spokenDate, .titleDirection, .messageDirection, .avatarColor]
  /// With a mock beside the screens: every field, so that any key the mock
  /// has is compared.
  static let comparedFields = RowField.all

  func respond(to request: Request) throws -> Response {
    let query = try PreviewQuery(request.uri.query, settings: settings)
    let defaults = configuration.defaults
    let locales = query.locales ?? preview.locales
    let timeZone = query.timeZone ?? defaults.timeZone
    let hourCycle = query.hourCycle ?? defaults.hourCycle
    let dateStyle = query.dateStyle ?? defaults.dateStyle
    let screens = locales.map { locale in
      let key = FormatterKey(
        locale: locale, timeZone: timeZone, hourCycle: hourCycle, previewLength: defaults.previewLength,
        fields: preview.expected == nil ? Self.fields : Self.comparedFields, dateStyle: dateStyle, badgeLimit: defaults.badgeLimit)
      let formatter = formatters.value(for: key, make: key.makeFormatter).mapping(configuration.mapping)
      return Screen(locale: locale, formatter: formatter)
    }
    var settingsObject = JSONObject()
    settingsObject.add("file", string: preview.fileName)
    settingsObject.add("locale", string: locales.map { $0.identifier(.bcp47) }.joined(separator: ","))
    settingsObject.add("timeZone", string: timeZone.identifier)
    settingsObject.add("hourCycle", string: hourCycle?.description ?? "")
    settingsObject.add("dateStyle", string: dateStyle.name)
    settingsObject.add("offset", integer: Int64(query.offset))
    settingsObject.add("expected", string: preview.expected?.fileName ?? "")
    settingsObject.add("mapping", string: configuration.mapping.name)
    settingsObject.add("viewer", string: configuration.mapping.viewer ?? "")
    let clock = defaults.now.map(StreamClock.frozen) ?? .running(configuration.clock)
    settingsObject.add("clock", string: clock.isRunning ? "running" : "frozen")
    let render = Render(
      screens: screens, settings: settingsObject.text, offset: TimeInterval(query.offset), clock: clock,
      expectedName: preview.expected?.fileName ?? "")
    let source = preview.source
    let expected = preview.expected?.source
    // Renders at once, then waits for the next reading or the next stale
    // label. The client going ends it, and so does the server's shutdown:
    // both end the wait. A client that goes closes the connection's input,
    // which ends the wait at once, since on a frozen clock and an unchanged
    // file nothing would be written that could fail.
    return Response(
      status: .ok,
      headers: [.contentType: "text/event-stream; charset=utf-8", .cacheControl: "no-store"],
      body: ResponseBody { writer in
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
      var staleAt: Date?
      var event = Wake.read
      var iterator = wakes.makeAsyncIterator()
      while true {
        // Woken by its timer, a stream renders as of the stale instant at
        // least: the clock's reading may round a hair below it.
        let frame = render.frame(
          notBefore: event == .stale ? staleAt : nil, document: source.document, expected: expected?.document)
        try await writer.write(ByteBuffer(string: frame.event))
        staleAt = frame.staleAt
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

/// One locale's screen.
private struct Screen: Sendable {
  let locale: Locale
  let formatter: InboxFormatter
  /// Right to left for Arabic, Hebrew, Persian and the like: the page lays
  /// the screen out that way.
  let direction: TextDirection

  init(locale: Locale, formatter: InboxFormatter) {
    self.locale = locale
    self.formatter = formatter
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

  struct Frame {
    /// The `render` event, ready to write.
    var event: String
    /// When the first label shown goes stale; nil when none does.
    var staleAt: Date?
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
    var staleAt: Date?
    var screenObjects: [String] = []
    for screen in screens {
      var rows = "null"
      var comparison = "null"
      if let payload = document.payload {
        var bytes: [UInt8] = []
        do {
          let screenStaleAt = try screen.formatter.now(now).format(payload) { bytes += $0 }
          // One line: an event's data ends at a line break.
          while bytes.last == UInt8(ascii: "\n") { bytes.removeLast() }
          rows = String(decoding: bytes, as: UTF8.self)
          if let expectedRows {
            comparison = try Self.comparison(expected: expectedRows, rows: bytes)
          }
          if let screenStaleAt { staleAt = min(staleAt ?? screenStaleAt, screenStaleAt) }
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
      object.add("expected", json: comparison)
      // Last: a screen's object ends with its rows.
      object.add("rows", json: rows)
      screenObjects.append(object.text)
    }
    var object = JSONObject()
    object.add("now", string: now.utcTextRoundedDown)
    object.add("settings", json: settings)
    object.add("problem", json: problem.map { jsonStringLiteral($0) } ?? "null")
    object.add("screens", json: "[" + screenObjects.joined(separator: ",") + "]")
    let wait = clock.isRunning ? staleAt.map { max(0, $0.timeIntervalSince(now)) } : nil
    return Frame(event: "event: render\ndata: \(object.text)\n\n", staleAt: staleAt, wait: wait)
  }
}

extension Render {
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
    let pairs = check.pairs.map { "[\($0.expected.map(String.init) ?? "null"),\($0.actual.map(String.init) ?? "null")]" }
    var object = JSONObject()
    object.add("rows", json: RowCheck.jsonLine(expected))
    object.add("pairs", json: "[" + pairs.joined(separator: ",") + "]")
    object.add("differences", json: "[" + items.joined(separator: ",") + "]")
    object.add("rowsDiffer", integer: Int64(Set(differences.filter { $0.counts(strict: false) }.map(\.pair)).count))
    return object.text
  }
}
