import Foundation
import Testing

@testable import InboxFormat

/// For every built-in mapping, rows from its shape equal rows from the same
/// data written in the post's shape. Names are the exception, where the
/// display-name rule applies: a backend's one name gives the initials of
/// its first and last word, the post's `firstname` those of its first.
///
/// The data is random but seeded: names in many scripts (and none),
/// messages with quotes, backslashes, emoji and line breaks (none, for the
/// shapes without a preview), times over a few weeks around 2022-01-31,
/// unread counts of 0, 1, 3 and 120.
@Suite struct BackendShapeEquivalenceTests {
  static let contexts: [FormattingContext] = [
    Pinned.context(locale: "en-US", timeZone: "Europe/Paris"),
    Pinned.context(locale: "ar-EG", timeZone: "Africa/Cairo"),
    Pinned.context(locale: "ja-JP", timeZone: "Asia/Tokyo"),
  ].map { $0.fields(RowField.defaults + [.unreadBadge, .dateValidUntil]) }

  /// Payloads per shape; about eight items each.
  static let payloadCount = 24

  @Test(arguments: BackendShape.allCases)
  func rowsFromTheShapeAreRowsFromThePostsShape(shape: BackendShape) throws {
    let mapping = try #require(InputMapping.builtIn(named: shape.rawValue)).viewer(shape.defaultViewer)
    var random = SplitMix(seed: 0x5EED_0000 + UInt64(BackendShape.allCases.firstIndex(of: shape)!))
    for run in 0..<Self.payloadCount {
      let items = SampleItems.make(count: Int.random(in: 1...14, using: &random), for: shape, using: &random)
      let postPayload = Array(BackendShape.post.payload(items, viewer: "me").utf8)
      let shapePayload = Array(shape.payload(items, viewer: shape.defaultViewer).utf8)
      for context in Self.contexts {
        let expected = try rows(of: postPayload, context: context, mapping: .post)
        let actual = try rows(of: shapePayload, context: context, mapping: mapping)
        let label = "\(shape.rawValue), payload \(run), \(context.locale.identifier)"
        try #require(actual.count == items.count, "\(label)")
        try #require(expected.count == items.count, "\(label)")
        // Matrix keys its rooms by id, so rows are matched by id, not by position.
        let posts = Dictionary(uniqueKeysWithValues: expected.map { ($0.id, $0) })
        let mappedRows = Dictionary(uniqueKeysWithValues: actual.map { ($0.id, $0) })
        for (index, item) in items.enumerated() {
          guard let post = posts[item.id], let mapped = mappedRows[item.id] else {
            Issue.record("\(label): no row for \(item.id)")
            continue
          }
          let about = Comment(rawValue: "\(label), item \(index): \(item)")
          #expect(mapped.title == post.title, about)
          #expect(mapped.message == (shape.carriesPreview ? post.message : ""), about)
          #expect(mapped.date == post.date, about)
          #expect(mapped.dateValidUntil == post.dateValidUntil, about)
          #expect(mapped.isUnread == post.isUnread, about)
          if shape.unreadIsCount {
            #expect(mapped.unreadBadge == post.unreadBadge, about)
          }
          // The name as the title shows it, under the display-name rule.
          let shownName = shown(item.name) ?? ""
          if shape.carriesNameAsFirstname {
            #expect(mapped.initials == post.initials, about)
          } else {
            #expect(mapped.initials == initials(displayName: shownName, locale: context.locale), about)
          }
        }
      }
    }
  }

  /// The rows the formatter writes for `payload`, read back.
  func rows(of payload: [UInt8], context: FormattingContext, mapping: InputMapping) throws -> [Row] {
    var output: [UInt8] = []
    try InboxFormatter(context: context, layout: .compact, mapping: mapping).format(payload) { output += $0 }
    let objects = try #require(try JSONSerialization.jsonObject(with: Data(output)) as? [[String: Any]])
    return objects.map(Row.init)
  }

  /// A row as the formatter wrote it, its id as text.
  struct Row {
    var id: String
    var initials: String
    var title: String
    var message: String
    var date: String
    var isUnread: Bool
    var dateValidUntil: String?
    var unreadBadge: String?

    init(_ object: [String: Any]) {
      id =
        switch object["id"] {
        case let text as String: text
        case let number as NSNumber: number.stringValue
        default: "?"
        }
      initials = object["initials"] as? String ?? "?"
      title = object["title"] as? String ?? "?"
      message = object["message"] as? String ?? "?"
      date = object["date"] as? String ?? "?"
      isUnread = object["isUnread"] as? Bool ?? false
      dateValidUntil = object["dateValidUntil"] as? String
      unreadBadge = object["unreadBadge"] as? String
    }
  }
}

/// Random `SampleItem`s that a shape can carry.
enum SampleItems {
  static let names = [
    "Jane Doe", "Cher", "Jane van der Berg", "  jane   doe ", "山田太郎", "山田 太郎", "王小明", "김민준", "محمد أحمد",
    "مريم", "דוד לוי", "Пётр Иванов", "Émile Zola", "ilker şahin", "श्रीनिवास राव", "เอก ใจดี", "Ωμέγα Άννα",
    "O'Brien \"Bob\"", "back\\slash", "Zoë\nNewline", "👍🏽", "🇫🇷 Team", "\u{200B}", " ", "\u{202E}evil name",
    "", "", "",
  ]

  static let messages: [String?] = [
    nil, "", "hi", "Say \"hello\" to 'them'", #"C:\path\to\file"#, "😀👍🏽 ok 👨‍👩‍👧", "line one\nline two", "tab\there",
    "a  b", "<b>not bold</b> & co &amp;", "مرحبا بك", "日本語のメッセージです", "\u{202E}evil", "   padded   ",
    "https://example.com/a?b=c&d=e", "שלום עולם", "x",
  ]

  static let phones = ["", "", "+33 6 45 13 53 91", "+1 (555) 010-0199", "+81 90-1234-5678"]

  static let unreadCounts: [Int64] = [0, 1, 3, 120]

  /// 2022-01-31 08:45:33 UTC, the middle of the times written.
  static let middle: Int64 = 1_643_618_733

  static func make(count: Int, for shape: BackendShape, using random: inout SplitMix) -> [SampleItem] {
    (0..<count).map { index in
      // Unique in a payload (Matrix keys its rooms by id); some are integer literals.
      let id = index % 3 == 0 ? "\(1000 + index)" : "c\(index)-\(Int.random(in: 0...999, using: &random))"
      var message = messages.randomElement(using: &random)!
      if shape == .intercom {
        // HTML does not keep runs of whitespace and line breaks.
        message = message.map { $0.split(whereSeparator: \.isWhitespace).joined(separator: " ") }
      }
      return SampleItem(
        // A phone only where the shape has one: the post's row would show it where the other shows the placeholder.
        id: id, name: names.randomElement(using: &random)!,
        phone: shape.carriesPhone ? phones.randomElement(using: &random)! : "",
        message: message, unixSeconds: middle + Int64.random(in: -21 * 86_400...2 * 86_400, using: &random),
        unread: unreadCounts.randomElement(using: &random)!)
    }
  }
}
