#!/usr/bin/env bash
# Runs every test: unit, golden files, end-to-end runs of the binary, the
# live service and the preview in headless Chromium.
#
# In two processes. Swift Testing runs the tests of one process at once on
# Swift's shared pool of threads, which has one thread per core; the
# command's tests wait for the binaries they start on those threads, and on
# a machine of two cores a few such waits hold up every live server's
# handlers for seconds, and the service's tests with their one-second
# timeouts fail. So the service's tests (InboxFormatServerTests) run in a
# process of their own, then the rest. Arguments (such as --skip) go to
# both runs.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build --build-tests
swift test --skip-build --filter InboxFormatServerTests "$@"
swift test --skip-build --skip InboxFormatServerTests "$@"
