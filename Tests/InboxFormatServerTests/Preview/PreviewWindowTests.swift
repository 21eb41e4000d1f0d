import Foundation
import GoldenCases
import InboxFormat
import InboxFormatOptions
import Testing

@testable import InboxFormatServer

/// `GET /events` for a large file (a window of rows) and beside a mock (`--expect`).
extension PreviewEventsTests {
  /// A payload of `count` messages in the post's shape, ids from 1.
  static func payload(messages count: Int) -> [UInt8] {
    let items = (1...count).map { index in
      #"{"id":\#(index),"firstname":"Person","lastname":"N\#(index)","message":"Message \#(index)","update_date":"2022-01-31T08:45:00Z","unread_count":1}"#
    }
    return Array(#"{"items":[\#(items.joined(separator: ","))]}"#.utf8)
  }

  @Test func aLargeFileGoesAsAWindowOfItsRowsWithItsTotal() async throws {
    let source = PreviewSource()
    // Counted, as the command's watcher counts them.
    source.update(payload: Self.payload(messages: 250), rows: 250)
    try await withServer(.live, previewConfiguration(source)) { client in
      let first = try EventReader(port: try #require(client.port), path: "/events")
      let screen = try #require((await first.next()?.data?["screens"] as? [[String: Any]])?.first)
      #expect(screen["total"] as? Int == 250)
      #expect(screen["start"] as? Int == 0)
      #expect((screen["rows"] as? [[String: Any]])?.count == PreviewConfiguration.firstWindow)
      let later = try EventReader(port: try #require(client.port), path: "/events?start=200&count=120")
      let window = try #require((await later.next()?.data?["screens"] as? [[String: Any]])?.first)
      let rows = try #require(window["rows"] as? [[String: Any]])
      #expect(window["total"] as? Int == 250)
      #expect(window["start"] as? Int == 200)
      #expect(rows.count == 50)
      #expect(rows.first?["id"] as? Int == 201)
      #expect(rows.last?["title"] as? String == "Person N250")
    }
  }

  @Test func aSmallFileGoesWhole() async throws {
    let source = PreviewSource()
    source.update(
      payload: Self.payload(messages: PreviewConfiguration.wholeFileRows), rows: PreviewConfiguration.wholeFileRows)
    try await withServer(.live, previewConfiguration(source)) { client in
      let events = try EventReader(port: try #require(client.port), path: "/events")
      let screen = try #require((await events.next()?.data?["screens"] as? [[String: Any]])?.first)
      #expect(screen["total"] as? Int == PreviewConfiguration.wholeFileRows)
      #expect((screen["rows"] as? [[String: Any]])?.count == PreviewConfiguration.wholeFileRows)
    }
  }

  @Test(arguments: [("count=0", "count"), ("count=501", "count"), ("start=-1", "start"), ("start=1e3", "start")])
  func aWindowThatCannotBeUsedIs400NamingIt(query: String, parameter: String) async throws {
    try await withServer(.router, previewConfiguration(PreviewSource())) { client in
      try await client.execute(uri: "/events?\(query)", method: .get) { response in
        #expect(response.status == .badRequest)
        let problem = try ProblemBody(response)
        #expect(problem.parameter == parameter)
      }
    }
  }

  /// The post's mock beside the example: each field `check`'s comparison
  /// (``RowCheck``) finds between it and the screen's golden rows, then none
  /// once the mock agrees (a plain space for U+202F noted, not counted).
  @Test func besideAMockEachScreenCarriesCheckDifferences() async throws {
    let source = PreviewSource()
    source.update(payload: Array(examplePayload.readableBytesView))
    let mock = PreviewSource()
    let mockURL = dataDirectory.appendingPathComponent("examples/messages.mock.json")
    let mockBytes = Array(try Data(contentsOf: mockURL))
    mock.update(payload: mockBytes)
    let screen = GoldenCase.messagesScreen
    let check = try RowCheck(
      expected: RowCheck.expectedRows(decoding: mockBytes),
      actual: RowCheck.expectedRows(decoding: Array(try Data(contentsOf: screen.expectedURL))))
    let expected: [(pair: Int, key: String)] = check.differences.compactMap { difference in
      guard case .field(let key, _, _, _) = difference.kind else { return nil }
      return (difference.pair, key)
    }
    let rowsDiffer = Set(check.differences.filter { $0.counts(strict: false) }.map(\.pair)).count
    #expect(expected.first?.key == "date" && expected.first?.pair == 0, "\(expected)")
    // The mock made to agree: the golden texts, row 1's date with a plain space.
    let keys = ["initials", "title", "message", "date"]
    let golden = keys.map { screen.expected($0) }
    var agreeingRows = try #require(JSONSerialization.jsonObject(with: Data(mockBytes)) as? [[String: Any]])
    for pair in agreeingRows.indices {
      for (index, key) in keys.enumerated() { agreeingRows[pair][key] = golden[index][pair] }
    }
    agreeingRows[0]["date"] = golden[3][0].replacingOccurrences(of: "\u{202F}", with: " ")
    let agreeing = String(decoding: try JSONSerialization.data(withJSONObject: agreeingRows), as: UTF8.self)
    var configuration = previewConfiguration(source)
    configuration.preview?.expected = PreviewConfiguration.ExpectedFile(source: mock, fileName: "\"mock.json\"")
    try await withServer(.live, configuration) { client in
      let events = try EventReader(port: try #require(client.port), path: "/events")
      let render = try #require(await events.next())
      #expect((render.data?["settings"] as? [String: Any])?["expected"] as? String == "\"mock.json\"")
      let screenEvent = try #require((render.data?["screens"] as? [[String: Any]])?.first)
      let compared = try #require(screenEvent["expected"] as? [String: Any])
      #expect(compared["rowsDiffer"] as? Int == rowsDiffer)
      let differences = try #require(compared["differences"] as? [[String: Any]])
      #expect(differences.map { $0["key"] as? String } == expected.map(\.key))
      #expect(differences.map { $0["pair"] as? Int } == expected.map(\.pair))
      #expect(differences.first?["expected"] as? String == "09:45 AM")
      #expect(differences.first?["got"] as? String == "9:45\u{202F}AM")
      mock.update(payload: Array(agreeing.utf8))
      let after = try #require((await events.next()?.data?["screens"] as? [[String: Any]])?.first)
      let agreed = try #require(after["expected"] as? [String: Any])
      #expect(agreed["rowsDiffer"] as? Int == 0)
      let notes = try #require(agreed["differences"] as? [[String: Any]])
      #expect(notes.count == 1 && notes.first?["key"] as? String == "date" && notes.first?["counts"] as? Bool == false)
    }
  }
}
