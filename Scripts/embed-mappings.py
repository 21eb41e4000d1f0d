#!/usr/bin/env python3
"""Writes the built-in mappings of Data/mappings into
Sources/InboxFormat/InputMapping/BuiltInMapping.swift.

Run after editing a mapping; BuiltInMappingTests fails while the two differ.
The list below is the order `inbox-format mappings` shows them in.
"""
import pathlib

NAMES = ["post", "stream-chat", "sendbird", "matrix", "twilio", "intercom", "tdlib", "slack"]

root = pathlib.Path(__file__).resolve().parent.parent


def identifier(name):
    head, *rest = name.split("-")
    return head + "".join(part.capitalize() for part in rest)


lines = [
    "// swift-format-ignore-file",
    "// Generated from Data/mappings/*.json by Scripts/embed-mappings.py; a test",
    "// checks that each document here is the file's text.",
    "",
    "/// A mapping that comes with the library: its name and its document.",
    "struct BuiltInMapping: Sendable {",
    "  let name: String",
    "  let document: String",
    "",
    "  /// Every built-in mapping, in the order they are listed.",
    "  static let all: [BuiltInMapping] = [" + ", ".join(identifier(n) for n in NAMES) + "]",
]
for name in NAMES:
    text = (root / "Data/mappings" / f"{name}.json").read_text(encoding="utf-8")
    assert '"""#' not in text, f"{name}.json cannot hold the raw string's delimiter"
    assert text.endswith("\n"), f"{name}.json must end with a line break"
    lines += [
        "",
        f"  static let {identifier(name)} = BuiltInMapping(",
        f'    name: "{name}",',
        '    document: #"""',
        text + '"""#)',
    ]
lines.append("}")
out = root / "Sources/InboxFormat/InputMapping/BuiltInMapping.swift"
out.write_text("\n".join(lines) + "\n", encoding="utf-8")
