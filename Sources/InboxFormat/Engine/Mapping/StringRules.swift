import Foundation

/// The row rules of a context (``RowRules``) over strings, fast: lines
/// cleaned from their bytes, names and labels remembered in `memo`,
/// initials of a leading letter looked up by that letter.
struct StringRules: RowRules {
  // What the rules read on every row, taken from the tables once, so that no
  // row touches the reference count of an object every thread shares (with
  // both cores retaining the same object for every row, that count alone
  // takes a tenth of a parallel map).
  /// The date labeler and words, unretained: the tables keep them, and
  /// these rules live only inside ``ContextTables/withStringRules(_:)``.
  let labeler: Unmanaged<DateLabeler>
  let words: Unmanaged<DateWords>
  let locale: Locale
  let previewLength: Int?
  let placeholder: String
  let extraFields: ExtraFields?
  var spareEntries: [RowExtras.Entry] = []
  /// The date style of `date` labels.
  let style: LabelStyle
  let badgeLimit: Int
  let badgeNumbers: BadgeNumbers?
  var memo: MemoTables

  init(tables: ContextTables, memo: MemoTables) {
    labeler = Unmanaged.passUnretained(tables.labeler)
    words = Unmanaged.passUnretained(tables.words)
    locale = tables.context.locale
    previewLength = tables.context.previewLength
    placeholder = tables.context.untitledPlaceholder
    extraFields = tables.extraFields
    style = tables.context.dateStyle.style
    badgeLimit = tables.context.badgeLimit
    badgeNumbers = tables.badgeNumbers
    self.memo = memo
  }

  @inline(__always)
  mutating func preview(_ message: String) -> String? {
    let line = cleanLine(message)
    return previewLength.map { truncated(line, to: $0) } ?? line
  }

  @inline(__always)
  mutating func dateLabel(for date: Date) -> DateLabel {
    labeled(date, style)
  }

  mutating func spokenDate(for date: Date) -> DateLabel {
    labeled(date, .spoken)
  }

  mutating func unreadBadge(count: Int64) -> String {
    guard let numbers = badgeNumbers else { return "" }
    if memo.badges == nil { memo.badges = Memo(slots: memo.slots(1024)) }
    if let badge = memo.badges?.peek(count) { return badge }
    let badge = InboxFormat.unreadBadge(count: count, limit: badgeLimit, numbers: numbers)
    memo.badges?.remember(badge, for: count)
    return badge
  }

  /// The label of `date` in `style`.
  @inline(__always)
  private mutating func labeled(_ date: Date, _ style: LabelStyle) -> DateLabel {
    labeler._withUnsafeGuaranteedRef { labeler in
      words._withUnsafeGuaranteedRef { words in labeler.label(for: date, style: style, words: words, memo: &memo) }
    }
  }

  @inline(__always)
  mutating func names(firstname: String, lastname: String, phoneNumber: String) -> (
    initials: String, title: Title<String>
  )? {
    // Most rows have two names that are already clean and seen: looked up
    // by their bytes, without making strings of them.
    if let known = knownNames(firstname: firstname, lastname: lastname) { return known }
    let first = cleanLine(firstname)
    let last = cleanLine(lastname)
    if let known = knownNames(firstname: first, lastname: last) { return known }
    let shownFirst = seen(first)
    let shownLast = seen(last)
    let initials = initialsAndOrder(firstname: shownFirst ?? "", lastname: shownLast ?? "").initials
    // The phone number is cleaned only when it is shown.
    let phone = shownFirst == nil && shownLast == nil ? seen(cleanLine(phoneNumber)) : nil
    // Two shown names would have been known above.
    let title = Title(
      firstname: shownFirst, lastname: shownLast, phoneNumber: phone, placeholder: placeholder,
      familyNameFirst: { _, _ in false })
    return (initials, title)
  }

