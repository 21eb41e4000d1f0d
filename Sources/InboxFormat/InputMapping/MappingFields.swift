import InboxFormatSupport

/// A mapping's queries and options, read and checked once from its JSON
/// document: the form the reader follows for every item.
struct MappingFields: Sendable, Hashable {
  /// Selects the items from the document's root.
  var items: MappingQuery
  var id: [MappingSource]
  var names: Names
  var phone: [MappingSource]
  var message: [MappingSource]
  var date: [MappingSource]
  var unread: [MappingSource]

  /// Where the sender's name comes from.
  enum Names: Sendable, Hashable {
    /// A first and a last name, under the post's rules.
    case pair(first: [MappingSource], last: [MappingSource])
    /// One display name (``initials(displayName:locale:)``).
    case display([MappingSource])
  }

  /// The keys of a mapping's document, in the order the docs list them.
  static let keys = [
    "description", "items", "id", "firstname", "lastname", "name", "phone", "message", "date", "unread",
  ]

  /// The functions a mapping's queries may call: RFC 9535's, and `viewer()`.
  static let functions = JSONPathFunctions.standard.adding(.viewer)

  /// The document's `description`: what the mapping reads. Not part of
  /// what makes two mappings read alike (``==``).
  private(set) var description: String?
  /// The fields compiled to be read in one pass over an item's bytes, when
  /// every query is of the byte walker's subset. Made of the fields.
  private(set) var plan: MessagePlan?

  static func == (lhs: MappingFields, rhs: MappingFields) -> Bool {
    (lhs.items, lhs.id, lhs.names, lhs.phone) == (rhs.items, rhs.id, rhs.names, rhs.phone)
      && (lhs.message, lhs.date, lhs.unread) == (rhs.message, rhs.date, rhs.unread)
  }

  func hash(into hasher: inout Hasher) {
    hasher.combine(items)
    hasher.combine(id)
    hasher.combine(date)
  }

  /// Reads and checks a mapping's document.
  init(json: [UInt8]) throws(InputMappingError) {
    let document: JSONValue
    do {
      document = try JSONValue.read(from: json)
    } catch {
      throw .invalidJSON(error)
    }
    guard case .object(let object) = document else { throw .notAnObject(found: document.kindDescription) }
    for (key, _) in object where !Self.keys.contains(key) {
      throw .unknownKey(key: quoted(key), known: Self.keys)
    }
    switch object["description"] {
    case .string(let text)?: description = text
    case nil: break
    case let other?: throw .invalidValue(key: "description", found: other.kindDescription, expected: "a string")
    }
    guard let items = object["items"] else { throw .missingKey(key: "items") }
    guard case .string(let itemsQuery) = items else {
      throw .invalidValue(key: "items", found: items.kindDescription, expected: "a query string such as \"$.items[*]\"")
    }
    self.items = try MappingQuery(itemsQuery, key: "items")
    func sources(_ field: MappingSource.Field, required: Bool = false) throws(InputMappingError) -> [MappingSource] {
      guard let value = object[field.key] else {
        if required { throw .missingKey(key: field.key) }
        return []
      }
      return try MappingSource.list(value, field: field)
    }
    id = try sources(.id, required: true)
    date = try sources(.date, required: true)
    phone = try sources(.phone)
    message = try sources(.message)
    unread = try sources(.unread)
    if object["name"] != nil {
      for key in ["firstname", "lastname"] where object[key] != nil {
        throw .invalidValue(
          key: key, found: "a key beside \"name\"",
          expected: "either \"name\" (one display name) or \"firstname\" and \"lastname\", not both")
      }
      names = .display(try sources(.name))
    } else {
      names = .pair(first: try sources(.firstname), last: try sources(.lastname))
    }
    plan = MessagePlan(self)
  }

  /// The post's mapping, as the engine's reader follows it.
  static let post: MappingFields = {
    do {
      return try MappingFields(json: Array(BuiltInMapping.post.document.utf8))
    } catch {
      preconditionFailure("the built-in post mapping does not read: \(error)")
    }
  }()
}

/// A query of a mapping, parsed once, with its text for messages.
struct MappingQuery: Sendable, Hashable {
  let text: String
  let query: JSONPathQuery

  init(_ text: String, key: String) throws(InputMappingError) {
    self.text = text
    do {
      query = try JSONPathQuery(text, functions: MappingFields.functions)
    } catch {
      throw .invalidQuery(key: key, query: text, position: error.position, reason: error.reason)
    }
  }
}

/// One place a field's value may come from: a query, or the name of the
/// member the item was selected as, with the field's options.
struct MappingSource: Sendable, Hashable {
  enum Origin: Sendable, Hashable {
    case query(MappingQuery)
    /// The item's member name, when `items` selected it as an object's
    /// member value (`{"member-name": true}`).
    case memberName
  }

  var origin: Origin
  /// The query as the byte walker follows it, when it can.
  var byteQuery: ByteQuery?
  /// Which of several nodes selected is used.
  var pick = Pick.first
  /// How a date is written (`date` only).
  var encoding = DateEncoding.rfc3339
  /// What an unread value means (`unread` only).
  var kind = UnreadKind.count
  /// How a message's text is marked up (`message` only).
  var markup = Markup.text

