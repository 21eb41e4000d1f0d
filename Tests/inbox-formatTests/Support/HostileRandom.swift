/// SplitMix64 (as `RandomNumberGenerator`): a small generator whose seed replays a run exactly, so a
/// random value that fails can be named and tried again.
struct HostileRandom: RandomNumberGenerator {
  private var state: UInt64

  init(seed: UInt64) { state = seed }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// `count` characters drawn from `alphabet`.
  mutating func string(from alphabet: [Unicode.Scalar], count: Int) -> String {
    var scalars = String.UnicodeScalarView()
    for _ in 0..<count { scalars.append(alphabet.randomElement(using: &self)!) }
    return String(scalars)
  }
}

extension Array where Element == Unicode.Scalar {
  /// Printable ASCII, space to tilde.
  static let printableASCII: [Unicode.Scalar] = (0x20...0x7E).map { Unicode.Scalar($0)! }
  /// C0 controls but NUL (which no argument or variable can hold), DEL and C1 controls.
  static let controls: [Unicode.Scalar] = ((0x01...0x1F).map { $0 } + (0x7F...0x9F).map { $0 }).map {
    Unicode.Scalar($0)!
  }
  /// Letters, marks, bidi and format characters, separators and emoji from outside ASCII.
  static let nonASCII: [Unicode.Scalar] = [
    "é", "ß", "İ", "ı", "Ω", "Ж", "ש", "ع", "क", "ि", "ก", "中", "日", "한", "ｱ", "ﬁ", "Å", "\u{0301}", "\u{200B}",
    "\u{200D}",
    "\u{202E}", "\u{2066}", "\u{FEFF}", "\u{2028}", "\u{2029}", "\u{00A0}", "\u{3000}", "😀", "\u{1F1EB}", "\u{E000}",
    "\u{10FFFD}",
    "\u{FFFD}", "٣", "５",
  ]
}
