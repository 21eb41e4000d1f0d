import Foundation
import InboxFormatOptions

extension PreviewPage {
  /// `GET /`: the page's frame. It holds nothing from the file or the
  /// request: the script fills it from the events, as text. The time zone
  /// control offers the ids the server accepts (``zoneOptions``), and still
  /// takes any text, such as an offset.
  static let html = frame.replacingOccurrences(of: "<!-- zones -->", with: zoneOptions)

  /// The zone ids a request may name, as `<option>`s of the time zone
  /// control's list: the system's IANA ids that the server accepts, sorted.
  static let zoneOptions: String = {
    let ids = TimeZone.knownTimeZoneIdentifiers.filter { (try? TimeZoneName.timeZone(id: $0)) != nil }.sorted()
    return ids.map { "<option value=\"\(escapedHTML($0))\"></option>" }.joined(separator: "\n")
  }()

  /// Text as HTML character data or a quoted attribute value.
  static func escapedHTML(_ text: String) -> String {
    text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
      .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
      .replacingOccurrences(of: "'", with: "&#39;")
  }
}
