package import Foundation
import InboxFormatSupport

/// Turns the locale names people, environments and requests use into
/// locales whose labels come from CLDR data, never from the process.
///
/// A name is a BCP 47 tag (`fr-FR`, `en-US-u-hc-h23`, `th-TH-u-nu-thai`) or
/// a POSIX locale name (`fr_FR.UTF-8`, `de_DE@euro`, `sr_RS@latin`, `C`).
/// It is refused when ICU cannot read it, when its language has no CLDR
/// data (ICU would then take the process's default locale, so labels would
/// follow `LANG`), when its region is not a region, or when it asks for a
/// calendar, numbering system or hour cycle ICU does not have. What no
/// label depends on is left out first (``canonicalTag(from:)``): `en-US-aaaaa`
/// and `en_us.UTF-8` are `en-US`.
package enum LocaleName {
  /// The locale of `LANG=C`, of `POSIX`, and of an environment that names none or an unusable one.
  package static let posix = Locale(identifier: "en_US_POSIX")

  /// The longest name read: longer ones are not locale names.
  static let longestName = 256

  /// The locale `name` names, or why it cannot be used.
  package static func locale(from name: String) throws(OptionError) -> Locale {
    try locale(canonicalTag: canonicalTag(from: name), name: name)
  }

  /// The locale of a tag that ``canonicalTag(from:)`` made of `name`.
  ///
  /// Foundation keeps every locale it makes for the life of the process,
  /// under each identifier it is given, and so do some of its formatter
  /// caches: only canonical tags reach it, so that names that differ in what
  /// no label depends on share one locale.
  package static func locale(canonicalTag tag: String, name: String) throws(OptionError) -> Locale {
    if tag == posixTag { return posix }
    let locale = Locale(identifier: Locale.identifier(.bcp47, from: tag))
    // A tag ICU cannot read would be formatted as less than it says.
    guard locale.isReadByICU else { throw .malformedLocale(name) }
    return locale
  }

  /// The canonical BCP 47 tag of the locale `name` names, made without
  /// asking Foundation or ICU (both keep what they are asked about): the
  /// language (lower case, deprecated codes replaced: `iw` is `he`), a
  /// script that CLDR has data for (title case), the region (upper case),
  /// and of the `-u-` extension the keywords that labels depend on, sorted:
  /// `ca`, `fw`, `hc`, `nu`, `rg`, and `va-posix`. Variants without CLDR
  /// data (`en-US-aaaaa`), other keywords, other extensions and private
  /// use change no label and are left out; a script without data, or an
  /// `rg` or `fw` that is not one, is left out as ICU would ignore it.
  ///
  /// ```swift
  /// try LocaleName.canonicalTag(from: "EN_us-1996-u-nu-thai-co-phonebk-x-mine")  // "en-US-u-nu-thai"
  /// ```
  package static func canonicalTag(from name: String) throws(OptionError) -> String {
    guard !name.isEmpty, name.utf8.count <= longestName,
      name.unicodeScalars.allSatisfy({
        $0.isASCII && ($0.properties.isAlphabetic || isNameSymbol($0) || ("0"..."9").contains($0))
      })
    else { throw .malformedLocale(name) }
    var identifier = Substring(name)
    // POSIX: language[_territory][.codeset][@modifier]; the codeset says
    // nothing about formats, and of the modifiers only a script does
    // (sr_RS@latin is Serbian in Latin letters, not the Cyrillic default).
    var script: String?
    // A BCP 47 tag has neither "." nor "@"; a codeset may have "-" (ISO-8859-15).
    if !identifier.contains("-" as Character) || identifier.contains("." as Character)
      || identifier.contains("@" as Character)
    {
      if let at = identifier.firstIndex(of: "@") {
        script = posixScriptModifiers[identifier[identifier.index(after: at)...].lowercased()]
        identifier = identifier[..<at]
      }
      if let dot = identifier.firstIndex(of: ".") { identifier = identifier[..<dot] }
    }
    if identifier == "C" || identifier == "POSIX" { return posixTag }
    let subtags = identifier.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "-" || $0 == "_" })
      .map { $0.lowercased() }
    guard let first = subtags.first, (2...3).contains(first.count), first.allSatisfy(\.isLetter),
      subtags.allSatisfy({
        (1...8).contains($0.count) && !$0.contains("." as Character) && !$0.contains("@" as Character)
      })
    else { throw .malformedLocale(name) }
    let language = languageAliases[first] ?? first
    guard languagesWithData.contains(language) else {
      throw .localeWithoutData(name, language: String(identifier.prefix(first.count)))
    }
    var index = 1
    if index < subtags.count, subtags[index].count == 4, subtags[index].allSatisfy(\.isLetter) {
      let named = subtags[index].prefix(1).uppercased() + subtags[index].dropFirst()
      if script == nil, scriptsWithData.contains(named) { script = named }
      index += 1
    }
    var region: String?
    if index < subtags.count, isRegion(subtags[index]) {
      region = subtags[index].uppercased()
      guard regions.contains(region!) else { throw .unknownRegion(name, region: region!) }
      index += 1
    }
    var keywords: [String: String] = [:]
    while index < subtags.count, isVariant(subtags[index]) {
      if subtags[index] == "posix" { keywords["va"] = "posix" }
      index += 1
    }
    while index < subtags.count {
      let singleton = subtags[index]
      guard singleton.count == 1 else { throw .malformedLocale(name) }
      index += 1
      if singleton == "x" { break }  // private use, to the end
      let start = index
      while index < subtags.count, subtags[index].count > 1 { index += 1 }
      guard index > start else { throw .malformedLocale(name) }
      if singleton == "u" { try readKeywords(subtags[start..<index], into: &keywords, name: name) }
      // ICU refuses a malformed transform (`th-t-nu0nu`): so does the name.
      if singleton == "t", !isTransform(subtags[start..<index]) { throw .malformedLocale(name) }
    }
    var tag = [language, script, region].compactMap { $0 }.joined(separator: "-")
    if !keywords.isEmpty {
      tag += "-u-" + keywords.sorted { $0.key < $1.key }.map { "\($0.key)-\($0.value)" }.joined(separator: "-")
    }
    return tag
  }

  /// The keywords of a `-u-` extension's subtags that labels depend on.
  /// A calendar, numbering system or hour cycle ICU does not have is
  /// refused: it asks for labels that cannot be made.
  private static func readKeywords(
    _ subtags: ArraySlice<String>, into keywords: inout [String: String], name: String
  ) throws(OptionError) {
    var index = subtags.startIndex
    // Attributes come before the first key, and mean nothing to labels.
    while index < subtags.endIndex, subtags[index].count > 2 { index += 1 }
    while index < subtags.endIndex {
      let key = subtags[index]
      guard key.count == 2, key.last!.isLetter else { throw .malformedLocale(name) }
      index += 1
      let start = index
      while index < subtags.endIndex, subtags[index].count > 2 { index += 1 }
      let value = subtags[start..<index].joined(separator: "-")
      // The first of a repeated key counts, as in ICU.
      guard keywords[key] == nil else { continue }
      switch key {
      case "ca":
        guard calendars.contains(value) else { throw .malformedLocale(name) }
      case "nu":
        guard numberingSystems.contains(value) else { throw .malformedLocale(name) }
      case "hc":
        guard ["h11", "h12", "h23", "h24"].contains(value) else { throw .malformedLocale(name) }
      case "rg":
        guard value.count == 6, value.hasSuffix("zzzz"), regions.contains(value.prefix(2).uppercased()) else {
          continue
        }
      case "fw":
        guard ["sun", "mon", "tue", "wed", "thu", "fri", "sat"].contains(value) else { continue }
      case "va":
        guard value == "posix" else { continue }
      default:
        continue
      }
      keywords[key] = value
    }
  }

  /// The subtags of a `-t-` extension (RFC 6497): a language tag, fields
  /// (a letter and a digit, then values of 3 to 8 characters), or both.
  private static func isTransform(_ subtags: ArraySlice<String>) -> Bool {
    var index = subtags.startIndex
    let end = subtags.endIndex
    if index < end, [2, 3, 5, 6, 7, 8].contains(subtags[index].count), subtags[index].allSatisfy(\.isLetter) {
      index += 1
      if index < end, subtags[index].count == 4, subtags[index].allSatisfy(\.isLetter) { index += 1 }
      if index < end, isRegion(subtags[index]) { index += 1 }
      while index < end, isVariant(subtags[index]) { index += 1 }
    }
    while index < end {
      let key = subtags[index]
      guard key.count == 2, key.first!.isLetter, key.last!.isNumber else { return false }
      index += 1
      let start = index
      while index < end, subtags[index].count >= 3 { index += 1 }
      guard index > start else { return false }
    }
    return true
  }

  /// `2ALPHA` or `3DIGIT`.
  private static func isRegion(_ subtag: String) -> Bool {
    (subtag.count == 2 && subtag.allSatisfy(\.isLetter)) || (subtag.count == 3 && subtag.allSatisfy(\.isNumber))
  }

  /// `5*8alphanum` or `DIGIT 3alphanum`.
  private static func isVariant(_ subtag: String) -> Bool {
    subtag.count >= 5 || (subtag.count == 4 && subtag.first!.isNumber)
  }

  /// The locale the environment names: the first of `LC_ALL`, `LC_TIME` and
  /// `LANG` that is set and not empty decides, as for C programs; an
  /// unusable one, or none, gives ``posix``.
  package static func environmentLocale(_ variable: (String) -> String?) -> Locale {
    for name in ["LC_ALL", "LC_TIME", "LANG"] {
      if let value = variable(name), !value.isEmpty {
        return (try? locale(from: value)) ?? posix
      }
    }
    return posix
  }

  /// CLDR's calendar identifiers that Foundation has.
  private static let calendars: Set<String> = [
    "buddhist", "chinese", "coptic", "dangi", "ethioaa", "ethiopic", "gregory", "hebrew", "indian", "islamic",
    "islamic-civil", "islamic-tbla", "islamic-umalqura", "iso8601", "japanese", "persian", "roc",
  ]

  /// Symbols a locale name may hold: BCP 47's `-`, POSIX's `_`, `.` and `@`.
  /// (A switch, not a set: a `Set<Unicode.Scalar>` is a type the runtime
  /// makes at start, at the cost of a search of every conformance record.)
  private static func isNameSymbol(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar {
    case "-", "_", ".", "@": true
    default: false
    }
  }

  /// glibc's script modifiers, as ISO 15924 codes.
  private static let posixScriptModifiers = [
    "latin": "Latn", "cyrillic": "Cyrl", "devanagari": "Deva", "arabic": "Arab",
  ]

  /// The tag of ``posix``.
  private static let posixTag = "en-US-u-va-posix"

  /// Deprecated language codes that ICU replaces.
  private static let languageAliases = ["iw": "he", "in": "id", "ji": "yi", "jw": "jv", "mo": "ro"]

  /// The numbering systems ICU has.
  private static let numberingSystems = Set(Locale.NumberingSystem.availableNumberingSystems.map(\.identifier))

  /// ISO 3166 and UN M.49 regions, upper case: `Locale.Region.isoRegions`,
  /// written out, as ICU makes that list only by loading all its region
  /// data, which would cost a start more than a page's labels. A test holds
  /// the two equal; when an ICU update changes the list, print
  /// `Locale.Region.isoRegions.map(\.identifier).sorted()` and copy it here.
  package static let regions: Set<String> = [
    "001", "002", "003", "005", "009", "011", "013", "014", "015", "017", "018", "019", "021", "029", "030", "034",
    "035", "039", "053", "054", "057", "061", "142", "143", "145", "150", "151", "154", "155", "202", "419", "AC", "AD",
    "AE", "AF", "AG", "AI", "AL", "AM", "AO", "AQ", "AR", "AS", "AT", "AU", "AW", "AX", "AZ", "BA", "BB", "BD", "BE",
    "BF", "BG", "BH", "BI", "BJ", "BL", "BM", "BN", "BO", "BQ", "BR", "BS", "BT", "BV", "BW", "BY", "BZ", "CA", "CC",
    "CD", "CF", "CG", "CH", "CI", "CK", "CL", "CM", "CN", "CO", "CP", "CQ", "CR", "CU", "CV", "CW", "CX", "CY", "CZ",
    "DE", "DG", "DJ", "DK", "DM", "DO", "DZ", "EA", "EC", "EE", "EG", "EH", "ER", "ES", "ET", "EU", "EZ", "FI", "FJ",
    "FK", "FM", "FO", "FR", "GA", "GB", "GD", "GE", "GF", "GG", "GH", "GI", "GL", "GM", "GN", "GP", "GQ", "GR", "GS",
    "GT", "GU", "GW", "GY", "HK", "HM", "HN", "HR", "HT", "HU", "IC", "ID", "IE", "IL", "IM", "IN", "IO", "IQ", "IR",
    "IS", "IT", "JE", "JM", "JO", "JP", "KE", "KG", "KH", "KI", "KM", "KN", "KP", "KR", "KW", "KY", "KZ", "LA", "LB",
    "LC", "LI", "LK", "LR", "LS", "LT", "LU", "LV", "LY", "MA", "MC", "MD", "ME", "MF", "MG", "MH", "MK", "ML", "MM",
    "MN", "MO", "MP", "MQ", "MR", "MS", "MT", "MU", "MV", "MW", "MX", "MY", "MZ", "NA", "NC", "NE", "NF", "NG", "NI",
    "NL", "NO", "NP", "NR", "NU", "NZ", "OM", "PA", "PE", "PF", "PG", "PH", "PK", "PL", "PM", "PN", "PR", "PS", "PT",
    "PW", "PY", "QA", "QO", "RE", "RO", "RS", "RU", "RW", "SA", "SB", "SC", "SD", "SE", "SG", "SH", "SI", "SJ", "SK",
    "SL", "SM", "SN", "SO", "SR", "SS", "ST", "SV", "SX", "SY", "SZ", "TA", "TC", "TD", "TF", "TG", "TH", "TJ", "TK",
    "TL", "TM", "TN", "TO", "TR", "TT", "TV", "TW", "TZ", "UA", "UG", "UM", "UN", "US", "UY", "UZ", "VA", "VC", "VE",
    "VG", "VI", "VN", "VU", "WF", "WS", "XK", "YE", "YT", "ZA", "ZM", "ZW",
  ]

  /// The scripts CLDR has locales for (`Latn`, `Cyrl`, `Hant`).
  private static let scriptsWithData = Set(Locale.availableIdentifiers.compactMap { subtags(ofAvailable: $0).script })

  /// The languages ICU has CLDR data for: the languages of
  /// `Locale.availableIdentifiers` (``subtags(ofAvailable:)``), written out,
  /// as ICU makes that list by opening its index of a thousand locales, which
  /// would cost every start about 2M instructions. A test holds the two
  /// equal; when an ICU update changes the list, it prints the new one.
  package static let languagesWithData: Set<String> = [
    "af", "agq", "ain", "ak", "am", "apw", "ar", "arn", "as", "asa", "ast", "az", "ba", "bas", "be", "bem", "ber",
    "bez", "bg", "bgc", "bho", "blo", "bm", "bn", "bo", "br", "brx", "bs", "byn", "ca", "ccp", "ce", "ceb", "cgg",
    "cho", "chr", "cic", "ckb", "co", "cs", "csw", "cv", "cy", "da", "dav", "de", "dje", "doi", "dsb", "dua", "dv",
    "dyo", "dz", "ebu", "ee", "el", "en", "eo", "es", "et", "eu", "ewo", "fa", "ff", "fi", "fil", "fo", "fr", "fur",
    "fy", "ga", "gaa", "gd", "gez", "gl", "gn", "gsw", "gu", "guz", "gv", "ha", "haw", "he", "hi", "hmn", "hr", "hsb",
    "hu", "hy", "ia", "id", "ie", "ig", "ii", "inh", "io", "is", "it", "iu", "ja", "jbo", "jgo", "jmc", "jv", "ka",
    "kab", "kaj", "kam", "kcg", "kde", "kea", "kgp", "khq", "ki", "kk", "kkj", "kl", "kln", "km", "kn", "ko", "kok",
    "kpe", "ks", "ksb", "ksf", "ksh", "ku", "kw", "kxv", "ky", "lag", "lb", "lg", "lij", "lkt", "lmo", "ln", "lo",
    "lrc", "lt", "lu", "luo", "lut", "luy", "lv", "mai", "mas", "mer", "mfe", "mg", "mgh", "mgo", "mi", "mic", "mid",
    "mk", "ml", "mn", "mni", "moh", "mr", "ms", "mt", "mua", "mus", "my", "myv", "mzn", "naq", "nb", "nd", "nds", "ne",
    "nl", "nmg", "nn", "nnh", "nnp", "no", "nqo", "nr", "nso", "nus", "nv", "ny", "nyn", "oc", "om", "or", "os", "osa",
    "pa", "pcm", "pl", "pqm", "prg", "ps", "pt", "qu", "raj", "rej", "rhg", "rm", "rn", "ro", "rof", "ru", "rw", "rwk",
    "sa", "sah", "saq", "sat", "sbp", "sc", "scn", "sd", "se", "seh", "ses", "sg", "shi", "si", "sjd", "sje", "sju",
    "sk", "sl", "sm", "smn", "sn", "so", "sq", "sr", "ss", "st", "su", "sv", "sw", "syr", "szl", "ta", "te", "teo",
    "tg", "th", "ti", "tig", "tk", "tn", "to", "tok", "tr", "trv", "ts", "tt", "twq", "tzm", "ug", "uk", "ur", "uz",
    "vai", "ve", "vec", "vi", "vmw", "vun", "wa", "wae", "wal", "wo", "xh", "xnr", "xog", "yav", "yi", "yo", "yrl",
    "yue", "za", "zgh", "zh", "zu",
  ]

  /// The language and script of an identifier of `Locale.availableIdentifiers`,
  /// read by the syntax ICU gives them all (`language[_Script][_REGION][_VARIANT]`:
  /// `sr_Latn_RS`, `ca_ES_VALENCIA`) in their UTF-8 bytes: what
  /// `Locale.Components` reads of them, without making a locale's
  /// components for each of a thousand identifiers on every start.
  package static func subtags(ofAvailable identifier: String) -> (language: String, script: String?) {
    var identifier = identifier
    return identifier.withUTF8 { bytes in
      let languageEnd = bytes.firstIndex(of: UInt8(ascii: "_")) ?? bytes.endIndex
      let language = String(decoding: bytes[..<languageEnd], as: UTF8.self)
      guard languageEnd < bytes.endIndex else { return (language, nil) }
      let rest = bytes[(languageEnd + 1)...]
      let scriptEnd = rest.firstIndex(of: UInt8(ascii: "_")) ?? rest.endIndex
      let isScript = scriptEnd - rest.startIndex == 4
      return (language, isScript ? String(decoding: rest[..<scriptEnd], as: UTF8.self) : nil)
    }
  }
}
