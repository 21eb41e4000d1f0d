import Foundation
import Testing

@testable import InboxFormat

/// One decision per script for initials and titles; README "Locales and scripts"
/// has a line for each.
@Suite struct ScriptTests {
  func initials(_ first: String, _ last: String, _ locale: String = "en-US") -> String {
    InboxFormat.initials(firstname: singleLine(first), lastname: singleLine(last), locale: Locale(identifier: locale))
  }

  func title(_ first: String, _ last: String) -> String {
    InboxFormat.title(firstname: first, lastname: last, phoneNumber: "", placeholder: "Unknown").text
  }

  /// The initials through the public mapper, as rows get them.
  func rowInitials(_ first: String, _ last: String, _ locale: String = "en-US") -> String {
    MessageMapper(context: Pinned.context(locale: locale))
      .map(Pinned.message(firstname: first, lastname: last)).initials
  }

  // MARK: Joining scripts

  @Test func arabicInitialsDoNotJoin() {
    // مريم أحمد: م and أ; ما would render as one ligature-like joined shape.
    #expect(initials("مريم", "أحمد", "ar") == "م\u{200C}أ")
    #expect(initials("محمد", "علي", "ar-EG") == "م\u{200C}ع")
    #expect(rowInitials("محمد", "علي", "ar-EG") == "م\u{200C}ع")
    // Persian and Urdu letters are Arabic script too.
    #expect(initials("پرویز", "گلشیری", "fa-IR") == "پ\u{200C}گ")
    // Syriac, N'Ko, Mongolian and Adlam join as well.
    #expect(initials("ܐܦܪܝܡ", "ܢܨܝܒܝܢܝܐ", "syr") == "ܐ\u{200C}ܢ")
    #expect(initials("ᠪᠠᠲᠤ", "ᠲᠡᠮᠦᠷ", "mn") == "ᠪ\u{200C}ᠲ")
    #expect(initials("𞤀𞤣𞤢𞤥", "𞤄𞤢𞤤𞤣𞤫", "ff-Adlm") == "𞤀\u{200C}𞤄")
  }

  /// The letters below which no table lookup is made are where the table starts.
  @Test func theJoiningLettersStartWhereTheShortcutSays() {
    #expect(joiningScriptLetterRanges.first?.lowerBound == firstJoiningScriptLetter)
    #expect(joiningScriptLetterRanges.allSatisfy { $0.lowerBound >= firstJoiningScriptLetter })
  }

  @Test func theNonJoinerKeepsTwoGraphemes() {
    let arabic = initials("مريم", "أحمد", "ar")
    #expect(arabic.count == 2)
    #expect(arabic.unicodeScalars.count == 3)
  }

  @Test func oneJoiningInitialOrMixedScriptsGetNoNonJoiner() {
    #expect(initials("مريم", "", "ar") == "م")
    #expect(initials("Sara", "أحمد", "ar") == "Sأ")
    #expect(initials("مريم", "Smith", "ar") == "مS")
    // Arabic-Indic digits are not letters of a joining script.
    #expect(initials("١٢٣", "أحمد", "ar") == "١أ")
  }

  // MARK: Hebrew, Devanagari, Bengali, Thai: a grapheme with its marks

  @Test func hebrewKeepsItsPointsAndDoesNotJoin() {
    #expect(initials("דוד", "כהן", "he") == "דכ")
    #expect(initials("שָׁלוֹם", "", "he") == "שָׁ")
  }

  @Test func indicInitialsAreWholeGraphemes() {
    // A consonant with its vowel sign; a conjunct with its virama (Unicode 15.1 grapheme rules).
    #expect(initials("किरण", "मेहता", "hi") == "किमे")
    #expect(initials("क्षितिज", "", "hi") == "क्षि")
    #expect(initials("श्रीनिवास", "", "hi") == "श्री")
    #expect(initials("সুমন", "দত্ত", "bn") == "সুদ")
    #expect(initials("தமிழ்", "செல்வி", "ta") == "தசெ")
  }

