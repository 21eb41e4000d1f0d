import Foundation
import Testing

@testable import InboxFormat

@Suite struct DecodingFormTests {
  typealias Fixture = DecodingFixture

  static let specificationExample = """
    {"items":[{"id":1,"firstname":"Alexander","lastname":"Anderson","message":"Hello!! How are you?","phone_number":{"international":"+33 6 56 67 45 66"},"update_date":"2022-01-31T08:45:33Z","unread_count":1}]}
    """

  static let alexander = MessageAPIModel(
    id: .integer(1), firstname: "Alexander", lastname: "Anderson", message: "Hello!! How are you?",
    phoneNumber: .init(international: "+33 6 56 67 45 66"), updateDate: Pinned.instant("2022-01-31T08:45:33Z"),
    unreadCount: 1)

  @Test func decodesThePayloadForm() throws {
    #expect(try Fixture.decode(Self.specificationExample) == [Self.alexander])
  }

  @Test func decodesABareArray() throws {
    let json = "[\(Fixture.message(id: "1")),\(Fixture.message(id: "2"))]"
    #expect(try Fixture.decode(json).map(\.id) == [.integer(1), .integer(2)])
  }

  @Test func decodesNDJSONSkippingBlankLines() throws {
    let json =
      "\n" + Fixture.message(id: "1") + "\r\n  \t\n\n" + Fixture.message(id: "\"b\"") + "  \n"
      + Fixture.message(id: "3")
    #expect(try Fixture.decode(json).map(\.id) == [.integer(1), .string("b"), .integer(3)])
  }

  @Test func decodesNDJSONWithoutTrailingNewlineOrWithOne() throws {
    #expect(try Fixture.decode(Fixture.message(id: "1")).count == 1)
    #expect(try Fixture.decode(Fixture.message(id: "1") + "\n").count == 1)
  }

  @Test func decodesEmptyArrays() throws {
    #expect(try Fixture.decode(#"{"items":[]}"#).isEmpty)
    #expect(try Fixture.decode(" [ ] ").isEmpty)
  }

  @Test func ignoresOtherKeysAroundItems() throws {
    let json =
      #"{"version":2,"meta":{"next":[1,{"a":null}]},"items":[\#(Fixture.message(id: "7"))],"cursor":"abc","more":false}"#
    #expect(try Fixture.decode(json).map(\.id) == [.integer(7)])
  }

  @Test func emptyOrWhitespaceInputIsEmptyInput() {
    #expect(Fixture.error(decoding: "") == .emptyInput)
    #expect(Fixture.error(decoding: " \n\t\r\n") == .emptyInput)
    #expect(Fixture.error(decoding: [0xEF, 0xBB, 0xBF, 0x20]) == .emptyInput)
  }

  @Test func acceptsAByteOrderMark() throws {
    let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array(Self.specificationExample.utf8)
    #expect(try InboxDecoder().decode(bytes) == [Self.alexander])
    #expect(try InboxDecoder().decode(Data(bytes)) == [Self.alexander])
  }

