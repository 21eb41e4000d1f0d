import Foundation
import InboxFormat
import InboxFormatOptions

/// The query of `GET /events`: what the page's controls set. A parameter
/// left out keeps what the command was started with.
struct PreviewQuery {
  /// One screen per locale, in order: `locale=en-US,ar-EG,ja-JP`.
  var locales: [Locale]?
  /// The settings the page's controls set besides the locales: the zone,
  /// the hour cycle and the date style.
  var settings = FormattingSettings()
  /// Seconds the page moved the clock, forward or back.
  var offset = 0
  /// The window of rows asked for: the first row's index, and how many.
  var start: Int?
  var count: Int?

  /// The settings the page's controls set, read as the service reads them.
  static let controls: [FormattingSettings.Name] = [.timeZone, .hourCycle, .dateStyle]
  static let names = ["locale"] + controls.map(\.parameter) + ["offset", "start", "count"]

  /// Reads `query`, resolving names through `names`. Throws a 400
  /// ``Problem`` naming the first parameter that is unknown, repeated or not
  /// usable.
  init(_ query: String?, names: SettingsResolver) throws(Problem) {
    for (name, value) in try queryParameters(query, names: Self.names) {
      do throws(OptionError) {
        if let setting = FormattingSettings.Name(rawValue: name), Self.controls.contains(setting) {
          try settings.read(setting, value, names: names)
          continue
        }
        switch name {
        case "locale":
          let localeNames = value.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
          guard (1...PreviewConfiguration.mostLocales).contains(localeNames.count) else {
            throw OptionError.badNumber(
              value, expected: "1 to \(PreviewConfiguration.mostLocales) locales, separated by commas")
          }
          locales = try localeNames.map { name throws(OptionError) in try names.locale(name) }
        case "start":
          guard value.utf8.count <= 10, let index = Int(value), (0...Int(Int32.max)).contains(index) else {
            throw OptionError.badNumber(value, expected: "a row's index from 0 to \(Int32.max)")
          }
          start = index
        case "count":
          let largest = PreviewConfiguration.largestWindow
          guard value.utf8.count <= 4, let rows = Int(value), (1...largest).contains(rows) else {
            throw OptionError.badNumber(value, expected: "1 to \(largest) rows")
          }
          count = rows
        default:  // offset
          let farthest = PreviewConfiguration.farthestMove
          guard value.utf8.count <= 11, let seconds = Int(value), (-farthest...farthest).contains(seconds) else {
            throw OptionError.badNumber(value, expected: "whole seconds from -\(farthest) to \(farthest)")
          }
          offset = seconds
        }
      } catch {
        throw Problem(parameter: name, error)
      }
    }
  }
}
