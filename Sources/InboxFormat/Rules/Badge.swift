import Foundation

// The unread badge: the count as the locale writes numbers, capped.

/// The badge of `count` unread messages: `""` for none (0 or less), the
/// count in the locale's digits and grouping up to `limit`, and above it
/// `limit` followed by `+` (`99+`, `٩٩+` in ar-EG).
func unreadBadge(count: Int64, limit: Int, numbers: BadgeNumbers) -> String {
  if count <= 0 { return "" }
  if count > Int64(limit) { return numbers.text(of: Int64(limit)) + "+" }
  return numbers.text(of: count)
}

/// Whole numbers as the locale writes them (CLDR decimal pattern: its
/// digits and its grouping, `1,234`, `١٬٢٣٤`), the first few made once.
final class BadgeNumbers: Sendable {
  private let style: IntegerFormatStyle<Int64>
  /// The text of 1, 2, … up to the badge limit or 999, whichever is smaller.
  private let first: [String]

  init(locale: Locale, limit: Int) {
    style = IntegerFormatStyle<Int64>(locale: formattableLocale(locale))
    first = (1...max(1, min(limit, 999))).map { [style] in style.format(Int64($0)) }
  }

  /// `number` (1 or more) in the locale's digits and grouping.
  func text(of number: Int64) -> String {
    number >= 1 && number <= Int64(first.count) ? first[Int(number) - 1] : style.format(number)
  }
}
