public import Foundation
public import InboxFormat
public import Testing

/// A golden case of `Data/golden/cases`: an input, the settings it is
/// formatted with, and the file its output must equal. Read once here for
/// every test target that runs the cases (the library, the command, the
/// service), each of which passes the settings its own way.
public struct GoldenCase: Decodable, Sendable {
  /// The file's name without `.json`.
  public var name = ""
  /// The input, relative to the case's file (as `inbox-format check --cases` reads it).
  public var input: String
  public var now: String
  public var locale: String
  public var timeZone: String
  public var hourCycle: String?
  public var previewLength: Int?
  /// `--fields`, `--date-style` and `--badge-limit`, as the command takes them.
  public var fields: String?
  public var dateStyle: String?
  public var badgeLimit: Int?
  /// `--map` (a built-in's name) and `--viewer`; the post's mapping when absent.
  public var map: String?
  public var viewer: String?
  /// Why the case exists; not read.
  public var note: String?

  private enum CodingKeys: String, CodingKey {
    case input, now, locale, timeZone, hourCycle, previewLength, fields, dateStyle, badgeLimit, map, viewer, note
  }

  /// The repository's `Data/`.
  public static let dataDirectory = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Data")
  /// `Data/golden/cases`.
  public static let casesDirectory = dataDirectory.appendingPathComponent("golden/cases")

  /// Every case, by name.
  public static let all: [GoldenCase] = {
    let files = (try? FileManager.default.contentsOfDirectory(atPath: casesDirectory.path)) ?? []
    return files.filter { $0.hasSuffix(".json") && !$0.hasSuffix(".expected.json") }.sorted().map { file in
      var golden = try! JSONDecoder().decode(
        GoldenCase.self, from: Data(contentsOf: casesDirectory.appendingPathComponent(file)))
      golden.name = String(file.dropLast(".json".count))
      return golden
    }
  }()

  public var inputURL: URL { Self.casesDirectory.appendingPathComponent(input).standardizedFileURL }
  public var expectedURL: URL { Self.casesDirectory.appendingPathComponent("\(name).expected.json") }
  public var payload: [UInt8] { [UInt8](try! Data(contentsOf: inputURL)) }

  /// The context the case's settings name, built directly (not by the
  /// command's option readers, which the command's run tests).
  public var context: FormattingContext {
    FormattingContext(
      now: try! Date(now, strategy: .iso8601),
      locale: Locale(identifier: locale),
      timeZone: TimeZone(identifier: timeZone)!,
      hourCycle: hourCycle.map { $0 == "12" ? .twelveHour : .twentyFourHour },
      previewLength: previewLength,
      fields: fieldList,
      dateStyle: dateStyle.map { DateStyle(name: $0)! } ?? .standard,
      badgeLimit: badgeLimit ?? FormattingContext.defaultBadgeLimit)
  }

  /// The mapping the case names, with its viewer.
  public var mapping: InputMapping {
    (map.map { InputMapping.builtIn(named: $0)! } ?? .post).viewer(viewer)
  }

  /// `fields` read by hand, as the command's reader is not the library's.
  public var fieldList: [RowField] {
    guard let fields else { return RowField.defaults }
    return fields.split(separator: ",").flatMap { name in
      name == "default" ? RowField.defaults : [RowField(name: String(name))!]
    }
  }
}

extension GoldenCase: CustomTestStringConvertible {
  public var testDescription: String { name }
}

extension GoldenCase {
  /// The case whose file is `name.json`.
  public static func named(_ name: String) -> GoldenCase {
    guard let found = all.first(where: { $0.name == name }) else { fatalError("no golden case \(name)") }
    return found
  }

  /// The post's Messages screen: its example payload on 2022-01-31 at
  /// noon UTC, in en-US and Paris. Tests that show that screen take what
  /// the rules make of it from here, so that a rule's change is recorded
  /// once, in the golden file, not re-typed in each test.
  public static var messagesScreen: GoldenCase { named("messages-en-US-paris") }

  /// The string each expected row holds for `key`, in order.
  public func expected(_ key: String) -> [String] {
    let rows = try! JSONSerialization.jsonObject(with: Data(contentsOf: expectedURL)) as! [[String: Any]]
    return rows.map { row in
      guard let value = row[key] as? String else { fatalError("\(name): a row without a string \(key)") }
      return value
    }
  }

  /// The expected rows as the command writes them without `--pretty`: the
  /// golden file's bytes without the whitespace between its tokens.
  public var expectedCompactJSON: String {
    var compact: [UInt8] = []
    var (inString, escaped) = (false, false)
    for byte in try! Data(contentsOf: expectedURL) {
      if inString {
        (escaped, inString) = (!escaped && byte == UInt8(ascii: "\\"), escaped || byte != UInt8(ascii: "\""))
      } else if byte == UInt8(ascii: "\"") {
        inString = true
      } else if byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\n") {
        continue
      }
      compact.append(byte)
    }
    return String(decoding: compact, as: UTF8.self) + "\n"
  }
}
