#!/usr/bin/env bash
# Installs what a fresh machine needs and builds inbox-format in release mode.
# Swift 6 and the Swift packages come with the machine; nothing else is
# needed yet, and this script is where any system package will be installed.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product inbox-format
