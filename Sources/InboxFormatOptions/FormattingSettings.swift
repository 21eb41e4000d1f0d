package import Foundation
package import InboxFormat

/// The formatting settings that the command's options, the service's query
/// and the preview's page give as text, each read by its one parser here.
///
/// The front ends name a setting each their own way (`--time-zone`,
/// `timeZone`); what a value means and how a bad one is worded
/// (``OptionError``) are the same everywhere. A setting not given is nil and
/// the front end's default stands: ``applied(to:)`` is the one merge.
///
/// ```swift
/// var settings = FormattingSettings()
/// try settings.read(.timeZone, "Asia/Tokyo")
/// try settings.read(.fields, "default,unreadBadge")
/// let context = settings.applied(to: defaults)
/// ```
package struct FormattingSettings: Sendable {
  /// A setting, in the order the documentation lists them.
  package enum Name: String, CaseIterable, Sendable {
    case locale, timeZone, now, hourCycle, previewLength, fields, dateStyle, badgeLimit

    /// The query parameter that gives it: `timeZone`.
    package var parameter: String { rawValue }

    /// The command-line option that gives it: `--time-zone`.
    package var option: String {
      // The raw values are ASCII lower camel case.
      var name = Array("--".utf8)
      for byte in rawValue.utf8 {
        if byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") {
          name += [UInt8(ascii: "-"), byte - UInt8(ascii: "A") + UInt8(ascii: "a")]
        } else {
          name.append(byte)
        }
      }
      return String(decoding: name, as: UTF8.self)
    }
  }

  package var locale: Locale?
  package var timeZone: TimeZone?
  package var now: Date?
  package var hourCycle: HourCycle?
  package var previewLength: Int?
  package var fields: [RowField]?
  package var dateStyle: DateStyle?
  package var badgeLimit: Int?

  package init() {}

  /// Reads `value` as the setting `name`, the way every front end reads it.
  /// Locale names and zone ids are resolved by `names` (which may keep what
  /// it resolved).
  package mutating func read(
    _ name: Name, _ value: String, names: some SettingNames = DirectSettingNames()
  ) throws(OptionError) {
    switch name {
    case .locale: locale = try names.locale(value)
    case .timeZone: timeZone = try names.timeZone(value)
    case .now: now = try Instant.parse(value)
    case .hourCycle: hourCycle = try Self.hourCycle(value)
    case .previewLength: previewLength = try Self.positiveInteger(value)
    case .fields: fields = try Self.fields(value)
    case .dateStyle: dateStyle = try Self.dateStyle(value)
    case .badgeLimit: badgeLimit = try Self.positiveInteger(value)
    }
  }

  /// `defaults` with each setting given here in its place. A locale given
  /// here brings its own calendar, as a context made for it would.
  package func applied(to defaults: FormattingContext) -> FormattingContext {
    FormattingContext(
      now: now ?? defaults.now,
      locale: locale ?? defaults.locale,
      timeZone: timeZone ?? defaults.timeZone,
      calendar: locale == nil ? defaults.calendar : nil,
      hourCycle: hourCycle ?? defaults.hourCycle,
      previewLength: previewLength ?? defaults.previewLength,
      untitledPlaceholder: defaults.untitledPlaceholder,
      fields: fields ?? defaults.fields,
      dateStyle: dateStyle ?? defaults.dateStyle,
      badgeLimit: badgeLimit ?? defaults.badgeLimit)
  }

  // MARK: The parsers

  /// The hour cycles a setting can force, by their names (`12`, `24`).
  package static let hourCycles: [HourCycle] = [.twelveHour, .twentyFourHour]

  /// `12` or `24`.
  package static func hourCycle(_ value: String) throws(OptionError) -> HourCycle {
    guard let cycle = hourCycles.first(where: { $0.description == value }) else {
      throw .notOneOf(value, expected: Self.hourCycleNames)
    }
    return cycle
  }

  /// `12 or 24`: what ``hourCycle(_:)`` takes.
  package static let hourCycleNames = hourCycles.map(\.description).joined(separator: ", ", lastSeparator: " or ")

  /// An integer from 1 to 999999999, in decimal digits: a preview length or
  /// a badge limit.
  package static func positiveInteger(_ text: String) throws(OptionError) -> Int {
    guard !text.isEmpty, text.utf8.count <= 9, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
      let number = Int(text), number >= 1
    else { throw .badNumber(text, expected: "an integer from 1 to 999999999") }
    return number
  }

  /// A comma-separated list of keys, in the order the rows carry them;
  /// `default` stands for ``RowField/defaults``.
  ///
  /// ```swift
  /// try FormattingSettings.fields("default,unreadBadge")  // the six, then unreadBadge
  /// try FormattingSettings.fields("id,colour")  // throws: "colour" is not a field
  /// ```
  package static func fields(_ list: String) throws(OptionError) -> [RowField] {
    var fields: [RowField] = []
    for name in list.split(separator: ",", omittingEmptySubsequences: false).map(String.init) {
      let named: [RowField]
      if name == "default" {
        named = RowField.defaults
      } else if let field = RowField(name: name) {
        named = [field]
      } else {
        throw name.isEmpty ? .emptyField(list) : .unknownField(list, field: name)
      }
      for field in named {
        guard !fields.contains(field) else { throw .repeatedField(list, field: field.name) }
        fields.append(field)
      }
    }
    return fields
  }

  /// One of ``DateStyle/all``, by name.
  package static func dateStyle(_ name: String) throws(OptionError) -> DateStyle {
    guard let style = DateStyle(name: name) else { throw .notOneOf(name, expected: dateStyleNames) }
    return style
  }

  /// `standard, compact or relative`: what ``dateStyle(_:)`` takes.
  package static let dateStyleNames = DateStyle.all.map(\.name).joined(separator: ", ", lastSeparator: " or ")

  /// The keys besides the default ones, for help texts: `dateValidUntil,
  /// unreadBadge, … and avatarColor`.
  package static let optionalFieldNames = RowField.all.filter { !RowField.defaults.contains($0) }.map(\.name)
    .joined(separator: ", ", lastSeparator: " and ")
}

/// How locale names and zone ids become values: at once (the command), or
/// through a bounded memo (the service, whose requests name the same few).
package protocol SettingNames {
  /// The locale `name` names, BCP 47 or POSIX.
  func locale(_ name: String) throws(OptionError) -> Locale
  /// The zone `id` names, IANA or a fixed offset.
  func timeZone(_ id: String) throws(OptionError) -> TimeZone
}

/// Names resolved as the command resolves them, nothing kept.
package struct DirectSettingNames: SettingNames {
  package init() {}
  package func locale(_ name: String) throws(OptionError) -> Locale { try LocaleName.locale(from: name) }
  package func timeZone(_ id: String) throws(OptionError) -> TimeZone { try TimeZoneName.timeZone(id: id) }
}

// Help texts are made at every start, so these two joins are loops: the
// standard library's `joined(separator:)` enters unspecialized code whose
// associated types the runtime resolves by conformance look-ups, each a
// scan of every conformance in the executable.
extension [String] {
  /// `a, b or c`: the words of a message that lists choices.
  package func joined(separator: String, lastSeparator: String) -> String {
    var text = ""
    for (index, word) in enumerated() {
      if index > 0 { text += index == count - 1 ? lastSeparator : separator }
      text += word
    }
    return text
  }

  /// `a|b|c`: what `joined(separator:)` gives, without its cost at start.
  package func joined(by separator: String) -> String { joined(separator: separator, lastSeparator: separator) }
}
