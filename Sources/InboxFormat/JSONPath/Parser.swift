import InboxFormatSupport

/// Reads a query's text by RFC 9535's ABNF (§2 and Appendix A), and checks
/// its function calls against their declared types (§2.4.3).
///
/// Recursive descent over the query's Unicode scalars. Blank space (`S`:
/// space, tab, line feed, carriage return) is accepted exactly where the
/// ABNF has it: between segments, inside brackets and parentheses, around
/// operators and commas; never before `$`, after the last segment, after
/// `.` or `..`, or between a function's name and its `(`. Nesting is bounded
/// by ``JSONPathQuery/maximumNesting``, so no query can exhaust the stack.
struct JSONPathParser {
  private let scalars: [Unicode.Scalar]
  private let functions: JSONPathFunctions
  private var position = 0
  private var nesting = 0

  init(text: String, functions: JSONPathFunctions) {
    self.scalars = Array(text.unicodeScalars)
    self.functions = functions
  }

  // MARK: Queries and segments

  /// `jsonpath-query = root-identifier segments`, and nothing after it.
  mutating func parseQuery() throws(JSONPathError) -> [Segment] {
    guard scalars.count <= JSONPathQuery.maximumLength else {
      throw JSONPathError(
        position: JSONPathQuery.maximumLength + 1,
        reason: "the query is longer than \(JSONPathQuery.maximumLength) characters")
    }
    guard peek == "$" else { throw error(expected: "\"$\" to start the query") }
    position += 1
    let segments = try parseSegments()
    guard isAtEnd else {
      if isBlank(peek) { throw error("blank space after the query") }
      throw error(expected: "\".\", \"..\" or \"[\"")
    }
    return segments
  }

  /// `segments = *(S segment)`; blank space not followed by a segment is
  /// left for the caller.
  private mutating func parseSegments() throws(JSONPathError) -> [Segment] {
    var segments: [Segment] = []
    while true {
      let start = position
      skipBlank()
      switch peek {
      case "[":
        segments.append(.child(try parseBracketedSelection()))
      case "." where peek(at: 1) == ".":
        position += 2
        segments.append(.descendant(try parseDescendantSelection()))
      case ".":
        position += 1
        segments.append(.child([try parseDotSelector(after: "\".\"")]))
      default:
        position = start
        return segments
      }
    }
  }

  /// After `..`: `bracketed-selection / wildcard-selector / member-name-shorthand`.
  private mutating func parseDescendantSelection() throws(JSONPathError) -> [Selector] {
    if peek == "[" { return try parseBracketedSelection() }
    return [try parseDotSelector(after: "\"..\"")]
  }

  /// After `.` or `..`: `*` or a member name, with no blank space before it.
  private mutating func parseDotSelector(after dot: String) throws(JSONPathError) -> Selector {
    if peek == "*" {
      position += 1
      return .wildcard
    }
    guard let first = peek, Self.isNameFirst(first) else {
      if isBlank(peek) { throw error("blank space after \(dot)") }
      throw error(expected: "a member name or \"*\" after \(dot)")
    }
    var name = String.UnicodeScalarView()
    while let next = peek, Self.isNameFirst(next) || ("0"..."9").contains(next) {
      name.append(next)
      position += 1
    }
    return .name(String(name))
  }

  /// `name-first = ALPHA / "_" / %x80-D7FF / %xE000-10FFFF`
  private static func isNameFirst(_ scalar: Unicode.Scalar) -> Bool {
    ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || scalar == "_" || scalar.value >= 0x80
  }

  /// `"[" S selector *(S "," S selector) S "]"`
  private mutating func parseBracketedSelection() throws(JSONPathError) -> [Selector] {
    position += 1
    var selectors: [Selector] = []
    while true {
      skipBlank()
      selectors.append(try parseSelector())
      skipBlank()
      if peek == "," {
        position += 1
        continue
      }
      guard peek == "]" else { throw error(expected: "\",\" or \"]\" after a selector") }
      position += 1
      return selectors
    }
  }

