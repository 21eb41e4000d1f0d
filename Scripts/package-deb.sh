#!/usr/bin/env bash
# Builds the Debian package: OUTDIR/inbox-format_VERSION-REVISION_ARCH.deb
# (OUTDIR: .build/deb unless given), and prints its path.
#
#   Scripts/package-deb.sh [OUTDIR]
#
# It holds the release binaries, stripped: the command (INBOX_FORMAT_BINARY,
# else .build/release/inbox-format as Scripts/setup.sh builds it) in /usr/bin,
# and the server executable that its serve and preview become
# (inbox-format-server, beside the command's binary) in
# /usr/libexec/inbox-format, where the command looks for it; both built as
# setup.sh builds them if missing. Then the man pages of Scripts/build-docs.sh --man (made
# when missing or older than the binary); the binary's own bash, zsh and fish
# completions; the systemd unit (Packaging/inbox-format.service), with its
# settings in /etc/default/inbox-format, a conffile written from serve's
# options (Scripts/serve-environment.py); and the copyright file and a
# changelog. The version is the binary's --version; the Debian revision is
# PACKAGE_REVISION (1 unless given), the maintainer DEB_MAINTAINER, else the
# last commit's author. The unit is not enabled on install
# (Packaging/deb/postinst says why).
#
# The same tree and binary give the same package: every date is
# SOURCE_DATE_EPOCH, else the last commit's. Lintian's verdict on it, and why
# each warning left stays, is in docs/service.md#debian-package.
set -euo pipefail
cd "$(dirname "$0")/.."
umask 022

die() {
  echo "package-deb.sh: $*" >&2
  exit 1
}

outdir=${1:-.build/deb}
binary=${INBOX_FORMAT_BINARY:-.build/release/inbox-format}
server_binary=$(dirname "$binary")/inbox-format-server
revision=${PACKAGE_REVISION:-1}
for tool in dpkg-deb dpkg-shlibdeps gzip python3 readelf strip; do
  command -v "$tool" > /dev/null || die "$tool is missing (apt-get install dpkg-dev binutils python3)"
done

if [ ! -x "$binary" ] || [ ! -x "$server_binary" ]; then
  [ -z "${INBOX_FORMAT_BINARY:-}" ] || die "INBOX_FORMAT_BINARY=$binary, or $server_binary beside it, is not an executable file"
  echo "package-deb.sh: $binary or $server_binary is missing; building them as Scripts/setup.sh does" >&2
  swift build -c release --static-swift-stdlib --product inbox-format
  swift build -c release --static-swift-stdlib --product inbox-format-server
fi
version=$("$binary" --version) || die "$binary --version failed"
[[ "$version" =~ ^[0-9][A-Za-z0-9.+~]*$ ]] || die "'$version' (from $binary --version) is not a Debian upstream version"
arch=$(dpkg --print-architecture)
epoch=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2> /dev/null || echo 0)}
export SOURCE_DATE_EPOCH=$epoch

man=.build/docs/man
if [ ! -f "$man/inbox-format.1" ] || [ "$binary" -nt "$man/inbox-format.1" ]; then
  Scripts/build-docs.sh --man > /dev/null
fi

root=$(mktemp -d)
chmod 0755 "$root"
trap 'rm -rf "$root"' EXIT

# The binaries, stripped as dh_strip strips (the debug information is most
# of their size). The server executable is no command of its own (no man
# page, not on PATH): inbox-format serve and preview run it.
install -D -m 0755 "$binary" "$root/usr/bin/inbox-format"
install -D -m 0755 "$server_binary" "$root/usr/libexec/inbox-format/inbox-format-server"
for executable in usr/bin/inbox-format usr/libexec/inbox-format/inbox-format-server; do
  strip --remove-section=.comment --remove-section=.note --strip-unneeded "$root/$executable"
done

