import Synchronization

/// A regular expression in the I-Regexp dialect (RFC 9485), the patterns
/// of JSONPath's `match()` and `search()`.
///
/// The pattern is checked against RFC 9485's grammar (anything else, such
/// as `\d`, `(?:` or a backreference, is not an I-Regexp) and compiled to a
/// small automaton that is run without backtracking: matching takes time
/// proportional to the subject's length times the automaton's size, for
/// any pattern, so no pattern can make matching exponential. The pattern's
/// length, its nesting and the automaton's size are bounded as well.
///
/// Matching is by Unicode scalar: `.` matches any scalar but `\n` and `\r`,
/// `\p{Lu}` tests the scalar's general category. `^` and `$`, which RFC
/// 9485's grammar lists among ordinary characters, anchor at the start and
/// the end of the string, as they do in the regex engines the RFC maps
/// I-Regexp to (§5) and as the JSONPath compliance suite expects.
struct IRegexp: Sendable, Hashable {
  /// Longer patterns are refused: no realistic filter needs more.
  static let maximumPatternLength = 4096
  /// Groups nested deeper than this are refused.
  static let maximumNesting = 64
  /// Automata larger than this (counted repeats grow them) are refused.
  static let maximumProgramSize = 20_000

  fileprivate enum Instruction: Sendable, Hashable {
    case consume(ScalarSet)
    /// Continues only at the start of the string (`^`) or at its end (`$`).
    case assert(atStart: Bool)
    case split(Int, Int)
    case jump(Int)
    case match
  }

  private let program: [Instruction]

  /// Compiles `pattern`, or returns nil when it is not an I-Regexp (or
  /// exceeds the bounds above).
  init?(_ pattern: String) {
    let scalars = Array(pattern.unicodeScalars)
    guard scalars.count <= Self.maximumPatternLength else { return nil }
    var parser = RegexParser(scalars: scalars)
    guard let tree = parser.parseWhole() else { return nil }
    var compiler = RegexCompiler()
    guard compiler.emit(tree), compiler.program.count < Self.maximumProgramSize else { return nil }
    compiler.program.append(.match)
    program = compiler.program
  }

  /// Whether the whole of `text` matches (what `match()` asks).
  func matchesWhole(_ text: String) -> Bool { run(text, anchored: true) }

  /// Whether some substring of `text` matches (what `search()` asks).
  func matchesPart(of text: String) -> Bool { run(text, anchored: false) }

  /// Simulates the automaton over `text`, all threads in step (Thompson's
  /// construction): each instruction is visited at most once per scalar.
  private func run(_ text: String, anchored: Bool) -> Bool {
    var current = ThreadSet(size: program.count)
    var next = ThreadSet(size: program.count)
    var pending: [Int] = []
    var scalars = text.unicodeScalars.makeIterator()
    var upcoming = scalars.next()
    add(0, to: &current, pending: &pending, at: (start: true, end: upcoming == nil))
    while let scalar = upcoming {
      if !anchored && current.hasMatch { return true }
      upcoming = scalars.next()
      let place = (start: false, end: upcoming == nil)
      next.clear()
      for pc in current.members {
        if case .consume(let set) = program[pc], set.contains(scalar) {
          add(pc + 1, to: &next, pending: &pending, at: place)
        }
      }
      swap(&current, &next)
      if !anchored { add(0, to: &current, pending: &pending, at: place) }
      if anchored && current.members.isEmpty { return false }
    }
    return current.hasMatch
  }

  /// Adds `start` and every instruction reachable from it without
  /// consuming a scalar; an explicit stack, so no pattern deepens the call stack.
  private func add(
    _ start: Int, to set: inout ThreadSet, pending: inout [Int], at place: (start: Bool, end: Bool)
  ) {
    pending.append(start)
    while let pc = pending.popLast() {
      guard set.insert(pc) else { continue }
      switch program[pc] {
      case .consume: break
      case .match: set.hasMatch = true
      case .jump(let target): pending.append(target)
      case .assert(let atStart): if atStart ? place.start : place.end { pending.append(pc + 1) }
      case .split(let first, let second):
        // Order does not matter: only whether a match is reached is asked.
        pending.append(second)
        pending.append(first)
      }
    }
  }

