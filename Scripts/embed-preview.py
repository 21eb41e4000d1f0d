#!/usr/bin/env python3
"""Writes the preview page's files, Sources/InboxFormatServer/Preview/Assets/
preview.html, preview.css and preview.js, into
Sources/InboxFormatServer/Preview/PreviewAssets.swift.

Run after editing one of them; PreviewAssetsTests fails while they differ.
"""
import pathlib

root = pathlib.Path(__file__).resolve().parent.parent
assets = root / "Sources/InboxFormatServer/Preview/Assets"
# The Swift name of each file's text, as PreviewPage serves it.
FILES = [("frame", "preview.html"), ("css", "preview.css"), ("script", "preview.js")]

lines = [
    "// swift-format-ignore-file",
    "// Generated from Sources/InboxFormatServer/Preview/Assets by",
    "// Scripts/embed-preview.py; a test checks that each text here is the file's.",
    "",
    "extension PreviewPage {",
]
for name, file in FILES:
    text = (assets / file).read_text(encoding="utf-8")
    assert '"""#' not in text and "\\#" not in text, f"{file} cannot hold the raw string's delimiter or escape"
    lines += [
        f"  /// `Assets/{file}`.",
        f'  static let {name} = #"""',
        text + '\n"""#',
        "",
    ]
lines[-1] = "}"
(root / "Sources/InboxFormatServer/Preview/PreviewAssets.swift").write_text("\n".join(lines) + "\n", encoding="utf-8")
