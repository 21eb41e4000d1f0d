#!/usr/bin/env python3
"""Writes the Debian package's /etc/default/inbox-format from `serve`'s own options.

    inbox-format serve --experimental-dump-help | Scripts/serve-environment.py > inbox-format

Each option of `inbox-format serve` becomes a commented variable,
INBOX_FORMAT_ then the option's name upper-cased with `-` as `_`, set to its
default, under its help text. The list is read from the command's option
declarations (swift-argument-parser's help dump), as the man pages and the
completions are, so the file names every option and no other.
"""

import json
import sys
import textwrap

HEADER = """\
# Settings of inbox-format.service (/usr/lib/systemd/system/inbox-format.service),
# which runs `/usr/bin/inbox-format serve` with no flags: this file decides.
#
# Each variable is an option of `inbox-format serve` (man inbox-format.serve):
# INBOX_FORMAT_ then the option's name upper-cased, `-` as `_`. A flag on the
# command line wins over its variable. Each line below shows the option's
# default; uncomment and change a line to set it, then
# `systemctl restart inbox-format`. systemd reads the file
# (EnvironmentFile=): one VARIABLE=value a line, no shell expansion.
#
# A package upgrade keeps this file as you changed it (it is a conffile).
"""

SKIPPED = {"help", "version"}


def comment(text: str) -> list[str]:
    return textwrap.wrap(text, width=76, initial_indent="# ", subsequent_indent="# ",
                         break_on_hyphens=False, break_long_words=False)


def main() -> None:
    command = json.load(sys.stdin)["command"]
    out = [HEADER.rstrip("\n")]
    for argument in command.get("arguments", []):
        name = argument["preferredName"]["name"]
        if argument["kind"] == "positional" or name in SKIPPED or name.startswith("no-"):
            continue
        if argument["preferredName"]["kind"] != "long":
            sys.exit(f"serve-environment.py: --{name} has no long name to make a variable of")
        variable = "INBOX_FORMAT_" + name.upper().replace("-", "_")
        lines = []
        if argument["kind"] == "flag":
            # A --NAME/--no-NAME pair: the variable takes true or false.
            default = "false" if argument.get("defaultValue") in (None, f"--no-{name}") else "true"
            lines += comment(f"--{name}/--no-{name}: {argument['abstract']} true or false.")
        else:
            lines += comment(f"--{name} <{argument['valueName']}>: {argument['abstract']}")
            if "allValues" in argument:
                lines += comment("One of: " + ", ".join(argument["allValues"]) + ".")
            default = argument.get("defaultValue", "")
        discussion = argument.get("discussion")
        if discussion and not isinstance(discussion, str):
            discussion = None
        if discussion:
            lines += comment(" ".join(discussion.split()))
        if default == "":
            # No fixed default: the help says where the value comes from, or
            # the option does nothing unless given.
            if "default" not in " ".join(lines).lower():
                lines.append("# Unset by default.")
            lines.append(f"#{variable}=")
        else:
            lines.append(f"#{variable}={default}")
        out.append("\n".join(lines))
    sys.stdout.write("\n\n".join(out) + "\n")


if __name__ == "__main__":
    main()