  /// The compiled patterns, shared by every query, so that a pattern given
  /// as a literal or repeated in the data is compiled once; cleared when full.
  private static let cache = Mutex<[String: IRegexp?]>([:])
  private static let cacheLimit = 256

  /// The compiled `pattern`, from the cache when it was compiled before;
  /// nil when it is not a valid I-Regexp.
  static func cached(_ pattern: String) -> IRegexp? {
    if let known = cache.withLock({ $0[pattern] }) { return known }
    let compiled = pattern.unicodeScalars.count <= maximumPatternLength ? IRegexp(pattern) : nil
    cache.withLock { entries in
      if entries.count >= cacheLimit { entries.removeAll(keepingCapacity: true) }
      entries[pattern] = .some(compiled)
    }
    return compiled
  }
}

/// The instructions active at one position of the subject.
private struct ThreadSet {
  private var marks: [Bool]
  private(set) var members: [Int] = []
  var hasMatch = false

  init(size: Int) { marks = Array(repeating: false, count: size) }

  /// Inserts `pc`; false when it was already there.
  mutating func insert(_ pc: Int) -> Bool {
    if marks[pc] { return false }
    marks[pc] = true
    members.append(pc)
    return true
  }

  mutating func clear() {
    for pc in members { marks[pc] = false }
    members.removeAll(keepingCapacity: true)
    hasMatch = false
  }
}

/// A set of scalars: what one atom of a pattern matches.
struct ScalarSet: Sendable, Hashable {
  enum Item: Sendable, Hashable {
    case range(UInt32, UInt32)
    /// A general category (`L`, `Lu`, …); `negated` for `\P{…}`.
    case category(String, negated: Bool)
  }

  var isNegated = false
  var items: [Item] = []

  /// `.`: anything but a line feed or a carriage return.
  static let dot = ScalarSet(isNegated: true, items: [.range(0x0A, 0x0A), .range(0x0D, 0x0D)])

  static func scalar(_ scalar: Unicode.Scalar) -> ScalarSet {
    ScalarSet(items: [.range(scalar.value, scalar.value)])
  }

  func contains(_ scalar: Unicode.Scalar) -> Bool {
    var found = false
    for item in items {
      switch item {
      case .range(let low, let high): found = low <= scalar.value && scalar.value <= high
      case .category(let name, let negated):
        let code = scalar.properties.generalCategory.code
        found = (name.count == 1 ? code.hasPrefix(name) : code == name) != negated
      }
      if found { break }
    }
    return found != isNegated
  }
}

extension Unicode.GeneralCategory {
  /// The category's two-letter abbreviation, as `\p{…}` names it.
  var code: String {
    switch self {
    case .uppercaseLetter: "Lu"
    case .lowercaseLetter: "Ll"
    case .titlecaseLetter: "Lt"
    case .modifierLetter: "Lm"
    case .otherLetter: "Lo"
    case .nonspacingMark: "Mn"
    case .spacingMark: "Mc"
    case .enclosingMark: "Me"
    case .decimalNumber: "Nd"
    case .letterNumber: "Nl"
    case .otherNumber: "No"
    case .connectorPunctuation: "Pc"
    case .dashPunctuation: "Pd"
    case .openPunctuation: "Ps"
    case .closePunctuation: "Pe"
    case .initialPunctuation: "Pi"
    case .finalPunctuation: "Pf"
    case .otherPunctuation: "Po"
    case .mathSymbol: "Sm"
    case .currencySymbol: "Sc"
    case .modifierSymbol: "Sk"
    case .otherSymbol: "So"
    case .spaceSeparator: "Zs"
    case .lineSeparator: "Zl"
    case .paragraphSeparator: "Zp"
    case .control: "Cc"
    case .format: "Cf"
    case .surrogate: "Cs"
    case .privateUse: "Co"
    case .unassigned: "Cn"
    @unknown default: "Cn"
    }
  }
}

/// A parsed pattern.
private indirect enum RegexNode {
  case set(ScalarSet)
  case anchor(atStart: Bool)
  case sequence([RegexNode])
  case alternation([RegexNode])
  case repetition(RegexNode, minimum: Int, maximum: Int?)
}

/// Reads a pattern by RFC 9485's ABNF; nil for anything it does not allow.
private struct RegexParser {
  let scalars: [Unicode.Scalar]
  var position = 0
  var depth = 0

