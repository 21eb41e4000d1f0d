import Foundation
import Testing

@testable import InboxFormat

/// The initials and title order of names answered from their bytes (the
/// leading letters, the memo of names, `hasVisibleCharacter` of bytes)
/// against the rules (`initials(firstname:lastname:locale:)`,
/// `isWrittenFamilyNameFirst(_:)`, `hasVisibleCharacter(_:)`), over every
/// letter written in one or two UTF-8 bytes followed by every kind of
/// scalar, and over random names of many scripts, in locales that tailor
/// case.
@Suite struct NameBytesTests {
  static let locales = ["en-US", "tr-TR", "lt-LT", "nl-NL", "el-GR", "ar-EG", "ja-JP"]

  /// What follows a leading letter: nothing, ASCII, a letter or a mark
  /// written in two bytes, a three-byte letter, a joiner, an emoji.
  static let followers = [
    "", "a", " b", "\u{301}", "\u{308}", "ß", "é", "\u{5D0}", "\u{65E}", "\u{94D}", "山", "\u{200D}", "😀",
  ]

  /// Every scalar below U+0800 first, then each follower: the engine's
  /// initials (by leading letter when the first bytes decide them, else by
  /// the rule through the memo) are the rule's.
  @Test(arguments: locales)
  func everyLeadingLetterGivesTheRulesInitials(locale: String) {
    let tables = ContextTables(context: Pinned.context(locale: locale))
    var disagreements: [String] = []
    tables.withStringRules { rows in
      for value in UInt32(0x21)..<0x800 {
        guard let scalar = Unicode.Scalar(value) else { continue }
        for follower in Self.followers {
          let name = String(scalar) + follower
          let other = ["Ann", "", "ıl", "\u{10D0}"][Int(value) % 4]
          if !Self.agree(rows: &rows, name, other, locale: tables.context.locale) {
            disagreements.append("U+\(String(value, radix: 16))+\(follower.debugDescription)")
          }
        }
      }
    }
    #expect(disagreements.isEmpty, "\(disagreements.prefix(20))")
  }

  @Test(arguments: locales)
  func randomNamesGiveTheRulesInitials(locale: String) {
    let tables = ContextTables(context: Pinned.context(locale: locale))
    var random = SplitMix(seed: 0x4E41_4D45)
    let pieces = LineBytesTests.pieces + ["王", "小明", "山田", "太郎", "김", "민준", "john", "ılker", "ǅ", "ﬁ", "Ⅻ", "②"]
    tables.withStringRules { rows in
      for _ in 0..<5_000 {
        func name() -> String {
          (0..<random.next(below: 4)).map { _ in pieces[random.next(below: pieces.count)] }.joined()
        }
        // Names as the engine holds them: already one clean line.
        let (first, last) = (singleLine(name()), singleLine(name()))
        #expect(
          Self.agree(rows: &rows, first, last, locale: tables.context.locale),
          "\(first.debugDescription) \(last.debugDescription)")
      }
    }
  }

  /// Whether the engine gives the rule's initials and title order for two
  /// clean names, asked twice (the second answer comes from the memo).
  static func agree(rows: inout StringRules, _ first: String, _ last: String, locale: Locale) -> Bool {
    let expected = (
      initials(firstname: first, lastname: last, locale: locale),
      isWrittenFamilyNameFirst(firstname: first, lastname: last)
    )
    return (0..<2).allSatisfy { _ in
      withUTF8(first, last) { firstBytes, lastBytes in
        let answer = rows.initialsAndOrder(firstname: firstBytes, lastname: lastBytes) { (first, last) }
        return answer.initials == expected.0 && answer.familyNameFirst == expected.1
      }
    }
  }

  @Test func theNamesVisibilityOfEveryScalarIsTheRules() {
    let disagreements = LineBytesTests.everyScalar.filter { isVisibleInNames($0) != isVisible($0) }
    #expect(disagreements.isEmpty, "U+\(disagreements.prefix(20).map { String($0.value, radix: 16) })")
  }

  @Test func visibilityFromBytesIsTheRule() {
    var disagreements: [String] = []
    for scalar in LineBytesTests.everyScalar {
      for text in [String(scalar), String(scalar) + "\u{200B}", "\u{00AD}" + String(scalar)] {
        var bytes = text
        if bytes.withUTF8({ hasVisibleCharacter($0) }) != hasVisibleCharacter(text) {
          disagreements.append(String(scalar.value, radix: 16))
        }
      }
    }
    #expect(disagreements.isEmpty, "U+\(disagreements.prefix(20))")
  }
}