  @Test func keepsTheJSONTypeOfIDs() throws {
    let json =
      "["
      + ["1", "\"1\"", "\"c0ffee\"", "0", "-5", "9223372036854775807", "-9223372036854775808", "\"\""]
      .map { Fixture.message(id: $0) }.joined(separator: ",") + "]"
    #expect(
      try Fixture.decode(json).map(\.id) == [
        .integer(1), .string("1"), .string("c0ffee"), .integer(0), .integer(-5), .integer(.max), .integer(.min),
        .string(""),
      ])
  }

  @Test func absentAndNullOptionalFieldsAreEmpty() throws {
    let json = """
      [{"id":1,"update_date":"2022-01-31T08:45:33Z"},
       {"id":2,"firstname":null,"lastname":null,"message":null,"phone_number":null,"unread_count":null,"update_date":"2022-01-31T08:45:33Z"},
       {"id":3,"phone_number":{},"update_date":"2022-01-31T08:45:33Z"},
       {"id":4,"phone_number":{"international":null},"update_date":"2022-01-31T08:45:33Z"}]
      """
    let messages = try Fixture.decode(json)
    #expect(messages.count == 4)
    for message in messages {
      #expect(message.firstname == "")
      #expect(message.lastname == "")
      #expect(message.message == "")
      #expect(message.phoneNumber.international == "")
      #expect(message.unreadCount == 0)
    }
  }

  @Test func negativeUnreadCountIsKept() throws {
    let messages = try Fixture.decode("[\(Fixture.message(id: "1", extra: #","unread_count":-3"#))]")
    #expect(messages[0].unreadCount == -3)
  }

  @Test func skipsUnknownKeysOfEveryType() throws {
    let unknown = #"""
      "s":"text \" \\ \u00e9 😀","n":-12.5e+3,"z":0,"t":true,"f":false,"nul":null,"o":{},"a":[],
      "deep":{"a":[1,[2,[3,{"b":{"c":[true,false,null,"x",{"d":-0.0}]}}]]],"e":{"f":{}}},
      "phone_number":{"country":"FR","international":"+33 1","extra":[{"x":1}]}
      """#
    let json = #"[{"id":1,\#(unknown),"update_date":"2022-01-31T08:45:33Z","after":[{}]}]"#
    let messages = try Fixture.decode(json)
    #expect(
      messages == [
        MessageAPIModel(
          id: .integer(1), phoneNumber: .init(international: "+33 1"),
          updateDate: Pinned.instant("2022-01-31T08:45:33Z"))
      ])
  }

  @Test func keysMayComeInAnyOrder() throws {
    let json =
      #"[{"unread_count":2,"update_date":"2022-01-31T08:45:33Z","phone_number":{"international":"+1"},"message":"m","lastname":"L","firstname":"F","id":"x"}]"#
    #expect(
      try Fixture.decode(json) == [
        MessageAPIModel(
          id: .string("x"), firstname: "F", lastname: "L", message: "m", phoneNumber: .init(international: "+1"),
          updateDate: Pinned.instant("2022-01-31T08:45:33Z"), unreadCount: 2)
      ])
  }

  @Test func theLastOfDuplicateKeysWins() throws {
    let json = """
      [{"id":1,"firstname":"A","firstname":"B","unread_count":"oops","unread_count":4,
        "phone_number":{"international":5},"phone_number":{"international":"+2","international":"+3"},
        "update_date":"not a date","update_date":"2022-01-31T08:45:33Z"}]
      """
    let message = try #require(try Fixture.decode(json).first)
    #expect(message.firstname == "B")
    #expect(message.unreadCount == 4)
    #expect(message.phoneNumber.international == "+3")
  }

  @Test func decodesEscapes() throws {
    let json =
      #"[{"id":1,"message":"q\" b\\ s\/ \b\f\n\r\t \u00e9\u00C9 \u20ac \ud83d\ude00 \uD834\uDD1E end","update_date":"2022-01-31T08:45:33Z"}]"#
    let message = try Fixture.decode(json)[0].message
    #expect(message == "q\" b\\ s/ \u{8}\u{C}\n\r\t éÉ € 😀 𝄞 end")
  }

  @Test func decodesEscapedKeysAndEscapedDates() throws {
    let json = #"[{"\u0069d":5,"first\u006eame":"N","update_date":"2022\u002d01-31T08:45:33Z"}]"#
    let message = try Fixture.decode(json)[0]
    #expect(message.id == .integer(5))
    #expect(message.firstname == "N")
    #expect(message.updateDate == Pinned.instant("2022-01-31T08:45:33Z"))
  }

  @Test func keepsNonASCIITextExactly() throws {
    let names = ["Zoë", "Мария", "Σωκράτης", "محمد", "小明", "민준", "अनिल", "👨‍👩‍👧‍👦 Family", "\u{FEFF}x", "e\u{301}"]
    let json =
      "[" + names.map { Fixture.message(id: "1", extra: #","firstname":"\#($0)""#) }.joined(separator: ",") + "]"
    #expect(try Fixture.decode(json).map(\.firstname) == names)
  }

  @Test func acceptsWhitespaceEverywhere() throws {
    let json =
      " \r\n{ \"items\" : [ { \"id\" : 1 , \"phone_number\" : { \"international\" : \"+1\" } , \"update_date\" : \"2022-01-31T08:45:33Z\" } ] } \n "
    #expect(try Fixture.decode(json).map(\.phoneNumber.international) == ["+1"])
  }

  @Test func readsFractionalDatesAndOffsets() throws {
    let json = #"[{"id":1,"update_date":"2022-01-31T09:45:33.250+01:00"}]"#
    let expected = Pinned.instant("2022-01-31T08:45:33Z").addingTimeInterval(0.25)
    #expect(try Fixture.decode(json)[0].updateDate == expected)
  }
}
