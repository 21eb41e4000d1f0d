import Testing

@testable import InboxFormatServer

@Suite struct StandardErrorLogTests {
  @Test func aLineKeepsPrintableTextAsItIs() {
    let line = #"info [InboxFormatServer] POST "/v1/rows" 200 0.412 ms 1436 B"#
    #expect(StandardErrorLogHandler.oneLine(line) == line)
    #expect(StandardErrorLogHandler.oneLine("Zoë 山田 مرحبا") == "Zoë 山田 مرحبا")
  }

  @Test func whatCouldDriveATerminalIsEscaped() {
    let line = "error: bad \u{1B}]0;title\u{07} \u{1B}[2J \u{9B}31m \u{202E}abc\nnext\u{2028}x\u{7F}"
    #expect(
      StandardErrorLogHandler.oneLine(line)
        == #"error: bad \u{1B}]0;title\u{7} \u{1B}[2J \u{9B}31m \u{202E}abc\u{A}next\u{2028}x\u{7F}"#)
  }
}
