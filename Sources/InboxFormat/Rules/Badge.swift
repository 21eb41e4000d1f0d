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
/// digits and its grouping, `1,234`, `١٬٢٣٤`), its format made for the
/// first badge shown.
final class BadgeNumbers: Sendable {
  private let style: OnFirstUse<IntegerFormatStyle<Int64>>

  init(locale: Locale) {
    style = OnFirstUse { IntegerFormatStyle<Int64>(locale: formattableLocale(locale)) }
  }

  /// `number` (1 or more) in the locale's digits and grouping.
  func text(of number: Int64) -> String {
    style.value.format(number)
  }
}
