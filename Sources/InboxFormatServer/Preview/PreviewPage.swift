import HTTPTypes
import Hummingbird
import InboxFormat
import InboxFormatSupport
import NIOCore

/// The page of `inbox-format preview`: a frame, a style sheet and a script,
/// all served from this binary, none of them holding anything from the
/// file; the rows come as data through `GET /events` and the script puts
/// them in as text.
///
/// The frame, style sheet and script are the files of `Preview/Assets`
/// (`preview.html`, `preview.css`, `preview.js`), embedded in
/// `PreviewAssets.swift` by `Scripts/embed-preview.py`. The script puts
/// every value from the files or the server into the page through
/// `textContent` or an attribute, never as markup.
enum PreviewPage {
  /// The paths and what each serves.
  static let assets: [String: (contentType: String, body: String)] = [
    "/": ("text/html; charset=utf-8", html),
    "/preview.css": ("text/css; charset=utf-8", css),
    "/preview.js": ("text/javascript; charset=utf-8", script),
    "/favicon.svg": ("image/svg+xml", favicon),
  ]

  /// What the page may load: its own script, style sheet, icon and events,
  /// and nothing else; no inline script or style, no frame, no form sent.
  static let contentSecurityPolicy =
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
    + "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

  /// A speech bubble.
  static let favicon = #"""
    <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><path fill="#007aff" d="M16 4C8.3 4 2 9.2 2 15.6c0 3.6 2 6.9 5.2 9L6 29l5.4-2.7c1.5.4 3 .6 4.6.6 7.7 0 14-5.2 14-11.6S23.7 4 16 4z"/></svg>

    """#

  /// The answer for `path`, or nil when it is not one of the page's.
  static func response(for path: String) -> Response? {
    guard let asset = assets[path] else { return nil }
    return Response(
      status: .ok,
      headers: [.contentType: asset.contentType, .cacheControl: "no-cache"],
      body: ResponseBody(byteBuffer: ByteBuffer(string: asset.body)))
  }
}

/// What every answer of a preview carries, and who may ask.
///
/// Every answer gets the page's `Content-Security-Policy`, `nosniff`, no
/// referrer and no framing. A request is refused, before any route sees it:
///
/// - with 400, when it has no `Host` field or more than one (RFC 9112
///   §3.2 asks that of every HTTP/1.1 server);
/// - on loopback, with 403, when its `Host` is not exactly one of the names
///   the preview is bound to: `127.0.0.1`, `localhost`, `[::1]` or the
///   `--host` address, each alone or with a port of digits (so not
///   `[::1]evil.example` nor `app.localhost`): a web page elsewhere that
///   points its own name at 127.0.0.1 (DNS rebinding) never reads the file;
/// - with 403, when it has an `Origin` that is not the page's own (`http://`
///   and its `Host`), on every method and path: a page of another site may
///   neither post to the service nor open the event stream, even though
///   its browser would not let it read the answer. The page's own requests
///   carry no `Origin` or its own; a client that is not a browser sends none.
struct PreviewGuardMiddleware: RouterMiddleware {
  typealias Context = ServerRequestContext
  /// Whether the server listens on loopback only.
  let listensOnLoopback: Bool
  /// The names a request's `Host` may give on loopback, lowercased, without a port.
  let names: Set<String>

  /// The guard of a preview bound to `address`.
  init(boundTo address: String) {
    listensOnLoopback = Self.isLoopback(address: address)
    let bound = address.contains(":") ? "[\(address)]" : address
    names = ["127.0.0.1", "localhost", "[::1]", bound.lowercased()]
  }

  func handle(
    _ request: Request, context: Context, next: (Request, Context) async throws -> Response
  ) async throws -> Response {
    var response: Response
    if var problem = refusal(of: request) {
      problem.requestID = context.requestID
      response = problem.response
    } else {
      // Inside this guard, problem details answer every error: nothing is thrown here.
      response = try await next(request, context)
    }
    response.headers[.contentSecurityPolicy] = PreviewPage.contentSecurityPolicy
    response.headers[.xContentTypeOptions] = "nosniff"
    response.headers[.referrerPolicy] = "no-referrer"
    response.headers[.xFrameOptions] = "DENY"
    return response
  }

  /// Why `request` is refused, or nil when it is not.
  func refusal(of request: Request) -> Problem? {
    // The first `Host` field is the request's authority; any other stays among its fields.
    guard let host = request.head.authority else {
      return Problem(.badRequest, detail: "a request needs a Host field; this one has none")
    }
    let more = request.headers[values: .host].count
    guard more == 0 else {
      return Problem(.badRequest, detail: "a request has one Host field; this one has \(more + 1)")
    }
    if listensOnLoopback, !isBoundName(host: host) {
      return Problem(
        .forbidden,
        detail:
          "this preview answers requests to 127.0.0.1, localhost or [::1] only, not to \(quoted(host, limit: 100))")
    }
    let origins = request.headers[values: .origin]
    if let origin = origins.first, origins.count > 1 || origin.lowercased() != "http://" + host.lowercased() {
      return Problem(
        .forbidden,
        detail:
          "this preview answers its own page only, not a page of \(quoted(origins.joined(separator: ", "), limit: 100))"
      )
    }
    return nil
  }

  /// Whether `host` (a `Host` field) is one of ``names``, alone or with a
  /// port of 1 to 5 digits.
  func isBoundName(host: String) -> Bool {
    let lowered = host.lowercased()
    if names.contains(lowered) { return true }
    guard let colon = lowered.lastIndex(of: ":"), names.contains(String(lowered[..<colon])) else { return false }
    let port = lowered[lowered.index(after: colon)...]
    return (1...5).contains(port.count) && port.allSatisfy { ("0"..."9").contains($0) }
  }

  /// Whether `address`, the address the server binds, is loopback only:
  /// `localhost`, `::1` or an IPv4 address in 127.0.0.0/8.
  static func isLoopback(address: String) -> Bool {
    let name = address.lowercased()
    if name == "::1" || name == "localhost" { return true }
    let parts = name.split(separator: ".", omittingEmptySubsequences: false)
    return parts.count == 4 && parts[0] == "127" && parts.allSatisfy { UInt8($0) != nil }
  }
}

extension HTTPField.Name {
  /// The authority of an HTTP/1 request; HTTPTypes keeps the first as the
  /// request's `authority` and any other among its fields.
  static let host = HTTPField.Name("Host")!
  static let xContentTypeOptions = HTTPField.Name("X-Content-Type-Options")!
  static let referrerPolicy = HTTPField.Name("Referrer-Policy")!
  static let xFrameOptions = HTTPField.Name("X-Frame-Options")!
}
