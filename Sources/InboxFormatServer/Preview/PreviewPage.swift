import HTTPTypes
import Hummingbird
import InboxFormat
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
/// referrer and no framing. A preview that listens on loopback answers
/// only requests addressed to a loopback name (`Host: 127.0.0.1:8080`,
/// `localhost`, `[::1]`): a web page elsewhere that points its own name at
/// 127.0.0.1 (DNS rebinding) gets 403 and never reads the file.
struct PreviewGuardMiddleware: RouterMiddleware {
  typealias Context = ServerRequestContext
  /// Whether the server listens on loopback only.
  let listensOnLoopback: Bool

  func handle(
    _ request: Request, context: Context, next: (Request, Context) async throws -> Response
  ) async throws -> Response {
    var response: Response
    if listensOnLoopback, let host = request.head.authority, !Self.isLoopback(host: host) {
      response = Problem(
        .forbidden,
        detail: "this preview answers requests to 127.0.0.1, localhost or [::1] only, not to \(quoted(host, limit: 100))"
      ).response
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

  /// Whether `host` (a `Host` field: a name or address, and maybe a port)
  /// names this machine's loopback.
  static func isLoopback(host: String) -> Bool {
    var name = Substring(host.lowercased())
    if name.hasPrefix("[") {
      guard let end = name.firstIndex(of: "]") else { return false }
      return name[name.index(after: name.startIndex)..<end] == "::1"
    }
    if let colon = name.lastIndex(of: ":") { name = name[..<colon] }
    if name == "localhost" || name.hasSuffix(".localhost") { return true }
    let parts = name.split(separator: ".", omittingEmptySubsequences: false)
    return parts.count == 4 && parts[0] == "127" && parts.allSatisfy { UInt8($0) != nil }
  }

  /// Whether `address`, the address the server binds, is loopback only.
  static func isLoopback(address: String) -> Bool {
    address == "::1" || address == "localhost" || isLoopback(host: address)
  }
}

extension HTTPField.Name {
  static let xContentTypeOptions = HTTPField.Name("X-Content-Type-Options")!
  static let referrerPolicy = HTTPField.Name("Referrer-Policy")!
  static let xFrameOptions = HTTPField.Name("X-Frame-Options")!
}
