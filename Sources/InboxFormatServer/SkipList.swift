import HTTPTypes
import InboxFormat
import Synchronization

/// The messages `skipInvalid=true` left out, as the command words them.
final class SkipList: Sendable {
  private let state = Mutex<(count: Int, listed: [String])>((0, []))

  func add(_ problem: InboxFormatError) {
    state.withLock { state in
      state.count += 1
      if state.listed.count < RowsEndpoint.mostSkipsListed { state.listed.append("\(problem)") }
    }
  }

  /// `Inbox-Skipped-Count` and `Inbox-Skipped` when anything was left out.
  func describe(in fields: inout HTTPFields) {
    let (count, listed) = state.withLock { $0 }
    guard count > 0 else { return }
    fields[.inboxSkippedCount] = String(count)
    var members: [String] = []
    var length = 0
    for message in listed {
      let member = structuredStringList([message])
      length += member.utf8.count + 2
      if length > RowsEndpoint.longestSkipList { break }
      members.append(member)
    }
    fields[.inboxSkipped] = members.joined(separator: ", ")
  }
}

extension HTTPField.Name {
  /// How many messages `skipInvalid=true` left out.
  static let inboxSkippedCount = HTTPField.Name("Inbox-Skipped-Count")!
  /// The first of them, each as the command words it: an RFC 8941 list of strings.
  static let inboxSkipped = HTTPField.Name("Inbox-Skipped")!
  /// NDJSON's trailer: when the first label written goes stale (RFC 3339).
  static let inboxValidUntil = HTTPField.Name("Inbox-Valid-Until")!
}
