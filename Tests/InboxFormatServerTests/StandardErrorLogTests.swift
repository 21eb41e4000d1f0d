import Foundation
import Glibc
import HTTPTypes
import HummingbirdTesting
import InboxFormat
import InboxFormatSupport
import Logging
import SmallCases
import Testing

@testable import InboxFormatServer

@Suite struct StandardErrorLogTests {
  @Test func aLineKeepsPrintableTextAsItIs() {
    let line = #"info [InboxFormatServer] POST "/v1/rows" 200 0.412 ms 1436 B"#
    #expect(StandardErrorLogHandler.oneLine(line) == line)
    #expect(StandardErrorLogHandler.oneLine("Zoë 山田 مرحبا") == "Zoë 山田 مرحبا")
  }

  @Test func whatCouldDriveATerminalIsEscaped() {
    let line = "error: bad \u{1B}]0;title\u{07} \u{1B}[2J \u{9B}31m \u{202E}abc\nnext\u{2028}x\u{7F}"
    #expect(
      StandardErrorLogHandler.oneLine(line)
        == #"error: bad \u{1B}]0;title\u{7} \u{1B}[2J \u{9B}31m \u{202E}abc\u{A}next\u{2028}x\u{7F}"#)
  }

  static let hostile = "bad \u{1B}]0;title\u{07} \u{1B}[2J \u{9B}31m \u{202E}abc\nnext\u{2028}\"}{\\ \u{0}"

  /// An access line as text: the message, then the metadata it does not say.
  @Test func anAccessLineAsText() {
    let line = LogSink.line(
      time: "2022-01-31T12:00:00Z", level: .info, source: "InboxFormatServer",
      message: #"POST "/v1/rows" 200 0.412 ms 1436 B"#, metadata: Self.accessMetadata, format: .text)
    #expect(
      line == #"2022-01-31T12:00:00Z info [InboxFormatServer] POST "/v1/rows" 200 0.412 ms 1436 B request_id=abc-1"#
        + " trace_id=4bf92f3577b34da6a3ce929d0e0e4736")
  }

