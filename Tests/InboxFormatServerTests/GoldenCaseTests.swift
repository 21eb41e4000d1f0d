import Foundation
import GoldenCases
import HTTPTypes
import HummingbirdTesting
import InboxFormat
import NIOCore
import Testing

/// Every golden case through `POST /v1/rows` gives exactly what the
/// command writes for it (`--output json`, not `--pretty`): the library's
/// compact output for the case's context.
@Suite struct GoldenCaseTests {
  static let cases = GoldenCase.all

  @Test func thereAreCases() {
    #expect(Self.cases.count >= 10)
  }

  @Test(arguments: cases)
  func routerAnswersTheCommandsBytes(_ golden: GoldenCase) async throws {
    let expected = try libraryOutput(golden.payload, golden.context, mapping: golden.mapping)
    try await withServer(.router) { client in
      let response = try await client.rows(golden.query, body: ByteBuffer(bytes: golden.payload))
      #expect(response.status == .ok)
      #expect(response.headers[.contentType] == "application/json")
      #expect(String(buffer: response.body) == expected)
    }
  }

  @Test(arguments: cases)
  func ndjsonAnswersTheCommandsBytes(_ golden: GoldenCase) async throws {
    let expected = try libraryOutput(golden.payload, golden.context, mapping: golden.mapping, layout: .ndjson)
    try await withServer(.router) { client in
      let response = try await client.rows(
        golden.query, body: ByteBuffer(bytes: golden.payload), headers: [.accept: "application/x-ndjson"])
      #expect(response.status == .ok)
      #expect(response.headers[.contentType] == "application/x-ndjson")
      #expect(String(buffer: response.body) == expected)
    }
  }

  /// Through a real socket, as curl sends it (`--data-binary` without `-H`).
  @Test(
    arguments: cases.filter { ["messages-en-US-paris", "paris-dst-spring", "apia-2011-skipped-day"].contains($0.name) })
  func liveServerAnswersTheCommandsBytes(_ golden: GoldenCase) async throws {
    let expected = try libraryOutput(golden.payload, golden.context, mapping: golden.mapping)
    try await withServer(.live) { client in
      let response = try await client.rows(
        golden.query, body: ByteBuffer(bytes: golden.payload),
        headers: [.contentType: "application/x-www-form-urlencoded"])
      #expect(response.status == .ok)
      #expect(String(buffer: response.body) == expected)
    }
  }
}

extension GoldenCase {
  /// The case's settings as the query of `POST /v1/rows`.
  var query: String {
    var parameters = [("locale", locale), ("timeZone", timeZone), ("now", now)]
    if let hourCycle { parameters.append(("hourCycle", hourCycle)) }
    if let previewLength { parameters.append(("previewLength", String(previewLength))) }
    if let fields { parameters.append(("fields", fields)) }
    if let dateStyle { parameters.append(("dateStyle", dateStyle)) }
    if let badgeLimit { parameters.append(("badgeLimit", String(badgeLimit))) }
    if let map { parameters.append(("map", map)) }
    if let viewer { parameters.append(("viewer", viewer)) }
    return parameters.map { "\($0.0)=\(queryEncoded($0.1))" }.joined(separator: "&")
  }
}
