import Foundation
import Testing

@testable import InboxFormat

/// The rules of the optional fields that do not depend on dates: the unread
/// badge, the avatar's colour, text direction and the RFC 3339 text of
/// `dateValidUntil`. Expected values come from elsewhere: CLDR numbers as
/// Node's `Intl.NumberFormat` writes them, FNV-1a's published test vectors,
/// the Unicode Character Database.
@Suite struct RowFieldRulesTests {
  // MARK: unreadBadge

  @Test(
    arguments: [
      // locale, count, limit, badge (Node 20: `new Intl.NumberFormat(locale).format(n)`, then "+")
      ("en-US", 0, 99, ""), ("en-US", -4, 99, ""), ("en-US", 1, 99, "1"), ("en-US", 99, 99, "99"),
      ("en-US", 100, 99, "99+"), ("en-US", 1_234, 9_999, "1,234"), ("en-US", 12_345, 9_999, "9,999+"),
      ("fr-FR", 1_234, 9_999, "1\u{202F}234"), ("de-DE", 1_234, 9_999, "1.234"),
      ("ar-EG", 1, 99, "١"), ("ar-EG", 100, 99, "٩٩+"), ("ar-EG", 1_234, 9_999, "١٬٢٣٤"),
      ("fa-IR", 5, 99, "۵"), ("fa-IR", 1_000, 99, "۹۹+"), ("ja-JP", 7, 5, "5+"),
      ("en-US", Int64.max, 999_999_999, "999,999,999+"), ("hi-IN", 123_456, 999_999, "1,23,456"),
    ] as [(String, Int64, Int, String)])
  func badges(locale: String, count: Int64, limit: Int, badge: String) {
    let numbers = BadgeNumbers(locale: Locale(identifier: locale))
    #expect(unreadBadge(count: count, limit: limit, numbers: numbers) == badge)
  }

