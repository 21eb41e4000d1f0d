import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import SmallCases
import Testing

@testable import InboxFormatServer

/// `Accept-Language` when a request has no `locale`.
@Suite struct NegotiationTests {
  @Test(arguments: [
    ("fr-FR", "fr-FR"),
    ("de-DE;q=0.5, ja-JP", "ja-JP"),  // the higher quality wins, wherever written
    ("en-GB, fr-FR", "en-GB"),  // equal qualities: the first written
    ("fr-XX", "fr"),  // lookup: not a region, so the language alone
    ("de-CH-u-ca-xxx", "de-CH"),  // no such calendar: lookup drops subtags, and the singleton left last
    ("th-t-nu0nu-u-nu-thai", "th"),  // an extension ICU cannot read: dropped with what follows it
    ("xx-YY, es-MX;q=0.3", "es-MX"),  // a language without data is passed over
    ("!!!, pt-BR;q=0.2", "pt-BR"),  // not a language range: passed over
    ("fr-FR;q=0, it-IT;q=0.1", "it-IT"),  // q=0 means not acceptable
    ("ko-KR;q=2, sv-SE;q=0.1", "sv-SE"),  // a quality out of range spoils its range
    ("*", "en-US"),  // any: the server's default
    ("*, fr-FR;q=0.5", "en-US"),
    ("tlh, i-klingon", "en-US"),  // nothing usable: the server's default
    ("", "en-US"),
  ])
  func acceptLanguageChoosesTheLocale(_ header: String, _ language: String) async throws {
    try await withServer { client in
      let response = try await client.rows(
        "now=2022-01-31T12:00:00Z", headers: header.isEmpty ? [:] : [.acceptLanguage: header])
      #expect(response.status == .ok)
      #expect(response.headers[.contentLanguage] == language)
    }
  }

  @Test func theNegotiatedLocaleFormats() async throws {
    try await withServer { client in
      let response = try await client.rows(
        "now=2022-01-31T12:00:00Z", headers: [.acceptLanguage: "fr-CA;q=0.8, de-DE;q=0.9"])
      #expect(response.headers[.contentLanguage] == "de-DE")
      #expect(String(buffer: response.body).contains(#""date":"Gestern""#))
    }
  }

  @Test func theLocaleParameterWinsOverTheHeader() async throws {
    try await withServer { client in
      let response = try await client.rows(
        "locale=ja-JP&now=2022-01-31T12:00:00Z", headers: [.acceptLanguage: "fr-FR"])
      #expect(response.headers[.contentLanguage] == "ja-JP")
    }
  }

  /// Names that differ only in what no label depends on are one locale:
  /// Foundation keeps every locale it makes, so each new name would cost
  /// memory for good.
  @Test(arguments: [
    ("locale=en-US-aaaaa", "en-US"), ("locale=en-US-1996-x-mine", "en-US"), ("locale=EN_us", "en-US"),
    ("locale=de-DE-u-co-phonebk-nu-latn", "de-DE-u-nu-latn"), ("locale=ja-Jpan-JP", "ja-JP"),
    ("locale=sr-Latn-RS-t-en", "sr-Latn-RS"),
  ])
  func whatNoLabelDependsOnIsLeftOut(_ query: String, _ language: String) async throws {
    try await withServer { client in
      let response = try await client.rows("\(query)&now=2022-01-31T12:00:00Z")
      #expect(response.status == .ok)
      #expect(response.headers[.contentLanguage] == language)
    }
  }

  @Test func localesMadeFromRequestsAreBounded() throws {
    let settings = SettingsResolver(mostLocales: 2)
    #expect(try settings.locale("fr-FR").identifier(.bcp47) == "fr-FR")
    #expect(try settings.locale("de-DE-aaaaa").identifier(.bcp47) == "de-DE")
    // Past the bound a new tag gets its language alone; those made stay.
    #expect(try settings.locale("es-ES").identifier(.bcp47) == "es")
    #expect(try settings.locale("de_DE.UTF-8").identifier(.bcp47) == "de-DE")
    #expect(try settings.locale("fr-FR-u-hc-h23").identifier(.bcp47) == "fr")
    #expect(settings.madeCount == 2)
  }

