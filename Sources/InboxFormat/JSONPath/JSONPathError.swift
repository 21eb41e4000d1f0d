/// Why a JSONPath query is not valid: where, and what was expected there.
///
/// The position is 1-based and counts Unicode scalars of the query, as
/// columns count them in the project's other messages; a message reads
/// `position 14: expected "]" after the index`. A caller that names the
/// query puts its name first: `mapping "name"[1]: position 14: …`.
public struct JSONPathError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The 1-based position, in Unicode scalars, where the query stops being valid.
  public var position: Int
  /// What is wrong there, lower-case, with the query's own text quoted.
  public var reason: String

  public init(position: Int, reason: String) {
    self.position = position
    self.reason = reason
  }

  /// `position 14: expected "]" after the index`.
  public var description: String { "position \(position): \(reason)" }
}
