import Foundation
import Testing

@testable import InboxFormat

@Suite struct FormattingContextTests {
  @Test func calendarDefaultsToTheLocales() {
    #expect(Pinned.context(locale: "th-TH").calendar.identifier == .buddhist)
    #expect(Pinned.context(locale: "fr-FR").calendar.identifier == .gregorian)
  }

  @Test func modifiersReturnChangedCopies() {
    let base = Pinned.context()
    let changed = base.locale(Locale(identifier: "fr-FR")).hourCycle(.twentyFourHour).previewLength(0)
    #expect(changed.locale.identifier == "fr-FR")
    #expect(changed.hourCycle == .twentyFourHour)
    #expect(changed.previewLength == 1)
    #expect(base.hourCycle == nil)
    #expect(base.locale.identifier == "en-US")
  }

  @Test func hourCycleSetsTheLocaleKeyword() {
    let locale = HourCycle.twentyFourHour.applied(to: Locale(identifier: "en-US"))
    #expect(locale.hourCycle == .zeroToTwentyThree)
    #expect(HourCycle.twelveHour.applied(to: Locale(identifier: "fr-FR")).hourCycle == .oneToTwelve)
  }

  @Test func fieldsStyleAndBadgeLimitHaveDefaultsAndModifiers() {
    let base = Pinned.context()
    #expect(base.fields == RowField.defaults)
    #expect(base.dateStyle == .standard)
    #expect(base.badgeLimit == 99)
    let changed = base.fields([.date, .id, .date, .avatarColor, .id]).dateStyle(.relative).badgeLimit(0)
    // A field listed twice keeps its first place.
    #expect(changed.fields == [.date, .id, .avatarColor])
    #expect(changed.dateStyle == .relative)
    #expect(changed.badgeLimit == 1)
    #expect(base.fields == RowField.defaults)
    #expect(
      RowField.all.map(\.name) == [
        "id", "initials", "title", "message", "date", "isUnread", "dateValidUntil", "unreadBadge", "spokenDate",
        "titleDirection", "messageDirection", "avatarColor",
      ])
    for field in RowField.all { #expect(RowField(name: field.name) == field) }
    #expect(RowField(name: "default") == nil)
    // Rows place fields by `order`, which is the field's place in `all`.
    #expect(RowField.all.map(\.order) == Array(RowField.all.indices))
    #expect(Set(RowField.all).count == RowField.all.count)
  }
}
