import Foundation
import HTTPTypes
import HummingbirdTesting
import InboxFormat
import InboxFormatServer
import NIOCore
import Synchronization
import Testing

/// `POST /v1/rows`: media types, errors, caching, skipped messages.
@Suite struct RowsEndpointTests {
  static let pinned = "locale=en-US&timeZone=Europe%2FParis&now=2022-01-31T12:00:00Z"

  static var exampleContext: FormattingContext {
    FormattingContext(
      now: exampleNow, locale: Locale(identifier: "en-US"), timeZone: TimeZone(identifier: "Europe/Paris")!)
  }

  @Test func theExampleAsTheReadmeShowsIt() async throws {
    try await withServer { client in
      let response = try await client.rows(Self.pinned)
      #expect(response.status == .ok)
      #expect(String(buffer: response.body).hasPrefix(#"[{"id":1,"initials":"AA","title":"Alexander Anderson","#))
      #expect(String(buffer: response.body).hasSuffix("}]\n"))
      #expect(response.headers[.contentLanguage] == "en-US")
      #expect(response.headers[.vary] == "Accept, Accept-Language")
    }
  }

  @Test(arguments: [
    nil, "application/json", "application/json; charset=utf-8", "application/x-ndjson", "application/ndjson",
    "text/plain", "application/x-www-form-urlencoded",
  ])
  func readableMediaTypes(_ contentType: String?) async throws {
    try await withServer { client in
      let headers: HTTPFields = contentType.map { [.contentType: $0] } ?? [:]
      let response = try await client.rows(Self.pinned, headers: headers)
      #expect(response.status == .ok)
    }
  }

  @Test(arguments: ["application/xml", "multipart/form-data; boundary=x", "application/json; charset=latin1"])
  func otherMediaTypesAre415(_ contentType: String) async throws {
    try await withServer { client in
      let response = try await client.rows(Self.pinned, headers: [.contentType: contentType])
      #expect(response.status == .unsupportedMediaType)
      _ = try ProblemBody(response)
    }
  }

