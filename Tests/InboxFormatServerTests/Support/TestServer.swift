import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import InboxFormat
import InboxFormatServer
import Logging
import NIOCore
import Synchronization
import Testing

/// The repository's `Data/` directory.
let dataDirectory = URL(fileURLWithPath: #filePath)
  .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
  .appendingPathComponent("Data")

/// 2022-01-31 12:00 UTC (13:00 in Paris): the instant of the examples.
let exampleNow = Date(timeIntervalSince1970: 1_643_630_400)

/// A pinned server for tests: en-US, Europe/Paris, its clock stopped at
/// ``exampleNow``, no frozen `now` (so requests without one use the clock).
func testConfiguration(_ change: (inout ServerConfiguration) -> Void = { _ in }) -> ServerConfiguration {
  var configuration = ServerConfiguration(
    defaults: FormattingContext(
      now: exampleNow, locale: Locale(identifier: "en-US"), timeZone: TimeZone(identifier: "Europe/Paris")!))
  configuration.port = 0
  configuration.clock = { exampleNow }
  change(&configuration)
  return configuration
}

/// Logs nothing: the access log of every test request would drown the test output.
let quietLogger = Logger(label: "inbox-format-tests", factory: { _ in SwiftLogNoOpLogHandler() })

/// The example payload's bytes.
let examplePayload: ByteBuffer = {
  ByteBuffer(bytes: try! Data(contentsOf: dataDirectory.appendingPathComponent("examples/messages.json")))
}()

/// What the library writes for `payload` in `context` as `layout`: the bytes the service must answer.
func libraryOutput(
  _ payload: [UInt8], _ context: FormattingContext, mapping: InputMapping = .post,
  layout: InboxEncoder.Layout = .compact
) throws -> String {
  var output: [UInt8] = []
  try InboxFormatter(context: context, layout: layout, mapping: mapping).format(payload) { output += $0 }
  return String(decoding: output, as: UTF8.self)
}

/// `value` percent-encoded for a query.
func queryEncoded(_ value: String) -> String {
  value.addingPercentEncoding(
    withAllowedCharacters: CharacterSet(
      charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~"))!
}

/// Runs `test` against the application of `configuration`, set up as `setup` says.
func withServer<Value: Sendable>(
  _ setup: TestingSetup = .router, _ configuration: ServerConfiguration = testConfiguration(),
  logger: Logger = quietLogger, _ test: @Sendable (any TestClientProtocol) async throws -> Value
) async throws -> Value {
  try await buildApplication(configuration, logger: logger).test(setup, test)
}

/// Log lines kept for a test to read: `level message`, and each line's metadata.
final class LogLines: Sendable {
  private let lines = Mutex<[String]>([])
  private let metadata = Mutex<[Logger.Metadata]>([])

  var all: [String] { lines.withLock { $0 } }

  /// The metadata of each line, in the order of ``all``.
  var allMetadata: [Logger.Metadata] { metadata.withLock { $0 } }

  /// A logger that keeps its lines here, from `trace` on.
  var logger: Logger {
    Logger(label: "inbox-format-tests") { _ in Handler(lines: self) }
  }

  private struct Handler: LogHandler {
    let lines: LogLines
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
      get { metadata[key] }
      set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
      lines.lines.withLock { $0.append("\(event.level) \(event.message)") }
      lines.metadata.withLock { $0.append(event.metadata ?? [:]) }
    }
  }
}

extension TestClientProtocol {
  /// `POST /v1/rows` with `query` and `body`.
  func rows(
    _ query: String = "", body: ByteBuffer = examplePayload, headers: HTTPFields = [:]
  ) async throws -> TestResponse {
    try await execute(uri: "/v1/rows" + (query.isEmpty ? "" : "?" + query), method: .post, headers: headers, body: body)
  }
}

/// A problem answer, read.
struct ProblemBody: Decodable {
  var type: String
  var title: String
  var status: Int
  var detail: String
  var line: Int?
  var column: Int?
  var path: String?
  var parameter: String?
  var requestId: String?

  init(_ response: TestResponse, sourceLocation: SourceLocation = #_sourceLocation) throws {
    #expect(response.headers[.contentType] == "application/problem+json", sourceLocation: sourceLocation)
    self = try JSONDecoder().decode(ProblemBody.self, from: Data(buffer: response.body))
    #expect(status == Int(response.status.code), sourceLocation: sourceLocation)
    #expect(type == "about:blank", sourceLocation: sourceLocation)
    #expect(requestId != nil && requestId == response.headers[requestIDField], sourceLocation: sourceLocation)
  }
}

/// `X-Request-Id`, which every answer carries.
let requestIDField = HTTPField.Name("X-Request-Id")!

extension Data {
  init(buffer: ByteBuffer) {
    self.init(buffer.readableBytesView)
  }
}
