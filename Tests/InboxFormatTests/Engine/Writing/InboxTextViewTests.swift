import Foundation
import Testing

@testable import InboxFormat

/// The inbox view: layout, display width, colour, and what message data can
/// never do to a terminal.
@Suite struct InboxTextViewTests {
  /// The example payload's rows at 2022-01-31 13:00 Paris, en-US, as given
  /// rows: the view lays out what it is given, whatever the rules made.
  static let exampleRows: [MessageUIModel] = [
    row(),
    row(initials: "J", title: "Jessica", message: "This a short message", date: "Yesterday"),
    row(
      initials: "?", title: "+33 6 45 67 99 66", message: "Un message en français cool !!", date: "Tuesday",
      isUnread: false),
    row(
      initials: "GP", title: "Georges Pitt",
      message: "This a very long message to test the line limit that must only displays 1 line", date: "1/3/22"),
  ]

  static func row(
    initials: String = "AA", title: String = "Alexander Anderson", message: String = "Hello!! How are you?",
    date: String = "9:45\u{202F}AM", isUnread: Bool = true
  ) -> MessageUIModel {
    MessageUIModel(
      id: .integer(1), initials: initials, title: title, message: message, date: date, isUnread: isUnread,
      dateValidUntil: nil)
  }

  @Test func theExampleInbox() {
    #expect(
      InboxTextView(width: 50, color: false).render(Self.exampleRows) == """
        ●  AA  Alexander Anderson                  9:45\u{202F}AM
               Hello!! How are you?
        ●  J   Jessica                           Yesterday
               This a short message
           ?   +33 6 45 67 99 66                   Tuesday
               Un message en français cool !!
        ●  GP  Georges Pitt                         1/3/22
               This a very long message to test the line…

        """)
  }

  @Test(arguments: [1, 2, 7, 12, 20, 33, 80])
  func everyLineFitsTheWidth(width: Int) {
    let rows =
      Self.exampleRows + [
        Self.row(initials: "山太", title: "山田太郎", message: "こんにちは、元気ですか？明日の会議について", date: "2022/01/03"),
        Self.row(initials: "F", title: "👨‍👩‍👧‍👦 Family 🇫🇷", message: "❤️❤️❤️ e\u{301}e\u{301}e\u{301} 1️⃣2️⃣3️⃣", isUnread: false),
      ]
    for color in [false, true] {
      let lines = InboxTextView(width: width, color: color).render(rows).split(separator: "\n")
      #expect(lines.count == rows.count * 2)
      for line in lines {
        let plain = line.replacing(/\x1B\[[0-9;]*m/, with: "")
        #expect(displayWidth(of: plain) <= width, "\(plain.debugDescription) at \(width)")
      }
    }
  }

  @Test(arguments: [
    ("a", 1), ("é", 1), ("e\u{301}", 1), ("山", 2), ("ｱ", 1), ("Ａ", 2), ("한", 2), ("\u{1100}\u{1161}\u{11A8}", 2),
    ("👍", 2), ("👍🏽", 2), ("👨‍👩‍👧‍👦", 2), ("🇫🇷", 2), ("❤️", 2), ("❤", 1), ("1️⃣", 2),
    ("\u{301}", 0), ("\u{200B}", 0), ("\u{2068}", 0), ("\u{202F}", 1), ("…", 1),
  ])
  func displayWidthIsCountedByGraphemeCluster(text: String, columns: Int) {
    #expect(displayWidth(of: text) == columns)
  }

  @Test func cuttingNeverSplitsAGraphemeCluster() {
    #expect(cut("山田太郎", toColumns: 5) == ("山田…", 5))
    #expect(cut("山田太郎", toColumns: 4) == ("山…", 3))
    #expect(cut("👨‍👩‍👧‍👦👨‍👩‍👧‍👦", toColumns: 3) == ("👨‍👩‍👧‍👦…", 3))
    #expect(cut("e\u{301}e\u{301}e\u{301}", toColumns: 2) == ("e\u{301}…", 2))
    #expect(cut("abc", toColumns: 3) == ("abc", 3))
    #expect(cut("ab cd", toColumns: 4) == ("ab…", 3))
    #expect(cut("abc", toColumns: 0) == ("", 0))
  }

  @Test func messageDataNeverDrivesTheTerminal() {
    let hostile = Self.row(
      initials: "\u{1B}[", title: "\u{1B}]0;owned\u{7}Eve\u{1B}[2J\u{202E}lol",
      message: "\u{9B}31mred\u{9D}8;;x\u{1B}\\ \u{2066}a\u{2069}\r\nb\u{2028}c", date: "\u{0}\u{7F}")
    for color in [false, true] {
      let text = InboxTextView(width: 60, color: color).render([hostile])
      // Without our own SGR sequences, nothing is left that a terminal acts on.
      let plain = text.replacing(/\x1B\[[0-9;]*m/, with: "")
      let offending = plain.unicodeScalars.filter {
        ($0.properties.generalCategory == .control && $0 != "\n") || (0x202A...0x202E).contains($0.value)
          || (0x2066...0x2069).contains($0.value) || $0 == "\u{2028}" || $0 == "\u{2029}"
      }
      #expect(offending.isEmpty, "\(offending.map { String($0.value, radix: 16) })")
      #expect(plain.split(separator: "\n").count == 2)
      #expect(plain.contains("Eve"))
    }
  }

  @Test func noRandomRowDrivesTheTerminalOrOverflowsTheLine() {
    // Rows made of hostile pieces at random (a fixed seed: the same rows
    // every run), at every width from 1 to 100, with and without colour.
    let pieces = [
      "Ann", "山田", "👨‍👩‍👧‍👦", "e\u{301}", "محمد", "עִברִית", "\u{1B}[31m", "\u{1B}]8;;x\u{7}", "\u{9B}2J", "\u{85}",
      "\u{7F}", "\u{0}", "\r\n", "\t", "\u{2028}", "\u{2029}", "\u{202E}", "\u{202B}", "\u{2066}", "\u{2067}",
      "\u{2068}", "\u{2069}", "\u{200F}", "\u{61C}", "\u{FEFF}", " ", "!", "1️⃣", "🇫🇷", "Ｗｉｄｅ",
    ]
    var random = SplitMix(seed: 0x1B_2068)
    func text() -> String { (0..<random.next(below: 6)).map { _ in pieces[random.next(below: pieces.count)] }.joined() }
    for width in 1...100 {
      let rows = (0..<3).map { _ in
        Self.row(initials: text(), title: text(), message: text(), date: text(), isUnread: random.next(below: 2) == 0)
      }
      for color in [false, true] {
        let view = InboxTextView(width: width, color: color).render(rows)
        let plain = view.replacing(/\x1B\[[0-9;]*m/, with: "")
        #expect(!color || !plain.contains("\u{1B}"))
        for line in plain.split(separator: "\n", omittingEmptySubsequences: false).dropLast() {
          #expect(displayWidth(of: line) <= width, "\(line.debugDescription) at \(width)")
          let offending = line.unicodeScalars.filter {
            $0.properties.generalCategory == .control || (0x202A...0x202E).contains($0.value)
              || $0 == "\u{2066}" || $0 == "\u{2067}" || $0 == "\u{2028}" || $0 == "\u{2029}"
          }
          #expect(offending.isEmpty, "\(line.debugDescription)")
          // Only the view's own isolates, each closed on its line.
          var open = 0
          for scalar in line.unicodeScalars {
            if scalar == "\u{2068}" { open += 1 }
            if scalar == "\u{2069}" { open -= 1 }
            #expect(open >= 0 && open <= 1, "\(line.debugDescription)")
          }
          #expect(open == 0, "\(line.debugDescription)")
        }
      }
    }
  }

  @Test func rightToLeftFieldsAreIsolatedAndLeftToRightOnesAreNot() {
    let text = InboxTextView(width: 40, color: false).render([
      Self.row(initials: "مع", title: "محمد علي!", message: "مرحبا 123", date: "٩:٤٥ ص")
    ])
    #expect(text.contains("\u{2068}مع\u{2069}"))
    #expect(text.contains("\u{2068}محمد علي!\u{2069}"))
    #expect(text.contains("\u{2068}مرحبا 123\u{2069}"))
    #expect(text.contains("\u{2068}٩:٤٥ ص\u{2069}"))
    #expect(!InboxTextView(width: 40, color: false).render(Self.exampleRows).contains("\u{2068}"))
  }

  @Test func colourMarksTheUnreadDotTheBadgeAndTheTitle() {
    let unread = InboxTextView(width: 40, color: true).render([Self.row()])
    #expect(unread.hasPrefix("\u{1B}[1;34m●\u{1B}[0m \u{1B}[7m AA \u{1B}[0m \u{1B}[1mAlexander Anderson\u{1B}[0m"))
    #expect(unread.contains("\u{1B}[2m9:45\u{202F}AM\u{1B}[0m\n"))
    let read = InboxTextView(width: 40, color: true).render([Self.row(isUnread: false)])
    #expect(read.hasPrefix("  \u{1B}[7m AA \u{1B}[0m Alexander Anderson "))
    #expect(!InboxTextView(width: 40, color: false).render([Self.row()]).contains("\u{1B}"))
  }

  @Test func aShortTerminalSaysHowManyMessagesDoNotFit() {
    let text = InboxTextView(width: 40, color: false, height: 6).render(Self.exampleRows)
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
    #expect(lines.count == 5)
    #expect(lines.last == "… 2 more")
    #expect(
      InboxTextView(width: 40, color: false, height: 8).render(Self.exampleRows).split(separator: "\n").count == 8)
  }

  @Test func anEmptyInbox() {
    #expect(InboxTextView(width: 40, color: false).render([]) == "No messages\n")
  }
}
