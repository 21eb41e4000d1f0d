import Foundation
import Testing

@testable import InboxFormat

@Suite struct InboxEncoderTests {
  let rows = [
    MessageUIModel(
      id: .integer(1), initials: "AA", title: "Alexander Anderson", message: "Hi / \"you\" \\ é 😀",
      date: "9:45\u{202F}AM", isUnread: true, dateValidUntil: nil),
    MessageUIModel(
      id: .string("x-2"), initials: "?", title: "+33", message: "", date: "Yesterday",
      isUnread: false, dateValidUntil: nil),
  ]

  func text(_ layout: InboxEncoder.Layout, _ rows: [MessageUIModel]) -> String {
    String(decoding: InboxEncoder(layout: layout).encode(rows), as: UTF8.self)
  }

  @Test func compactIsOneLineInKeyOrder() {
    #expect(
      text(.compact, rows) == """
        [{"id":1,"initials":"AA","title":"Alexander Anderson","message":"Hi / \\"you\\" \\\\ é 😀","date":"9:45\u{202F}AM","isUnread":true},\
        {"id":"x-2","initials":"?","title":"+33","message":"","date":"Yesterday","isUnread":false}]

        """)
  }

  @Test func ndjsonIsOneObjectPerLine() {
    let lines = text(.ndjson, rows).split(separator: "\n", omittingEmptySubsequences: false)
    #expect(lines.count == 3)
    #expect(lines[1] == #"{"id":"x-2","initials":"?","title":"+33","message":"","date":"Yesterday","isUnread":false}"#)
    #expect(lines[2] == "")
    #expect(text(.ndjson, []) == "")
  }

  @Test func prettyIndentsByTwo() {
    #expect(
      text(.pretty, [rows[1]]) == """
        [
          {
            "id": "x-2",
            "initials": "?",
            "title": "+33",
            "message": "",
            "date": "Yesterday",
            "isUnread": false
          }
        ]

        """)
    #expect(text(.pretty, []) == "[]\n")
    #expect(text(.compact, []) == "[]\n")
  }

  @Test func controlCharactersAreEscaped() {
    var row = rows[1]
    row.message = "a\u{1}b\nc\td\r"
    #expect(text(.ndjson, [row]).contains(#""message":"a\u0001b\nc\td\r""#))
  }

  @Test func outputParsesBackAsTheSameStrings() throws {
    let parsed = try JSONSerialization.jsonObject(with: Data(InboxEncoder().encode(rows))) as? [[String: Any]]
    #expect(parsed?.first?["message"] as? String == rows[0].message)
    #expect(parsed?.first?["date"] as? String == rows[0].date)
    #expect(parsed?.last?["id"] as? String == "x-2")
  }
}