mkdir -p "$root/usr/share/man/man1"
for page in "$man"/*.1; do
  gzip -9n < "$page" > "$root/usr/share/man/man1/$(basename "$page").gz"
done

# A completion script is sourced, never run: no #! line (bash's has one).
completion() { # SHELL PATH
  install -d "$root/$(dirname "$2")"
  "$binary" --generate-completion-script "$1" | sed '1{/^#!/d}' > "$root/$2"
  [ -s "$root/$2" ] || die "$binary wrote no $1 completion script"
}
completion bash usr/share/bash-completion/completions/inbox-format
completion zsh usr/share/zsh/vendor-completions/_inbox-format
completion fish usr/share/fish/vendor_completions.d/inbox-format.fish

install -D -m 0644 Packaging/inbox-format.service "$root/usr/lib/systemd/system/inbox-format.service"
install -d "$root/etc/default"
"$binary" serve --experimental-dump-help | Scripts/serve-environment.py > "$root/etc/default/inbox-format"

doc=$root/usr/share/doc/inbox-format
install -d "$doc"
first_year=$(git log --max-parents=0 --format=%cd --date=format:%Y 2> /dev/null | sort | sed -n 1p)
last_year=$(date -u -d "@$epoch" +%Y)
years=${first_year:-$last_year}
[ "$years" = "$last_year" ] || years="$years-$last_year"
sed "s/@YEARS@/$years/" Packaging/deb/copyright > "$doc/copyright"
install -D -m 0644 Packaging/deb/lintian-overrides "$root/usr/share/lintian/overrides/inbox-format"
maintainer=${DEB_MAINTAINER:-$(git log -1 --format='%an <%ae>' 2> /dev/null || true)}
[ -n "$maintainer" ] || die "no maintainer: set DEB_MAINTAINER='Name <address>' (outside a git checkout)"
commit=$(git rev-parse --short HEAD 2> /dev/null || echo "an unversioned tree")
{
  echo "inbox-format ($version-$revision) unstable; urgency=medium"
  echo
  echo "  * inbox-format $version, built from commit $commit."
  echo
  echo " -- $maintainer  $(date -u -R -d "@$epoch")"
} | gzip -9n > "$doc/changelog.Debian.gz"

install -d "$root/DEBIAN"
install -m 0755 Packaging/deb/postinst Packaging/deb/prerm Packaging/deb/postrm "$root/DEBIAN/"
echo /etc/default/inbox-format > "$root/DEBIAN/conffiles"
# The libraries the binaries still link dynamically (the C and C++ runtimes),
# as dpkg-shlibdeps reads them; it wants a debian/control to exist.
mkdir -p "$root/debian"
echo "Source: inbox-format" > "$root/debian/control"
shlibs=$(cd "$root" && dpkg-shlibdeps -O usr/bin/inbox-format usr/libexec/inbox-format/inbox-format-server 2>&1) || die "dpkg-shlibdeps failed: $shlibs"
depends=$(sed -n 's/^shlibs:Depends=//p' <<< "$shlibs")
rm -rf "$root/debian"
[ -n "$depends" ] || die "dpkg-shlibdeps found no dependencies of $binary: $shlibs"
# Packed relocations (Package.swift) need glibc 2.36's loader, a version
# (GLIBC_ABI_DT_RELR) that libc6's symbols file does not list: without it the
# package would install where the command cannot start.
if readelf -V "$root/usr/bin/inbox-format" | grep -q GLIBC_ABI_DT_RELR; then
  depends=$(sed -E 's/libc6 \(>= [0-9.]+\)/libc6 (>= 2.36)/' <<< "$depends")
  grep -q 'libc6 (>= 2.36)' <<< "$depends" || die "packed relocations need libc6 (>= 2.36); dependencies: $depends"
fi
installed_size=$(du -sk --exclude=DEBIAN "$root" | cut -f1)
cat > "$root/DEBIAN/control" << EOF
Package: inbox-format
Version: $version-$revision
Architecture: $arch
Maintainer: $maintainer
Installed-Size: $installed_size
Depends: $depends
Section: utils
Priority: optional
Homepage: https://github.com/inbox-format/inbox-format
Description: inbox payloads to the rows an inbox screen shows
 inbox-format turns a messaging backend's inbox payload (JSON) into what an
 inbox screen shows for each conversation: avatar initials, a title, a
 one-line preview, a date label and the unread dot, for any locale, time
 zone and script, with the clock injected.
 .
 The command formats files and pipes, watches a file, checks golden cases
 and previews the screen in a browser; its serve command is the same as
 an HTTP service, run by the packaged systemd unit once enabled.
EOF
(cd "$root" && find . -path ./DEBIAN -prune -o -type f -printf '%P\0' | sort -z | xargs -0 md5sum) > "$root/DEBIAN/md5sums"

find "$root" -exec touch --no-dereference --date="@$epoch" {} +
mkdir -p "$outdir"
deb=$outdir/inbox-format_${version}-${revision}_$arch.deb
dpkg-deb --root-owner-group -Zxz --build "$root" "$deb" > /dev/null
echo "$deb"
