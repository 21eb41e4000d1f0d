/// A node a query selected: a value and where it is in the document.
struct JSONPathNode: Sendable, Hashable {
  var value: JSONValue
  var location: JSONPathLocation

  /// The normalized path of the node (RFC 9535 §2.7), e.g. `$['a'][0]`.
  var normalizedPath: String { location.normalizedPath }
}

/// Where a node lies: the names and indexes that lead to it from the root.
///
/// A chain shared with the parent's location, so that selecting a node
/// costs one small allocation and no text; the path is spelled out only
/// when ``normalizedPath`` is asked for.
struct JSONPathLocation: Sendable, Hashable {
  /// One step from a node to a child.
  enum Element: Sendable, Hashable {
    case name(String)
    case index(Int)
  }

  private final class Link: Sendable {
    let parent: Link?
    let element: Element

    init(parent: Link?, element: Element) {
      self.parent = parent
      self.element = element
    }
  }

  private let last: Link?

  /// The root: `$`.
  static let root = JSONPathLocation(last: nil)

  private init(last: Link?) { self.last = last }

  /// The location of this node's member `name`.
  func appending(_ name: String) -> JSONPathLocation {
    JSONPathLocation(last: Link(parent: last, element: .name(name)))
  }

  /// The location of this node's element `index`.
  func appending(_ index: Int) -> JSONPathLocation {
    JSONPathLocation(last: Link(parent: last, element: .index(index)))
  }

  /// The steps from the root, first to last.
  var elements: [Element] {
    var elements: [Element] = []
    var link = last
    while let current = link {
      elements.append(current.element)
      link = current.parent
    }
    return elements.reversed()
  }

  /// The normalized path (RFC 9535 §2.7): `$`, then `['name']` or `[index]`
  /// for each step, names in single quotes with `'`, `\` and control
  /// characters escaped.
  var normalizedPath: String {
    var path = "$"
    for element in elements {
      switch element {
      case .index(let index): path += "[\(index)]"
      case .name(let name):
        path += "['"
        for scalar in name.unicodeScalars {
          switch scalar {
          case "\u{8}": path += "\\b"
          case "\u{C}": path += "\\f"
          case "\n": path += "\\n"
          case "\r": path += "\\r"
          case "\t": path += "\\t"
          case "'": path += "\\'"
          case "\\": path += "\\\\"
          case "\u{0}"..."\u{1F}":
            let hex = String(scalar.value, radix: 16)
            path += "\\u00" + (hex.count == 1 ? "0" : "") + hex
          default: path.unicodeScalars.append(scalar)
          }
        }
        path += "']"
      }
    }
    return path
  }

  static func == (lhs: JSONPathLocation, rhs: JSONPathLocation) -> Bool {
    lhs.last === rhs.last || lhs.elements == rhs.elements
  }

  func hash(into hasher: inout Hasher) { hasher.combine(elements) }
}
