#!/usr/bin/env bash
# Builds the documentation that is generated rather than written:
#   - the library's DocC archive (Sources/InboxFormat/InboxFormat.docc and
#     the /// comments), warnings as errors: .build/docs/InboxFormat.doccarchive
#   - the man pages, from the command's own help (swift-argument-parser's
#     generate-manual), checked by groff, warnings as errors: .build/docs/man/
#
#   Scripts/build-docs.sh        # then: man -l .build/docs/man/inbox-format.1
#
# The pages are dated by SOURCE_DATE_EPOCH, else by the last commit, so the
# same tree gives the same pages.
set -euo pipefail
cd "$(dirname "$0")/.."
out=.build/docs
rm -rf "$out"
mkdir -p "$out/man"

swift package --allow-writing-to-directory "$out" generate-documentation \
  --target InboxFormat --warnings-as-errors --output-path "$out/InboxFormat.doccarchive" > "$out/docc.log" 2>&1 \
  || { cat "$out/docc.log" >&2; exit 1; }

epoch=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2> /dev/null || echo 0)}
date=$(date -u -d "@$epoch" +%F)
swift package --allow-writing-to-package-directory generate-manual \
  --multi-page --date "$date" --configuration debug > "$out/man.log" 2>&1 \
  || { cat "$out/man.log" >&2; exit 1; }
cp .build/plugins/GenerateManual/outputs/inbox-format/*.1 "$out/man/"
# A blank line of the help's text is a paragraph break in a man page.
sed -i 's/^$/.Pp/' "$out"/man/*.1
for page in "$out"/man/*.1; do
  warnings=$(groff -mandoc -ww -z "$page" 2>&1)
  if [ -n "$warnings" ]; then
    echo "$page: $warnings" >&2
    exit 1
  fi
done
echo "DocC archive: $out/InboxFormat.doccarchive; man pages: $(ls "$out/man" | tr '\n' ' ')"
