import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

@testable import InboxFormatServer

/// The preview page's files in `Sources/InboxFormatServer/Preview/Assets`
/// and the text the binary serves.
@Suite struct PreviewAssetsTests {
  static let assets = dataDirectory.deletingLastPathComponent()
    .appendingPathComponent("Sources/InboxFormatServer/Preview/Assets")

  @Test(arguments: [
    ("preview.html", PreviewPage.frame), ("preview.css", PreviewPage.css), ("preview.js", PreviewPage.script),
  ])
  func theEmbeddedTextIsTheFile(file: String, embedded: String) throws {
    let committed = try String(contentsOf: Self.assets.appendingPathComponent(file), encoding: .utf8)
    #expect(embedded == committed, "run Scripts/embed-preview.py after editing \(file)")
  }

  @Test func thePageServesTheFilesWithTheZoneListFilledIn() throws {
    let frame = try String(contentsOf: Self.assets.appendingPathComponent("preview.html"), encoding: .utf8)
    #expect(frame.contains("<!-- zones -->"))
    #expect(
      PreviewPage.assets["/"]?.body == frame.replacingOccurrences(of: "<!-- zones -->", with: PreviewPage.zoneOptions))
    #expect(PreviewPage.zoneOptions.contains("<option value=\"Europe/Paris\"></option>"))
    #expect(PreviewPage.assets["/preview.css"]?.body == PreviewPage.css)
    #expect(PreviewPage.assets["/preview.js"]?.body == PreviewPage.script)
  }
}
