import Foundation
import HTTPTypes
import Hummingbird
import InboxFormat
import InboxFormatOptions
import InboxFormatSupport
import NIOCore
import NIOHTTPTypes

/// An error answered as RFC 9457 problem details (`application/problem+json`):
/// `type`, `title`, `status`, `detail`, members that locate the problem,
/// and the request's id.
///
/// ```json
/// {"type":"about:blank","title":"Bad Request","status":400,"detail":"line 1, column 19: invalid JSON: …","line":1,"column":19,"requestId":"5f3a9c01-2a"}
/// ```
struct Problem: Error, HTTPResponseError, Sendable {
  /// A member of the problem object beyond the standard ones.
  enum Member: Sendable, Equatable {
    case string(String)
    case integer(Int64)
  }

  /// The status answered.
  var status: HTTPResponse.Status
  /// One line saying what is wrong and what would do; values from the
  /// request in it are quoted (``quoted(_:limit:)``).
  var detail: String
  /// Members after `detail`, in order: `line`, `column`, `path`, `id`, `parameter`.
  var members: [(name: String, value: Member)]
  /// Fields the answer carries besides `Content-Type` (`Allow`, `Retry-After`).
  var headers: HTTPFields
  /// The request's id (``RequestID``), written last as `requestId`; set
  /// by whoever answers the problem, which knows the request.
  var requestID: String?

  /// Creates a problem.
  init(
    _ status: HTTPResponse.Status, detail: String, members: [(name: String, value: Member)] = [],
    headers: HTTPFields = [:]
  ) {
    self.status = status
    self.detail = detail
    self.members = members
    self.headers = headers
  }

  /// A payload that is not valid: 400 with the command's own one-line
  /// message as `detail` (what it writes after `inbox-format: <input>: `),
  /// and where the problem is.
  init(payload error: InboxFormatError) {
    var members: [(name: String, value: Member)] = []
    if let location = error.location {
      members.append(("line", .integer(Int64(location.line))))
      members.append(("column", .integer(Int64(location.column))))
    }
    if let path = Self.path(of: error) { members.append(("path", .string(path))) }
    switch error.item?.id {
    case .integer(let value)?: members.append(("id", .integer(value)))
    case .string(let value)?: members.append(("id", .string(value)))
    case nil: break
    }
    if case .likelyOtherMapping(_, let mapping) = error {
      members.append(("mapping", .string(mapping)))
      self.init(.badRequest, detail: "\(error): try map=\(mapping)", members: members)
      return
    }
    self.init(.badRequest, detail: "\(error)", members: members)
  }

  /// A query parameter whose value cannot be used: 400 naming it, with the
  /// message the command gives for the same value of its option.
  init(parameter: String, _ error: OptionError) {
    self.init(.badRequest, detail: error.message(naming: parameter), members: [("parameter", .string(parameter))])
  }

  /// The JSON path of what is wrong: the message and its field
  /// (`items[3].update_date`), or the line's message in NDJSON.
  private static func path(of error: InboxFormatError) -> String? {
    switch error {
    case .missingField(let item, let field), .typeMismatch(let item, let field, _, _, _),
      .numberOutOfRange(let item, let field, _, _):
      "\(item.path).\(field)"
    case .invalidDate(let item, _, _, _): "\(item.path).update_date"
    case .brokenLine(let index, _, _, _): "[\(index)]"
    case .unexpectedShape(let path, _, _) where path.hasPrefix("items") || path.hasPrefix("["): path
    case .mappedField(let item, _, _, _, _): item.path
    case .mappedItems(_, let path, _, _): path
    case .likelyOtherMapping(let error, _): path(of: error)
    case .emptyInput, .syntax, .unexpectedShape, .invalidDateTime: nil
    }
  }

  /// The problem object, on one line.
  var json: String {
    var object = JSONObject()
    object.add("type", string: "about:blank")
    object.add("title", string: status.reasonPhrase)
    object.add("status", integer: Int64(status.code))
    object.add("detail", string: detail)
    for member in members {
      switch member.value {
      case .string(let value): object.add(member.name, string: value)
      case .integer(let value): object.add(member.name, integer: value)
      }
    }
    if let requestID { object.add("requestId", string: requestID) }
    return object.text
  }

  /// The answer: the problem object as `application/problem+json`.
  var response: Response {
    var fields = headers
    fields[.contentType] = MediaTypes.problemJSON
    return Response(status: status, headers: fields, body: ResponseBody(byteBuffer: ByteBuffer(string: json + "\n")))
  }

  /// Writes the answer straight to `channel`, as the HTTP parts the
  /// server's handlers take, where the task answering the request can no
  /// longer write (it is cancelled: shutdown's grace period ran out); the
  /// bytes of its body.
  func write(to channel: any Channel) -> Int {
    var head = HTTPResponse(status: status, headerFields: headers)
    let body = ByteBuffer(string: json + "\n")
    head.headerFields[.contentType] = MediaTypes.problemJSON
    head.headerFields[.contentLength] = String(body.readableBytes)
    channel.write(HTTPResponsePart.head(head), promise: nil)
    channel.write(HTTPResponsePart.body(body), promise: nil)
    channel.writeAndFlush(HTTPResponsePart.end(nil), promise: nil)
    return body.readableBytes
  }

  func response(from request: Request, context: some RequestContext) throws -> Response {
    response
  }
}

/// A JSON object written member by member, in the order added, on one line;
/// its strings as rows write theirs (``jsonStringLiteral(_:)``).
struct JSONObject {
  private var members: [String] = []

  mutating func add(_ name: String, string value: String) {
    members.append(jsonStringLiteral(name) + ":" + jsonStringLiteral(value))
  }

  mutating func add(_ name: String, integer value: Int64) {
    members.append(jsonStringLiteral(name) + ":" + String(value))
  }

  /// A member whose value is JSON already: an array of rows, `null`.
  mutating func add(_ name: String, json value: String) {
    members.append(jsonStringLiteral(name) + ":" + value)
  }

  var text: String { "{" + members.joined(separator: ",") + "}" }
}
