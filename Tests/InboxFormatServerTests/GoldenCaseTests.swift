import Foundation
import HTTPTypes
import HummingbirdTesting
import InboxFormat
import NIOCore
import Testing

/// Every golden case through `POST /v1/rows` gives exactly what the
/// command writes for it (`--output json`, not `--pretty`): the library's
/// compact output for the case's context.
@Suite struct GoldenCaseTests {
  struct Case: Decodable, CustomTestStringConvertible, Sendable {
    var name = ""
    var input: String
    var now: String
    var locale: String
    var timeZone: String
    var hourCycle: String?
    var previewLength: Int?
    var fields: String?
    var dateStyle: String?
    var badgeLimit: Int?

    private enum CodingKeys: String, CodingKey {
      case input, now, locale, timeZone, hourCycle, previewLength, fields, dateStyle, badgeLimit
    }

    var testDescription: String { name }

    var payload: [UInt8] { [UInt8](try! Data(contentsOf: dataDirectory.appendingPathComponent(input))) }

    /// The context as `GoldenFileTests` builds it.
    var context: FormattingContext {
      FormattingContext(
        now: try! Date(now, strategy: .iso8601),
        locale: Locale(identifier: locale),
        timeZone: TimeZone(identifier: timeZone)!,
        hourCycle: hourCycle.map { $0 == "12" ? .twelveHour : .twentyFourHour },
        previewLength: previewLength,
        fields: fields.map { list in
          list.split(separator: ",").flatMap { $0 == "default" ? RowField.defaults : [RowField(name: String($0))!] }
        } ?? RowField.defaults,
        dateStyle: dateStyle.map { DateStyle(name: $0)! } ?? .standard,
        badgeLimit: badgeLimit ?? FormattingContext.defaultBadgeLimit)
    }

    var query: String {
      var parameters = [("locale", locale), ("timeZone", timeZone), ("now", now)]
      if let hourCycle { parameters.append(("hourCycle", hourCycle)) }
      if let previewLength { parameters.append(("previewLength", String(previewLength))) }
      if let fields { parameters.append(("fields", fields)) }
      if let dateStyle { parameters.append(("dateStyle", dateStyle)) }
      if let badgeLimit { parameters.append(("badgeLimit", String(badgeLimit))) }
      return parameters.map { "\($0.0)=\(queryEncoded($0.1))" }.joined(separator: "&")
    }
  }

  static let cases: [Case] = {
    let directory = dataDirectory.appendingPathComponent("golden/cases")
    let files = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
    return files.filter { $0.hasSuffix(".json") && !$0.hasSuffix(".expected.json") }.sorted().map { file in
      var golden = try! JSONDecoder().decode(Case.self, from: Data(contentsOf: directory.appendingPathComponent(file)))
      golden.name = String(file.dropLast(".json".count))
      return golden
    }
  }()

  @Test func thereAreCases() {
    #expect(Self.cases.count >= 10)
  }

  @Test(arguments: cases)
  func routerAnswersTheCommandsBytes(_ golden: Case) async throws {
    let expected = try libraryOutput(golden.payload, golden.context)
    try await withServer(.router) { client in
      let response = try await client.rows(golden.query, body: ByteBuffer(bytes: golden.payload))
      #expect(response.status == .ok)
      #expect(response.headers[.contentType] == "application/json")
      #expect(String(buffer: response.body) == expected)
    }
  }

  @Test(arguments: cases)
  func ndjsonAnswersTheCommandsBytes(_ golden: Case) async throws {
    let expected = try libraryOutput(golden.payload, golden.context, layout: .ndjson)
    try await withServer(.router) { client in
      let response = try await client.rows(
        golden.query, body: ByteBuffer(bytes: golden.payload), headers: [.accept: "application/x-ndjson"])
      #expect(response.status == .ok)
      #expect(response.headers[.contentType] == "application/x-ndjson")
      #expect(String(buffer: response.body) == expected)
    }
  }

  /// Through a real socket, as curl sends it (`--data-binary` without `-H`).
  @Test(arguments: cases.filter { ["messages-en-US-paris", "paris-dst-spring", "apia-2011-skipped-day"].contains($0.name) })
  func liveServerAnswersTheCommandsBytes(_ golden: Case) async throws {
    let expected = try libraryOutput(golden.payload, golden.context)
    try await withServer(.live) { client in
      let response = try await client.rows(
        golden.query, body: ByteBuffer(bytes: golden.payload),
        headers: [.contentType: "application/x-www-form-urlencoded"])
      #expect(response.status == .ok)
      #expect(String(buffer: response.body) == expected)
    }
  }
}
