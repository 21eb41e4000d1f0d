// The text of a message a backend sends as HTML (`"markup": "html"` in a
// mapping): what a person reads in it, before the one-line rule.

/// The text of an HTML fragment: tags dropped, character references
/// decoded, and the break of a block element (a paragraph, a line break, a
/// list item, a heading, a table cell…) a space. Comments, and the contents
/// of `script`, `style`, `template`, `head` and `title`, are not text and
/// are left out.
///
/// The result is then a message like any other: ``preview(_:length:)``
/// makes it one clean line. A `<` that begins no tag (`a < b`) is text, as
/// a browser reads it; a named reference this rule does not know (`&foo;`)
/// stays as written; a numeric one for no character (`&#0;`, a surrogate,
/// beyond U+10FFFF) gives U+FFFD.
///
/// ```swift
/// textOfHTML("<p>Hi <b>there</b> &amp; welcome</p><p>Bye&nbsp;now</p>")  // " Hi there & welcome  Bye\u{A0}now "
/// ```
func textOfHTML(_ html: String) -> String {
  var text = String.UnicodeScalarView()
  let scalars = Array(html.unicodeScalars)
  var index = 0
  /// The element whose contents are skipped until its end tag, if any.
  var skipping: String?
  while index < scalars.count {
    let scalar = scalars[index]
    if scalar == "<", let tag = HTMLTag(scalars, at: index) {
      index = tag.end
      if let skipped = skipping {
        if tag.isEnd && tag.name == skipped { skipping = nil }
        continue
      }
      if !tag.isEnd && !tag.isSelfClosing && htmlElementsWithoutText.contains(tag.name) {
        skipping = tag.name
      } else if htmlBlockElements.contains(tag.name) {
        text.append(" ")
      }
      continue
    }
    if skipping != nil {
      index += 1
      continue
    }
    if scalar == "&", let (decoded, end) = characterReference(scalars, at: index) {
      text.append(contentsOf: decoded.unicodeScalars)
      index = end
      continue
    }
    text.append(scalar)
    index += 1
  }
  return String(text)
}

/// A tag, comment or declaration starting at a `<`: its lowercased name
/// (empty for a comment or declaration), whether it ends an element or
/// closes itself, and the index after its `>`.
private struct HTMLTag {
  var name: String
  var isEnd = false
  var isSelfClosing = false
  var end: Int

  /// The tag at `start`, or nil when the `<` begins none (it is then text).
  init?(_ scalars: [Unicode.Scalar], at start: Int) {
    var index = start + 1
    guard index < scalars.count else { return nil }
    if scalars[index] == "!" || scalars[index] == "?" {
      // A comment runs to `-->`; a declaration or processing instruction to `>`.
      let isComment = scalars[index...].starts(with: ["!", "-", "-"])
      let close: [Unicode.Scalar] = isComment ? ["-", "-", ">"] : [">"]
      var search = isComment ? index + 3 : index
      while search < scalars.count && !scalars[search...].starts(with: close) { search += 1 }
      name = ""
      end = min(search + close.count, scalars.count)
      return
    }
    if scalars[index] == "/" {
      isEnd = true
      index += 1
    }
    // `<` then a letter (or `</` then a letter) begins a tag; anything else is text.
    guard index < scalars.count, isASCIILetter(scalars[index]) else { return nil }
    var name = ""
    while index < scalars.count, isASCIILetter(scalars[index]) || ("0"..."9").contains(scalars[index]) {
      name.unicodeScalars.append(scalars[index].properties.lowercaseMapping.unicodeScalars.first ?? scalars[index])
      index += 1
    }
    self.name = name
    // Attributes: a quoted value may hold `>`.
    var quote: Unicode.Scalar?
    while index < scalars.count {
      let scalar = scalars[index]
      if let open = quote {
        if scalar == open { quote = nil }
      } else if scalar == "\"" || scalar == "'" {
        quote = scalar
      } else if scalar == ">" {
        isSelfClosing = index > start && scalars[index - 1] == "/"
        end = index + 1
        return
      }
      index += 1
    }
    // An unclosed tag runs to the end of the text, as in a browser.
    end = scalars.count
  }
}

private func isASCIILetter(_ scalar: Unicode.Scalar) -> Bool {
  ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
}

/// Elements whose start or end is a break between blocks of text.
private let htmlBlockElements: Set<String> = [
  "address", "article", "aside", "blockquote", "br", "dd", "div", "dl", "dt", "figcaption", "figure", "footer",
  "h1", "h2", "h3", "h4", "h5", "h6", "header", "hr", "li", "main", "nav", "ol", "p", "pre", "section", "table",
  "td", "th", "tr", "ul",
]

