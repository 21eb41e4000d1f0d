#!/usr/bin/env bash
# Builds the documentation that is generated rather than written:
#   - the library's DocC archive (Sources/InboxFormat/InboxFormat.docc and
#     the /// comments), warnings as errors: .build/docs/InboxFormat.doccarchive
#   - the man pages, from the command's own help (swift-argument-parser's
#     generate-manual), checked by groff, warnings as errors: .build/docs/man/
#
#   Scripts/build-docs.sh        # then: man -l .build/docs/man/inbox-format.1
#   Scripts/build-docs.sh --man  # the man pages only (Scripts/package-deb.sh)
#
# The pages are dated by SOURCE_DATE_EPOCH, else by the last commit, so the
# same tree gives the same pages.
set -euo pipefail
cd "$(dirname "$0")/.."
case "${1:-}" in
  "") man_only=false ;;
  --man) man_only=true ;;
  *) echo "usage: Scripts/build-docs.sh [--man]" >&2; exit 64 ;;
esac
out=.build/docs
if $man_only; then
  rm -rf "$out/man"
else
  rm -rf "$out"
fi
mkdir -p "$out/man"

if ! $man_only; then
  swift package --allow-writing-to-directory "$out" generate-documentation \
    --target InboxFormat --warnings-as-errors --output-path "$out/InboxFormat.doccarchive" > "$out/docc.log" 2>&1 \
    || { cat "$out/docc.log" >&2; exit 1; }
fi

epoch=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2> /dev/null || echo 0)}
date=$(date -u -d "@$epoch" +%F)
swift package --allow-writing-to-package-directory generate-manual \
  --multi-page --date "$date" --configuration debug > "$out/man.log" 2>&1 \
  || { cat "$out/man.log" >&2; exit 1; }
cp .build/plugins/GenerateManual/outputs/inbox-format/*.1 "$out/man/"
# A blank line of the help's text is a paragraph break in a man page.
sed -i 's/^$/.Pp/' "$out"/man/*.1
# whatis and apropos (lexgrog) read a name without spaces in NAME: a
# subcommand's page gives its own (inbox-format.serve, as man finds it),
# its synopsis the command as typed.
for page in "$out"/man/inbox-format.*.1; do
  name=$(basename "$page" .1)
  sed -i -e "s/^\.Nm \"${name//./ }\"\$/.Nm $name/" -e "s/^\.Nm\$/.Nm \"${name//./ }\"/" "$page"
done
for page in "$out"/man/*.1; do
  warnings=$(groff -mandoc -ww -z "$page" 2>&1)
  if [ -n "$warnings" ]; then
    echo "$page: $warnings" >&2
    exit 1
  fi
done
$man_only || echo -n "DocC archive: $out/InboxFormat.doccarchive; "
echo "man pages: $(ls "$out/man" | tr '\n' ' ')"