  /// The engine's badges, remembered by count, are the rule's, the first
  /// time and when remembered, below, at and above the limit.
  @Test func rememberedBadgesAreTheRules() {
    for locale in ["en-US", "ar-EG", "fa-IR", "th-TH-u-nu-thai", "bn-BD"] {
      let context = Pinned.context(locale: locale).fields(RowField.all).badgeLimit(99)
      let numbers = BadgeNumbers(locale: context.locale)
      let counts: [Int64] = [-1, 0, 1, 2, 9, 10, 99, 100, 500, 54_321]
      ContextTables(context: context).withStringRules { rules in
        for count in counts + counts {
          #expect(
            rules.unreadBadge(count: count) == unreadBadge(count: count, limit: 99, numbers: numbers),
            "\(count) in \(locale)")
        }
      }
    }
  }

  // MARK: avatarColor

  @Test func integerIdsAreTakenModuloEight() {
    let cases: [(Int64, Int)] = [
      (0, 0), (1, 1), (7, 7), (8, 0), (15, 7), (-1, 7), (-8, 0), (-9, 7), (.max, 7), (.min, 0),
    ]
    for (id, color) in cases { #expect(avatarColor(of: .integer(id)) == color, "\(id)") }
  }

  @Test func stringIdsAreFNV1aModuloEight() {
    // FNV-1a 32-bit test vectors (draft-eastlake-fnv): "" 0x811C9DC5, "a" 0xE40C292C, "foobar" 0xBF9CF968.
    #expect(avatarColor(of: .string("")) == 0x811C_9DC5 % 8)
    #expect(avatarColor(of: .string("a")) == 0xE40C_292C % 8)
    #expect(avatarColor(of: .string("foobar")) == 0xBF9C_F968 % 8)
    // Over UTF-8 bytes: "é" is C3 A9.
    var hash: UInt32 = 0x811C_9DC5
    for byte: UInt8 in [0xC3, 0xA9] { hash = (hash ^ UInt32(byte)) &* 0x0100_0193 }
    #expect(avatarColor(of: .string("é")) == Int(hash % 8))
    // A string of digits is hashed, not read as a number: FNV-1a of "1" is 0x340CA71C.
    #expect(avatarColor(of: .string("1")) == 4)
    #expect(avatarColor(of: .integer(1)) == 1)
  }

  // MARK: direction

  @Test(arguments: [
    ("Alexander Anderson", TextDirection.leftToRight), ("مريم أحمد", .rightToLeft), ("דוד כהן", .rightToLeft),
    ("+33 6 45 67 99 66", .neutral), ("", .neutral), ("123 שלום abc", .rightToLeft), ("(!) Paul שלום", .leftToRight),
    ("٣ رسائل", .rightToLeft), ("🙂🙂", .neutral), ("ܫܠܡܐ", .rightToLeft), ("ދިވެހި", .rightToLeft), ("ߒߞߏ", .rightToLeft),
    ("山田", .leftToRight), ("\u{0300}x", .leftToRight), ("€ 5", .neutral),
    // P2: an isolate's content is skipped, to its matching PDI or the end.
    ("\u{2068}שלום\u{2069} hello", .leftToRight), ("\u{2067}hello\u{2069} שלום", .rightToLeft),
    ("\u{2066}\u{2067}a\u{2069}b\u{2069}שלום", .rightToLeft), ("\u{2068}abc", .neutral), ("\u{2069}abc", .leftToRight),
    // Embeddings and overrides are not isolates: P2 looks through them.
    ("\u{202B}abc\u{202C}", .leftToRight), ("\u{200F}abc", .rightToLeft), ("\u{200E}שלום", .leftToRight),
  ])
  func directions(text: String, expected: TextDirection) {
    #expect(direction(of: text.unicodeScalars) == expected, "\(text.debugDescription)")
  }

  @Test func aTitlesDirectionReadsItsPiecesInOrder() {
    #expect(Title<String>.names(first: "太郎", last: "山田", familyNameFirst: true).direction == .leftToRight)
    #expect(Title<String>.names(first: "123", last: "שלום", familyNameFirst: false).direction == .rightToLeft)
    #expect(Title<String>.single("+20 100 000").direction == .neutral)
    #expect(Title<String>.placeholder("غير معروف").direction == .rightToLeft)
    #expect(Title<String>.placeholder("Unknown").direction == .leftToRight)
  }

  /// The generated table against Bidi_Class values read from the Unicode
  /// Character Database by hand (UnicodeData.txt, DerivedBidiClass.txt 17.0).
  @Test func theBidiTableHoldsTheUCDsClasses() {
    let expected: [(UInt32, BidiKind?)] = [
      (0x0041, .leftToRight), (0x0030, nil), (0x0020, nil), (0x00AA, .leftToRight), (0x00D7, nil),
      (0x02B9, nil), (0x0300, nil), (0x0386, .leftToRight), (0x05BE, .rightToLeft), (0x05D0, .rightToLeft),
      (0x05C8, .rightToLeft),  // unassigned in the Hebrew block: R by default
      (0x0600, nil),  // ARABIC NUMBER SIGN: AN
      (0x0608, .rightToLeft), (0x0627, .rightToLeft), (0x0660, nil), (0x06F0, nil), (0x070F, .rightToLeft),
      (0x074B, .rightToLeft),  // unassigned in the Syriac block: AL by default
      (0x07C0, .rightToLeft), (0x0900, nil), (0x0903, .leftToRight), (0x200E, .leftToRight), (0x200F, .rightToLeft),
      (0x202A, nil), (0x2066, .isolateInitiator), (0x2067, .isolateInitiator), (0x2068, .isolateInitiator),
      (0x2069, .popDirectionalIsolate), (0x20AC, nil), (0x20CF, nil),  // unassigned currency: ET
      (0x3042, .leftToRight), (0x4E00, .leftToRight), (0xFB1D, .rightToLeft), (0xFDD0, nil), (0xFE70, .rightToLeft),
      (0xFEFF, nil), (0xFFFE, nil), (0x1F600, nil), (0x10900, .rightToLeft), (0x1E900, .rightToLeft),
      (0x1EE00, .rightToLeft), (0x20000, .leftToRight), (0xE0001, nil), (0xE0100, nil), (0xF0000, .leftToRight),
      (0x10FFFF, nil), (0x50000, .leftToRight),  // unassigned elsewhere: L by default
    ]
    for (value, kind) in expected {
      #expect(bidiKind(of: Unicode.Scalar(value)!) == kind, "U+\(String(value, radix: 16, uppercase: true))")
    }
  }

  @Test func theBidiTableIsSortedAndDisjoint() {
    for (before, after) in zip(bidiClassRanges, bidiClassRanges.dropFirst()) {
      #expect(before.range.upperBound < after.range.lowerBound)
      // Neighbouring ranges of one kind would have been merged.
      #expect(before.range.upperBound + 1 < after.range.lowerBound || before.kind != after.kind)
    }
  }

  /// Every letter (general category L) of the scripts written right to left
  /// is strong R or AL; every Latin, Greek, Cyrillic, Han and Kana letter is L.
  /// (Their marks are NSM, and their superscript letters too: U+0711.)
  @Test func lettersOfWhollyOneDirectionScriptsHaveIt() {
    let rightToLeft: [ClosedRange<UInt32>] = [
      0x05D0...0x05EA, 0x0620...0x064A, 0x0710...0x072F, 0x0780...0x07A5, 0x07CA...0x07EA,
    ]
    let leftToRight: [ClosedRange<UInt32>] = [
      0x0041...0x005A, 0x00C0...0x00FF, 0x0391...0x03A9, 0x0410...0x044F, 0x3041...0x3096, 0x4E00...0x9FFF,
    ]
    for range in rightToLeft {
      for value in range {
        let scalar = Unicode.Scalar(value)!
        if isLetter(scalar) { #expect(bidiKind(of: scalar) == .rightToLeft, "U+\(String(value, radix: 16))") }
      }
    }
    for range in leftToRight {
      for value in range {
        let scalar = Unicode.Scalar(value)!
        if isLetter(scalar) { #expect(bidiKind(of: scalar) == .leftToRight, "U+\(String(value, radix: 16))") }
      }
    }
  }

  private func isLetter(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.properties.generalCategory {
    case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .otherLetter: true
    default: false
    }
  }

  // MARK: dateValidUntil

  @Test func instantsAreWrittenInUTCRoundedUp() {
    #expect(Pinned.instant("2022-01-31T23:00:00Z").utcText == "2022-01-31T23:00:00Z")
    #expect(Date(timeIntervalSince1970: 1_643_670_000.2).utcText == "2022-01-31T23:00:01Z")
    #expect(Date(timeIntervalSince1970: -0.5).utcText == "1970-01-01T00:00:00Z")
    #expect(Date(timeIntervalSince1970: -1).utcText == "1969-12-31T23:59:59Z")
    // Proleptic Gregorian (Foundation's ISO 8601 parser reads this far back as Julian).
    #expect(Date(timeIntervalSince1970: -62_135_596_800).utcText == "0001-01-01T00:00:00Z")
    #expect(Pinned.instant("2024-02-29T12:34:56Z").utcText == "2024-02-29T12:34:56Z")
    #expect(Pinned.instant("9999-12-31T23:59:59Z").addingTimeInterval(1).utcText == "10000-01-01T00:00:00Z")
  }

  /// Against Foundation's ISO 8601 writer, for whole seconds over four centuries.
  @Test func instantsAreWrittenAsFoundationWritesThem() {
    let style = Date.ISO8601FormatStyle(timeZone: TimeZone(secondsFromGMT: 0)!)
    var random = SplitMix(seed: 2022)
    for _ in 0..<5_000 {
      let seconds = Double(random.next(below: 12_600_000_000)) - 6_000_000_000
      let date = Date(timeIntervalSince1970: seconds)
      #expect(date.utcText == style.format(date), "\(seconds)")
    }
  }
}