  /// ``names(displayName:phoneNumber:placeholder:locale:)``: a name with a
  /// character seen is its clean line, which is the title; its initials
  /// are looked up (``displayNameInitials(of:string:)``).
  mutating func names(displayName: String, phoneNumber: String) -> (initials: String, title: Title<String>)? {
    let line = cleanLine(displayName)
    guard let name = seen(line) else {
      // Nothing of the name is seen: no initial, and the phone number's title.
      let title = Title(
        firstname: nil, lastname: nil, phoneNumber: seen(cleanLine(phoneNumber)), placeholder: placeholder,
        familyNameFirst: { _, _ in false })
      return ("?", title)
    }
    let initials = withUTF8(name, "") { bytes, _ in displayNameInitials(of: bytes) { name } }
    return (initials, .single(name))
  }

  /// ``initials(displayName:locale:)`` of the UTF-8 bytes of a display name
  /// that is a clean line with a character seen, asking ICU only for a
  /// letter or a name not seen before.
  ///
  /// A name of ASCII characters has words exactly where it has spaces (a
  /// clean line's only whitespace is single U+0020 between other
  /// characters), none written family name first: its initials are those
  /// of its first and last words' leading letters, as for two names. Other
  /// names are remembered whole; `string` makes one the memo lacks.
  @inline(__always)
  mutating func displayNameInitials(of name: UnsafeBufferPointer<UInt8>, string: () -> String) -> String {
    if name.allSatisfy({ $0 < 0x80 }) {
      let firstEnd = name.firstIndex(of: UInt8(ascii: " ")) ?? name.count
      let lastStart = name.lastIndex(of: UInt8(ascii: " ")).map { $0 + 1 } ?? 0
      if let first = leadingLetter(of: UnsafeBufferPointer(rebasing: name[..<firstEnd])),
        let last = leadingLetter(of: UnsafeBufferPointer(rebasing: name[lastStart...]))
      {
        guard firstEnd < name.count else { return initial(of: first) ?? "?" }
        return pairInitials(first, last)
      }
    }
    let locale = self.locale
    guard let key = PackedNames(name, UnsafeBufferPointer(start: nil, count: 0)) else {
      return InboxFormat.initials(displayName: string(), locale: locale)
    }
    if memo.displayNames == nil { memo.displayNames = Memo(slots: memo.slots(1024), ways: 4) }
    return memo.displayNames!.value(for: key) { InboxFormat.initials(displayName: string(), locale: locale) }
  }

  /// The initials and title of two names that are both clean lines with a
  /// character seen, from the memo when it has them; nil for other names.
  @inline(__always)
  private mutating func knownNames(firstname: String, lastname: String) -> (initials: String, title: Title<String>)? {
    withUTF8(firstname, lastname) { first, last in
      guard !first.isEmpty, !last.isEmpty, let key = PackedNames(first, last) else {
        return clean(first, last) ? names(firstname, lastname, first, last) : nil
      }
      if let known = memo.names.peek(key), let title = known.title {
        return (known.initials, .single(title))
      }
      guard clean(first, last) else { return nil }
      let (initials, familyNameFirst) = initialsAndOrder(firstname: first, lastname: last) { (firstname, lastname) }
      let title = Title<String>.names(first: firstname, last: lastname, familyNameFirst: familyNameFirst)
      memo.names.remember(NameEntry(initials: initials, familyNameFirst: familyNameFirst, title: title.text), for: key)
      return (initials, title)
    }
  }

  /// Whether two non-empty names are clean lines, each with a character seen.
  @inline(__always)
  private func clean(_ first: UnsafeBufferPointer<UInt8>, _ last: UnsafeBufferPointer<UInt8>) -> Bool {
    !first.isEmpty && !last.isEmpty && isSingleLine(first) && isSingleLine(last)
      && hasVisibleCharacter(first) && hasVisibleCharacter(last)
  }

  /// The initials and title of two clean names too long to remember.
  private mutating func names(
    _ firstname: String, _ lastname: String, _ first: UnsafeBufferPointer<UInt8>, _ last: UnsafeBufferPointer<UInt8>
  ) -> (initials: String, title: Title<String>) {
    let (initials, familyNameFirst) = initialsAndOrder(firstname: first, lastname: last) { (firstname, lastname) }
    return (initials, .names(first: firstname, last: lastname, familyNameFirst: familyNameFirst))
  }

