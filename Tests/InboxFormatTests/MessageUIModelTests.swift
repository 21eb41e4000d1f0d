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
    var made = MessageUIModel(
      id: plain.id, initials: plain.initials, title: plain.title, message: plain.message, date: plain.date,
      isUnread: plain.isUnread, dateValidUntil: plain.dateValidUntil)
    made.spokenDate = "Tuesday"
    made.avatarColor = 3
    made.titleDirection = .leftToRight
    made.avatarColor = nil
    #expect(made == other)
    #expect(made.hashValue == other.hashValue)
  }

  /// A row encoded by `JSONEncoder` holds what the formatter writes for it,
  /// with every field asked for, and with none beyond the default ones.
  @Test func encodedRowsHoldWhatTheFormatterWrites() throws {
    var other = Pinned.message(id: 2, firstname: "مريم", at: "2022-01-31T08:45:33Z", unreadCount: 0)
    other.id = .string("c0ffee")
    let messages = [Self.message, other]
    for fields in [RowField.all, RowField.defaults, RowField.defaults + [.dateValidUntil, .avatarColor]] {
      let context = Pinned.context().fields(fields)
      let rows = MessageMapper(context: context).map(messages)
      let written = InboxEncoder(context: context).encode(rows)
      let encoded = try JSONEncoder().encode(rows)
      let expected = try #require(try JSONSerialization.jsonObject(with: Data(written)) as? [[String: Any]])
      var actual = try #require(try JSONSerialization.jsonObject(with: encoded) as? [[String: Any]])
      // `dateValidUntil` is always encoded; the formatter writes it when asked.
      if !fields.contains(.dateValidUntil) {
        for index in actual.indices { actual[index]["dateValidUntil"] = nil }
      }
      #expect(NSArray(array: actual).isEqual(to: expected), "\(fields.map(\.name))")
    }
  }

  @Test func anEncoderOfAContextWritesItsFields() {
    let context = Pinned.context().fields([.id, .unreadBadge])
    let rows = MessageMapper(context: context).map([Self.message])
    #expect(
      String(decoding: InboxEncoder(context: context).encode(rows), as: UTF8.self) == #"[{"id":1,"unreadBadge":"99+"}]"#
        + "\n")
  }

  @Test func aDateTimeThatIsNotRFC3339ThrowsTheLibrarysError() {
    #expect(throws: InboxFormatError.invalidDateTime(value: "2022-13-01T00:00:00Z", reason: "month 13 is out of range"))
    {
      try Date(rfc3339: "2022-13-01T00:00:00Z")
    }
  }
}
