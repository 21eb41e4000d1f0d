// The Messages post's own approach, as a baseline to measure against:
// JSONDecoder with snake_case conversion, a new DateFormatter per message,
// Calendar's isDateInToday/isDateInYesterday and "a week is 604,800 s".
// Only what it needs to run at all on a real payload was changed: optional
// fields (the post traps on the first missing one), fractional seconds, and
// an injected clock, locale and zone instead of the system's.
// (Its mistakes — "Yesterday" in every locale, a week of 604,800 s — are kept.)
// usage: PostApproach FILE --now ISO --locale ID --time-zone ID
import Foundation

struct Root: Decodable {
  let items: [Message]

  struct Message: Decodable {
    let id: Int
    let firstname: String?
    let lastname: String?
    let message: String?
    let phoneNumber: PhoneNumber?
    let updateDate: Date
    let unreadCount: Int?

    struct PhoneNumber: Decodable {
      let international: String?
    }
  }
}

struct MessageUIModel: Encodable {
  let id: Int
  let initials: String
  let title: String
  let message: String
  let date: String
  let isUnread: Bool
}

func option(_ name: String) -> String {
  let arguments = CommandLine.arguments
  guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else {
    fatalError("missing \(name)")
  }
  return arguments[index + 1]
}

let now = ISO8601DateFormatter().date(from: option("--now"))!
let locale = Locale(identifier: option("--locale"))
let calendar = {
  var calendar = Calendar(identifier: .gregorian)
  calendar.timeZone = TimeZone(identifier: option("--time-zone"))!
  return calendar
}()


func initials(for message: Root.Message) -> String {
  let firstLetter = String((message.firstname ?? "").prefix(1))
  let secondLetter = String((message.lastname ?? "").prefix(1))
  switch (!firstLetter.isEmpty, !secondLetter.isEmpty) {
  case (true, true): return "\(firstLetter)\(secondLetter)"
  case (true, _): return firstLetter
  case (_, true): return secondLetter
  default: return "?"
  }
}

func formattedDate(for date: Date) -> String {
  let formatter = DateFormatter()
  formatter.locale = locale
  formatter.timeZone = calendar.timeZone
  let startOfToday = calendar.startOfDay(for: now)
  let isToday = calendar.isDate(date, inSameDayAs: now)
  let isYesterday = calendar.isDate(date, inSameDayAs: startOfToday.addingTimeInterval(-1))
  let oneWeekAgo = startOfToday.addingTimeInterval(-604_800)
  if isToday {
    formatter.timeStyle = .short
  } else if isYesterday {
    return "Yesterday"
  } else if (oneWeekAgo...now).contains(date) {
    formatter.dateFormat = "EEEE"
    return formatter.string(from: date)
  } else {
    formatter.timeStyle = .none
    formatter.dateStyle = .short
  }
  return formatter.string(from: date)
}

func title(for message: Root.Message) -> String {
  let first = message.firstname ?? ""
  let last = message.lastname ?? ""
  switch (!first.isEmpty, !last.isEmpty) {
  case (true, true): return "\(first) \(last)"
  case (true, _): return first
  case (_, true): return last
  default: return message.phoneNumber?.international ?? ""
  }
}

let decoder = JSONDecoder()
decoder.keyDecodingStrategy = .convertFromSnakeCase
// `.iso8601`, as in the post, plus the fractional seconds it rejects.
decoder.dateDecodingStrategy = .custom { decoder in
  let text = try decoder.singleValueContainer().decode(String.self)
  if let date = try? Date(text, strategy: .iso8601) { return date }
  return try Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true))
}
let data = try Data(contentsOf: URL(fileURLWithPath: CommandLine.arguments[1]))
let rows = try decoder.decode(Root.self, from: data).items.map { message in
  MessageUIModel(
    id: message.id, initials: initials(for: message), title: title(for: message),
    message: message.message ?? "", date: formattedDate(for: message.updateDate),
    isUnread: (message.unreadCount ?? 0) > 0)
}
FileHandle.standardOutput.write(try JSONEncoder().encode(rows))
