#!/usr/bin/env python3
"""Fails when building the CLI or the Python extension alone would compile a dependency
with other features than the workspace's tests do (and so compile the library again:
minutes on a 2-core machine). The cure is a line in unify/Cargo.toml (see its comment).

Compares `cargo tree`'s resolved features: `-p lastbite-cli` and `-p lastbite-python`
against `--workspace` with the dev-dependencies. `--self-test` first proves the check
can fail (a feature set that differs is reported)."""

import subprocess
import sys


def features(*args):
    """{package: features} as cargo resolves them for the packages selected by args."""
    out = subprocess.run(
        ["cargo", "tree", "--locked", "--prefix", "none", "-f", "{p}|{f}", *args],
        check=True, capture_output=True, text=True,
    ).stdout
    resolved = {}
    for line in out.splitlines():
        line = line.replace(" (*)", "").strip()
        if "|" in line:
            package, fs = line.split("|", 1)
            resolved[package.strip()] = fs.strip()
    return resolved


def differences(alone, tests):
    """The packages built with other features alone than for the tests."""
    return [
        f"{p}: [{alone[p]}] alone, [{tests[p]}] in the tests"
        for p in sorted(alone)
        if p in tests and alone[p] != tests[p]
    ]


def main():
    if "--self-test" in sys.argv:
        found = differences({"serde_json v1": "std"}, {"serde_json v1": "std,float_roundtrip"})
        assert found == ["serde_json v1: [std] alone, [std,float_roundtrip] in the tests"], found
        print("check_unify: self-test passed")
        return 0
    tests = features("--workspace", "-e", "normal,build,dev")
    failed = []
    for package in ["lastbite-cli", "lastbite-python"]:
        for d in differences(features("-p", package, "-e", "normal,build"), tests):
            failed.append(f"{package}: {d}")
    if failed:
        print("check_unify: building alone would recompile (add the features to unify/Cargo.toml):", file=sys.stderr)
        print("\n".join("  " + f for f in failed), file=sys.stderr)
        return 1
    print("check_unify: the CLI and the Python extension build with the tests' features")
    return 0


if __name__ == "__main__":
    sys.exit(main())
