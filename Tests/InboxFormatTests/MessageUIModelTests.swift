import Foundation
import InboxFormat
import Testing

/// The public row's optional fields: nil unless the context asks, set and
/// compared as stored properties would be, whatever holds them.
@Suite struct MessageUIModelTests {
  static let message = Pinned.message(firstname: "Ann", at: "2022-01-25T10:00:00Z", unreadCount: 150)

  @Test func aDefaultRowCarriesNoOptionalField() {
    let row = MessageMapper(context: Pinned.context()).map(Self.message)
    #expect(row.unreadBadge == nil && row.spokenDate == nil && row.avatarColor == nil)
    #expect(row.titleDirection == nil && row.messageDirection == nil)
  }

  @Test func aRowCarriesTheFieldsItsContextAsksFor() {
    let row = MessageMapper(context: Pinned.context().fields([.date, .unreadBadge, .avatarColor])).map(Self.message)
    #expect(row.unreadBadge == "99+")
    #expect(row.avatarColor == 1)
    #expect(row.spokenDate == nil)
    #expect(row.titleDirection == nil)
  }

  @Test func optionalFieldsAreSetAndComparedByValue() {
    var row = MessageMapper(context: Pinned.context()).map(Self.message)
    let plain = row
    row.spokenDate = "Tuesday"
    row.titleDirection = .leftToRight
    #expect(row != plain)
    #expect(row.spokenDate == "Tuesday" && row.titleDirection == .leftToRight && row.unreadBadge == nil)
    #expect(plain.spokenDate == nil, "a copy keeps its own values")
    var other = plain
    other.titleDirection = .leftToRight
    other.spokenDate = "Tuesday"
    #expect(other == row)
    #expect(other.hashValue == row.hashValue)
    row.spokenDate = nil
    row.titleDirection = nil
    #expect(row == plain)
    let made = MessageUIModel(
      id: plain.id, initials: plain.initials, title: plain.title, message: plain.message, date: plain.date,
      isUnread: plain.isUnread, dateValidUntil: plain.dateValidUntil, spokenDate: "Tuesday", titleDirection: .leftToRight)
    #expect(made == other)
  }
}
