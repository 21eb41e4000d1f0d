import Foundation

@testable import InboxFormat

extension DateLabels {
  /// The label of a message updated at `date`, with nothing remembered from
  /// an earlier call: what the tests of the date rules ask for.
  func label(for date: Date) -> (text: String, validUntil: Date?) {
    var memo = LabelMemo(store: LabelStore())
    return label(for: date, memo: &memo)
  }
}
