import Foundation
import Testing

@testable import InboxFormat

@Suite struct LocalDaysTests {
  func days(_ zone: String) -> LocalDays { LocalDays(timeZone: TimeZone(identifier: zone)!) }
  func seconds(_ text: String) -> Int64 { Int64(Pinned.instant(text).timeIntervalSince1970) }

  @Test func dayNumbersFollowTheLocalDate() {
    // 2022-01-31 is day 19023 after 1970-01-01.
    #expect(days("UTC").day(of: seconds("2022-01-31T00:00:00Z")) == 19023)
    #expect(days("Europe/Paris").day(of: seconds("2022-01-30T23:30:00Z")) == 19023)  // 00:30 in Paris
    #expect(days("America/New_York").day(of: seconds("2022-01-31T04:59:59Z")) == 19022)  // 23:59:59 EST
    #expect(days("UTC").day(of: -1) == -1)
  }

  @Test func startOfAnOrdinaryDayIsLocalMidnight() {
    let paris = days("Europe/Paris")
    #expect(paris.start(ofDay: 19023) == seconds("2022-01-30T23:00:00Z"))
    // Half-hour offset.
    #expect(days("Asia/Kolkata").start(ofDay: 19023) == seconds("2022-01-30T18:30:00Z"))
  }

  @Test func startOfADayWhoseMidnightWasSkipped() {
    // São Paulo, 2018-11-04: clocks went from 00:00 straight to 01:00 (-02:00).
    let saoPaulo = days("America/Sao_Paulo")
    let day = saoPaulo.day(of: seconds("2018-11-04T12:00:00-02:00"))
    #expect(saoPaulo.start(ofDay: day) == seconds("2018-11-04T01:00:00-02:00"))
  }

  @Test func aSkippedDayStartsWhereTheNextDayStarts() {
    // Apia skipped 2011-12-30: 29 December 23:59:59 (-10:00) was followed by 31 December 00:00 (+14:00).
    let apia = days("Pacific/Apia")
    let december29 = apia.day(of: seconds("2011-12-29T12:00:00-10:00"))
    let december31Start = seconds("2011-12-31T00:00:00+14:00")
    #expect(apia.day(of: december31Start) == december29 + 2)
    #expect(apia.start(ofDay: december29 + 1) == december31Start)
    #expect(
      apia.firstInstant(from: seconds("2011-12-29T12:00:00-10:00"), ofDayAtLeast: december29 + 1) == december31Start)
  }

  @Test func daysAroundDaylightSavingChanges() {
    let paris = days("Europe/Paris")
    // 2022-03-27 has 23 hours in Paris, 2022-10-30 has 25.
    #expect(paris.start(ofDay: 19079) - paris.start(ofDay: 19078) == 23 * 3600)
    #expect(paris.start(ofDay: 19296) - paris.start(ofDay: 19295) == 25 * 3600)
  }

  @Test func floorDivisionRoundsDown() {
    #expect(floorDivide(7, by: 2) == 3)
    #expect(floorDivide(-7, by: 2) == -4)
    #expect(floorDivide(-8, by: 2) == -4)
  }
}
