#!/usr/bin/env python3
"""Runs the JSONPath Compliance Test Suite (RFC 9535) through `inbox-format query`.

Usage: Scripts/jsonpath-compliance.py CTS_JSON [--binary PATH]

CTS_JSON is the suite's cts.json
(https://github.com/jsonpath-standard/jsonpath-compliance-test-suite); the
suite is not part of this repository. Each test's selector is the query and
its document is standard input. A test with "invalid_selector" must exit 64;
any other must print a JSON array equal (as JSON values) to "result" or to
one of "results", and, when the test gives "result_paths" or
"results_paths", print with --paths the matching paths. Prints each failure
with its name, then "N passed, N failed"; exits 1 when any test failed.
A selector holding U+0000 cannot be a command-line argument: such tests are
listed as skipped, on a line before the last.
"""

import argparse
import json
import subprocess
import sys


def same(a, b):
    """JSON equality: 1 equals 1.0, objects compare as mappings, booleans are not numbers."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a == b
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    return type(a) is type(b) and a == b


def run(binary, selector, document, paths=False):
    arguments = [binary, "query", selector] + (["--paths"] if paths else [])
    document_text = json.dumps(document, ensure_ascii=False).encode()
    return subprocess.run(arguments, input=document_text, capture_output=True, timeout=30)


def check(binary, test):
    """None when the test passes, else why it fails."""
    selector = test["selector"]
    document = test.get("document", None)
    if test.get("invalid_selector"):
        result = run(binary, selector, document if "document" in test else {})
        if result.returncode != 64:
            return f"expected exit 64 for an invalid selector, got {result.returncode}: {result.stdout[:200]!r}"
        return None
    result = run(binary, selector, document)
    if result.returncode != 0:
        return f"exit {result.returncode}: {result.stderr.decode(errors='replace').strip()}"
    try:
        actual = json.loads(result.stdout)
    except ValueError as error:
        return f"output is not JSON ({error}): {result.stdout[:200]!r}"
    expected = [test["result"]] if "result" in test else test["results"]
    matching = [index for index, candidate in enumerate(expected) if same(actual, candidate)]
    if not matching:
        return f"got {json.dumps(actual)}; expected {' or '.join(json.dumps(e) for e in expected)}"
    expected_paths = [test["result_paths"]] if "result_paths" in test else test.get("results_paths")
    if expected_paths is not None:
        result = run(binary, selector, document, paths=True)
        if result.returncode != 0:
            return f"--paths: exit {result.returncode}: {result.stderr.decode(errors='replace').strip()}"
        actual_paths = json.loads(result.stdout)
        if not any(actual_paths == expected_paths[index] for index in matching):
            wanted = [expected_paths[index] for index in matching]
            return f"--paths: got {json.dumps(actual_paths)}; expected {json.dumps(wanted)}"
    return None


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("cts_json", metavar="CTS_JSON")
    parser.add_argument("--binary", default=".build/debug/inbox-format")
    options = parser.parse_args()
    with open(options.cts_json, encoding="utf-8") as file:
        tests = json.load(file)["tests"]
    passed = failed = 0
    skipped = []
    for test in tests:
        if "\0" in test["selector"]:
            skipped.append(test["name"])
            continue
        try:
            problem = check(options.binary, test)
        except subprocess.TimeoutExpired:
            problem = "timed out"
        if problem is None:
            passed += 1
        else:
            failed += 1
            print(f"FAIL {test['name']}: {problem}")
    if skipped:
        print(f"{len(skipped)} skipped (U+0000 in the selector): {', '.join(skipped)}")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