  /// `selector = name-selector / wildcard-selector / slice-selector / index-selector / filter-selector`
  private mutating func parseSelector() throws(JSONPathError) -> Selector {
    // NUL stands for the end: it is never valid in a query outside a string.
    switch peek ?? "\u{0}" {
    case "'", "\"":
      return .name(try parseStringLiteral())
    case "*":
      position += 1
      return .wildcard
    case "?":
      position += 1
      try enterNesting()
      defer { nesting -= 1 }
      skipBlank()
      let start = position
      return .filter(try logical(try parseOr(), at: start))
    case "-", ":", "0"..."9":
      return try parseIndexOrSlice()
    default:
      throw error(expected: "a selector: a quoted name, \"*\", an index, a slice or a filter \"?\"")
    }
  }

  /// `index-selector = int`, or
  /// `slice-selector = [start S] ":" S [end S] [":" [S step ]]`.
  private mutating func parseIndexOrSlice() throws(JSONPathError) -> Selector {
    let start = peek == ":" ? nil : try parseInteger(what: "index")
    let afterStart = position
    skipBlank()
    guard peek == ":" else {
      position = afterStart
      guard let start else { throw error(expected: "an index") }
      return .index(start)
    }
    position += 1
    skipBlank()
    let end = isIntegerStart ? try parseInteger(what: "slice end") : nil
    skipBlank()
    var step: Int?
    if peek == ":" {
      position += 1
      skipBlank()
      step = isIntegerStart ? try parseInteger(what: "slice step") : nil
    }
    return .slice(Slice(start: start, end: end, step: step))
  }

  private var isIntegerStart: Bool {
    guard let next = peek else { return false }
    return next == "-" || ("0"..."9").contains(next)
  }

  /// `int = "0" / (["-"] DIGIT1 *DIGIT)`, within ±(2^53 − 1); `-0` and
  /// leading zeros are not integers here.
  private mutating func parseInteger(what: String) throws(JSONPathError) -> Int {
    let start = position
    let isNegative = peek == "-"
    if isNegative { position += 1 }
    guard let first = peek, ("0"..."9").contains(first) else { throw error(expected: "a digit in the \(what)") }
    if first == "0" {
      position += 1
      if isNegative { throw error("\"-0\" is not a valid \(what)", at: start) }
      if let next = peek, ("0"..."9").contains(next) { throw error("leading zeros in the \(what)", at: start) }
      return 0
    }
    var magnitude = 0
    while let next = peek, ("0"..."9").contains(next) {
      magnitude = magnitude * 10 + Int(next.value - 0x30)
      position += 1
      if magnitude > Selector.maximumIndex {
        throw error("the \(what) is out of range; expected an integer between -(2^53-1) and 2^53-1", at: start)
      }
    }
    return isNegative ? -magnitude : magnitude
  }

  // MARK: Filter expressions

  /// What an operand parsed to: a bare literal, query or function call,
  /// whose role depends on where it stands, or a logical expression.
  private enum Operand {
    case primary(Primary)
    case logical(FilterExpression)
  }

  private enum Primary {
    case literal(JSONValue)
    case query(FilterQuery)
    case function(FunctionCall)
  }

  /// `logical-or-expr = logical-and-expr *(S "||" S logical-and-expr)`
  private mutating func parseOr() throws(JSONPathError) -> Operand {
    try parseChain(of: "|", operand: { (parser) throws(JSONPathError) in try parser.parseAnd() }, combined: { .or($0) })
  }

  /// `logical-and-expr = basic-expr *(S "&&" S basic-expr)`
  private mutating func parseAnd() throws(JSONPathError) -> Operand {
    try parseChain(
      of: "&", operand: { (parser) throws(JSONPathError) in try parser.parseBasic() }, combined: { .and($0) })
  }

  /// Operands joined by `||` or `&&` (`symbol` twice, blank space around
  /// it): one operand as it is, two or more as logical ones, `combined`.
  private mutating func parseChain(
    of symbol: Unicode.Scalar, operand: (inout Self) throws(JSONPathError) -> Operand,
    combined: ([FilterExpression]) -> FilterExpression
  ) throws(JSONPathError) -> Operand {
    let start = position
    var first = try operand(&self)
    var operands: [FilterExpression] = []
    while true {
      let save = position
      skipBlank()
      guard peek == symbol, peek(at: 1) == symbol else {
        position = save
        break
      }
      if operands.isEmpty { operands.append(try logical(first, at: start)) }
      position += 2
      skipBlank()
      let next = position
      operands.append(try logical(try operand(&self), at: next))
    }
    if !operands.isEmpty { first = .logical(combined(operands)) }
    return first
  }

