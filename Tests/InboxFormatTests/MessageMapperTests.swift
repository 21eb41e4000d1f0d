import Foundation
import GoldenCases
import Testing

@testable import InboxFormat

@Suite struct MessageMappingTests {
  let mapper = MessageMapper(context: Pinned.context())

  @Test func theMessagesScreenRowByRow() {
    let rows = mapper.map([
      Pinned.message(
        id: 1, firstname: "Alexander", lastname: "Anderson", message: "Hello!! How are you?",
        phone: "+33 6 56 67 45 66", at: "2022-01-31T08:45:33Z", unreadCount: 1),
      Pinned.message(
        id: 2, firstname: "Jessica", message: "This a short message",
        phone: "+33 6 45 67 66 66", at: "2022-01-30T17:54:37Z", unreadCount: 10),
      Pinned.message(
        id: 3, message: "Un message en français cool !!",
        phone: "+33 6 45 67 99 66", at: "2022-01-25T17:12:33Z", unreadCount: 0),
      Pinned.message(
        id: 4, firstname: "Georges", lastname: "Pitt", message: "Long",
        phone: "+33 6 45 67 66 98", at: "2022-01-03T12:54:23Z", unreadCount: 1),
    ])
    #expect(rows.map(\.id) == [.integer(1), .integer(2), .integer(3), .integer(4)])
    // As the screen's golden file records them.
    let screen = GoldenCase.messagesScreen
    #expect(rows.map(\.initials) == screen.expected("initials"))
    #expect(rows.map(\.title) == screen.expected("title"))
    #expect(rows.map(\.date) == screen.expected("date"))
    #expect(rows.map(\.isUnread) == [true, true, false, true])
  }

  @Test func unreadOnlyWhenTheCountIsPositive() {
    #expect(mapper.map(Pinned.message(unreadCount: 0)).isUnread == false)
    #expect(mapper.map(Pinned.message(unreadCount: -3)).isUnread == false)
    #expect(mapper.map(Pinned.message(unreadCount: 1)).isUnread == true)
  }

  @Test func previewIsOneCleanLineAndCanBeCut() {
    let text = "Hello\n\n\tworld \u{202E}and\u{1B}[2J more words"
    #expect(mapper.map(Pinned.message(message: text)).message == "Hello world and[2J more words")
    let short = MessageMapper(context: Pinned.context(previewLength: 7))
    #expect(short.map(Pinned.message(message: text)).message == "Hello…")
  }

  @Test func namesAreCleanedBeforeTheyMakeATitle() {
    let row = mapper.map(Pinned.message(firstname: "\u{202E}Eve\n", lastname: "  Smith\t"))
    #expect(row.title == "Eve Smith")
    #expect(row.initials == "ES")
  }

  @Test func placeholderWhenNothingNamesTheSender() {
    #expect(mapper.map(Pinned.message()).title == FormattingContext.defaultUntitledPlaceholder)
    var context = Pinned.context()
    context.untitledPlaceholder = "—"
    #expect(MessageMapper(context: context).map(Pinned.message()).title == "—")
  }

  @Test func stringIdsStayStrings() {
    var message = Pinned.message()
    message.id = .string("c0ffee")
    #expect(mapper.map(message).id == .string("c0ffee"))
  }

  @Test func expiryComesWithTheLabel() {
    let row = mapper.map(Pinned.message(at: "2022-01-31T08:45:33Z"))
    #expect(row.dateValidUntil == Pinned.instant("2022-01-31T23:00:00Z"))
  }

  @Test func sameInputAndContextGiveTheSameRows() {
    let messages = (0..<50).map {
      Pinned.message(id: Int64($0), firstname: "N\($0)", at: "2022-01-2\($0 % 10)T10:00:00Z")
    }
    #expect(
      MessageMapper(context: Pinned.context()).map(messages) == MessageMapper(context: Pinned.context()).map(messages))
  }

  /// A long array is mapped in parts on several cores: the rows are those
  /// of mapping each message alone, in order, wherever the parts are cut.
  @Test(arguments: [MessageMapper.parallelThreshold - 1, MessageMapper.parallelThreshold, 20_011])
  func aLongArrayGivesTheRowsOfItsMessages(count: Int) {
    let firstnames = ["Ann", "Zoë", "", "  Anna ", "小明", "Мария", "👨‍👩‍👧‍👦 Family", "O'Brien"]
    let lastnames = ["Smith", "", "王", "İnan", "van Gogh"]
    let messages = (0..<count).map { index in
      Pinned.message(
        id: Int64(index), firstname: firstnames[index % firstnames.count], lastname: lastnames[index % lastnames.count],
        message: "Message \(index)\n", phone: index % 3 == 0 ? "+33 6 \(index)" : "",
        at: "2022-01-\(10 + index % 20)T\(10 + index % 12):0\(index % 10):00Z", unreadCount: Int64(index % 3))
    }
    let rows = mapper.map(messages)
    let oneByOne = MessageMapper(context: Pinned.context())
    let expected = messages.map { oneByOne.map($0) }
    #expect(rows.count == expected.count)
    let firstDifference = rows.indices.first { rows[$0] != expected[$0] }
    #expect(firstDifference == nil, "row \(firstDifference ?? 0): \(firstDifference.map { "\(rows[$0])" } ?? "")")
  }
}
