/// How the date label of a row is worded (``FormattingContext/dateStyle``).
///
/// Every style takes its words and formats from the locale's CLDR data.
/// A struct, so that a style can be added without breaking a `switch`.
public struct DateStyle: Sendable, Hashable, CustomStringConvertible {
  let style: LabelStyle

  /// The time today, the word for yesterday, the full weekday for 2 to 6
  /// days back, else the short date: `9:45 AM`, `Yesterday`, `Tuesday`, `1/3/22`.
  public static let standard = DateStyle(style: .standard)
  /// As ``standard`` for today and yesterday; the abbreviated weekday for 2
  /// to 6 days back (`Tue`); the month and day within now's year in the
  /// locale's calendar (`Jan 3`, `3 janv.`, `1月3日`); else the short date.
  public static let compact = DateStyle(style: .compact)
  /// The word for now from a minute ahead to 59 seconds back (`Now`), the
  /// short form of 1 to 59 minutes back (`5 min. ago`), else as ``standard``.
  /// Its labels change every minute, and so does ``MessageUIModel/dateValidUntil``.
  public static let relative = DateStyle(style: .relative)

  /// Every style, by name.
  public static let all: [DateStyle] = [.standard, .compact, .relative]

  /// `standard`, `compact` or `relative`.
  public var name: String {
    switch style {
    case .standard: "standard"
    case .compact: "compact"
    case .relative: "relative"
    case .spoken: "spoken"
    }
  }
  public var description: String { name }

  /// The style named `name`, or nil.
  public init?(name: String) {
    guard let style = Self.all.first(where: { $0.name == name }) else { return nil }
    self = style
  }

  init(style: LabelStyle) {
    self.style = style
  }
}
