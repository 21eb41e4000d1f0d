// The mappings that come with the library (Data/mappings, embedded in
// BuiltInMapping.swift).

extension InputMapping {
  /// The post's payload: `{"items":[{"id", "firstname", "lastname",
  /// "message", "phone_number": {"international"}, "update_date",
  /// "unread_count"}]}`, a bare array of such items, or NDJSON. The default
  /// everywhere.
  ///
  /// Its fields are `MappingFields.post`, the one reading of its document.
  public static let post = InputMapping(postNamed: BuiltInMapping.post.name, document: BuiltInMapping.post.document)

  /// Every built-in mapping, `post` first: `post`, `stream-chat`,
  /// `sendbird`, `matrix`, `twilio`, `intercom`, `tdlib` and `slack`.
  public static let builtIns: [InputMapping] = BuiltInMapping.all.map { builtIn in
    builtIn.name == BuiltInMapping.post.name ? post : reading(builtIn)
  }

  /// The names of ``builtIns``, in their order, known without reading
  /// the mappings: what a command's help lists.
  public static let builtInNames: [String] = BuiltInMapping.all.map(\.name)

  private static func reading(_ builtIn: BuiltInMapping) -> InputMapping {
    do {
      return try InputMapping(json: Array(builtIn.document.utf8), name: builtIn.name)
    } catch {
      preconditionFailure("the built-in mapping \(builtIn.name) does not read: \(error)")
    }
  }

  /// The built-in mapping called `name`, or nil when there is none.
  /// (The post's is found without reading the others.)
  ///
  /// ```swift
  /// InputMapping.builtIn(named: "sendbird")?.viewer("me")
  /// ```
  public static func builtIn(named name: String) -> InputMapping? {
    name == post.name ? post : builtIns.first { $0.name == name }
  }

  /// The built-in mapping other than this one that reads the first item of
  /// `payload` as a message, if one does: what to suggest when this mapping
  /// fails on the payload's shape.
  ///
  /// Only the first item is read, by each built-in in turn; nil when this
  /// mapping itself reads it, or none does.
  public func likelyBuiltIn(for payload: [UInt8]) -> InputMapping? {
    payload.withUnsafeBufferPointer { likelyBuiltIn(for: $0) }
  }

  func likelyBuiltIn(for bytes: UnsafeBufferPointer<UInt8>) -> InputMapping? {
    func readsFirstItem(_ mapping: InputMapping) -> Bool {
      if mapping.isPost {
        var reader = InboxReader(bytes: bytes)
        return (try? reader.next()) != nil
      }
      var reader = MappedReader(bytes: bytes, mapping: mapping.viewer(viewer))
      return (try? reader.next()) != nil
    }
    guard !readsFirstItem(self) else { return nil }
    return Self.builtIns.first { $0.fields != fields && readsFirstItem($0) }
  }
}
