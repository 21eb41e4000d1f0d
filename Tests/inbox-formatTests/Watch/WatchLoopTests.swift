import Foundation
import InboxFormat
import Testing

@testable import InboxFormatCLI

/// The watch loop driven by a script of file changes and a clock moved by
/// hand: every rollover and change happens on cue, without sleeping.
@Suite struct WatchLoopTests {
  /// A message from 09:45 Paris on 31 January 2022.
  static let morning = #"{"items":[{"id":1,"firstname":"Ann","update_date":"2022-01-31T09:45:00+01:00"}]}"#

  @Test func rendersAtStartThenAtMidnightWithoutAChange() throws {
    let watch = Harness(file: Self.morning, now: "2022-01-31T23:59:57+01:00")
    try watch.run([.timePasses(to: "2022-02-01T00:00:05+01:00")])
    #expect(watch.shownDates == ["9:45\u{202F}AM", "Yesterday"])
    // Midnight in Paris, then the next one: one timer at a time, no polling.
    #expect(watch.deadlines == [instant("2022-02-01T00:00:00+01:00"), instant("2022-02-02T00:00:00+01:00")])
  }

  @Test func aMidnightSkippedByDSTIsWaitedForUntilTheEndOfTheGap() throws {
    // São Paulo went from 23:59:59 on 3 November 2018 to 01:00 on the 4th.
    let watch = Harness(
      file: #"[{"id":1,"firstname":"Bia","update_date":"2018-11-03T10:00:00-03:00"}]"#,
      now: "2018-11-03T23:59:00-03:00", timeZone: "America/Sao_Paulo")
    try watch.run([.timePasses(to: "2018-11-04T01:00:30-02:00")])
    #expect(watch.deadlines.first == instant("2018-11-04T01:00:00-02:00"))
    #expect(watch.shownDates == ["10:00\u{202F}AM", "Yesterday"])
  }

  @Test func aTimerThatTheClockReadsAsEarlyStillShowsTheNewDay() throws {
    let watch = Harness(file: Self.morning, now: "2022-01-31T23:59:57+01:00")
    watch.events.clockReadsDeadlinesEarlyBy = 0.001
    try watch.run([.timePasses(to: "2022-02-01T00:00:05+01:00")])
    #expect(watch.shownDates == ["9:45\u{202F}AM", "Yesterday"])
    #expect(watch.deadlines.count == 2)
  }

  @Test func followsTheFileAndKeepsTheLastGoodRowsWhenItDoesNotDecode() throws {
    let watch = Harness(file: Self.morning, now: "2022-01-31T12:00:00Z")
    try watch.run([
      .write(Self.morning.replacingOccurrences(of: "Ann", with: "Bob")),
      .write(#"{"items":[{"id":1,"#),
      .write(Self.morning.replacingOccurrences(of: "Ann", with: "Cid")),
    ])
    #expect(watch.shownTitles == ["Ann", "Bob", "Cid"])
    #expect(watch.failedLoads == 1)
  }

  @Test func aBadFileKeepsItsRowsUpToDateWithTheClock() throws {
    let watch = Harness(file: Self.morning, now: "2022-01-31T23:00:00+01:00")
    try watch.run([.write("{"), .timePasses(to: "2022-02-01T00:00:01+01:00")])
    #expect(watch.shownDates == ["9:45\u{202F}AM", "Yesterday"])
  }

  @Test func aFileThatDoesNotDecodeAtStartIsShownOnceItDoes() throws {
    let watch = Harness(file: "not json", now: "2022-01-31T12:00:00Z")
    try watch.run([.timePasses(to: "2022-02-03T00:00:00Z"), .write(Self.morning)])
    #expect(watch.deadlines.first == .some(nil))
    #expect(watch.shownDates == ["Monday"])
  }

  @Test func aFrozenClockNeverAsksForADeadline() throws {
    let watch = Harness(file: Self.morning, now: "2022-01-31T12:00:00Z")
    watch.frozen = true
    try watch.run([.write(Self.morning), .redraw])
    #expect(watch.deadlines == [nil, nil, nil])
    #expect(watch.shownDates == Array(repeating: "9:45\u{202F}AM", count: 3))
  }

  @Test func aRedrawShowsTheSameRowsWithoutReadingTheFile() throws {
    let watch = Harness(file: Self.morning, now: "2022-01-31T12:00:00Z")
    try watch.run([.redraw])
    #expect(watch.shownTitles == ["Ann", "Ann"])
    #expect(watch.loads == 0)
  }

  static let diskFull = OutputFault(output: #""ui.json""#, reason: "No space left on device")

  @Test func anOutputThatCannotBeWrittenIsReportedOnceAndWrittenWhenItCan() throws {
    let watch = Harness(file: Self.morning, now: "2022-01-31T12:00:00Z")
    watch.faults = [Self.diskFull, Self.diskFull]
    // The start fails, the retry a second later fails, the one two seconds
    // after that succeeds; then nothing is pending until midnight.
    try watch.run([.timePasses(to: "2022-01-31T12:00:10Z")])
    #expect(watch.shownTitles == ["Ann"])
    #expect(
      watch.deadlines.prefix(3) == [
        instant("2022-01-31T12:00:01Z"), instant("2022-01-31T12:00:03Z"), instant("2022-02-01T00:00:00+01:00"),
      ])
    #expect(
      watch.reports == [
        #"inbox-format: cannot write "ui.json": No space left on device; the last output stays, trying again"#,
        #"inbox-format: wrote "ui.json" again"#,
      ])
  }