  init(scalars: [Unicode.Scalar]) { self.scalars = scalars }

  var peek: Unicode.Scalar? { position < scalars.count ? scalars[position] : nil }

  mutating func parseWhole() -> RegexNode? {
    guard let tree = parseAlternation(), position == scalars.count else { return nil }
    return tree
  }

  /// `i-regexp = branch *( "|" branch )`
  mutating func parseAlternation() -> RegexNode? {
    var branches: [RegexNode] = []
    while true {
      guard let branch = parseBranch() else { return nil }
      branches.append(branch)
      guard peek == "|" else { break }
      position += 1
    }
    return branches.count == 1 ? branches[0] : .alternation(branches)
  }

  /// `branch = *piece`
  mutating func parseBranch() -> RegexNode? {
    var pieces: [RegexNode] = []
    while let next = peek, next != "|", next != ")" {
      guard let piece = parsePiece() else { return nil }
      pieces.append(piece)
    }
    return .sequence(pieces)
  }

  /// `piece = atom [ quantifier ]`
  mutating func parsePiece() -> RegexNode? {
    guard let atom = parseAtom() else { return nil }
    switch peek {
    case "*":
      position += 1
      return .repetition(atom, minimum: 0, maximum: nil)
    case "+":
      position += 1
      return .repetition(atom, minimum: 1, maximum: nil)
    case "?":
      position += 1
      return .repetition(atom, minimum: 0, maximum: 1)
    case "{":
      position += 1
      guard let minimum = parseCount() else { return nil }
      var maximum: Int? = minimum
      if peek == "," {
        position += 1
        maximum = peek == "}" ? nil : parseCount()
        if maximum == nil && peek != "}" { return nil }
      }
      guard peek == "}", maximum.map({ $0 >= minimum }) ?? true else { return nil }
      position += 1
      return .repetition(atom, minimum: minimum, maximum: maximum)
    default: return atom
    }
  }

  /// `QuantExact = 1*%x30-39`, capped so that it cannot overflow; the
  /// program size bound refuses large counts anyway.
  mutating func parseCount() -> Int? {
    var value = 0
    var digits = 0
    while let next = peek, ("0"..."9").contains(next) {
      value = min(value * 10 + Int(next.value - 0x30), 1_000_000)
      digits += 1
      position += 1
    }
    return digits > 0 ? value : nil
  }

  /// `atom = NormalChar / charClass / ( "(" i-regexp ")" )`
  mutating func parseAtom() -> RegexNode? {
    guard let next = peek else { return nil }
    position += 1
    switch next {
    case "(":
      depth += 1
      guard depth <= IRegexp.maximumNesting, let inner = parseAlternation(), peek == ")" else { return nil }
      position += 1
      depth -= 1
      return inner
    case ".": return .set(.dot)
    case "^": return .anchor(atStart: true)
    case "$": return .anchor(atStart: false)
    case "[": return parseClassExpression().map { .set($0) }
    case "\\":
      if let item = parseCategoryEscape() { return .set(ScalarSet(items: [item])) }
      return parseSingleCharEscape().map { .set(.scalar($0)) }
    case ")", "*", "+", "?", "{", "}", "]", "|": return nil
    default: return .set(.scalar(next))
    }
  }

  /// After a backslash: `SingleCharEsc`'s character, decoded.
  mutating func parseSingleCharEscape() -> Unicode.Scalar? {
    guard let next = peek else { return nil }
    position += 1
    switch next {
    case "(", ")", "*", "+", "-", ".", "?", "[", "\\", "]", "^", "{", "|", "}": return next
    case "n": return "\n"
    case "r": return "\r"
    case "t": return "\t"
    default: return nil
    }
  }

  /// After a backslash: `\p{…}` or `\P{…}`, or nil (position unchanged)
  /// when the escape is another kind; an invalid category ends the parse
  /// with a position past the end so that the caller fails.
  mutating func parseCategoryEscape() -> ScalarSet.Item? {
    guard let letter = peek, letter == "p" || letter == "P" else { return nil }
    position += 1
    var name = ""
    if peek == "{" {
      position += 1
      while let next = peek, next != "}", name.unicodeScalars.count < 2 {
        name.unicodeScalars.append(next)
        position += 1
      }
      if peek == "}", Self.categories.contains(name) {
        position += 1
        return .category(name, negated: letter == "P")
      }
    }
    // Not a valid category, and no other escape starts with p: the
    // pattern is invalid; leave nothing for the caller to read.
    position = scalars.count
    return nil
  }

