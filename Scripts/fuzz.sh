#!/usr/bin/env bash
# Builds a libFuzzer target with swiftc (not SwiftPM) and runs it.
#
#   Scripts/fuzz.sh TARGET [SECONDS] [libFuzzer options...]
#
# TARGET is `decode` (reading, mapping, writing and the inbox view, checked
# against Foundation's JSONSerialization and JSONDecoder), `rfc3339` (the
# date parser, checked against a reference grammar and Foundation's
# ISO8601FormatStyle), `options` (locale names, zone ids, POSIX TZ and
# instants, then a mapper for what they give) or `mapping` (mapping
# documents and JSONPath queries, then payloads read through them). SECONDS is the time budget (default 60; 0 runs until
# stopped). Anything after it goes to libFuzzer, e.g. `-jobs=2 -workers=2`.
#
# The build and the corpus libFuzzer grows go to .build-fuzz/ (ignored by
# git); the committed seeds in Data/fuzz/TARGET/ are read, never written. A
# crash stops the run, exits non-zero and leaves its input in
# .build-fuzz/artifacts/TARGET/; replay it with
#   .build-fuzz/fuzzer-address/fuzz-TARGET .build-fuzz/artifacts/TARGET/crash-…
set -euo pipefail
cd "$(dirname "$0")/.."

target=${1:?usage: Scripts/fuzz.sh decode|rfc3339|options|mapping [SECONDS] [libFuzzer options...]}
seconds=${2:-60}
shift $(($# < 2 ? $# : 2))
case "$target" in
  decode | rfc3339 | options | mapping) ;;
  *) echo "fuzz.sh: unknown target \"$target\"; expected decode, rfc3339, options or mapping" >&2; exit 64 ;;
esac

# FUZZ_SANITIZERS=fuzzer builds without AddressSanitizer: more runs a
# second, but a read past a buffer inside the scanner goes unnoticed.
sanitizers=${FUZZ_SANITIZERS:-fuzzer,address}
# FUZZ_KERNEL=portable forces the portable byte kernels of CInboxBytes on,
# so the whole engine runs on the loops an x86-64 machine never takes.
kernel=${FUZZ_KERNEL:-native}
root=.build-fuzz
build=$root/${sanitizers//,/-}
flags=(
  -swift-version 6 -enable-upcoming-feature ExistentialAny -enable-upcoming-feature InternalImportsByDefault
  -parse-as-library -O -g -sanitize="$sanitizers"
  # As SwiftPM names the package: the files of InboxFormatOptions, built into
  # the `options` harness, declare `package` API, which needs a package name.
  -package-name inbox_format
  # Keeps the standard library's debug preconditions, such as the bounds
  # checks of unsafe buffer subscripts, in the optimized build.
  -assert-config Debug
  # The C header of the 16-byte scanning masks.
  -I Sources/CInboxBytes/include
)
case "$kernel" in
  native) ;;
  portable)
    flags+=(-Xcc -DINBOX_BYTES_PORTABLE)
    build=$build-portable
    ;;
  *) echo "fuzz.sh: unknown FUZZ_KERNEL \"$kernel\"; expected native or portable" >&2; exit 64 ;;
esac
mkdir -p "$build/modules" "$root/corpus/$target" "$root/artifacts/$target"

# The library and the module below it (InboxFormatSupport) as their own
# modules, as SwiftPM builds them, the library with testing enabled so that
# the harnesses reach the reader and the parser. Rebuilt only when a source
# changed.
support_sources=$(find Sources/InboxFormatSupport -name '*.swift' | sort)
library_sources=$(find Sources/InboxFormat -name '*.swift' | sort)
# shellcheck disable=SC2086
if [[ ! -f $build/InboxFormat.o ]] ||
  [[ -n $(find Sources/InboxFormat Sources/InboxFormatSupport Sources/CInboxBytes \( -name '*.swift' -o -name '*.h' \) \
    -newer "$build/InboxFormat.o") ]]; then
  echo "fuzz.sh: building the InboxFormatSupport and InboxFormat modules" >&2
  swiftc "${flags[@]}" -module-name InboxFormatSupport -wmo \
    -emit-module -emit-module-path "$build/modules/InboxFormatSupport.swiftmodule" \
    -emit-object -o "$build/InboxFormatSupport.o" $support_sources
  swiftc "${flags[@]}" -module-name InboxFormat -enable-testing -wmo -I "$build/modules" \
    -emit-module -emit-module-path "$build/modules/InboxFormat.swiftmodule" \
    -emit-object -o "$build/InboxFormat.o" $library_sources
fi

# The harness.
harness=(Fuzz/Common/*.swift "Fuzz/$target"/*.swift)
# `options` reads what InboxFormatOptions reads.
if [[ $target == options ]]; then
  harness+=(Sources/InboxFormatOptions/*.swift)
fi
echo "fuzz.sh: building fuzz-$target" >&2
swiftc "${flags[@]}" -module-name "Fuzz_$target" -I "$build/modules" \
  "${harness[@]}" "$build/InboxFormat.o" "$build/InboxFormatSupport.o" -o "$build/fuzz-$target"

options=(-max_total_time="$seconds" -artifact_prefix="$root/artifacts/$target/" -print_final_stats=1
  -dict="Fuzz/$target.dict" -max_len=4096 -timeout=10)
[[ $seconds == 0 ]] && options=("${options[@]:1}")
echo "fuzz.sh: running fuzz-$target for ${seconds}s" >&2
# ASan's leak checker would flag Foundation's and ICU's caches, and without
# allocation stacks and with a smaller quarantine it runs a fifth faster (a
# crash replayed by hand gets the full report). The Swift runtime's
# backtracer would race libFuzzer for the crash.
ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0:malloc_context_size=0:quarantine_size_mb=16} \
  SWIFT_BACKTRACE=${SWIFT_BACKTRACE:-enable=no} \
  "$build/fuzz-$target" "${options[@]}" "$@" "$root/corpus/$target" "Data/fuzz/$target"