  /// `basic-expr = paren-expr / comparison-expr / test-expr`, or a bare
  /// literal, query or function call for a function's argument.
  private mutating func parseBasic() throws(JSONPathError) -> Operand {
    let start = position
    if peek == "!" {
      position += 1
      try enterNesting()
      defer { nesting -= 1 }
      skipBlank()
      let operandStart = position
      if peek == "(" { return .logical(.not(try parseParenthesized())) }
      let primary = try parsePrimary()
      return .logical(.not(try logical(.primary(primary), at: operandStart)))
    }
    if peek == "(" { return .logical(try parseParenthesized()) }
    let left = try parsePrimary()
    let afterLeft = position
    skipBlank()
    guard let comparison = parseComparisonOperator() else {
      position = afterLeft
      return .primary(left)
    }
    skipBlank()
    let rightStart = position
    let right = try parsePrimary()
    return .logical(
      .comparison(try comparable(left, at: start), comparison, try comparable(right, at: rightStart)))
  }

  /// `paren-expr`'s `"(" S logical-expr S ")"`.
  private mutating func parseParenthesized() throws(JSONPathError) -> FilterExpression {
    position += 1
    try enterNesting()
    defer { nesting -= 1 }
    skipBlank()
    let start = position
    let inner = try logical(try parseOr(), at: start)
    skipBlank()
    guard peek == ")" else { throw error(expected: "\")\" to close the parenthesis") }
    position += 1
    return inner
  }

  private mutating func parseComparisonOperator() -> ComparisonOperator? {
    let found: ComparisonOperator? =
      switch (peek, peek(at: 1)) {
      case ("=", "="): .equal
      case ("!", "="): .notEqual
      case ("<", "="): .lessOrEqual
      case (">", "="): .greaterOrEqual
      case ("<", _): .less
      case (">", _): .greater
      default: nil
      }
    if let found { position += found.rawValue.unicodeScalars.count }
    return found
  }

  /// A literal, `@…` or `$…` query, or function call.
  private mutating func parsePrimary() throws(JSONPathError) -> Primary {
    switch peek ?? "\u{0}" {
    case "@":
      position += 1
      return .query(FilterQuery(isRelative: true, segments: try parseSegments()))
    case "$":
      position += 1
      return .query(FilterQuery(isRelative: false, segments: try parseSegments()))
    case "'", "\"":
      return .literal(.string(try parseStringLiteral()))
    case "-", "0"..."9":
      return .literal(.number(try parseNumber()))
    case "a"..."z":
      let start = position
      var name = String.UnicodeScalarView()
      while let next = peek, ("a"..."z").contains(next) || ("0"..."9").contains(next) || next == "_" {
        name.append(next)
        position += 1
      }
      let word = String(name)
      if peek == "(" { return .function(try parseFunctionCall(named: word, at: start)) }
      switch word {
      case "true": return .literal(.bool(true))
      case "false": return .literal(.bool(false))
      case "null": return .literal(.null)
      default:
        if isBlank(peek) && functions[word] != nil {
          throw error("blank space between the function name \(quoted(word)) and \"(\"")
        }
        throw error(expected: "a literal, a query or a function call", at: start)
      }
    default:
      throw error(expected: "a literal, \"@\", \"$\", a function call, \"!\" or \"(\"")
    }
  }

  /// `function-expr = function-name "(" S [function-argument *(S "," S function-argument)] S ")"`,
  /// each argument checked against its parameter's type.
  private mutating func parseFunctionCall(named name: String, at start: Int) throws(JSONPathError) -> FunctionCall {
    guard let function = functions[name] else { throw error("unknown function \(quoted(name))", at: start) }
    position += 1
    try enterNesting()
    defer { nesting -= 1 }
    skipBlank()
    var arguments: [FunctionArgument] = []
    if peek != ")" {
      while true {
        let argumentStart = position
        guard arguments.count < function.parameters.count else {
          throw error(
            "too many arguments: \(quoted(name)) takes \(function.parameters.count)", at: argumentStart)
        }
        let operand = try parseOr()
        arguments.append(
          try argument(operand, for: function.parameters[arguments.count], of: name, at: argumentStart))
        skipBlank()
        guard peek == "," else { break }
        position += 1
        skipBlank()
      }
    }
    guard peek == ")" else { throw error(expected: "\",\" or \")\" in the arguments of \(quoted(name))") }
    guard arguments.count == function.parameters.count else {
      throw error(
        "too few arguments: \(quoted(name)) takes \(function.parameters.count), not \(arguments.count)")
    }
    position += 1
    return FunctionCall(function: function, arguments: arguments)
  }