  @Test func qualityValues() {
    #expect(LanguageNegotiation.qualityValue("1") == 1000)
    #expect(LanguageNegotiation.qualityValue("1.000") == 1000)
    #expect(LanguageNegotiation.qualityValue("0.5") == 500)
    #expect(LanguageNegotiation.qualityValue("0.125") == 125)
    #expect(LanguageNegotiation.qualityValue("0") == 0)
    #expect(LanguageNegotiation.qualityValue("1.5") == nil)
    #expect(LanguageNegotiation.qualityValue("0.1234") == nil)
    #expect(LanguageNegotiation.qualityValue("2") == nil)
    #expect(LanguageNegotiation.qualityValue("") == nil)
  }

  /// HTTP's optional whitespace around a list's elements and parameters
  /// is spaces and tabs (RFC 9110 §5.6.3); other white space belongs to
  /// the element.
  @Test func optionalWhitespaceIsSpacesAndTabs() {
    let header = " \tapplication/json \t; charset=utf-8\t"
    #expect(header.trimmingOptionalWhitespace == "application/json \t; charset=utf-8")
    #expect(" \t ".trimmingOptionalWhitespace == "")
    #expect("\u{A0}text/plain\u{2003}".trimmingOptionalWhitespace == "\u{A0}text/plain\u{2003}")
    #expect(MediaTypes.isReadable("\tapplication/json ; charset = UTF-8 "))
    #expect(!MediaTypes.isReadable("application/json\u{A0}"))
    #expect(!MediaTypes.isReadable("application/json; charset=latin1"))
    #expect(Caching.matches(ifNoneMatch: " W/\"x\" ,\t\"y\"", tag: "\"y\""))
  }

  /// `isReadable` takes a readable name sent exactly as it is without
  /// reading it as the rule does; that gives the rule's answer only while
  /// every name reads as itself.
  @Test func aReadableNameReadsAsItself() {
    for name in MediaTypes.readable {
      #expect(name == name.lowercased())
      #expect(name.trimmingOptionalWhitespace == name)
      #expect(!name.utf8.contains(UInt8(ascii: ";")))
      #expect(MediaTypes.isReadable(name))
      #expect(!MediaTypes.isReadable(name + "; charset=latin1"))
    }
  }

  /// Lists, parameters and ranges are split at their delimiters' bytes,
  /// as HTTP reads a field (RFC 9110 §5.5): a combining mark after a comma
  /// or semicolon does not make one character with it and hide it, and
  /// only ASCII letters and digits make a language range or a quality.
  @Test func headersAreSplitAtTheirBytes() {
    var tried: [String] = []
    let locale = LanguageNegotiation.locale(for: "de-DE;q=0.5,\u{301}fr-FR") { tag in
      tried.append(tag)
      return Locale(identifier: tag)
    }
    #expect(locale?.identifier == "de-DE")
    #expect(tried == ["de-DE"])
    #expect(LanguageNegotiation.isLanguageRange("de-CH-1996"))
    #expect(!LanguageNegotiation.isLanguageRange("e\u{301}n"))
    #expect(!LanguageNegotiation.isLanguageRange("ｄe"))
    #expect(!LanguageNegotiation.isLanguageRange("de--CH"))
    #expect(LanguageNegotiation.qualityValue("0.5\u{301}") == nil)
    #expect(LanguageNegotiation.qualityValue("0.٥") == nil)
    #expect(MediaTypes.answer(for: "application/x-ndjson,\u{301}text/html") == .ndjson(contentType: MediaTypes.ndjson))
    #expect(MediaTypes.answer(for: "text/html;q=0.5,\u{301}application/json") == nil)
    #expect(MediaTypes.isReadable("text/plain;\u{301}charset=latin1"))
    #expect(!MediaTypes.isReadable("text/plain; charset=latin1,\u{301}"))
    #expect(Caching.matches(ifNoneMatch: "\"x\",\u{301}\"y\"", tag: "\"x\""))
    #expect("a,,b".pieces(separatedBy: ",") == ["a", "b"])
    #expect("a,,b".pieces(separatedBy: ",", omittingEmpty: false) == ["a", "", "b"])
    #expect("a=b=c".pieces(separatedBy: "=", maxSplits: 1) == ["a", "b=c"])
  }

