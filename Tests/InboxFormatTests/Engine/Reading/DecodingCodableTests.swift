import Foundation
import Testing

@testable import InboxFormat

@Suite struct DecodingCodableTests {
  typealias Fixture = DecodingFixture

  static let payloads = [
    DecodingFormTests.specificationExample,
    #"{"items":[]}"#,
    #"{"items":[{"id":"c0ffee","update_date":"2022-01-31T08:45:33.123456789123+05:30"},{"id":-7,"update_date":"2016-12-31T23:59:60.5Z","unread_count":-2}]}"#,
    #"{"items":[{"id":1,"firstname":null,"lastname":"Ødegaard","message":"q\"\\ \u00e9 \ud83d\ude00\n","phone_number":null,"update_date":"2024-02-29 12:00:00z","unread_count":null}]}"#,
    #"{"next":"x","items":[{"id":9223372036854775807,"phone_number":{"international":"+81 3","x":[1]},"update_date":"0001-01-01T00:00:00-00:00","extra":{"a":[true,false,null]}}]}"#,
  ]

  @Test(arguments: payloads)
  func jsonDecoderAndFastReaderAgree(json: String) throws {
    let viaJSONDecoder = try JSONDecoder().decode(InboxPayload.self, from: Data(json.utf8)).items
    let viaFastReader = try InboxDecoder().decode(Array(json.utf8))
    #expect(viaJSONDecoder == viaFastReader)
  }

  @Test func decodesASingleMessage() throws {
    let json = #"{"id":"a1","update_date":"2022-01-31T08:45:33Z","unread_count":null}"#
    let message = try JSONDecoder().decode(MessageAPIModel.self, from: Data(json.utf8))
    #expect(message == MessageAPIModel(id: .string("a1"), updateDate: Pinned.instant("2022-01-31T08:45:33Z")))
  }

  @Test func invalidDateIsDataCorruptedWithTheReason() throws {
    let json = #"{"id":1,"update_date":"2022-02-30T00:00:00Z"}"#
    do {
      _ = try JSONDecoder().decode(MessageAPIModel.self, from: Data(json.utf8))
      Issue.record("expected an error")
    } catch DecodingError.dataCorrupted(let context) {
      #expect(context.codingPath.map(\.stringValue) == ["update_date"])
      #expect(
        context.debugDescription == #"invalid date "2022-02-30T00:00:00Z": day 30 does not exist in February 2022"#)
    }
  }

  @Test func missingRequiredFieldsAndWrongIDTypesThrow() {
    #expect(throws: DecodingError.self) {
      try JSONDecoder().decode(MessageAPIModel.self, from: Data(#"{"id":1}"#.utf8))
    }
    #expect(throws: DecodingError.self) {
      try JSONDecoder().decode(
        MessageAPIModel.self, from: Data(#"{"id":true,"update_date":"2022-01-31T08:45:33Z"}"#.utf8))
    }
  }

  @Test func messageIDEncodesBackToItsJSONType() throws {
    let encoded = try JSONEncoder().encode([MessageID.integer(42), .string("42"), .integer(.min)])
    #expect(String(decoding: encoded, as: UTF8.self) == #"[42,"42",-9223372036854775808]"#)
    #expect(try JSONDecoder().decode([MessageID].self, from: encoded) == [.integer(42), .string("42"), .integer(.min)])
  }
}