  enum Pick: String, Sendable, Hashable, CaseIterable {
    /// The first non-empty node selected, in document order.
    case first
    /// The last non-empty node selected.
    case last
  }

  enum DateEncoding: String, Sendable, Hashable, CaseIterable {
    /// An RFC 3339 date-time string.
    case rfc3339
    /// Seconds since 1970 (UTC), a JSON number or a numeric string.
    case unixSeconds = "unix-s"
    /// Milliseconds since 1970 (UTC), a JSON number or a numeric string.
    case unixMilliseconds = "unix-ms"
  }

  enum UnreadKind: String, Sendable, Hashable, CaseIterable {
    /// How many messages are unread; null counts as 0.
    case count
    /// `true` means unread.
    case flag
    /// `true` means read.
    case readFlag = "read-flag"
  }

  enum Markup: String, Sendable, Hashable, CaseIterable {
    /// Plain text.
    case text
    /// HTML (``textOfHTML(_:)``).
    case html
  }

  /// The message fields a mapping has sources for.
  enum Field: String, Sendable {
    case id, firstname, lastname, name, phone, message, date, unread
    var key: String { rawValue }

    /// The option a source of this field may carry beside `path` and `pick`.
    var option: String? {
      switch self {
      case .date: "encoding"
      case .unread: "kind"
      case .message: "markup"
      default: nil
      }
    }
  }

  /// A field's sources: one source, or a non-empty list of them.
  static func list(_ value: JSONValue, field: Field) throws(InputMappingError) -> [MappingSource] {
    guard case .array(let elements) = value else { return [try MappingSource(value, field: field, key: field.key)] }
    guard !elements.isEmpty, elements.count <= maximumSources else {
      throw .invalidValue(
        key: field.key, found: "a list of \(elements.count) sources",
        expected: "1 to \(maximumSources) sources, the first that selects a value winning")
    }
    var sources: [MappingSource] = []
    for (index, element) in elements.enumerated() {
      sources.append(try MappingSource(element, field: field, key: "\(field.key)[\(index)]"))
    }
    return sources
  }

  /// More fallbacks than any payload needs; bounds the work a hostile mapping asks per item.
  static let maximumSources = 16

  /// One source: a query string, or an object with `path` (or
  /// `member-name`) and options.
  private init(_ value: JSONValue, field: Field, key: String) throws(InputMappingError) {
    let expected = "a query string, or an object with \"path\"\(field.option.map { " and \"\($0)\"" } ?? "")"
    switch value {
    case .string(let text):
      let query = try MappingQuery(text, key: key)
      origin = .query(query)
      byteQuery = ByteQuery(query.query)
    case .object(let object):
      let allowed = ["path", "member-name", "pick"] + (field.option.map { [$0] } ?? [])
      for (name, _) in object where !allowed.contains(name) {
        throw .unknownKey(key: "\(key).\(quoted(name))", known: allowed)
      }
      switch (object["path"], object["member-name"]) {
      case (.string(let text)?, nil):
        let query = try MappingQuery(text, key: "\(key).path")
        origin = .query(query)
        byteQuery = ByteQuery(query.query)
      case (nil, .bool(true)?):
        origin = .memberName
      case (let path?, nil):
        throw .invalidValue(key: "\(key).path", found: path.kindDescription, expected: "a query string")
      case (nil, let flag?):
        throw .invalidValue(key: "\(key).member-name", found: flag.kindDescription, expected: "true")
      case (nil, nil):
        // Not `missingKey`, which says what every mapping needs: this is a source missing its query.
        throw .invalidValue(key: key, found: "an object without \"path\"", expected: expected)
      case (_?, _?):
        throw .invalidValue(
          key: "\(key).member-name", found: "a key beside \"path\"", expected: "either \"path\" or \"member-name\"")
      }
      if let pick = object["pick"] { self.pick = try Self.choice(pick, key: "\(key).pick") }
      if let option = field.option, let choice = object[option] {
        switch field {
        case .date: encoding = try Self.choice(choice, key: "\(key).\(option)")
        case .unread: kind = try Self.choice(choice, key: "\(key).\(option)")
        case .message: markup = try Self.choice(choice, key: "\(key).\(option)")
        default: break
        }
      }
    default:
      throw .invalidValue(key: key, found: value.kindDescription, expected: expected)
    }
  }

  /// An option's value, one of `Choice`'s.
  private static func choice<Choice: RawRepresentable<String> & CaseIterable>(
    _ value: JSONValue, key: String
  ) throws(InputMappingError) -> Choice {
    let choices = Choice.allCases.map(\.rawValue)
    guard case .string(let name) = value, let choice = Choice(rawValue: name) else {
      let found = if case .string(let name) = value { quoted(name) } else { value.kindDescription }
      throw .invalidValue(key: key, found: found, expected: "one of \(choices.joined(separator: ", "))")
    }
    return choice
  }
}
