#!/usr/bin/env bash
# Installs what a fresh machine needs and builds inbox-format in release mode:
# the command, and the server executable its serve and preview run
# (inbox-format-server, beside it).
# Swift 6 and the Swift packages come with the machine. For the service's
# checks and benchmarks (Scripts/check-service.sh, Benchmarks/serve-*.py):
# wrk, Debian's package, and schemathesis and prometheus-client (its text
# format parser reads GET /metrics), from PyPI; for the preview's
# browser tests (Tests/Browser, run by swift test): Debian's chromium and
# chromium-driver, and selenium, from PyPI; for the man pages
# (Scripts/build-docs.sh), groff; for the Kubernetes example
# (docs/kubernetes), kubernetes-validate, from PyPI; for checking `check`'s
# JUnit reports, Debian's libxml2-utils (xmllint) and the JUnit schema CI
# systems read (below); for the Debian package (Scripts/package-deb.sh,
# Scripts/check-package.sh), dpkg-dev (dpkg-shlibdeps names the libraries it
# depends on), lintian, and systemd-container (systemd-nspawn boots the
# installed system to run its unit, this machine's systemd not running).
# Each only when missing.
set -euo pipefail
cd "$(dirname "$0")/.."
missing=()
command -v wrk > /dev/null || missing+=(wrk)
command -v chromium > /dev/null || missing+=(chromium)
command -v chromedriver > /dev/null || missing+=(chromium-driver)
command -v groff > /dev/null || missing+=(groff)
command -v xmllint > /dev/null || missing+=(libxml2-utils)
command -v dpkg-shlibdeps > /dev/null || missing+=(dpkg-dev)
command -v lintian > /dev/null || missing+=(lintian)
command -v systemd-nspawn > /dev/null || missing+=(systemd-container)
# The floors of Benchmarks/compare-peers.py: simdjson On-Demand, built with g++;
# g++ brings libstdc++.a too, which the executables link in (Link/libstdc++.so).
command -v g++ > /dev/null || missing+=(g++)
[ -f /usr/include/simdjson.h ] || missing+=(libsimdjson-dev)
if [ ${#missing[@]} -gt 0 ]; then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq "${missing[@]}" > /dev/null
fi
if ! command -v schemathesis > /dev/null; then
  python3 -m pip install --quiet schemathesis
fi
if ! python3 -c "import prometheus_client" 2> /dev/null; then
  python3 -m pip install --quiet prometheus-client
fi
if ! python3 -c "import selenium" 2> /dev/null; then
  python3 -m pip install --quiet selenium
fi
if ! command -v kubernetes-validate > /dev/null; then
  python3 -m pip install --quiet kubernetes-validate
fi
# The JUnit schema that Jenkins' xUnit plugin reads (junit-10.xsd, MIT), as
# pytest's source distribution carries it to check its own reports: fetched
# from PyPI, pinned by its digest, kept out of the repository.
schema=.build/schemas/junit-10.xsd
schema_digest=a1a816f58d1bf95ebabf371994df0b9246dee66ea9572fbec4f9296f1b2c0ff6
if ! echo "$schema_digest  $schema" | sha256sum --check --status 2> /dev/null; then
  download=$(mktemp -d)
  python3 -m pip download --quiet --no-deps --no-binary :all: --dest "$download" pytest==8.3.5
  mkdir -p "$(dirname "$schema")"
  tar -xzOf "$download"/pytest-8.3.5.tar.gz pytest-8.3.5/testing/example_scripts/junit-10.xsd > "$schema"
  rm -rf "$download"
  echo "$schema_digest  $schema" | sha256sum --check --status || {
    echo "setup.sh: $schema is not the pinned JUnit schema" >&2
    exit 1
  }
fi
# Statically linked: without the dynamic linking of Foundation and ICU at
# every start, a run begins in half the time (docs/performance.md).
swift build -c release --static-swift-stdlib --product inbox-format
swift build -c release --static-swift-stdlib --product inbox-format-server
