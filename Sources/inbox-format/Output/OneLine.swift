import InboxFormat

/// Makes text written by others (ArgumentParser's messages, which hold the
/// user's words) safe for a one-line message: what could drive a terminal,
/// reorder the line or break it is escaped as `\u{…}`, a byte that was not
/// UTF-8 in an argument shows as `\x{FF}`, and each value between single
/// quotes is cut after 60 characters, as ``quoted(_:limit:)`` does.
enum OneLine {
  static func safe(_ text: String) -> String {
    var result = ""
    for (index, part) in text.split(separator: "'", omittingEmptySubsequences: false).enumerated() {
      if index > 0 { result += "'" }
      let isValue = index % 2 == 1
      var count = 0
      for scalar in part.unicodeScalars {
        if isValue && count == 60 {
          result += "…"
          break
        }
        count += 1
        if scalar.value >= CommandLineArguments.firstStandIn {
          result += "\\x{\(String(scalar.value - CommandLineArguments.firstStandIn + 0x80, radix: 16, uppercase: true))}"
        } else if isHiddenInAMessage(scalar) {
          result += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
        } else {
          result.unicodeScalars.append(scalar)
        }
      }
    }
    return result
  }
}
