// The direction of a text: its first strong character, as the paragraph
// level of the Unicode bidi algorithm is found (rules P2 and P3).

/// What the direction rule tells apart among the Bidi_Class values
/// (``bidiClassRanges``); every other class is `nil`.
enum BidiKind: Sendable {
  /// L.
  case leftToRight
  /// R and AL.
  case rightToLeft
  /// LRI, RLI and FSI.
  case isolateInitiator
  /// PDI.
  case popDirectionalIsolate
}

/// The kind of `scalar`'s Bidi_Class, or nil for a class that is neither
/// strong nor an isolate control.
func bidiKind(of scalar: Unicode.Scalar) -> BidiKind? {
  bidiClassRanges.indexOfRange(containing: scalar.value) { $0.range }.map { bidiClassRanges[$0].kind }
}

/// Finds the first strong character of a text given scalar by scalar,
/// possibly in several pieces (a title's names): P2 skips what lies between
/// an isolate initiator and its matching PDI (or the end), and ignores
/// every character that is not L, R or AL.
struct FirstStrongCharacter {
  /// How many isolates are open.
  private var isolates = 0
  /// The direction found, once found.
  private(set) var direction: TextDirection?

  /// Reads `scalars` until a strong character; nothing once one was found.
  mutating func read(_ scalars: some Sequence<Unicode.Scalar>) {
    guard direction == nil else { return }
    for scalar in scalars {
      switch bidiKind(of: scalar) {
      case .isolateInitiator: isolates += 1
      case .popDirectionalIsolate: isolates = max(0, isolates - 1)
      case .leftToRight where isolates == 0:
        direction = .leftToRight
        return
      case .rightToLeft where isolates == 0:
        direction = .rightToLeft
        return
      default: break
      }
    }
  }

  /// The direction of what was read: `neutral` without a strong character.
  var result: TextDirection { direction ?? .neutral }
}

/// The direction of `text` (P2–P3): `ltr` or `rtl` by its first strong
/// character outside isolates, `neutral` when it has none.
///
/// ```swift
/// direction(of: "مرحبا Paul")          // .rightToLeft
/// direction(of: "+33 6 45 67 99 66")   // .neutral
/// direction(of: "\u{2067}שלום\u{2069} ok")  // .leftToRight: the isolate is skipped
/// ```
func direction(of text: some Sequence<Unicode.Scalar>) -> TextDirection {
  var finder = FirstStrongCharacter()
  finder.read(text)
  return finder.result
}

/// A text whose scalars the direction rule reads: a string, or in the engine
/// the input's UTF-8 bytes.
protocol ScalarText {
  associatedtype Scalars: Sequence<Unicode.Scalar>
  var scalars: Scalars { get }
}

extension String: ScalarText {
  var scalars: String.UnicodeScalarView { unicodeScalars }
}

extension Title where Text: ScalarText {
  /// The direction of the title as the row writes it: its pieces in order.
  var direction: TextDirection {
    var finder = FirstStrongCharacter()
    forEachPiece { piece in
      switch piece {
      case .part(let text): finder.read(text.scalars)
      case .space: break
      case .placeholder(let text): finder.read(text.unicodeScalars)
      }
    }
    return finder.result
  }
}