  // MARK: Types (§2.4.3)

  /// An operand where a logical expression stands: a query tests
  /// existence, a function must return LogicalType or NodesType.
  private func logical(_ operand: Operand, at start: Int) throws(JSONPathError) -> FilterExpression {
    switch operand {
    case .logical(let expression): return expression
    case .primary(.query(let query)): return .exists(query)
    case .primary(.function(let call)):
      guard call.function.result != .value else {
        throw error(
          "\(quoted(call.function.name)) returns a value, not a logical result; compare it with something",
          at: start)
      }
      return .function(call)
    case .primary(.literal):
      throw error("a literal is not a test; compare it with something", at: start)
    }
  }

  /// A side of a comparison: a literal, a singular query, or a ValueType function.
  private func comparable(_ primary: Primary, at start: Int) throws(JSONPathError) -> Comparable {
    switch primary {
    case .literal(let value): return .literal(value)
    case .query(let query):
      guard query.isSingular else {
        throw error("a query compared must be singular (names and indexes only)", at: start)
      }
      return .query(query)
    case .function(let call):
      guard call.function.result == .value else {
        let name = quoted(call.function.name)
        throw error("\(name) returns \(call.function.result), which cannot be compared", at: start)
      }
      return .function(call)
    }
  }

  /// An argument for a parameter of `type`, as §2.4.3 allows.
  private func argument(
    _ operand: Operand, for type: JSONPathType, of name: String, at start: Int
  ) throws(JSONPathError) -> FunctionArgument {
    switch (type, operand) {
    case (.value, .primary(let primary)):
      if case .query(let query) = primary, !query.isSingular {
        throw error("the argument of \(quoted(name)) must be a singular query or a value", at: start)
      }
      return .value(try comparable(primary, at: start))
    case (.value, .logical):
      throw error("the argument of \(quoted(name)) must be a value, not a logical expression", at: start)
    case (.logical, _):
      return .logical(try logical(operand, at: start))
    case (.nodes, .primary(.query(let query))):
      return .nodes(query)
    case (.nodes, .primary(.function(let call))) where call.function.result == .nodes:
      return .nodesFunction(call)
    case (.nodes, _):
      throw error("the argument of \(quoted(name)) must be a query", at: start)
    }
  }

  // MARK: Literals

