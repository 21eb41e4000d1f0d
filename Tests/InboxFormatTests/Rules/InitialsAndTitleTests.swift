import Foundation
import Testing

@testable import InboxFormat

@Suite struct SingleLineTests {
  @Test func collapsesEveryWhitespaceRunAndTrims() {
    #expect(singleLine("  Hello\n\n\tworld  \r\n ") == "Hello world")
    #expect(singleLine("a\u{00A0}\u{2028}\u{3000}b") == "a b")
  }

  @Test func removesControlCharactersAndBidiControls() {
    #expect(singleLine("a\u{0}b\u{7}c\u{1B}[31md\u{9B}e") == "abc[31mde")
    // NEL (U+0085) is a C1 control but also whitespace: it separates words.
    #expect(singleLine("a\u{85}b") == "a b")
    #expect(singleLine("\u{202E}evil\u{202C} \u{2067}name\u{2069}") == "evil name")
  }

  @Test func removalDoesNotLeaveDoubleSpaces() {
    #expect(singleLine("a \u{0} b \u{202E} c") == "a b c")
  }

  @Test func keepsJoinersMarksAndDirectionMarks() {
    let family = "👨\u{200D}👩\u{200D}👧"
    #expect(singleLine(family) == family)
    #expect(singleLine("e\u{301}\u{200F}") == "e\u{301}\u{200F}")
  }

  @Test func emptyAndBlankGiveEmpty() {
    #expect(singleLine("") == "")
    #expect(singleLine(" \n\t ") == "")
  }
}

@Suite struct TruncationTests {
  @Test func cutsToTheLimitWithAnEllipsis() {
    #expect(truncated("Hello world", to: 7) == "Hello…")
    #expect(truncated("abcdef", to: 4) == "abc…")
    #expect(truncated("abcdef", to: 1) == "…")
  }

  @Test func leavesShortTextAlone() {
    #expect(truncated("abc", to: 3) == "abc")
    #expect(truncated("abc", to: 10) == "abc")
  }

  @Test func countsGraphemeClustersNotScalars() {
    let thumbs = "👍🏽👍🏽👍🏽"
    #expect(truncated(thumbs, to: 3) == thumbs)
    #expect(truncated(thumbs, to: 2) == "👍🏽…")
    #expect(truncated("e\u{301}e\u{301}e\u{301}", to: 2) == "e\u{301}…")
  }
}

@Suite struct InitialsTests {
  let english = Locale(identifier: "en-US")

  /// The initial of a one-letter name is ICU's title case of it (the letter
  /// itself when that makes more than one grapheme), for every letter and
  /// digit that is seen, in English and in locales that tailor case mapping
  /// (Turkish, Lithuanian, Dutch, Greek): the letters without case, whose
  /// initial is taken without asking ICU, included. An invisible letter (the
  /// Hangul fillers) gives none.
  @Test(arguments: ["en-US", "tr-TR", "lt-LT", "nl-NL", "el-GR"])
  func theInitialOfEveryLetterIsItsTitleCase(locale: String) {
    let locale = Locale(identifier: locale)
    var disagreements: [String] = []
    var invisible: [UInt32] = []
    for value in UInt32(0)...0x3FFFF {
      guard let scalar = Unicode.Scalar(value), isLetterOrDigit(scalar), !scalar.properties.isLogicalOrderException
      else { continue }
      let letter = String(scalar)
      let titlecased = letter.capitalized(with: locale)
      let expected = scalar.properties.isDefaultIgnorableCodePoint ? nil : (titlecased.count == 1 ? titlecased : letter)
      if scalar.properties.isDefaultIgnorableCodePoint { invisible.append(value) }
      if initial(of: letter, locale: locale) != expected {
        disagreements.append(String(value, radix: 16))
      }
    }
    #expect(disagreements.isEmpty, "U+\(disagreements.prefix(20))")
    #expect(invisible == [0x115F, 0x1160, 0x3164, 0xFFA0])
  }