  /// `value(_:)` reads a field as HTTPTypes' subscript does, repeated
  /// lines (joined by `, `, and `; ` for `Cookie`) and empty values
  /// included, and `onlyValue(_:)` as its `values` when they are one, for
  /// every list of up to four of these fields.
  @Test func fieldValuesAreTheSubscripts() {
    let pool = [
      HTTPField(name: .accept, value: "a/b"), HTTPField(name: .accept, value: "c/d;q=0.5"),
      HTTPField(name: .cookie, value: "x=1"), HTTPField(name: .cookie, value: "y=2"),
      HTTPField(name: .contentType, value: "application/json"), HTTPField(name: .acceptLanguage, value: ""),
    ]
    let names: [HTTPField.Name] = [.accept, .cookie, .contentType, .acceptLanguage, .ifNoneMatch]
    let lists = everySequence(of: pool, upTo: 4)
    for list in lists {
      let fields = HTTPFields(list)
      for name in names {
        #expect(fields.value(name) == fields[name], "\(list) \(name)")
        let values = fields[values: name]
        #expect(fields.onlyValue(name) == (values.count == 1 ? values[0] : nil), "\(list) \(name)")
      }
    }
    #expect(lists.count == 1 + 6 + 36 + 216 + 1_296)
  }

  /// `pieces` walks the bytes by hand: its pieces are the standard
  /// library's split of the UTF-8 view, for every string of up to five of
  /// these characters (a delimiter next to a combining mark, a two-byte
  /// letter), both delimiters, kept or omitted empty pieces, and limits.
  @Test func piecesAreTheSplitOfTheBytes() {
    let strings = everyString(of: ["a", ",", "=", "é", "\u{301}"], upTo: 5)
    var compared = 0
    for string in strings {
      for separator: Unicode.Scalar in [",", "="] {
        for omittingEmpty in [true, false] {
          for maxSplits in [0, 1, 2, Int.max] {
            let expected = string.utf8.split(
              separator: UInt8(separator.value), maxSplits: maxSplits, omittingEmptySubsequences: omittingEmpty
            ).map { Array($0) }
            let pieces = string.pieces(separatedBy: separator, omittingEmpty: omittingEmpty, maxSplits: maxSplits)
            #expect(pieces.map { Array($0.utf8) } == expected, "\(string.debugDescription) \(separator) \(maxSplits)")
            compared += 1
          }
        }
      }
    }
    #expect(compared == 3_906 * 16)
  }

  @Test func lookupTriesShorterTags() {
    var tried: [String] = []
    let locale = LanguageNegotiation.locale(for: "zh-Hant-TW-u-nu-xxx") { tag in
      tried.append(tag)
      return tag == "zh-Hant-TW" ? Locale(identifier: tag) : nil
    }
    #expect(locale?.identifier(.bcp47) == "zh-Hant-TW")
    #expect(tried == ["zh-Hant-TW-u-nu-xxx", "zh-Hant-TW-u-nu", "zh-Hant-TW"])
  }

  @Test func structuredStringsStayValid() {
    #expect(structuredStringList(["a \"b\" \\ c"]) == #""a \"b\" \\ c""#)
    #expect(structuredStringList(["…", "é"]) == #""\\u{2026}", "\\u{E9}""#)
  }
}
