import Dispatch
import Foundation
import Synchronization
import Testing

@testable import InboxFormat

/// The pipeline run from the threads it hands batches to.
@Suite struct PipelineTests {
  /// A payload of `count` messages, several batches long.
  static func payload(messages count: Int) -> [UInt8] {
    let items = (0..<count).map { index in
      #"{"id":\#(index),"firstname":"Ann","lastname":"Lee","message":"Hi","update_date":"2022-01-31T08:45:33Z","unread_count":1}"#
    }
    return Array(("[" + items.joined(separator: ",") + "]").utf8)
  }

  /// Formatters running on every thread of the global queue at once (as a
  /// service's handlers may) each write the rows one alone writes, making
  /// the batches no worker has started themselves: were they only to wait
  /// for them, the queue would stand still until it started more threads
  /// (`Benchmarks/Results/2026-11-26-service.md`). A run that never ends
  /// stops the process, whose other tests need those threads too.
  @Test func formattersOnEveryThreadOfTheQueueFinish() throws {
    let payload = Self.payload(messages: Pipeline.batchSize * 3)
    let context = FormattingContext(
      now: Date(timeIntervalSince1970: 1_643_630_400), locale: Locale(identifier: "en-US"),
      timeZone: try #require(TimeZone(identifier: "Europe/Paris")))
    let formatter = InboxFormatter(context: context)
    let expected = try {
      var output: [UInt8] = []
      try formatter.format(payload) { output += $0 }
      return output
    }()
    let group = DispatchGroup()
    let outputs = Mutex<[[UInt8]]>([])
    for _ in 0...ProcessInfo.processInfo.activeProcessorCount {
      DispatchQueue.global().async(group: group) {
        var output: [UInt8] = []
        _ = try? formatter.format(payload) { output += $0 }
        outputs.withLock { $0.append(output) }
      }
    }
    guard group.wait(timeout: .now() + 60) == .success else {
      fatalError("formatters on every thread of the global queue did not finish within a minute")
    }
    #expect(outputs.withLock { $0 }.allSatisfy { $0 == expected })
    #expect(outputs.withLock { $0.count } == ProcessInfo.processInfo.activeProcessorCount + 1)
  }

  /// Messages still in the input's bytes go to the workers as plain values:
  /// an array of them is copied and freed as bytes, without visiting each
  /// one. A `String` or a reference in ``RawMessage`` would undo that.
  @Test func messagesInTheInputAreTrivialValues() {
    #expect(_isPOD(RawMessage.self))
    #expect(_isPOD(PendingMessages.Item.self))
  }

  /// Messages in the input's bytes and messages read into strings, appended
  /// in turn, come back in the order they were appended.
  @Test func pendingMessagesKeepTheirOrder() throws {
    let payload =
      Array(#"[{"id":"a\u0062","firstname":"Ann","update_date":"2022-01-31T08:45:33Z"},"#.utf8)
      + Array(#"{"id":"cd","firstname":"Bo","update_date":"2022-01-31T08:45:33Z"},"#.utf8)
      + Array(#"{"id":3,"firstname":"C\u00e9","update_date":"2022-01-31T08:45:33Z"}]"#.utf8)
    try payload.withUnsafeBufferPointer { bytes in
      var reader = InboxReader(bytes: bytes)
      var messages = PendingMessages()
      while try reader.appendNext(to: &messages) {}
      #expect(messages.count == 3)
      // The escaped id and the escaped name are read into strings; the middle message stays in the bytes.
      #expect(messages.decoded.count == 2)
      let read = (0..<messages.count).map { messages.message(at: $0, in: bytes) }
      #expect(read.map(\.id) == [.string("ab"), .string("cd"), .integer(3)])
      #expect(read.map(\.firstname) == ["Ann", "Bo", "Cé"])
    }
  }
}
