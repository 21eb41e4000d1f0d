/// The direction of a text from its first strong character (Unicode bidi
/// rules P2 and P3, isolates skipped): what a client sets on the field.
public enum TextDirection: String, Sendable, Hashable, CaseIterable {
  /// The first strong character is left to right (Bidi_Class L): `ltr`.
  case leftToRight = "ltr"
  /// The first strong character is right to left (R or AL): `rtl`.
  case rightToLeft = "rtl"
  /// No strong character at all, as in a phone number: `neutral`.
  case neutral
}
