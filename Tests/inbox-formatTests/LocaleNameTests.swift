import Foundation
import InboxFormatOptions
import Testing

/// How ``LocaleName`` reads what ICU has data for.
@Suite struct LocaleNameTests {
  /// The language and script read by syntax from each identifier ICU
  /// lists are those `Locale.Components` reads of it, for every one of them.
  @Test func availableIdentifiersReadAsComponentsReadThem() {
    let identifiers = Locale.availableIdentifiers
    #expect(identifiers.count > 500)
    for identifier in identifiers {
      let components = Locale.Components(identifier: identifier).languageComponents
      let read = LocaleName.subtags(ofAvailable: identifier)
      #expect(read.language == components.languageCode?.identifier, "\(identifier)")
      #expect(read.script == components.script?.identifier, "\(identifier)")
    }
  }

  /// The languages written out are those of the identifiers ICU lists, all of them.
  @Test func languagesWithDataAreICUsLanguages() {
    let languages = Set(Locale.availableIdentifiers.map { LocaleName.subtags(ofAvailable: $0).language })
    #expect(
      LocaleName.languagesWithData == languages,
      "languagesWithData should be: \(languages.sorted().map { "\"\($0)\"" }.joined(separator: ", "))")
  }

  /// The regions written out are those ICU lists, all of them.
  @Test func regionsAreICUsRegions() {
    #expect(LocaleName.regions == Set(Locale.Region.isoRegions.map(\.identifier)))
  }
}
