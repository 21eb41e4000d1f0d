import Foundation
import InboxFormat
import InboxFormatSupport

/// Makes text written by others (ArgumentParser's messages, which hold the
/// user's words) safe for a one-line message: each argument it quotes is
/// cut after 60 characters, as ``quoted(_:limit:)`` cuts values, then what
/// could drive a terminal, reorder the line or break it is escaped as
/// `\u{…}`, and a byte that was not UTF-8 in an argument shows as `\x{FF}`.
package enum OneLine {
  package static func safe(_ text: String, arguments: [String] = CommandLineArguments.strings) -> String {
    var text = text
    for argument in arguments where argument.unicodeScalars.count > 60 {
      text = text.replacingOccurrences(of: argument, with: String(argument.unicodeScalars.prefix(60)) + "…")
    }
    var result = ""
    for scalar in text.unicodeScalars {
      if let byte = CommandLineArguments.byte(standingInFor: scalar) {
        appendByteEscaped(byte, to: &result)
      } else if isHiddenInAMessage(scalar) {
        appendHiddenEscaped(scalar, to: &result)
      } else {
        result.unicodeScalars.append(scalar)
      }
    }
    return result
  }
}
