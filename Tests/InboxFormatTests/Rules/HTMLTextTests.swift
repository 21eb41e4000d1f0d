import Foundation
import PropertyBased
import Testing

@testable import InboxFormat

/// What a person reads in an HTML message: tags dropped, references
/// decoded, block breaks as spaces, then the one-line rule.
@Suite struct HTMLTextTests {
  /// The text as a row shows it: ``textOfHTML(_:)`` then ``preview(_:length:)``.
  func shown(_ html: String) -> String {
    preview(textOfHTML(html), length: nil)
  }

  @Test func tagsAreDroppedAndReferencesDecoded() {
    #expect(shown("<p>Hi <b>there</b> &amp; welcome</p>") == "Hi there & welcome")
    #expect(textOfHTML("Hi <b>there</b> &amp; <I>welcome</I>") == "Hi there & welcome")
    #expect(textOfHTML("<SPAN CLASS=x>a</SPAN>") == "a")
  }

  @Test func blockBreaksAreSpaces() {
    // Each start and end of a block is a break.
    #expect(
      textOfHTML("<p>Hi <b>there</b> &amp; welcome</p><p>Bye&nbsp;now</p>") == " Hi there & welcome  Bye\u{A0}now ")
    #expect(shown("one<br>two<br/>three<BR />four") == "one two three four")
    #expect(shown("<p>Hi</p><p>Bye&nbsp;now</p>") == "Hi Bye now")
    #expect(textOfHTML("a<br>b") == "a b")
    #expect(textOfHTML("a</p><p>b") == "a  b")
    #expect(
      shown("<ul><li>milk</li><li>eggs</li></ul><h1>Title</h1><div>x</div><td>1</td><td>2</td>")
        == "milk eggs Title x 1 2")
    // Inline elements are no break.
    #expect(textOfHTML("a<span>b</span><em>c</em>") == "abc")
  }

  @Test func aLessThanSignThatBeginsNoTagIsText() {
    #expect(textOfHTML("a < b") == "a < b")
    #expect(textOfHTML("1<2 and 3 <= 4") == "1<2 and 3 <= 4")
    #expect(textOfHTML("<3 you") == "<3 you")
    #expect(textOfHTML("a </ b") == "a </ b")
    #expect(textOfHTML("<") == "<")
    #expect(textOfHTML("a <> b") == "a <> b")
  }

  @Test func numericReferences() {
    #expect(textOfHTML("&#x1F600;") == "😀")
    #expect(textOfHTML("&#X1f600;") == "😀")
    #expect(textOfHTML("&#128512;") == "😀")
    #expect(textOfHTML("&#65;&#x42;") == "AB")
  }

  @Test func aNumericReferenceToNoCharacterIsTheReplacementCharacter() {
    #expect(textOfHTML("&#0;") == "\u{FFFD}")
    #expect(textOfHTML("&#x0;") == "\u{FFFD}")
    #expect(textOfHTML("&#xD800;") == "\u{FFFD}")
    #expect(textOfHTML("&#xDFFF;") == "\u{FFFD}")
    #expect(textOfHTML("&#x110000;") == "\u{FFFD}")
    #expect(textOfHTML("&#99999999999999999999;") == "\u{FFFD}")
    #expect(textOfHTML("&#x10FFFF;") == "\u{10FFFF}")
  }

  @Test func namedReferences() {
    #expect(textOfHTML("&lt;b&gt; &quot;x&quot; &apos;y&apos;") == "<b> \"x\" 'y'")
    #expect(textOfHTML("&nbsp;") == "\u{A0}")
    #expect(textOfHTML("caf&eacute; &mdash; 3&times;4&divide;2 &yuml;&szlig;&copy;") == "café — 3×4÷2 ÿß©")
    #expect(textOfHTML("&hellip;&euro;&rsquo;") == "…€’")
  }

  @Test func aReferenceThisRuleDoesNotKnowStaysAsWritten() {
    #expect(textOfHTML("&foo;") == "&foo;")
    #expect(textOfHTML("fish & chips") == "fish & chips")
    #expect(textOfHTML("&") == "&")
    #expect(textOfHTML("&#;") == "&#;")
    #expect(textOfHTML("&#x;") == "&#x;")
    #expect(textOfHTML("AT&T") == "AT&T")
    // Names are case-sensitive.
    #expect(textOfHTML("&AMP;") == "&AMP;")
  }

  @Test func scriptsStylesAndCommentsAreNotText() {
    #expect(textOfHTML("a<script>x</script>b") == "ab")
    #expect(textOfHTML("a<script type=\"text/javascript\">if (a < b && c > d) {}</script>b") == "ab")
    #expect(textOfHTML("a<style>p { color: red }</style>b") == "ab")
    #expect(textOfHTML("a<!-- c -->b") == "ab")
    #expect(textOfHTML("a<!-- <p>x</p> -->b") == "ab")
    #expect(textOfHTML("<!DOCTYPE html>a") == "a")
    #expect(textOfHTML("<head><title>T</title></head>a") == "a")
    #expect(textOfHTML("<title>T</title>a") == "a")
    #expect(textOfHTML("a<template><p>x</p></template>b") == "ab")
  }

  @Test func aQuotedAttributeMayHoldAGreaterThanSign() {
    #expect(textOfHTML("<a href=\"x>y\">link</a>") == "link")
    #expect(textOfHTML("<img alt='a > b'>after") == "after")
    #expect(textOfHTML("<a title='say \"hi\" >'>x</a>") == "x")
  }

  @Test func anUnclosedTagRunsToTheEnd() {
    #expect(textOfHTML("Hi <b") == "Hi ")
    #expect(textOfHTML("Hi <a href=\"x>y") == "Hi ")
    #expect(textOfHTML("Hi <!-- never closed") == "Hi ")
  }

  @Test func theTextKeepsEverythingElse() {
    #expect(textOfHTML("") == "")
    #expect(textOfHTML("مرحبا <b>بك</b> 👨‍👩‍👧") == "مرحبا بك 👨‍👩‍👧")
    #expect(textOfHTML("e\u{301} > d; #1") == "e\u{301} > d; #1")
  }

  @Test func textWithoutTagsOrReferencesComesBackUnchanged() async {
    let plain = Gen<String>.name.map { text in
      String(String.UnicodeScalarView(text.unicodeScalars.filter { $0 != "<" && $0 != "&" }))
    }
    let extras = Gen<String?>.element(of: [">", ";", "#x41;", "\"", "'", "/", "=", "-->"]).map { $0! }
    await propertyCheck(count: 300, input: plain, extras, plain) { before, extra, after in
      let text = before + extra + after
      #expect(textOfHTML(text) == text, "\(text.debugDescription)")
    }
  }
}