  @Test func ndjsonBodyIn() async throws {
    let ndjson = #"""
      {"id":1,"firstname":"Ada","update_date":"2022-01-31T08:45:33Z","unread_count":1}
      {"id":"b","lastname":"Lovelace","update_date":"2022-01-30T08:45:33Z"}

      """#
    try await withServer { client in
      let response = try await client.rows(
        Self.pinned, body: ByteBuffer(string: ndjson), headers: [.contentType: "application/x-ndjson"])
      #expect(response.status == .ok)
      #expect(String(buffer: response.body) == (try libraryOutput(Array(ndjson.utf8), Self.exampleContext)))
    }
  }

  @Test(arguments: [
    ("application/x-ndjson", "application/x-ndjson"), ("application/ndjson", "application/ndjson"),
    ("application/x-ndjson, application/json", "application/x-ndjson"),
    ("application/json;q=0.5, application/x-ndjson", "application/x-ndjson"),
    ("application/x-ndjson;q=0.5, application/json", "application/json"),
    ("application/x-ndjson, */*", "application/x-ndjson"), ("*/*", "application/json"),
    ("application/*", "application/json"), ("text/html, */*;q=0.1", "application/json"),
  ])
  func acceptChoosesTheLayout(_ accept: String, _ contentType: String) async throws {
    try await withServer { client in
      let response = try await client.rows(Self.pinned, headers: [.accept: accept])
      #expect(response.status == .ok)
      #expect(response.headers[.contentType] == contentType)
      let layout: InboxEncoder.Layout = contentType == "application/json" ? .compact : .ndjson
      #expect(
        String(buffer: response.body)
          == (try libraryOutput(Array(buffer: examplePayload), Self.exampleContext, layout: layout)))
    }
  }

  @Test(arguments: [
    "text/html", "application/json;q=0, application/x-ndjson;q=0, application/ndjson;q=0, */*", "image/*",
  ])
  func anAcceptThatAllowsNeitherIs406(_ accept: String) async throws {
    try await withServer { client in
      let response = try await client.rows(Self.pinned, headers: [.accept: accept])
      #expect(response.status == .notAcceptable)
      _ = try ProblemBody(response)
    }
  }

  @Test func ndjsonCarriesItsValidatorsAsTrailers() async throws {
    try await withServer { client in
      let pinned = try await client.rows(Self.pinned, headers: [.accept: "application/x-ndjson"])
      #expect(pinned.headers[.cacheControl] == "public, max-age=31536000, immutable")
      #expect(pinned.headers[.eTag] == nil)
      #expect(pinned.trailerHeaders?[.eTag]?.hasPrefix("\"") == true)
      // Yesterday's label goes stale at the next Paris midnight: 23:00 UTC.
      #expect(pinned.trailerHeaders?[HTTPField.Name("Inbox-Valid-Until")!] == "2022-01-31T23:00:00Z")
      let running = try await client.rows("locale=en-US", headers: [.accept: "application/x-ndjson"])
      #expect(running.headers[.cacheControl] == "no-cache")
    }
  }

  @Test func aMalformedBodyIs400WithTheCommandsMessage() async throws {
    let body = #"{"items":[{"id":1,"update_date":"2022-01-31T08:45:33Z"},]}"#
    var expectedError: InboxFormatError?
    do { _ = try InboxDecoder().decode(Array(body.utf8)) } catch { expectedError = error }
    let error = try #require(expectedError)
    try await withServer { client in
      let response = try await client.rows(Self.pinned, body: ByteBuffer(string: body))
      #expect(response.status == .badRequest)
      let problem = try ProblemBody(response)
      #expect(problem.detail == "\(error)")
      #expect(problem.detail.hasPrefix("line 1, column "))
      #expect(problem.line == error.location?.line)
      #expect(problem.column == error.location?.column)
      #expect(problem.title == "Bad Request")
    }
  }

  @Test func anInvalidMessageNamesItsPathAndId() async throws {
    let body =
      #"{"items":[{"id":1,"update_date":"2022-01-31T08:45:33Z"},{"id":"c0ffee","update_date":"2022-13-01T00:00:00Z"}]}"#
    try await withServer { client in
      let response = try await client.rows(Self.pinned, body: ByteBuffer(string: body))
      #expect(response.status == .badRequest)
      let problem = try ProblemBody(response)
      #expect(problem.path == "items[1].update_date")
      #expect(String(buffer: response.body).contains(#""id":"c0ffee""#))
      #expect(problem.detail.contains("month 13 is out of range"))
    }
  }

  @Test func anEmptyBodyIs400() async throws {
    try await withServer { client in
      let response = try await client.rows(Self.pinned, body: ByteBuffer())
      #expect(response.status == .badRequest)
      #expect(try ProblemBody(response).detail.hasPrefix("the input is empty"))
    }
  }

  @Test(arguments: [
    ("timeZone=Mars%2FOlympus", "timeZone", #"timeZone "Mars/Olympus" is not a known time zone"#),
    ("locale=tlh", "locale", #"locale "tlh" is not a locale with CLDR data"#),
    ("locale=", "locale", #"locale "" is not a locale name"#),
    ("locale=th-t-nu0nu-u-nu-thai", "locale", #"locale "th-t-nu0nu-u-nu-thai" is not a locale name"#),
    ("now=yesterday", "now", #"now "yesterday" is not an instant"#),
    ("hourCycle=13", "hourCycle", #"hourCycle "13" is not valid; expected 12 or 24"#),
    ("previewLength=0", "previewLength", #"previewLength "0" is not valid"#),
    ("previewLength=-3", "previewLength", #"previewLength "-3" is not valid"#),
    ("skipInvalid=yes", "skipInvalid", #"skipInvalid "yes" is not valid; expected true or false"#),
    ("color=blue", "color", #"unknown query parameter "color""#),
    ("locale=fr-FR&locale=de-DE", "locale", "locale is given twice"),
    ("timeZone=%ZZ", "timeZone", #"timeZone "%ZZ" is not percent-encoded UTF-8"#),
    ("fields=default,colour", "fields", #"fields "default,colour" names "colour", which is not a field"#),
    ("fields=id,id", "fields", #"fields "id,id" names "id" twice"#),
    ("fields=", "fields", #"fields "" has an empty name"#),
    ("dateStyle=short", "dateStyle", #"dateStyle "short" is not valid; expected standard, compact or relative"#),
    ("badgeLimit=0", "badgeLimit", #"badgeLimit "0" is not valid; expected an integer from 1 to 999999999"#),
  ])
  func aBadQueryValueIs400NamingIt(_ query: String, _ parameter: String, _ detail: String) async throws {
    try await withServer { client in
      let response = try await client.rows(query)
      #expect(response.status == .badRequest)
      let problem = try ProblemBody(response)
      #expect(problem.parameter == parameter)
      #expect(problem.detail.hasPrefix(detail), "\(problem.detail)")
    }
  }

  @Test func aPlusInTheQueryIsAPlus() async throws {
    try await withServer { client in
      let response = try await client.rows("timeZone=GMT+05:30&now=2022-01-31T12:00:00Z")
      #expect(response.status == .ok)
      let context = Self.exampleContext.timeZone(TimeZone(secondsFromGMT: 19_800)!)
      #expect(String(buffer: response.body) == (try libraryOutput(Array(buffer: examplePayload), context)))
    }
  }

  @Test func hourCycleAndPreviewLength() async throws {
    try await withServer { client in
      let response = try await client.rows(Self.pinned + "&hourCycle=24&previewLength=10")
      let context = Self.exampleContext.hourCycle(.twentyFourHour).previewLength(10)
      #expect(String(buffer: response.body) == (try libraryOutput(Array(buffer: examplePayload), context)))
      #expect(String(buffer: response.body).contains(#""date":"09:45""#))
    }
  }

  @Test func fieldsDateStyleAndBadgeLimit() async throws {
    try await withServer { client in
      let query = Self.pinned + "&fields=id,date,unreadBadge,spokenDate,avatarColor&dateStyle=compact&badgeLimit=9"
      let response = try await client.rows(query)
      #expect(response.status == .ok)
      let context = Self.exampleContext.fields([.id, .date, .unreadBadge, .spokenDate, .avatarColor]).dateStyle(
        .compact
      )
      .badgeLimit(9)
      #expect(String(buffer: response.body) == (try libraryOutput(Array(buffer: examplePayload), context)))
      #expect(String(buffer: response.body).hasPrefix("[{\"id\":1,\"date\":\"9:45\u{202F}AM\",\"unreadBadge\":\"1\","))
      #expect(
        String(buffer: response.body).contains(#""date":"Jan 3","unreadBadge":"1","spokenDate":"January 3, 2022""#))
    }
  }

  /// The settings that change rows are part of the kept formatter's key:
  /// the same locale and zone with other fields, style or limit get their own.
  @Test func keptFormattersAreKeptPerFieldsStyleAndLimit() async throws {
    // Two days back: the first day of the weekday bucket.
    let body = ByteBuffer(string: #"[{"id":1,"update_date":"2022-01-29T10:00:00Z","unread_count":12}]"#)
    try await withServer { client in
      var answers: [String] = []
      for extra in [
        "", "&dateStyle=compact", "&fields=default,unreadBadge", "&fields=default,unreadBadge&badgeLimit=9", "",
      ] {
        answers.append(String(buffer: try await client.rows(Self.pinned + extra, body: body).body))
      }
      #expect(answers[0].contains(#""date":"Saturday""#))
      #expect(answers[1].contains(#""date":"Sat""#))
      #expect(answers[2].contains(#""unreadBadge":"12""#))
      #expect(answers[3].contains(#""unreadBadge":"9+""#))
      #expect(answers[4] == answers[0])
    }
  }

  @Test func theServersDefaultsApply() async throws {
    let configuration = testConfiguration {
      $0.defaults = FormattingContext(
        now: exampleNow, locale: Locale(identifier: "fr-FR"), timeZone: TimeZone(identifier: "Europe/Paris")!,
        hourCycle: .twelveHour, previewLength: 5)
      $0.frozenNow = exampleNow
    }
    try await withServer(.router, configuration) { client in
      let response = try await client.rows()
      let context = FormattingContext(
        now: exampleNow, locale: Locale(identifier: "fr-FR"), timeZone: TimeZone(identifier: "Europe/Paris")!,
        hourCycle: .twelveHour, previewLength: 5)
      #expect(String(buffer: response.body) == (try libraryOutput(Array(buffer: examplePayload), context)))
      #expect(response.headers[.contentLanguage] == "fr-FR")
    }
  }

  // MARK: Caching

  @Test func withoutNowFreshnessRunsToTheFirstStaleLabel() async throws {
    // The clock reads 12:00 UTC; "9:45 AM" and "Yesterday" go stale at the
    // Paris midnight, 23:00 UTC: 11 hours.
    try await withServer { client in
      let response = try await client.rows("timeZone=Europe%2FParis")
      #expect(response.status == .ok)
      #expect(response.headers[.cacheControl] == "max-age=39600")
      #expect(response.headers[.expires] == "Mon, 31 Jan 2022 23:00:00 GMT")
    }
  }

  @Test func relativeLabelsAreFreshUntilTheirMinuteChanges() async throws {
    // The clock reads 12:00:00 UTC; a message of 11:54:50 is "5 min. ago"
    // until 12:00:50, when it becomes "6 min. ago".
    let body = ByteBuffer(string: #"[{"id":1,"update_date":"2022-01-31T11:54:50Z"}]"#)
    try await withServer { client in
      let response = try await client.rows("timeZone=Europe%2FParis&locale=en-US&dateStyle=relative", body: body)
      #expect(String(buffer: response.body).contains(#""date":"5 min. ago""#))
      #expect(response.headers[.cacheControl] == "max-age=50")
      #expect(response.headers[.expires] == "Mon, 31 Jan 2022 12:00:50 GMT")
    }
  }

  /// A query's reading is kept by its text and `Accept-Language`'s: a
  /// request repeating them still gets its own instant, and one with
  /// another `Accept-Language` its own locale.
  @Test func aKeptQueryTakesEachRequestsInstantAndLanguage() async throws {
    let clock = Mutex(exampleNow)
    let configuration = testConfiguration { $0.clock = { clock.withLock { $0 } } }
    let body = ByteBuffer(string: #"[{"id":1,"update_date":"2022-01-31T11:54:50Z"}]"#)
    let query = "timeZone=Europe%2FParis&dateStyle=relative"
    try await withServer(.router, configuration) { client in
      let first = try await client.rows(query, body: body, headers: [.acceptLanguage: "en-US"])
      #expect(first.headers[.cacheControl] == "max-age=50")
      clock.withLock { $0 = $0.addingTimeInterval(30) }
      let second = try await client.rows(query, body: body, headers: [.acceptLanguage: "en-US"])
      #expect(second.headers[.cacheControl] == "max-age=20")
      #expect(second.headers[.expires] == first.headers[.expires])
      let french = try await client.rows(query, body: body, headers: [.acceptLanguage: "fr-FR"])
      #expect(french.headers[.contentLanguage] == "fr-FR")
      #expect(String(buffer: french.body) != String(buffer: second.body))
      let again = try await client.rows(query, body: body, headers: [.acceptLanguage: "en-US"])
      #expect(again.headers[.contentLanguage] == "en-US")
      #expect(String(buffer: again.body) == String(buffer: second.body))
    }
  }

  @Test func labelsThatNeverGoStaleAreFreshForAYear() async throws {
    let body = #"[{"id":1,"update_date":"2020-01-01T00:00:00Z"}]"#
    try await withServer { client in
      let response = try await client.rows("", body: ByteBuffer(string: body))
      #expect(response.headers[.cacheControl] == "max-age=31536000")
      #expect(response.headers[.expires] == "Tue, 31 Jan 2023 12:00:00 GMT")
    }
  }

  @Test func withNowTheAnswerNeverChanges() async throws {
    try await withServer { client in
      let response = try await client.rows(Self.pinned)
      #expect(response.headers[.cacheControl] == "public, max-age=31536000, immutable")
    }
  }

  @Test func eTagAndIfNoneMatch() async throws {
    try await withServer { client in
      let first = try await client.rows(Self.pinned)
      let tag = try #require(first.headers[.eTag])
      #expect(tag.hasPrefix("\"") && tag.hasSuffix("\"") && !tag.hasPrefix("W/"))
      let again = try await client.rows(Self.pinned)
      #expect(again.headers[.eTag] == tag)
      let other = try await client.rows(Self.pinned.replacingOccurrences(of: "en-US", with: "fr-FR"))
      #expect(other.headers[.eTag] != tag)

      for ifNoneMatch in [tag, "W/\(tag)", "\"nope\", \(tag)", "*"] {
        let notModified = try await client.rows(Self.pinned, headers: [.ifNoneMatch: ifNoneMatch])
        #expect(notModified.status == .notModified)
        #expect(notModified.body.readableBytes == 0)
        #expect(notModified.headers[.eTag] == tag)
        #expect(notModified.headers[.cacheControl] == "public, max-age=31536000, immutable")
      }
      let modified = try await client.rows(Self.pinned, headers: [.ifNoneMatch: "\"nope\""])
      #expect(modified.status == .ok)
    }
  }

  // MARK: Skipped messages

  @Test func skipInvalidListsWhatItLeftOut() async throws {
    let body = #"""
      {"items":[{"id":1,"update_date":"2022-01-31T08:45:33Z"},{"id":2,"update_date":"2022-13-01T00:00:00Z"},{"update_date":"2022-01-31T08:45:33Z"}]}
      """#
    try await withServer { client in
      let refused = try await client.rows(Self.pinned, body: ByteBuffer(string: body))
      #expect(refused.status == .badRequest)

      let response = try await client.rows(Self.pinned + "&skipInvalid=true", body: ByteBuffer(string: body))
      #expect(response.status == .ok)
      #expect(response.headers[HTTPField.Name("Inbox-Skipped-Count")!] == "2")
      let skipped = try #require(response.headers[HTTPField.Name("Inbox-Skipped")!])
      #expect(
        skipped.hasPrefix(
          #""line 1, column 79: items[1].update_date (id 2): invalid date \"2022-13-01T00:00:00Z\": month 13 is out of range"#
        ))
      #expect(skipped.contains(#"", "line 1, column 103: items[2].id: missing required field \"id\""#))
      #expect(String(buffer: response.body).hasPrefix(#"[{"id":1,"#))

      let streamed = try await client.rows(
        Self.pinned + "&skipInvalid=true", body: ByteBuffer(string: body), headers: [.accept: "application/x-ndjson"])
      #expect(streamed.trailerHeaders?[HTTPField.Name("Inbox-Skipped-Count")!] == "2")
      #expect(streamed.trailerHeaders?[HTTPField.Name("Inbox-Skipped")!] == skipped)
    }
  }

  @Test func nothingSkippedMeansNoSkipFields() async throws {
    try await withServer { client in
      let response = try await client.rows(Self.pinned + "&skipInvalid=true")
      #expect(response.headers[HTTPField.Name("Inbox-Skipped-Count")!] == nil)
    }
  }
}

extension Array where Element == UInt8 {
  init(buffer: ByteBuffer) {
    self = Array(buffer.readableBytesView)
  }
}
