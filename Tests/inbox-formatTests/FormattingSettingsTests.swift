import Foundation
import InboxFormat
import InboxFormatOptions
import Testing

/// The one reader of each formatting setting, and the one merge.
@Suite struct FormattingSettingsTests {
  static let defaults = FormattingContext(
    now: Date(timeIntervalSince1970: 1_643_630_400), locale: Locale(identifier: "en-US"),
    timeZone: TimeZone(identifier: "Europe/Paris")!, previewLength: 20, untitledPlaceholder: "Nobody",
    badgeLimit: 9)

  @Test func eachSettingHasItsOptionAndItsParameter() {
    #expect(
      FormattingSettings.Name.allCases.map(\.option) == [
        "--locale", "--time-zone", "--now", "--hour-cycle", "--preview-length", "--fields", "--date-style",
        "--badge-limit",
      ])
    #expect(FormattingSettings.Name.allCases.map(\.parameter) == FormattingSettings.Name.allCases.map(\.rawValue))
  }

  @Test func readingEverySetting() throws {
    var settings = FormattingSettings()
    let given: [(FormattingSettings.Name, String)] = [
      (.locale, "ja_JP.UTF-8"), (.timeZone, "GMT+05:30"), (.now, "@1643630400"), (.hourCycle, "24"),
      (.previewLength, "12"), (.fields, "default,avatarColor"), (.dateStyle, "relative"), (.badgeLimit, "50"),
    ]
    for (name, value) in given { try settings.read(name, value) }
    #expect(settings.locale?.identifier(.bcp47) == "ja-JP")
    #expect(settings.timeZone?.secondsFromGMT() == 19_800)
    #expect(settings.now == Date(timeIntervalSince1970: 1_643_630_400))
    #expect(settings.hourCycle == .twentyFourHour)
    #expect(settings.previewLength == 12)
    #expect(settings.fields == RowField.defaults + [.avatarColor])
    #expect(settings.dateStyle == .relative)
    #expect(settings.badgeLimit == 50)
  }

  @Test(arguments: [
    (FormattingSettings.Name.hourCycle, "13", OptionError.notOneOf("13", expected: "12 or 24")),
    (.previewLength, "0", .badNumber("0", expected: "an integer from 1 to 999999999")),
    (.badgeLimit, "+5", .badNumber("+5", expected: "an integer from 1 to 999999999")),
    (.dateStyle, "Compact", .notOneOf("Compact", expected: "standard, compact or relative")),
    (.fields, "id,,title", .emptyField("id,,title")),
    (.timeZone, "Mars/Olympus_Mons", .unknownTimeZone("Mars/Olympus_Mons")),
  ])
  func badValuesAreRefused(name: FormattingSettings.Name, value: String, error: OptionError) {
    var settings = FormattingSettings()
    #expect(throws: error) { try settings.read(name, value) }
  }

  @Test func nothingGivenKeepsTheDefaults() {
    #expect(FormattingSettings().applied(to: Self.defaults) == Self.defaults)
  }

  @Test func whatIsGivenReplacesTheDefaultsAndTheRestStays() throws {
    var settings = FormattingSettings()
    try settings.read(.timeZone, "Asia/Tokyo")
    try settings.read(.fields, "id,date")
    let context = settings.applied(to: Self.defaults)
    #expect(context.timeZone.identifier == "Asia/Tokyo")
    #expect(context.fields == [.id, .date])
    #expect(context.previewLength == 20)
    #expect(context.badgeLimit == 9)
    #expect(context.untitledPlaceholder == "Nobody")
    #expect(context.locale == Self.defaults.locale)
    #expect(context.calendar == Self.defaults.calendar)
  }

  /// A locale given brings its own calendar, as a context made for it would.
  @Test func aLocaleBringsItsCalendar() throws {
    var settings = FormattingSettings()
    try settings.read(.locale, "th-TH")
    let context = settings.applied(to: Self.defaults)
    #expect(context.calendar.identifier == .buddhist)
    #expect(
      context
        == FormattingContext(
          now: Self.defaults.now, locale: context.locale, timeZone: Self.defaults.timeZone,
          previewLength: 20, untitledPlaceholder: "Nobody", badgeLimit: 9))
  }

  @Test func choicesAreListedWithTheLastSeparatorBeforeTheLast() {
    #expect([String]().joined(separator: ", ", lastSeparator: " or ") == "")
    #expect(["12"].joined(separator: ", ", lastSeparator: " or ") == "12")
    #expect(["12", "24"].joined(separator: ", ", lastSeparator: " or ") == "12 or 24")
    #expect(["a", "b", "c", "d"].joined(separator: ", ", lastSeparator: " and ") == "a, b, c and d")
    #expect(FormattingSettings.dateStyleNames == "standard, compact or relative")
    for words in [[], ["a"], ["a", "b"], ["a", "b", "c"]] {
      #expect(words.joined(by: "|") == words.joined(separator: "|"))
    }
  }
}