  @Test func aChangeIsWrittenWhileAFaultWaitsAndClearsIt() throws {
    let watch = Harness(file: Self.morning, now: "2022-01-31T12:00:00Z")
    watch.faults = [Self.diskFull]
    try watch.run([.write(Self.morning.replacingOccurrences(of: "Ann", with: "Bob"))])
    #expect(watch.shownTitles == ["Bob"])
    #expect(watch.reports.count == 2)
    #expect(watch.deadlines.last == instant("2022-02-01T00:00:00+01:00"))
  }

  @Test func retriesWaitTwiceAsLongEachTimeUpToAMinute() throws {
    let watch = Harness(file: Self.morning, now: "2022-01-31T12:00:00Z")
    watch.faults = Array(repeating: Self.diskFull, count: 9)
    try watch.run([.timePasses(to: "2022-01-31T12:10:00Z")])
    let start = instant("2022-01-31T12:00:00Z")
    let waits = watch.deadlines.prefix(9).map { $0!.timeIntervalSince(start) }
    #expect(waits == [1, 3, 7, 15, 31, 63, 123, 183, 243])
    // One line for the fault, however many attempts, and one for the recovery.
    #expect(watch.reports.count == 2)
    #expect(watch.shownTitles == ["Ann"])
  }

  @Test func aRetryBeforeMidnightDoesNotShowTomorrowsLabels() throws {
    // The retry comes half a second before midnight: it shows today's label.
    let watch = Harness(file: Self.morning, now: "2022-01-31T23:59:58.5+01:00")
    watch.faults = [Self.diskFull]
    try watch.run([.timePasses(to: "2022-02-01T00:00:02+01:00")])
    #expect(watch.shownDates == ["9:45\u{202F}AM", "Yesterday"])
  }

  @Test func anotherErrorFromShowEndsTheWatch() {
    struct Broken: Error {}
    let watch = Harness(file: Self.morning, now: "2022-01-31T12:00:00Z")
    watch.faults = [Broken()]
    #expect(throws: Broken.self) { try watch.run([.redraw]) }
  }

  @Test func aClockStartedElsewhereRunsWithTheSystemClock() throws {
    let start = instant("2022-01-31T23:59:57+01:00")
    let clock = RunningClock(startingAt: start, systemNow: Date())
    #expect(abs(clock.now().timeIntervalSince(start)) < 1)
    let midnight = instant("2022-02-01T00:00:00+01:00")
    let systemMidnight = try #require(clock.systemTime(whenReading: midnight))
    #expect(abs(systemMidnight.timeIntervalSinceNow - 3) < 1)
    #expect(FrozenClock(instant: start).systemTime(whenReading: midnight) == nil)
  }
}

/// Bursts of inotify events coalesce into one render.
@Suite struct WatchEventBurstTests {
  let start = ContinuousClock.now

  @Test func settlesFiftyMillisecondsAfterItsLastEvent() {
    var burst = EventBurst(at: start)
    burst.add(at: start + .milliseconds(30))
    #expect(burst.settlesAt == start + .milliseconds(80))
    #expect(burst.timeout(from: start + .milliseconds(30)) == 50)
    #expect(burst.timeout(from: start + .milliseconds(79) + .microseconds(1)) == 1)
    #expect(burst.timeout(from: start + .seconds(1)) == 0)
  }

