package import InboxFormat

/// Reads the options that decide what rows carry: `--fields`, `--date-style`,
/// `--badge-limit` and a request's `fields`, `dateStyle`, `badgeLimit`.
package enum RowOptions {
  /// A comma-separated list of keys, in the order the rows carry them;
  /// `default` stands for `id,initials,title,message,date,isUnread`.
  ///
  /// ```swift
  /// try RowOptions.fields("default,unreadBadge")  // the six, then unreadBadge
  /// try RowOptions.fields("id,colour")  // throws: "colour" is not a field
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

  /// `standard`, `compact` or `relative`.
  package static func dateStyle(_ name: String) throws(OptionError) -> DateStyle {
    guard let style = DateStyle(name: name) else {
      throw .notOneOf(name, expected: DateStyle.all.map(\.name).joined(separator: ", ", lastSeparator: " or "))
    }
    return style
  }

  /// An integer from 1 to 999999999, in decimal digits.
  package static func badgeLimit(_ text: String) throws(OptionError) -> Int {
    guard !text.isEmpty, text.utf8.count <= 9, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
      let limit = Int(text), limit >= 1
    else { throw .badNumber(text, expected: "an integer from 1 to 999999999") }
    return limit
  }
}

extension [String] {
  /// `a, b or c`: the words of a message that lists choices.
  package func joined(separator: String, lastSeparator: String) -> String {
    count <= 1 ? joined() : dropLast().joined(separator: separator) + lastSeparator + last!
  }
}
