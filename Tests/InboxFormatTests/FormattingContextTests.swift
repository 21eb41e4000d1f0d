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
}
