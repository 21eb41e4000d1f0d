import Foundation
import InboxFormat
import InboxFormatOptions
import Testing

@testable import InboxFormatServer

/// The lists that the OpenAPI document and the preview's page show are the
/// code's own: the query's parameters, each setting's choices, the mappings
/// and the row's keys. The documents are written by hand, for people; these
/// tests keep them from drifting away from what the server takes.
@Suite struct DocumentedListsTests {
  /// The lines of the path `path` (`/v1/rows`) in the OpenAPI document.
  static func lines(of path: String) -> [Substring] {
    let lines = OpenAPIDocument.yaml.split(separator: "\n", omittingEmptySubsequences: false)
    guard let start = lines.firstIndex(of: "  \(path):") else { return [] }
    let end = lines[(start + 1)...].firstIndex { $0.hasPrefix("  /") || !$0.hasPrefix(" ") } ?? lines.endIndex
    return Array(lines[start..<end])
  }

  /// The query parameters documented for `path`, in order, with the line
  /// of each one's schema.
  static func queryParameters(of path: String) -> [(name: String, schema: Substring)] {
    let block = lines(of: path)
    var parameters: [(String, Substring)] = []
    for (index, line) in block.enumerated() {
      guard let name = line.trimmingPrefix("        - name: ").nilIfUnchanged(line),
        block[index + 1].contains("in: query"),
        let schema = block[(index + 1)...].first(where: { $0.contains("schema:") })
      else { continue }
      parameters.append((String(name), schema))
    }
    return parameters
  }

  static let rowsLines = lines(of: "/v1/rows")
  static let queryParameters = queryParameters(of: "/v1/rows")

  /// The words of the `enum: [...]` on `line`, quotes dropped.
  static func enumeration(_ line: Substring) -> [String]? {
    guard let open = line.range(of: "enum: ["), let close = line[open.upperBound...].firstIndex(of: "]") else {
      return nil
    }
    return line[open.upperBound..<close].split(separator: ",").map {
      $0.trimmingCharacters(in: CharacterSet(charactersIn: " \""))
    }
  }

  static func schema(of parameter: String) -> Substring? {
    queryParameters.first { $0.name == parameter }?.schema
  }

  @Test func theQueryParametersAreTheQuerysOwn() {
    #expect(Self.queryParameters.map(\.name) == RowsQuery.names)
  }

  @Test func theChoicesAreTheParsersOwn() throws {
    #expect(
      Self.enumeration(try #require(Self.schema(of: "hourCycle")))
        == FormattingSettings.hourCycles.map(\.description))
    #expect(Self.enumeration(try #require(Self.schema(of: "dateStyle"))) == DateStyle.all.map(\.name))
    #expect(Self.enumeration(try #require(Self.schema(of: "map"))) == InputMapping.builtIns.map(\.name))
    for parameter in ["previewLength", "badgeLimit"] {
      let schema = try #require(Self.schema(of: parameter))
      #expect(schema.contains("minimum: 1, maximum: 999999999"), "\(parameter)")
    }
    #expect(throws: OptionError.self) { try FormattingSettings.positiveInteger("0") }
    #expect(try FormattingSettings.positiveInteger("999999999") == 999_999_999)
    #expect(throws: OptionError.self) { try FormattingSettings.positiveInteger("1000000000") }
    // The server takes up to 256 bytes; JSON Schema counts characters, and
    // 64 characters are at most 256 bytes of UTF-8, so every id the schema
    // allows is taken.
    #expect(try #require(Self.schema(of: "viewer")).contains("maxLength: \(RowsQuery.longestViewer / 4)"))
  }

  @Test func theFieldsDescriptionNamesEveryField() throws {
    let start = try #require(Self.rowsLines.firstIndex { $0.hasSuffix("- name: fields") })
    let description = Self.rowsLines[start..<(start + 7)].joined(separator: " ")
    for field in RowField.all where !RowField.defaults.contains(field) {
      #expect(description.contains("`\(field.name)`"), "\(field.name)")
    }
    #expect(description.contains("`\(RowField.defaults.map(\.name).joined(separator: ","))`"))
  }

  /// The row's schema has exactly the keys a row can carry, in order.
  @Test func theRowSchemaHasEveryFieldsKey() throws {
    let lines = OpenAPIDocument.yaml.split(separator: "\n", omittingEmptySubsequences: false)
    let start = try #require(lines.firstIndex(of: "    Row:"))
    let properties = try #require(lines[start...].firstIndex(of: "      properties:"))
    let keys = lines[(properties + 1)...].prefix { $0.hasPrefix("        ") }.compactMap { line -> String? in
      guard !line.hasPrefix("         ") else { return nil }  // deeper: a key's own schema
      return line.dropFirst(8).split(separator: ":").first.map(String.init)
    }
    #expect(keys == RowField.all.map(\.name))
  }

  /// `GET /events` (the preview's) documents the page's query, its
  /// choices and its bounds.
  @Test func theEventsQueryIsThePreviewsOwn() throws {
    let parameters = Self.queryParameters(of: "/events")
    #expect(parameters.map(\.name) == PreviewQuery.names)
    func schema(_ name: String) -> Substring { parameters.first { $0.name == name }?.schema ?? "" }
    #expect(Self.enumeration(schema("dateStyle")) == DateStyle.all.map(\.name))
    #expect(Self.enumeration(schema("hourCycle")) == FormattingSettings.hourCycles.map(\.description))
    #expect(schema("count").contains("maximum: \(PreviewConfiguration.largestWindow)"))
    #expect(schema("start").contains("maximum: \(Int32.max)"))
    let move = PreviewConfiguration.farthestMove
    #expect(schema("offset").contains("minimum: -\(move), maximum: \(move)"))
  }

  /// The page's selects offer the parsers' choices, and the locale's own
  /// hour cycle as the empty value.
  @Test func thePagesChoicesAreTheParsersOwn() {
    func options(of select: String) -> [String] {
      let html = PreviewPage.frame
      guard let start = html.range(of: "<select id=\"\(select)\""),
        let end = html[start.upperBound...].range(of: "</select>")
      else { return [] }
      return html[start.upperBound..<end.lowerBound].components(separatedBy: "<option value=\"").dropFirst().map {
        String($0.prefix { $0 != "\"" })
      }
    }
    #expect(options(of: "dateStyle") == DateStyle.all.map(\.name))
    #expect(options(of: "hourCycle") == [""] + FormattingSettings.hourCycles.map(\.description))
  }
}

extension Substring {
  /// Self, or nil when it is `original` (nothing was trimmed).
  fileprivate func nilIfUnchanged(_ original: Substring) -> Substring? {
    count == original.count ? nil : self
  }
}
