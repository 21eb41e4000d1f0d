#!/usr/bin/env bash
# CI: the Debian package's round trip on this machine, as root. Builds it
# (Scripts/package-deb.sh, from the release binary setup built), checks it
# with lintian, installs it with dpkg, runs the installed command, finds its
# man pages, verifies and rates the installed systemd unit, runs the service
# under that unit in the installed system booted in a container, upgrades
# the package to a later revision with the conffile edited and the unit
# enabled, then purges it and checks that none of its paths (dpkg-deb -c),
# nor the links enabling its unit, is left. docs/service.md#debian-package.
#
#   Scripts/check-package.sh    # about 30 seconds, most of it compressing
#
# The machine is left as it was: the package is purged on every exit.
set -euo pipefail
cd "$(dirname "$0")/.."

die() {
  echo "check-package.sh: $*" >&2
  exit 1
}
step() { echo "== $*"; }

[ "$(id -u)" -eq 0 ] || die "installs and purges a package: run it as root"
for tool in lintian systemd-nspawn curl; do
  command -v "$tool" > /dev/null || die "$tool is missing (Scripts/setup.sh installs it)"
done
status=$(dpkg-query -W -f='${db:Status-Status}' inbox-format 2> /dev/null || true)
if [ -n "$status" ] && [ "$status" != not-installed ]; then
  die "inbox-format is on this machine ($status); this check would purge it: dpkg --purge inbox-format first"
fi

binary=${INBOX_FORMAT_BINARY:-.build/release/inbox-format}
work=.build/check-package
rm -rf "$work"
mkdir -p "$work"
deb=$(Scripts/package-deb.sh "$work")
version=$(dpkg-deb -f "$deb" Version)
step "built $deb"

step "lintian"
# initial-upload-closes-no-bugs is the one warning left, and stays: it asks
# the first Debian revision to close the ITP bug of a package entering
# Debian's archive, and this package is not meant for the archive
# (docs/service.md#debian-package). Any other warning or error fails.
lintian --fail-on error,warning --suppress-tags initial-upload-closes-no-bugs "$deb"

# The directories the package would create, so that the purge is checked to
# remove them, and no directory other packages share.
dpkg-deb --fsys-tarfile "$deb" | tar -t | sed 's|^\./|/|; s|/$||' | grep -v '^/\?$' > "$work/paths"
: > "$work/new-dirs"
while read -r path; do
  [ -e "$path" ] || echo "$path" >> "$work/new-dirs"
done < "$work/paths"

trap 'dpkg --purge inbox-format > /dev/null 2>&1 || true' EXIT
step "dpkg -i"
dpkg -i "$deb"

step "the installed command"
[ "$(command -v inbox-format)" = /usr/bin/inbox-format ] || die "inbox-format is not /usr/bin/inbox-format on PATH"
[ -x /usr/libexec/inbox-format/inbox-format-server ] || die "/usr/libexec/inbox-format/inbox-format-server is not installed"
installed_version=$(inbox-format --version)
echo "inbox-format --version: $installed_version"
[ "$installed_version" = "${version%-*}" ] || die "--version says $installed_version, the package $version"
# The README's first example, frozen clock: the stripped binary writes what
# the binary it was made from writes.
example=(--now 2022-01-31T12:00:00Z --locale en-US --time-zone Europe/Paris Data/examples/messages.json)
inbox-format "${example[@]}" > "$work/rows.json"
"$binary" "${example[@]}" | cmp - "$work/rows.json" || die "the installed binary's rows differ from $binary's"
cat "$work/rows.json"
echo
man -w inbox-format inbox-format.serve
bash -c 'source /usr/share/bash-completion/completions/inbox-format && complete -p inbox-format'
dpkg-query -W -f='conffiles:${Conffiles}\n' inbox-format

unit=/usr/lib/systemd/system/inbox-format.service
step "systemd-analyze verify $unit"
verify=$(systemd-analyze verify "$unit" 2>&1) || die "systemd-analyze verify failed: $verify"
[ -z "$verify" ] || die "systemd-analyze verify is not clean: $verify"
step "systemd-analyze security --offline=yes $unit"
# The threshold is the exposure times 10: 2.0 at most.
systemd-analyze security --offline=yes --threshold=20 "$unit" | tail -n 1 \
  || die "the unit's exposure is above 2.0 (systemd-analyze security --offline=yes $unit)"