  @Test func firstLetterOfEachName() {
    #expect(initials(firstname: "Alexander", lastname: "Anderson", locale: english) == "AA")
    #expect(initials(firstname: "alexander", lastname: "anderson", locale: english) == "AA")
  }

  @Test func oneNameGivesOneLetterAndNoneGivesQuestionMark() {
    #expect(initials(firstname: "Jessica", lastname: "", locale: english) == "J")
    #expect(initials(firstname: "", lastname: "Pitt", locale: english) == "P")
    #expect(initials(firstname: "", lastname: "", locale: english) == "?")
    #expect(initials(firstname: "!!!", lastname: "🙂", locale: english) == "?")
  }

  @Test func skipsSpacesPunctuationSymbolsAndEmoji() {
    #expect(initials(firstname: "  (alex)", lastname: "'o'brien", locale: english) == "AO")
    #expect(initials(firstname: "👨‍👩‍👧‍👦 Family", lastname: "★Smith", locale: english) == "FS")
  }

  @Test func digitsCount() {
    #expect(initials(firstname: "2pac", lastname: "", locale: english) == "2")
  }

  @Test func uppercasesWithTheLocale() {
    #expect(initials(firstname: "ilker", lastname: "inan", locale: Locale(identifier: "tr-TR")) == "İİ")
    #expect(initials(firstname: "ilker", lastname: "inan", locale: english) == "II")
  }

  @Test func keepsCombiningMarks() {
    #expect(initials(firstname: "e\u{301}mile", lastname: "zola", locale: english) == "E\u{301}Z")
  }

  @Test func lettersWithoutOneGraphemeUppercaseStayAsWritten() {
    // Title case of ß is "Ss" (two letters); an initial stays one grapheme.
    #expect(initials(firstname: "ßaum", lastname: "", locale: Locale(identifier: "de-DE")) == "ß")
    // Georgian Mkhedruli has no title case.
    #expect(initials(firstname: "ანა", lastname: "ბერიძე", locale: Locale(identifier: "ka-GE")) == "აბ")
  }

  @Test func otherScripts() {
    #expect(initials(firstname: "мария", lastname: "иванова", locale: Locale(identifier: "ru")) == "МИ")
    // Family name first: one initial, the family name's.
    #expect(initials(firstname: "小明", lastname: "王", locale: Locale(identifier: "zh")) == "王")
  }
}

@Suite struct TitleTests {
  func title(_ first: String, _ last: String, phone: String = "") -> String {
    InboxFormat.title(firstname: first, lastname: last, phoneNumber: phone, placeholder: "Unknown").text
  }

  @Test func joinsCleanedNamesWithASpace() {
    #expect(title("Alexander", "Anderson") == "Alexander Anderson")
    #expect(title("  Jean \n  Luc ", " Picard ") == "Jean Luc Picard")
  }

  @Test func familyNameFirstWhenBothAreHanKanaOrHangul() {
    #expect(title("小明", "王") == "王小明")
    #expect(title("太郎", "山田") == "山田太郎")
    #expect(title("たろう", "やまだ") == "やまだたろう")
    #expect(title("タロウ", "ヤマダ") == "ヤマダタロウ")
    #expect(title("민준", "김") == "김민준")
  }

  @Test func mixedScriptsKeepGivenNameFirst() {
    #expect(title("John", "王") == "John 王")
    #expect(title("小明", "Wang") == "小明 Wang")
    #expect(title("小 明", "王") == "小 明 王")
  }

  @Test func oneNameAlone() {
    #expect(title("Jessica", "") == "Jessica")
    #expect(title("", " Pitt") == "Pitt")
  }

  @Test func fallsBackToThePhoneNumberThenThePlaceholder() {
    #expect(title("", "", phone: "  +33 6 45 67 99 66 ") == "+33 6 45 67 99 66")
    #expect(title(" ", "\n", phone: "") == "Unknown")
  }
}
