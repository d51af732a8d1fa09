"""Runs the ```console blocks of Markdown files and compares their output.

A block holds commands, each on a line starting with "$ ", followed by the
output the reader will see (stdout and stderr together). In the expected
output, a line "..." stands for any number of lines, and a line ending in
"..." for any line starting with the text before it. Commands run with bash
in WORKDIR, where build/mech is the binary under test and examples/, stdlib/
and docs/ are the repository's; files they write stay in WORKDIR.

Usage: check_console_blocks.py WORKDIR FILE.md...   (exit 1 on a mismatch)
"""
import re
import subprocess
import sys


def blocks(path):
    """(line number, [lines]) of each console block."""
    found, current, start = [], None, 0
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if current is None and line.strip() == "```console":
                current, start = [], number + 1
            elif current is not None and line.strip() == "```":
                found.append((start, current))
                current = None
            elif current is not None:
                current.append(line)
    return found


def commands(lines):
    """(command, expected lines) pairs of a block."""
    pairs = []
    for line in lines:
        if line.startswith("$ "):
            pairs.append((line[2:], []))
        elif pairs:
            pairs[-1][1].append(line)
    return pairs


def matches(expected, actual):
    """Whether actual lines fit the pattern lines (with ... wildcards)."""
    memo = {}

    def fit(i, j):
        if (i, j) in memo:
            return memo[i, j]
        if i == len(expected):
            result = j == len(actual)
        elif expected[i] == "...":
            result = any(fit(i + 1, k) for k in range(j, len(actual) + 1))
        elif j == len(actual):
            result = False
        elif expected[i].endswith("...") and expected[i] != "...":
            result = actual[j].startswith(expected[i][:-3]) and fit(i + 1, j + 1)
        else:
            result = expected[i].rstrip() == actual[j].rstrip() and fit(i + 1, j + 1)
        memo[i, j] = result
        return result

    return fit(0, 0)


def main():
    workdir, files = sys.argv[1], sys.argv[2:]
    failures = checked = 0
    for path in files:
        for start, lines in blocks(path):
            for command, expected in commands(lines):
                run = subprocess.run(["bash", "-c", command], cwd=workdir, capture_output=True,
                                     text=True, timeout=120)
                actual = (run.stdout + run.stderr).rstrip("\n").split("\n")
                if actual == [""]:
                    actual = []
                while expected and expected[-1] == "":
                    expected = expected[:-1]
                checked += 1
                if not matches(expected, actual):
                    failures += 1
                    print(f"FAIL: {path}:{start}: $ {command}")
                    print("  expected:")
                    print("\n".join("  | " + line for line in expected))
                    print("  got:")
                    print("\n".join("  | " + line for line in actual))
    print(f"{checked} documented commands checked, {failures} differ")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