  static let categories: Set<String> = [
    "L", "Ll", "Lm", "Lo", "Lt", "Lu", "M", "Mc", "Me", "Mn", "N", "Nd", "Nl", "No",
    "P", "Pc", "Pd", "Pe", "Pf", "Pi", "Po", "Ps", "Z", "Zl", "Zp", "Zs",
    "S", "Sc", "Sk", "Sm", "So", "C", "Cc", "Cf", "Cn", "Co",
  ]

  /// After `[`: `[ "^" ] ( "-" / CCE1 ) *CCE1 [ "-" ] "]"`.
  mutating func parseClassExpression() -> ScalarSet? {
    var set = ScalarSet()
    if peek == "^" {
      set.isNegated = true
      position += 1
    }
    if peek == "-" {
      set.items.append(.range(0x2D, 0x2D))
      position += 1
    }
    while true {
      guard let next = peek else { return nil }
      if next == "]" {
        position += 1
        return set.items.isEmpty ? nil : set
      }
      if next == "-" {
        // Only as the last character: `[a-]`.
        guard position + 1 < scalars.count, scalars[position + 1] == "]", !set.items.isEmpty else { return nil }
        set.items.append(.range(0x2D, 0x2D))
        position += 2
        return set
      }
      if next == "\\", position + 1 < scalars.count, scalars[position + 1] == "p" || scalars[position + 1] == "P" {
        position += 1
        guard let item = parseCategoryEscape() else { return nil }
        set.items.append(item)
        continue
      }
      guard let low = parseClassCharacter() else { return nil }
      if peek == "-", position + 1 < scalars.count, scalars[position + 1] != "]" {
        position += 1
        guard let high = parseClassCharacter(), low.value <= high.value else { return nil }
        set.items.append(.range(low.value, high.value))
      } else {
        set.items.append(.range(low.value, low.value))
      }
    }
  }

  /// `CCchar`: any scalar but `-`, `[`, `\`, `]`, or a `SingleCharEsc`.
  mutating func parseClassCharacter() -> Unicode.Scalar? {
    guard let next = peek else { return nil }
    position += 1
    switch next {
    case "\\": return parseSingleCharEscape()
    case "-", "[", "]": return nil
    default: return next
    }
  }
}

/// Emits the instructions of a parsed pattern, stopping once the program
/// would exceed ``IRegexp/maximumProgramSize``.
private struct RegexCompiler {
  var program: [IRegexp.Instruction] = []

  mutating func emit(_ node: RegexNode) -> Bool {
    guard program.count < IRegexp.maximumProgramSize else { return false }
    switch node {
    case .set(let set):
      program.append(.consume(set))
    case .anchor(let atStart):
      program.append(.assert(atStart: atStart))
    case .sequence(let nodes):
      for node in nodes where !emit(node) { return false }
    case .alternation(let branches):
      var jumps: [Int] = []
      for (index, branch) in branches.enumerated() {
        if index < branches.count - 1 {
          let split = program.count
          program.append(.split(split + 1, -1))
          guard emit(branch) else { return false }
          jumps.append(program.count)
          program.append(.jump(-1))
          program[split] = .split(split + 1, program.count)
        } else {
          guard emit(branch) else { return false }
        }
      }
      for jump in jumps { program[jump] = .jump(program.count) }
    case .repetition(let node, let minimum, let maximum):
      for _ in 0..<minimum where !emit(node) { return false }
      if let maximum {
        var splits: [Int] = []
        for _ in minimum..<maximum {
          splits.append(program.count)
          program.append(.split(program.count + 1, -1))
          guard emit(node) else { return false }
        }
        for split in splits { program[split] = .split(split + 1, program.count) }
      } else {
        let loop = program.count
        program.append(.split(loop + 1, -1))
        guard emit(node) else { return false }
        program.append(.jump(loop))
        program[loop] = .split(loop + 1, program.count)
      }
    }
    return true
  }
}