/// Elements whose contents are not text a person reads.
private let htmlElementsWithoutText: Set<String> = ["head", "script", "style", "template", "title"]

/// The character reference starting at an `&`: its text and the index after
/// it, or nil when the `&` begins none this rule knows (it is then text).
private func characterReference(_ scalars: [Unicode.Scalar], at start: Int) -> (String, Int)? {
  var index = start + 1
  guard index < scalars.count else { return nil }
  if scalars[index] == "#" {
    index += 1
    let isHex = index < scalars.count && (scalars[index] == "x" || scalars[index] == "X")
    if isHex { index += 1 }
    var value: UInt32 = 0
    let digitsStart = index
    while index < scalars.count, let digit = hexValue(scalars[index]), isHex || digit < 10 {
      // Saturates: a longer number is as out of range as any.
      value = min(value &* (isHex ? 16 : 10) &+ digit, 0x11_0000)
      index += 1
    }
    guard index > digitsStart else { return nil }
    if index < scalars.count && scalars[index] == ";" { index += 1 }
    let scalar = value == 0 ? nil : Unicode.Scalar(value)
    return (String(scalar ?? "\u{FFFD}"), index)
  }
  var name = ""
  while index < scalars.count, isASCIILetter(scalars[index]) || ("0"..."9").contains(scalars[index]), name.count < 32 {
    name.unicodeScalars.append(scalars[index])
    index += 1
  }
  guard index < scalars.count, scalars[index] == ";", let text = namedCharacterReferences[name] else { return nil }
  return (text, index + 1)
}

private func hexValue(_ scalar: Unicode.Scalar) -> UInt32? {
  switch scalar {
  case "0"..."9": scalar.value - 0x30
  case "a"..."f": scalar.value - 0x61 + 10
  case "A"..."F": scalar.value - 0x41 + 10
  default: nil
  }
}

/// The named references that messages use: HTML's five, the Latin-1 set
/// and the common typographic ones.
private let namedCharacterReferences: [String: String] = {
  var table: [String: String] = [
    "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'",
    "ndash": "\u{2013}", "mdash": "\u{2014}", "lsquo": "\u{2018}", "rsquo": "\u{2019}", "sbquo": "\u{201A}",
    "ldquo": "\u{201C}", "rdquo": "\u{201D}", "bdquo": "\u{201E}", "dagger": "\u{2020}", "Dagger": "\u{2021}",
    "bull": "\u{2022}", "hellip": "\u{2026}", "permil": "\u{2030}", "prime": "\u{2032}", "Prime": "\u{2033}",
    "lsaquo": "\u{2039}", "rsaquo": "\u{203A}", "euro": "\u{20AC}", "trade": "\u{2122}", "larr": "\u{2190}",
    "uarr": "\u{2191}", "rarr": "\u{2192}", "darr": "\u{2193}", "harr": "\u{2194}", "ensp": "\u{2002}",
    "emsp": "\u{2003}", "thinsp": "\u{2009}", "zwnj": "\u{200C}", "zwj": "\u{200D}", "lrm": "\u{200E}",
    "rlm": "\u{200F}", "OElig": "\u{152}", "oelig": "\u{153}", "Scaron": "\u{160}", "scaron": "\u{161}",
    "Yuml": "\u{178}", "fnof": "\u{192}", "circ": "\u{2C6}", "tilde": "\u{2DC}",
  ]
  // U+00A0 to U+00FF, in order.
  let latin1 = """
    nbsp iexcl cent pound curren yen brvbar sect uml copy ordf laquo not shy reg macr deg plusmn sup2 sup3 acute \
    micro para middot cedil sup1 ordm raquo frac14 frac12 frac34 iquest Agrave Aacute Acirc Atilde Auml Aring \
    AElig Ccedil Egrave Eacute Ecirc Euml Igrave Iacute Icirc Iuml ETH Ntilde Ograve Oacute Ocirc Otilde Ouml \
    times Oslash Ugrave Uacute Ucirc Uuml Yacute THORN szlig agrave aacute acirc atilde auml aring aelig ccedil \
    egrave eacute ecirc euml igrave iacute icirc iuml eth ntilde ograve oacute ocirc otilde ouml divide oslash \
    ugrave uacute ucirc uuml yacute thorn yuml
    """
  for (offset, name) in latin1.split(separator: " ").enumerated() {
    table[String(name)] = String(Character(Unicode.Scalar(UInt8(0xA0 + offset))))
  }
  return table
}()