  /// A text line escapes what its message and metadata hold as a line
  /// escapes it, whatever part it is in; its time is written as it is.
  @Test func aTextLineIsOneInertLine() {
    let line = LogSink.line(
      time: "2022-01-31T12:00:00Z", level: .error, source: "NIO", message: Self.hostile,
      metadata: ["key": .string(Self.hostile), "count": .stringConvertible(3)], format: .text)
    #expect(
      line
        == "2022-01-31T12:00:00Z "
        + StandardErrorLogHandler.oneLine("error [NIO] \(Self.hostile) count=3 key=\(Self.hostile)"))
    #expect(!line.unicodeScalars.contains { isHiddenInAMessage($0) }, "\(line)")
  }

  /// Whatever text a message and a metadata value hold, the line says it as
  /// the rules do: as text, `oneLine` of the whole line after the time; as
  /// JSON, strings that read back as `oneLine` of the text. Every string of
  /// up to three characters of an alphabet of plain, escaped and hidden
  /// ones, so that the lines written as they are and those escaped are both
  /// compared.
  @Test func everyTextIsWrittenAsTheRulesSay() throws {
    let strings = everyString(of: ["a", " ", "\"", "\\", "é", "\u{1B}", "\u{202E}", "\n", "\u{7F}"], upTo: 3)
    for text in strings {
      let metadata: Logger.Metadata = ["key": .string(text), "path": .string(text)]
      let line = LogSink.line(
        time: "T", level: .info, source: "S", message: text, metadata: metadata, format: .text)
      #expect(
        line == "T " + StandardErrorLogHandler.oneLine("info [S] \(text) key=\(text)"), "\(text.debugDescription)")
      let json = LogSink.line(time: "T", level: .info, source: "S", message: text, metadata: metadata, format: .json)
      let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
      #expect(object["message"] as? String == StandardErrorLogHandler.oneLine(text), "\(text.debugDescription)")
      #expect(object["key"] as? String == StandardErrorLogHandler.oneLine(text), "\(text.debugDescription)")
      #expect(!json.unicodeScalars.contains { isHiddenInAMessage($0) })
    }
    #expect(strings.count == 1 + 9 + 81 + 729)
  }

  /// A line names its level as swift-log spells it, in either format.
  @Test(arguments: Logger.Level.allCases) func theLevelIsNamedAsSwiftLogNamesIt(level: Logger.Level) throws {
    let text = LogSink.line(time: "T", level: level, source: "S", message: "m", metadata: [:], format: .text)
    #expect(text == "T \(level) [S] m")
    let json = LogSink.line(time: "T", level: level, source: "S", message: "m", metadata: [:], format: .json)
    let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    #expect(object["level"] as? String == "\(level)")
  }

  static let accessMetadata: Logger.Metadata = [
    "method": "POST", "path": "/v1/rows", "status": .stringConvertible(200), "bytes": .stringConvertible(1436),
    "request_id": "abc-1", "trace_id": "4bf92f3577b34da6a3ce929d0e0e4736",
  ]

  /// An access line as JSON: one object, numbers as numbers.
  @Test func anAccessLineAsJSON() throws {
    let line = LogSink.line(
      time: "2022-01-31T12:00:00.123Z", level: .info, source: "InboxFormatServer",
      message: #"POST "/v1/rows" 200 0.412 ms 1436 B"#, metadata: Self.accessMetadata, format: .json)
    #expect(
      line == #"{"time":"2022-01-31T12:00:00.123Z","level":"info","source":"InboxFormatServer","#
        + #""message":"POST \"/v1/rows\" 200 0.412 ms 1436 B","bytes":1436,"method":"POST","path":"/v1/rows","#
        + #""request_id":"abc-1","status":200,"trace_id":"4bf92f3577b34da6a3ce929d0e0e4736"}"#)
  }

  /// Whatever a message or its metadata holds, a JSON line is one valid
  /// object of printable characters, whose strings read as the text line's.
  @Test func aJSONLineIsValidAndInert() throws {
    let metadata: Logger.Metadata = [
      "path": .string(Self.hostile), Self.hostile: "key", "message": "a second message",
      "list": [.string(Self.hostile), .stringConvertible(1.5)], "nested": ["k": .string("\u{1B}")],
      "infinite": .stringConvertible(Double.infinity),
    ]
    let line = LogSink.line(
      time: "2022-01-31T12:00:00.123Z", level: .error, source: "NIO", message: Self.hostile, metadata: metadata,
      format: .json)
    #expect(!line.unicodeScalars.contains { isHiddenInAMessage($0) }, "\(line)")
    let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    #expect(object["message"] as? String == StandardErrorLogHandler.oneLine(Self.hostile))
    #expect(object["path"] as? String == StandardErrorLogHandler.oneLine(Self.hostile))
    #expect(object["metadata.message"] as? String == "a second message")
    #expect(object["level"] as? String == "error")
    #expect(object["infinite"] as? String == "inf")
    #expect((object["list"] as? [Any])?.count == 2)
  }

  /// An access line appended directly is the line its record's message and
  /// metadata make, in either format: over paths of every string of up to
  /// three characters of plain, escaped and hidden ones and a path past the
  /// limit, with and without a trace, whole and aborted answers, and
  /// durations and sizes of every width.
  @Test(arguments: LogFormat.allCases) func anAccessLineIsTheLineItsRecordMakes(format: LogFormat) {
    let paths =
      everyString(of: ["/", "a", "\"", "\\", "é", "\u{1B}", "\u{202E}", "\n"], upTo: 3)
      + [String(repeating: "/abcdé", count: 40)]
    var compared = 0
    for path in paths {
      for (method, id, trace) in [
        ("POST", "abc-1", nil), ("GET", "5f3a9c01-2a", "4bf92f3577b34da6a3ce929d0e0e4736"), ("DELETE", "x", "t"),
      ] {
        for (status, bytes, microseconds, aborted) in [
          (200, 1436, 412, false), (404, 0, 0, false), (500, 123_456_789, 12_345_678, true), (301, 7, 1_000, true),
        ] {
          let record = AccessRecord(
            method: method, path: path, requestID: id, traceID: trace, status: status,
            elapsed: Milliseconds(.microseconds(microseconds)), bytes: bytes, aborted: aborted)
          let time = format == .json ? "2022-01-31T12:00:00.123Z" : "2022-01-31T12:00:00Z"
          let rule = LogSink.line(
            time: time, level: .info, source: "InboxFormatServer", message: record.message, metadata: record.metadata,
            format: format)
          var direct: [UInt8] = []
          LogSink.appendAccessLine(record, time: time, format: format, to: &direct)
          #expect(String(decoding: direct, as: UTF8.self) == rule, "\(record)")
          compared += 1
        }
      }
    }
    #expect(compared == (1 + 8 + 64 + 512 + 1) * 3 * 4)
  }

  /// Through the service's handler, an access line is appended directly
  /// only where the logger would write it as it is, and then says what the
  /// logger would say, from the same source.
  @Test func theServiceHandlersSinkTakesAccessLinesAsItsLoggerWould() async throws {
    let written = try await Self.linesWritten { sink in
      let logger = Logger(label: "test") { _ in StandardErrorLogHandler(level: .info, sink: sink) }
      #expect(StandardErrorLogHandler.sink(of: logger) === sink)
      var withMetadata = logger
      withMetadata[metadataKey: "replica"] = "a"
      #expect(StandardErrorLogHandler.sink(of: withMetadata) == nil)
      var provided = logger
      provided.handler.metadataProvider = Logger.MetadataProvider { ["k": "v"] }
      #expect(StandardErrorLogHandler.sink(of: provided) == nil)
      #expect(StandardErrorLogHandler.sink(of: Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }) == nil)

      let record = AccessRecord(
        method: "POST", path: "/v1/rows", requestID: "abc-1", traceID: nil, status: 200,
        elapsed: Milliseconds(.microseconds(412)), bytes: 1436)
      record.log(to: logger)
      sink.writeAccess(record)
    }
    let lines = written.map { $0.drop { $0 != "," } }
    #expect(lines.count == 2)
    #expect(lines.first == lines.last)
    #expect(lines.first?.hasPrefix(#","level":"info","source":"InboxFormatServer","message":"POST"#) == true)
  }

  /// The service writes each access line to its own handler's sink at
  /// `info`, and none when that handler's level is above it.
  @Test(arguments: [Logger.Level.info, .warning]) func accessLinesKeepTheHandlersLevel(level: Logger.Level)
    async throws
  {
    let written = try await Self.linesWritten { sink in
      let logger = Logger(label: "test") { _ in StandardErrorLogHandler(level: level, sink: sink) }
      try await withServer(.router, logger: logger) { client in
        _ = try await client.execute(uri: "/healthz", method: .get, headers: [requestIDField: "abc-1"])
      }
    }
    let lines = written.filter { $0.contains(#""request_id":"abc-1""#) }
    #expect(lines.count == (level == .info ? 1 : 0))
    #expect(lines.allSatisfy { $0.contains(#""message":"GET \"/healthz\" 200 "#) })
  }

  /// The lines a JSON sink over a pipe holds once `body` has written to it,
  /// flushed and read back.
  static func linesWritten(_ body: (LogSink) async throws -> Void) async throws -> [Substring] {
    var ends: [Int32] = [0, 0]
    #expect(pipe(&ends) == 0)
    let (readEnd, writeEnd) = (ends[0], ends[1])
    defer { close(readEnd) }
    let sink = LogSink(descriptor: writeEnd, capacity: 1 << 20, format: .json)
    do {
      try await body(sink)
    } catch {
      close(writeEnd)
      throw error
    }
    sink.flush()
    close(writeEnd)
    let text = String(
      decoding: FileHandle(fileDescriptor: readEnd, closeOnDealloc: false).readDataToEndOfFile(), as: UTF8.self)
    return text.split(separator: "\n")
  }

  /// The sink never makes a line wait for a descriptor that does not take
  /// it: past its capacity lines are dropped and counted, and the next line
  /// that fits follows a note of how many.
  @Test func aSlowDescriptorDropsAndCountsLines() throws {
    var ends: [Int32] = [0, 0]
    #expect(pipe(&ends) == 0)
    let (readEnd, writeEnd) = (ends[0], ends[1])
    defer { close(readEnd) }
    // More than a batch (written at once when a sink writes its own) fits.
    let sink = LogSink(descriptor: writeEnd, capacity: 128 << 10, format: .json)
    // Nobody reads the pipe yet: a writer on another thread fills it and blocks.
    let filler = [UInt8](repeating: UInt8(ascii: "x"), count: 1 << 20)
    let blocked = Thread {
      var offset = 0
      while offset < filler.count {
        let written = filler.withUnsafeBytes { write(writeEnd, $0.baseAddress! + offset, filler.count - offset) }
        if written <= 0 { break }
        offset += written
      }
    }
    blocked.start()
    Thread.sleep(forTimeInterval: 0.2)
    let start = ContinuousClock.now
    for index in 0..<10_000 {
      sink.write(level: .info, source: "test", message: "line \(index)", metadata: [:])
    }
    #expect(ContinuousClock.now - start < .seconds(5))
    let dropped = sink.droppedLines
    #expect(dropped > 5_000)
    // Drain the pipe on this side, then flush what the sink holds.
    let reader = FileHandle(fileDescriptor: readEnd, closeOnDealloc: false)
    var read = 0
    while read < filler.count { read += reader.availableData.count }
    Thread {
      sink.flush()
      sink.write(level: .info, source: "test", message: "after", metadata: [:])
      sink.flush()
      close(writeEnd)
    }.start()
    let text = String(decoding: reader.readDataToEndOfFile(), as: UTF8.self)
    let lines = text.split(separator: "\n")
    #expect(lines.allSatisfy { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) != nil })
    #expect(
      lines.dropLast().last?.contains(#""message":"\#(dropped) log lines dropped: standard error did not keep up""#)
        == true)
    #expect(lines.last?.contains(#""message":"after""#) == true)
    #expect(lines.count == 10_000 - dropped + 2)
  }
}