  /// ``initialsAndOrder(firstname:lastname:strings:)`` of two cleaned names.
  private mutating func initialsAndOrder(firstname: String, lastname: String) -> (
    initials: String, familyNameFirst: Bool
  ) {
    withUTF8(firstname, lastname) { first, last in
      initialsAndOrder(firstname: first, lastname: last) { (firstname, lastname) }
    }
  }

  /// ``initials(firstname:lastname:locale:)`` of two cleaned names' UTF-8
  /// bytes, and whether their title puts the last name first
  /// (``isWrittenFamilyNameFirst(firstname:lastname:)``), asking ICU only for a
  /// letter or a pair of names not seen before. Names that
  /// ``leadingLetter(of:)`` decides are looked up by their two letters; for
  /// others `strings` is called to make them when the pair is not in the memo.
  @inline(__always)
  mutating func initialsAndOrder(
    firstname: UnsafeBufferPointer<UInt8>, lastname: UnsafeBufferPointer<UInt8>,
    strings: () -> (firstname: String, lastname: String)
  ) -> (initials: String, familyNameFirst: Bool) {
    if let first = leadingLetter(of: firstname), let last = leadingLetter(of: lastname) {
      // Such a name is never written family name first (its letter is not
      // Han, Kana or Hangul), so each initial depends on its name alone.
      return (pairInitials(first, last), false)
    }
    let key = PackedNames(firstname, lastname)
    if let key, let known = memo.names.peek(key) { return (known.initials, known.familyNameFirst) }
    let (first, last) = strings()
    let entry = NameEntry(
      initials: initials(firstname: first, lastname: last, locale: locale),
      familyNameFirst: isWrittenFamilyNameFirst(firstname: first, lastname: last), title: nil)
    if let key { memo.names.remember(entry, for: key) }
    return (entry.initials, entry.familyNameFirst)
  }

  /// The initials of two leading letters (``combinedInitials(_:_:)``),
  /// remembered by the pair.
  @inline(__always)
  private mutating func pairInitials(_ first: LeadingLetter, _ last: LeadingLetter) -> String {
    let pair = LetterPair(first: first.scalarValue, last: last.scalarValue)
    if let initials = memo.letterPairs.peek(pair) { return initials }
    let initials = combinedInitials(initial(of: first), initial(of: last))
    memo.letterPairs.remember(initials, for: pair)
    return initials
  }

  private mutating func initial(of letter: LeadingLetter) -> String? {
    switch letter {
    case .none: return nil
    case .scalar(let value) where value < 0x80:
      let locale = self.locale
      return memo.asciiInitials.value(for: value) {
        InboxFormat.initial(of: String(Unicode.Scalar(UInt8(value))), locale: locale)
      }
    case .scalar(let value):
      let locale = self.locale
      return memo.letters.value(for: value) {
        let letter = String(Unicode.Scalar(value)!)
        return InboxFormat.initial(of: letter, locale: locale) ?? letter
      }
    }
  }
}

/// `text`, or nil when no character of it is seen (``hasVisibleCharacter(_:)``).
private func seen(_ text: String) -> String? {
  hasVisibleCharacter(text) ? text : nil
}

/// Runs `body` on the UTF-8 bytes of two strings, in place (native and small
/// strings are contiguous), or in contiguous copies of them otherwise.
@inline(__always)
func withUTF8<Result>(
  _ first: String, _ second: String,
  _ body: (UnsafeBufferPointer<UInt8>, UnsafeBufferPointer<UInt8>) -> Result
) -> Result {
  let inPlace = first.utf8.withContiguousStorageIfAvailable { first in
    second.utf8.withContiguousStorageIfAvailable { second in body(first, second) }
  }
  // Moved out rather than bound: binding copies the result, and a copy of
  // a row's parts retains each of its strings.
  switch consume inPlace {
  case .some(.some(let result)): return result
  default: break
  }
  var (first, second) = (first, second)
  return first.withUTF8 { first in second.withUTF8 { second in body(first, second) } }
}
