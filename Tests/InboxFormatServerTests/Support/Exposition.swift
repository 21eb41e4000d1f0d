import Foundation

/// A Prometheus text exposition (format 0.0.4), read strictly: every line
/// a `# HELP`, a `# TYPE`, another comment or a sample; every metric name,
/// label name and value well formed, label values escaped as the format
/// says; each family's `HELP` and `TYPE` at most once and before its
/// samples, its samples together; no series twice; counters not negative;
/// and a histogram's buckets cumulative, ending at `+Inf` with its count.
struct Exposition {
  struct Series: Hashable, CustomStringConvertible {
    var name: String
    var labels: [String: String]

    var description: String {
      name + "{" + labels.sorted { $0.key < $1.key }.map { "\($0.key)=\"\($0.value)\"" }.joined(separator: ",") + "}"
    }
  }

  struct Invalid: Error, CustomStringConvertible {
    var line: Int
    var reason: String
    var description: String { "line \(line): \(reason)" }
  }

  /// Each family's type, by its name.
  private(set) var types: [String: String] = [:]
  /// Each family's help, by its name.
  private(set) var help: [String: String] = [:]
  /// Every sample, by series.
  private(set) var values: [Series: Double] = [:]
  /// The series in the order written.
  private(set) var series: [Series] = []

  init(_ text: String) throws {
    guard text.isEmpty || text.hasSuffix("\n") else { throw Invalid(line: 0, reason: "the last line has no newline") }
    var familiesDone: Set<String> = []
    var current: String?
    var sampled: Set<String> = []
    for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().enumerated() {
      let number = index + 1
      func fail(_ reason: String) -> Invalid { Invalid(line: number, reason: "\(reason): \(line)") }
      if line.isEmpty { continue }
      if line.hasPrefix("#") {
        let words = line.split(separator: " ", maxSplits: 3, omittingEmptySubsequences: false)
        guard words.count >= 3, words[0] == "#", words[1] == "HELP" || words[1] == "TYPE" else { continue }
        let name = String(words[2])
        guard Self.isMetricName(name) else { throw fail("not a metric name") }
        guard !sampled.contains(name) else { throw fail("\(words[1]) after the family's samples") }
        if words[1] == "HELP" {
          guard help[name] == nil else { throw fail("a second HELP") }
          help[name] = words.count > 3 ? String(words[3]) : ""
        } else {
          guard types[name] == nil else { throw fail("a second TYPE") }
          guard words.count == 4, ["counter", "gauge", "histogram", "summary", "untyped"].contains(words[3]) else {
            throw fail("not a type")
          }
          types[name] = String(words[3])
        }
        continue
      }
      var reader = Reader(Substring(line))
      let name = reader.take { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == ":") }
      guard Self.isMetricName(name) else { throw fail("not a metric name") }
      var labels: [String: String] = [:]
      if reader.skip("{") {
        while !reader.skip("}") {
          let label = reader.take { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
          guard Self.isLabelName(label), reader.skip("=\"") else { throw fail("not a label") }
          guard labels[label] == nil else { throw fail("label \(label) twice") }
          guard let value = reader.quotedRest() else { throw fail("a label value not escaped as the format says") }
          labels[label] = value
          if !reader.skip(",") {
            guard reader.skip("}") else { throw fail("labels not closed") }
            break
          }
        }
      }
      guard reader.skip(" ") else { throw fail("no value") }
      let fields = reader.rest.split(separator: " ", omittingEmptySubsequences: false)
      guard (1...2).contains(fields.count), let value = Self.number(fields[0]) else { throw fail("not a value") }
      if fields.count == 2, Int64(fields[1]) == nil { throw fail("not a timestamp") }
      let family = family(of: name)
      if current != family {
        guard !familiesDone.contains(family) else { throw fail("family \(family) is not together") }
        if let current { familiesDone.insert(current) }
        current = family
      }
      sampled.insert(family)
      let series = Series(name: name, labels: labels)
      guard values[series] == nil else { throw fail("series written twice") }
      if types[family] == "counter", !(value >= 0) { throw fail("a counter below zero") }
      values[series] = value
      self.series.append(series)
    }
    try checkHistograms()
  }

  /// The family a sample belongs to: a histogram's for its `_bucket`, `_sum` and `_count`.
  func family(of name: String) -> String {
    for suffix in ["_bucket", "_sum", "_count"] where name.hasSuffix(suffix) {
      let base = String(name.dropLast(suffix.count))
      if types[base] == "histogram" || types[base] == "summary" { return base }
    }
    return name
  }

  /// The value of one series; nil when it is not there.
  func value(_ name: String, _ labels: [String: String] = [:]) -> Double? {
    values[Series(name: name, labels: labels)]
  }

  /// The series of `name`.
  func series(named name: String) -> [Series] {
    series.filter { $0.name == name }
  }

  private func checkHistograms() throws {
    for (family, type) in types where type == "histogram" {
      var buckets: [Series: [(bound: Double, count: Double)]] = [:]
      for series in series(named: family + "_bucket") {
        var labels = series.labels
        guard let bound = labels.removeValue(forKey: "le").flatMap({ Self.number(Substring($0)) }) else {
          throw Invalid(line: 0, reason: "\(series) has no le")
        }
        buckets[Series(name: family, labels: labels), default: []].append((bound, values[series]!))
      }
      for (series, counts) in buckets {
        guard counts.last?.bound == .infinity else { throw Invalid(line: 0, reason: "\(series) has no +Inf bucket") }
        for (earlier, later) in zip(counts, counts.dropFirst())
        where earlier.bound >= later.bound
          || earlier.count > later.count
        {
          throw Invalid(line: 0, reason: "\(series)'s buckets are not cumulative")
        }
        guard value(family + "_count", series.labels) == counts.last?.count,
          value(family + "_sum", series.labels) != nil
        else { throw Invalid(line: 0, reason: "\(series)'s count is not its +Inf bucket, or it has no sum") }
      }
    }
  }

  static func isMetricName(_ name: String) -> Bool {
    guard let first = name.first, first.isASCII, first.isLetter || first == "_" || first == ":" else { return false }
    return name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == ":") }
  }

  static func isLabelName(_ name: String) -> Bool {
    guard let first = name.first, first.isASCII, first.isLetter || first == "_" else { return false }
    return name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") } && !name.hasPrefix("__")
  }

  /// A sample's value: a decimal or exponent number, `+Inf`, `-Inf` or `NaN`.
  static func number(_ text: Substring) -> Double? {
    switch text {
    case "+Inf": return .infinity
    case "-Inf": return -.infinity
    case "NaN": return .nan
    default:
      guard text.wholeMatch(of: /[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?/) != nil else { return nil }
      return Double(text)
    }
  }

  private struct Reader {
    var rest: Substring
    init(_ text: Substring) { rest = text }

    mutating func take(while accepts: (Character) -> Bool) -> String {
      let taken = rest.prefix(while: accepts)
      rest = rest.dropFirst(taken.count)
      return String(taken)
    }

    mutating func skip(_ text: String) -> Bool {
      guard rest.hasPrefix(text) else { return false }
      rest = rest.dropFirst(text.count)
      return true
    }

    /// A label value up to its closing quote: `\\`, `\"` and `\n` the only escapes.
    mutating func quotedRest() -> String? {
      var value = ""
      while let character = rest.popFirst() {
        switch character {
        case "\"": return value
        case "\\":
          switch rest.popFirst() {
          case "\\": value.append("\\")
          case "\"": value.append("\"")
          case "n": value.append("\n")
          default: return nil
          }
        default: value.append(character)
        }
      }
      return nil
    }
  }
}