  @Test func thaiAndLaoSkipTheVowelWrittenBeforeTheConsonant() {
    #expect(initials("สมชาย", "ใจดี", "th") == "สจ")
    #expect(initials("เอก", "แก้ว", "th") == "อก้")
    #expect(initials("สิริ", "", "th") == "สิ")
    #expect(initials("ໄຊ", "ເພັດ", "lo") == "ຊພັ")
  }

  // MARK: Hangul, Han, Kana: family name first

  @Test func familyNameFirstNamesGiveTheFamilyNamesInitial() {
    #expect(initials("小明", "王", "zh-CN") == "王")
    #expect(initials("太郎", "山田", "ja-JP") == "山")
    #expect(initials("たろう", "やまだ", "ja-JP") == "や")
    #expect(initials("민준", "김", "ko-KR") == "김")
    #expect(rowInitials("민준", "김", "ko-KR") == "김")
    #expect(title("민준", "김") == "김민준")
  }

  @Test func cjkWithOtherScriptsKeepsTwoInitials() {
    #expect(initials("John", "王", "zh-CN") == "J王")
    #expect(initials("小明", "Wang", "zh-CN") == "小W")
    #expect(initials("小明", "", "zh-CN") == "小")
    #expect(title("John", "王") == "John 王")
  }

  // MARK: Georgian, Greek, Turkish: case

  @Test func georgianHasNoUppercaseInitials() {
    // Mtavruli (Ა) exists since Unicode 11, but it is not used for capitals in running text.
    #expect(initials("ნინო", "ბერიძე", "ka-GE") == "ნბ")
    #expect(!initials("ნინო", "ბერიძე", "ka-GE").unicodeScalars.contains { (0x1C90...0x1CBF).contains($0.value) })
  }

  @Test func greekTitleCaseKeepsTheAccent() {
    // Upper-casing Greek drops the tonos; title-casing one letter keeps it.
    #expect(initials("άννα", "ήλιου", "el-GR") == "ΆΉ")
    #expect(initials("νίκος", "παπαδόπουλος", "el-GR") == "ΝΠ")
  }

  @Test func turkishAndAzerbaijaniDottedI() {
    #expect(initials("ilker", "ışık", "tr-TR") == "İI")
    #expect(initials("ilham", "", "az-AZ") == "İ")
  }

  // MARK: Emoji, flags, digits, symbols

  @Test func emojiFlagsAndKeycapsAreSkipped() {
    #expect(initials("🇫🇷 Marie", "🏳️‍🌈Curie", "fr-FR") == "MC")
    #expect(initials("👍🏽", "Bob", "en-US") == "B")
    #expect(initials("1️⃣ Ann", "#️⃣", "en-US") == "A")
    #expect(initials("😀", "🎉", "en-US") == "?")
    #expect(rowInitials("1️⃣ Ann", "#️⃣", "en-US") == "A")
  }

  @Test func namesOfDigitsOrSymbolsOnly() {
    #expect(initials("007", "", "en-US") == "0")
    #expect(initials("٣٣", "", "ar") == "٣")
    #expect(initials("!!!", "***", "en-US") == "?")
    #expect(title("!!!", "***") == "!!! ***")
    #expect(rowInitials("!!!", "***") == "?")
  }

  // MARK: Very long names

  @Test func veryLongNamesStayWholeInTheTitleAndCheapForInitials() {
    let long = String(repeating: "Bartholomew", count: 10_000)
    #expect(initials(long, long) == "BB")
    #expect(title(long, "Smith").count == long.count + 6)
  }

  @Test func stackedMarksAreCutToTheStreamSafeLimit() {
    let zalgo = "Z" + String(repeating: "\u{0336}", count: 500) + "oe"
    let initial = initials(zalgo, "")
    #expect(initial.count == 1)
    #expect(initial.unicodeScalars.count == 31)
    #expect(initial.unicodeScalars.starts(with: "Z\u{0336}\u{0336}".unicodeScalars))
  }
}
