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

  private static let frame = #"""
    <!DOCTYPE html>
    <html lang="en">
    <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>inbox-format preview</title>
    <link rel="icon" href="/favicon.svg" type="image/svg+xml">
    <link rel="stylesheet" href="/preview.css">
    <script src="/preview.js" defer></script>
    </head>
    <body>
    <header class="toolbar">
      <h1 id="file">inbox-format preview</h1>
      <form id="settings" class="controls" autocomplete="off">
        <label>Locales <input id="locale" name="locale" spellcheck="false" placeholder="en-US,ar-EG,ja-JP"></label>
        <label>Time zone <input id="timeZone" name="timeZone" list="zones" spellcheck="false" placeholder="Europe/Paris"></label>
        <datalist id="zones">
    <!-- zones -->
        </datalist>
        <label>Hours
          <select id="hourCycle" name="hourCycle">
            <option value="">locale's</option>
            <option value="12">12-hour</option>
            <option value="24">24-hour</option>
          </select>
        </label>
        <label>Dates
          <select id="dateStyle" name="dateStyle">
            <option value="standard">standard</option>
            <option value="compact">compact</option>
            <option value="relative">relative</option>
          </select>
        </label>
        <button type="submit">Apply</button>
      </form>
      <div class="controls" role="group" aria-label="Move the clock">
        <span id="clock" class="clock" aria-live="polite"></span>
        <button type="button" data-move="-604800" title="A week back">−1w</button>
        <button type="button" data-move="-86400" title="A day back">−1d</button>
        <button type="button" data-move="-3600" title="An hour back">−1h</button>
        <button type="button" data-move="0" title="Back to the clock">now</button>
        <button type="button" data-move="3600" title="An hour forward">+1h</button>
        <button type="button" data-move="86400" title="A day forward">+1d</button>
        <button type="button" data-move="604800" title="A week forward">+1w</button>
      </div>
      <label class="theme">Theme
        <select id="theme">
          <option value="">system</option>
          <option value="light">light</option>
          <option value="dark">dark</option>
        </select>
      </label>
    </header>
    <p id="banner" class="banner" role="alert" hidden></p>
    <main id="screens" class="screens"></main>
    <noscript><p class="banner">The preview draws its screens with a script; allow scripts from this page.</p></noscript>
    </body>
    </html>

    """#
}
