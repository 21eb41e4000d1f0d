import Foundation
import Testing

@testable import InboxFormat

/// A sender known by one display name: the initials of its first and last
/// word, or of its first word only when it is one word or written family
/// name first; the title, the name as one clean line.
@Suite struct DisplayNameTests {
  let english = Locale(identifier: "en-US")

  @Test func twoWordsGiveTheInitialsOfTheFirstAndTheLast() {
    #expect(initials(displayName: "Jane Doe", locale: english) == "JD")
    #expect(initials(displayName: "Jane van der Berg", locale: english) == "JB")
  }

  @Test func oneWordGivesOneInitial() {
    #expect(initials(displayName: "Cher", locale: english) == "C")
    #expect(initials(displayName: "  Cher\n", locale: english) == "C")
  }

  @Test func namesWrittenFamilyNameFirstGiveTheFamilyNamesInitial() {
    let japanese = Locale(identifier: "ja-JP")
    #expect(initials(displayName: "山田太郎", locale: japanese) == "山")
    #expect(initials(displayName: "山田 太郎", locale: japanese) == "山")
    #expect(initials(displayName: "김 민준", locale: Locale(identifier: "ko-KR")) == "김")
    // Not every word in those scripts: first and last word, as for any name.
    #expect(initials(displayName: "山田 Taro", locale: japanese) == "山T")
  }

  @Test func twoInitialsOfACursiveScriptAreKeptApart() {
    #expect(initials(displayName: "محمد أحمد", locale: Locale(identifier: "ar-EG")) == "م\u{200C}أ")
  }

  @Test func whitespaceSeparatesWordsAndInitialsAreTitleCased() {
    #expect(initials(displayName: "  jane   doe ", locale: english) == "JD")
    #expect(initials(displayName: "jane\tdoe", locale: english) == "JD")
    #expect(initials(displayName: "ilker", locale: Locale(identifier: "tr-TR")) == "İ")
    #expect(initials(displayName: "ilker", locale: english) == "I")
  }

  @Test func aNameWithoutALetterOrDigitGivesAQuestionMark() {
    #expect(initials(displayName: "", locale: english) == "?")
    #expect(initials(displayName: "   ", locale: english) == "?")
    #expect(initials(displayName: "👍🏽", locale: english) == "?")
    #expect(initials(displayName: "🇫🇷 👨‍👩‍👧‍👦", locale: english) == "?")
  }

  @Test func aWordWithoutALetterLeavesTheOtherInitial() {
    #expect(initials(displayName: "Jane 🇫🇷", locale: english) == "J")
    #expect(initials(displayName: "(Jane) (Doe)", locale: english) == "JD")
  }

  // MARK: Title

  @Test func theTitleIsTheNameAsOneCleanLine() {
    #expect(title(displayName: " Jane\nDoe ", phoneNumber: "+33 6 56", placeholder: "Unknown").text == "Jane Doe")
    #expect(title(displayName: "\u{202E}Jane\u{202C}  Doe", phoneNumber: "", placeholder: "Unknown").text == "Jane Doe")
    // One name, never reordered: a display name is written as it is said.
    #expect(title(displayName: "山田 太郎", phoneNumber: "", placeholder: "Unknown").text == "山田 太郎")
  }

  @Test func withoutANameSeenTheTitleIsThePhoneElseThePlaceholder() {
    #expect(title(displayName: "\u{200B}", phoneNumber: "+33 6 56", placeholder: "Unknown").text == "+33 6 56")
    #expect(title(displayName: "", phoneNumber: " +33\n6 56 ", placeholder: "Unknown").text == "+33 6 56")
    #expect(title(displayName: " \n", phoneNumber: "\u{200D}", placeholder: "Unknown").text == "Unknown")
    #expect(title(displayName: "", phoneNumber: "", placeholder: "Sans nom").text == "Sans nom")
  }

  @Test func theInitialsAreTakenFromTheNameAsTheTitleShowsIt() {
    let (initials, title) = names(
      displayName: " jane\n\u{202E}doe ", phoneNumber: "", placeholder: "Unknown", locale: english)
    #expect(title.text == "jane doe")
    #expect(initials == "JD")
    let phoneOnly = names(displayName: "\u{200B}", phoneNumber: "+33 6 56", placeholder: "Unknown", locale: english)
    #expect(phoneOnly.initials == "?")
    #expect(phoneOnly.title.text == "+33 6 56")
  }

  // MARK: Rows

  @Test func aMessageWithADisplayNameIsMappedByTheseRules() {
    let context = Pinned.context()
    let mapper = MessageMapper(context: context)
    func row(_ displayName: String?, firstname: String = "", phone: String = "") -> MessageUIModel {
      mapper.map(
        MessageAPIModel(
          id: .integer(1), firstname: firstname, displayName: displayName, phoneNumber: .init(international: phone),
          updateDate: context.now))
    }
    #expect(row("Jane van der Berg").initials == "JB")
    #expect(row("Jane van der Berg").title == "Jane van der Berg")
    #expect(row("山田太郎").initials == "山")
    #expect(row("", phone: "+33 6 56").title == "+33 6 56")
    #expect(row("", phone: "+33 6 56").initials == "?")
    #expect(row("").title == "Unknown")
    // The display name, when there is one, is the name: first and last are not read.
    #expect(row("Cher", firstname: "Jane").title == "Cher")
    #expect(row(nil, firstname: "Jane").title == "Jane")
  }
}