  /// `string-literal`, in double or single quotes, with JSON's escapes plus
  /// `\'` in single quotes; a surrogate escape must be a high one followed
  /// by a low one.
  private mutating func parseStringLiteral() throws(JSONPathError) -> String {
    guard let quote = peek else { throw error(expected: "a string") }
    position += 1
    var text = String.UnicodeScalarView()
    while true {
      guard let next = peek else { throw error(expected: "\(quote == "'" ? "\"'\"" : "'\"'") to close the string") }
      switch next {
      case quote:
        position += 1
        return String(text)
      case "\\":
        text.append(try parseEscape(in: quote))
      case "\u{0}"..."\u{1F}":
        throw error("control character U+\(hex(next.value)) in a string; expected an escape such as \"\\n\"")
      default:
        text.append(next)
        position += 1
      }
    }
  }

  private mutating func parseEscape(in quote: Unicode.Scalar) throws(JSONPathError) -> Unicode.Scalar {
    let start = position
    position += 1
    guard let next = peek else { throw error(expected: "an escape character") }
    position += 1
    switch next {
    case "b": return "\u{8}"
    case "f": return "\u{C}"
    case "n": return "\n"
    case "r": return "\r"
    case "t": return "\t"
    case "/", "\\": return next
    case quote: return next
    case "u":
      let unit = try parseHexQuad()
      switch unit {
      case 0xD800...0xDBFF:
        guard peek == "\\", peek(at: 1) == "u" else {
          throw error("lone surrogate \\u\(hex(unit)); expected a low surrogate escape after it", at: start)
        }
        position += 2
        let low = try parseHexQuad()
        guard (0xDC00...0xDFFF).contains(low),
          let scalar = Unicode.Scalar(0x10000 + (unit - 0xD800) << 10 + (low - 0xDC00))
        else { throw error("\\u\(hex(low)) is not a low surrogate after \\u\(hex(unit))", at: position - 6) }
        return scalar
      case 0xDC00...0xDFFF:
        throw error("lone surrogate \\u\(hex(unit)); expected a high surrogate escape before it", at: start)
      default:
        guard let scalar = Unicode.Scalar(unit) else { throw error("invalid escape", at: start) }
        return scalar
      }
    default:
      throw error("invalid escape \(quoted("\\" + String(next))) in a string", at: start)
    }
  }

  private mutating func parseHexQuad() throws(JSONPathError) -> UInt32 {
    var value: UInt32 = 0
    for _ in 0..<4 {
      guard let next = peek, let digit = Self.digit(next) ?? Self.hexLetter(next)
      else { throw error(expected: "4 hexadecimal digits after \\u") }
      value = value << 4 | digit
      position += 1
    }
    return value
  }

  private static func digit(_ scalar: Unicode.Scalar) -> UInt32? {
    ("0"..."9").contains(scalar) ? scalar.value - 0x30 : nil
  }

  private static func hexLetter(_ scalar: Unicode.Scalar) -> UInt32? {
    switch scalar {
    case "a"..."f": scalar.value - 0x61 + 10
    case "A"..."F": scalar.value - 0x41 + 10
    default: nil
    }
  }

  /// `number = (int / "-0") [ frac ] [ exp ]`, as JSON writes numbers.
  private mutating func parseNumber() throws(JSONPathError) -> JSONNumber {
    let start = position
    if peek == "-" { position += 1 }
    guard let first = peek, ("0"..."9").contains(first) else { throw error(expected: "a digit") }
    position += 1
    if first == "0", let next = peek, ("0"..."9").contains(next) {
      throw error("leading zeros in a number", at: start)
    }
    skipDigits()
    var isInteger = true
    if peek == "." {
      position += 1
      guard skipDigits() > 0 else { throw error(expected: "a digit after the decimal point") }
      isInteger = false
    }
    if peek == "e" || peek == "E" {
      position += 1
      if peek == "+" || peek == "-" { position += 1 }
      guard skipDigits() > 0 else { throw error(expected: "a digit in the exponent") }
      isInteger = false
    }
    var text = String.UnicodeScalarView()
    text.append(contentsOf: scalars[start..<position])
    let literal = String(text)
    return JSONNumber(text: literal, int64: isInteger ? Int64(literal) : nil)
  }

  @discardableResult
  private mutating func skipDigits() -> Int {
    let start = position
    while let next = peek, ("0"..."9").contains(next) { position += 1 }
    return position - start
  }

  // MARK: Scalars, blank space and errors

  private var isAtEnd: Bool { position >= scalars.count }
  private var peek: Unicode.Scalar? { position < scalars.count ? scalars[position] : nil }
  private func peek(at offset: Int) -> Unicode.Scalar? {
    position + offset < scalars.count ? scalars[position + offset] : nil
  }

  /// `B = %x20 / %x09 / %x0A / %x0D`
  private func isBlank(_ scalar: Unicode.Scalar?) -> Bool {
    scalar == " " || scalar == "\t" || scalar == "\n" || scalar == "\r"
  }

  private mutating func skipBlank() {
    while isBlank(peek) { position += 1 }
  }

  private mutating func enterNesting() throws(JSONPathError) {
    nesting += 1
    guard nesting <= JSONPathQuery.maximumNesting else {
      throw error("nesting deeper than \(JSONPathQuery.maximumNesting) levels; expected a simpler filter")
    }
  }

  /// An error at `offset` (0-based), reported 1-based.
  private func error(_ reason: String, at offset: Int? = nil) -> JSONPathError {
    JSONPathError(position: (offset ?? position) + 1, reason: reason)
  }

  /// An error for what is at `offset`: the end of the query or an unexpected character.
  private func error(expected: String, at offset: Int? = nil) -> JSONPathError {
    let offset = offset ?? position
    guard offset < scalars.count else { return error("unexpected end of the query; expected \(expected)", at: offset) }
    return error("unexpected \(quoted(String(scalars[offset]))); expected \(expected)", at: offset)
  }

  private func hex(_ value: UInt32) -> String {
    let digits = String(value, radix: 16, uppercase: true)
    return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
  }
}