step "the unit under systemd: the installed system booted in a container"
# This machine's systemd is not running, so the system, package installed,
# is booted in a container (systemd-nspawn, on its private network) on a
# throwaway overlay of /; a unit there asks the running service for its
# health and the README's rows, then powers the container off.
boot=$work/boot
mkdir -p "$boot"
mount -t tmpfs tmpfs "$boot"
unmount_boot() {
  umount "$boot/root" 2> /dev/null || true
  umount "$boot" 2> /dev/null || true
}
trap 'unmount_boot; dpkg --purge inbox-format > /dev/null 2>&1 || true' EXIT
mkdir -p "$boot/upper" "$boot/work" "$boot/root"
mount -t overlay overlay -o "lowerdir=/,upperdir=$boot/upper,workdir=$boot/work" "$boot/root"
cp Data/examples/messages.json "$boot/root/root/messages.json"
# The unit's settings come from the conffile: the port is moved there, and
# the checks below ask the new one.
echo "INBOX_FORMAT_PORT=8081" >> "$boot/root/etc/default/inbox-format"
cat > "$boot/root/etc/systemd/system/check-package.service" << 'UNIT'
[Unit]
Wants=inbox-format.service
After=inbox-format.service
[Service]
Type=oneshot
ExecStart=/bin/sh -c '{ \
  curl -sS --retry 5 --retry-connrefused --retry-delay 1 -o /dev/null -w "healthz %%{http_code}\\n" \
    http://127.0.0.1:8081/healthz; \
  curl -sS --data-binary @/root/messages.json -o /root/rows.json -w "rows %%{http_code}\\n" \
    "http://127.0.0.1:8081/v1/rows?now=2022-01-31T12:00:00Z&locale=en-US&timeZone=Europe/Paris"; \
  systemctl show -p ActiveState,SubState,User,NRestarts inbox-format; \
  main=$$(systemctl show -P MainPID inbox-format); \
  echo "main process: $$(readlink /proc/$$main/exe)"; \
  ps -o user=,cmd= -p "$$main"; \
  journalctl -u inbox-format -o cat --no-pager; } > /root/result 2>&1'
ExecStartPost=/bin/systemctl poweroff --no-block
UNIT
wants=$boot/root/etc/systemd/system/multi-user.target.wants
ln -s /etc/systemd/system/check-package.service "$wants/check-package.service"
ln -s /usr/lib/systemd/system/inbox-format.service "$wants/inbox-format.service"
timeout 120 systemd-nspawn --directory="$boot/root" --private-network --register=no --keep-unit \
  --link-journal=no --boot --quiet > "$work/boot.log" 2>&1 || true
result=$boot/upper/root/result
[ -f "$result" ] || die "the container did not run the check (its console: $work/boot.log)"
cat "$result"
grep -qx 'ActiveState=active' "$result" && grep -qx 'healthz 200' "$result" \
  && grep -qx 'rows 200' "$result" \
  || die "the service did not start or answer under its unit (above; the console: $work/boot.log)"
grep -qx 'User=inbox-format' "$result" || die "the service did not run as its dynamic user"
# inbox-format serve hands its process over to the server executable: the
# unit's main process (the one systemd signals) runs that.
grep -qx 'main process: /usr/libexec/inbox-format/inbox-format-server' "$result" \
  || die "the unit's main process is not the server executable"
cmp "$boot/upper/root/rows.json" "$work/rows.json" || die "the service's rows differ from the command's"
unmount_boot
trap 'dpkg --purge inbox-format > /dev/null 2>&1 || true' EXIT

step "upgrade to a later revision, the conffile edited, the unit enabled"
# The same files as revision 2: dpkg keeps an edited conffile that the new
# package did not change, and keeps an enabled unit enabled.
rm -rf "$work/next"
dpkg-deb -R "$deb" "$work/next"
next_version=${version%-*}-2
sed -i "s/^Version: .*/Version: $next_version/" "$work/next/DEBIAN/control"
dpkg-deb --root-owner-group -Zgzip -z1 --build "$work/next" "$work/next.deb" > /dev/null
sed -i 's/^#INBOX_FORMAT_PORT=8080$/INBOX_FORMAT_PORT=8081/' /etc/default/inbox-format
systemctl enable inbox-format.service
dpkg -i "$work/next.deb"
[ "$(dpkg-query -W -f='${Version}' inbox-format)" = "$next_version" ] || die "the upgrade to $next_version did not happen"
grep -x 'INBOX_FORMAT_PORT=8081' /etc/default/inbox-format || die "the upgrade lost the edited /etc/default/inbox-format"
[ -L /etc/systemd/system/multi-user.target.wants/inbox-format.service ] || die "the upgrade disabled the unit"

step "dpkg --purge"
dpkg --purge inbox-format
left=()
while read -r path; do
  if [ -e "$path" ] || [ -L "$path" ]; then
    # A directory that existed before the install stays, as it should.
    if [ ! -d "$path" ] || grep -qx "$path" "$work/new-dirs"; then
      left+=("$path")
    fi
  fi
done < "$work/paths"
for path in /etc/systemd/system/multi-user.target.wants/inbox-format.service \
  /var/lib/systemd/deb-systemd-helper-enabled/inbox-format.service.dsh-also; do
  if [ -e "$path" ] || [ -L "$path" ]; then left+=("$path"); fi
done
[ ${#left[@]} -eq 0 ] || die "the purge left: ${left[*]}"
echo "nothing of the package is left ($(wc -l < "$work/paths") paths checked)"
