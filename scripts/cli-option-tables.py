#!/usr/bin/env python3
"""The option tables of docs/cli.md are generated from mech's command table.

Each table sits between `<!-- options: CMD -->` and `<!-- end options -->`
and is what `mech help CMD --markdown` prints. With --check, lists the tables
that differ and exits 1; otherwise rewrites them in place.

usage: scripts/cli-option-tables.py MECH DOCS [--check]
"""
import re
import subprocess
import sys

BLOCK = re.compile(r"(<!-- options: (\S+) -->\n)(.*?)(<!-- end options -->)", re.S)


def main():
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    mech, docs = sys.argv[1], sys.argv[2]
    check = "--check" in sys.argv[3:]
    text = open(docs, encoding="utf-8").read()
    differ, seen = [], []

    def generated(match):
        command = match.group(2)
        seen.append(command)
        table = subprocess.run([mech, "help", command, "--markdown"], check=True,
                               capture_output=True, text=True).stdout
        if match.group(3) != table:
            differ.append(command)
        return match.group(1) + table + match.group(4)

    updated = BLOCK.sub(generated, text)
    if not seen:
        print(f"{docs}: no option tables marked", file=sys.stderr)
        return 1
    if check:
        for command in differ:
            print(f"{docs}: the option table of '{command}' differs from `mech help {command} "
                  f"--markdown` (run scripts/cli-option-tables.py to update it)")
        print(f"{len(seen)} option tables checked, {len(differ)} differ")
        return 1 if differ else 0
    if updated != text:
        open(docs, "w", encoding="utf-8").write(updated)
    print(f"{len(seen)} option tables, {len(differ)} updated")
    return 0


if __name__ == "__main__":
    sys.exit(main())
