public import Foundation

extension Locale {
  /// Whether ICU reads this locale's name. It turns every well-formed BCP 47
  /// tag of more than one subtag into its own form (`th_TH@numbers=thai`),
  /// and hands back a tag it cannot read unchanged: the library resolves a
  /// context's locale by it, and the command and the service refuse a name
  /// it does not read.
  public var isReadByICU: Bool {
    !identifier.contains("-" as Character) || Locale.identifier(.icu, from: identifier) != identifier
  }
}