  @Test func aFileThatKeepsChangingIsStillShownAfterAQuarterSecond() {
    var burst = EventBurst(at: start)
    for step in 1...10 { burst.add(at: start + .milliseconds(40 * step)) }
    #expect(burst.settlesAt == start + .milliseconds(250))
  }
}

private func instant(_ text: String) -> Date {
  try! Date(text, strategy: .iso8601)
}

/// A watch loop over a fake file, a hand-moved clock and a script, rendering
/// JSON with the library's formatter.
private final class Harness {
  let file: FakeFile
  let clock: ManualClock
  var events: ScriptedEvents
  let timeZone: String
  var frozen = false
  private(set) var shown: [[[String: Any]]] = []
  /// What the next shows throw, one each, before they succeed again.
  var faults: [any Error] = []
  private(set) var reports: [String] = []
  private(set) var loads = 0
  private(set) var failedLoads = 0
  private(set) var deadlines: [Date?] = []

  init(file contents: String, now: String, timeZone: String = "Europe/Paris") {
    file = FakeFile(contents: contents)
    clock = ManualClock(current: instant(now))
    events = ScriptedEvents(clock: clock, file: file)
    self.timeZone = timeZone
  }

  var shownDates: [String] { shown.flatMap { $0.map { $0["date"] as? String ?? "" } } }
  var shownTitles: [String] { shown.flatMap { $0.map { $0["title"] as? String ?? "" } } }

  func run(_ steps: [ScriptedEvents.Step]) throws {
    events.steps = steps
    let formatter = InboxFormatter(
      context: FormattingContext(
        now: Date(timeIntervalSince1970: 0), locale: Locale(identifier: "en-US"),
        timeZone: TimeZone(identifier: timeZone)!))
    var loop = WatchLoop(
      clock: frozen ? FrozenClock(instant: clock.current) : clock, events: events,
      load: {
        self.loads += 1
        return Array(self.file.contents.utf8)
      },
      render: { payload, now, isNew in
        var output: [UInt8] = []
        do {
          let validUntil = try formatter.now(now).format(payload) { output += $0 }
          return Frame(output: output, validUntil: validUntil)
        } catch {
          if isNew { self.failedLoads += 1 }
          throw error
        }
      },
      show: { output in
        if !self.faults.isEmpty { throw self.faults.removeFirst() }
        self.shown.append(try JSONSerialization.jsonObject(with: Data(output)) as! [[String: Any]])
      },
      report: { self.reports.append($0) })
    try loop.run(initial: Array(file.contents.utf8))
    deadlines = loop.events.deadlines
  }
}

private final class FakeFile {
  var contents: String
  init(contents: String) { self.contents = contents }
}

private final class ManualClock: WatchClock {
  var current: Date
  init(current: Date) { self.current = current }
  func now() -> Date { current }
  func systemTime(whenReading instant: Date) -> Date? { instant }
  func systemNow() -> Date { current }
}

/// Plays `steps`: a file change is one event; time passing fires every
/// deadline it reaches on the way. When the script ends, the watch stops.
private struct ScriptedEvents: WatchEventSource {
  enum Step {
    case write(String)
    case timePasses(to: String)
    case redraw
  }

  let clock: ManualClock
  let file: FakeFile
  var steps: [Step] = []
  /// Makes the clock read a fired deadline as this many seconds before it.
  var clockReadsDeadlinesEarlyBy: TimeInterval = 0
  private(set) var deadlines: [Date?] = []

  init(clock: ManualClock, file: FakeFile) {
    self.clock = clock
    self.file = file
  }

  mutating func next(until deadline: Date?) -> WatchEvent {
    deadlines.append(deadline)
    // A loop that keeps asking would hang the test; fail it instead.
    guard deadlines.count < 50 else {
      Issue.record("the loop asked for too many events: \(deadlines.suffix(3))")
      return .stop
    }
    while let step = steps.first {
      switch step {
      case .write(let contents):
        steps.removeFirst()
        file.contents = contents
        return .fileChanged
      case .redraw:
        steps.removeFirst()
        return .redraw
      case .timePasses(let end):
        if let deadline, deadline <= instant(end) {
          clock.current = max(clock.current, deadline - clockReadsDeadlinesEarlyBy)
          return .deadline
        }
        clock.current = instant(end)
        steps.removeFirst()
      }
    }
    return .stop
  }
}
