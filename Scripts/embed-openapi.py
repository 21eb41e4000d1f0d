#!/usr/bin/env python3
"""Writes docs/openapi.yaml into Sources/InboxFormatServer/OpenAPIDocument.swift.

Run after editing the document; OpenAPIDocumentTests fails while the two differ.
"""
import pathlib

root = pathlib.Path(__file__).resolve().parent.parent
yaml = (root / "docs/openapi.yaml").read_text(encoding="utf-8")
assert '"""#' not in yaml, "the document cannot hold the raw string's delimiter"
swift = (
    "// swift-format-ignore-file\n"
    "\n"
    "/// The OpenAPI 3.1 document of the service, served at `GET /openapi.yaml`.\n"
    "///\n"
    "/// Generated from `docs/openapi.yaml` by `Scripts/embed-openapi.py`; a test\n"
    "/// checks that the two are the same text.\n"
    "enum OpenAPIDocument {\n"
    '  static let yaml = #"""\n'
    + yaml
    + '\n"""#\n'
    "}\n"
)
(root / "Sources/InboxFormatServer/OpenAPIDocument.swift").write_text(swift, encoding="utf-8")
