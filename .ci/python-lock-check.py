"""Warns when crates/python/Cargo.lock pins a package at a version the root
Cargo.lock does not: the Python build shares the root's target/ (see
.ci/run), and a different version is built again (zstd-sys's C library
alone takes a minute or two here). A warning, not a failure: the build is
right either way, only slower."""

import re
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = re.compile(r'^\[\[package\]\]\nname = "([^"]+)"\nversion = "([^"]+)"', re.M)


def versions(path: Path) -> dict:
    found = defaultdict(set)
    for name, version in PACKAGE.findall(path.read_text()):
        found[name].add(version)
    return found


root = versions(ROOT / "Cargo.lock")
python = versions(ROOT / "crates" / "python" / "Cargo.lock")
differ = sorted(
    f"{name} {', '.join(sorted(python[name] - root[name]))} (root: {', '.join(sorted(root[name]))})"
    for name in python.keys() & root.keys()
    if python[name] - root[name]
)
if differ:
    print(
        "warning: crates/python/Cargo.lock differs from Cargo.lock in " + "; ".join(differ) + ": the Python "
        "build will compile them again. To pin the root's versions: cp Cargo.lock crates/python/Cargo.lock && "
        "cargo tree --manifest-path crates/python/Cargo.toml -q > /dev/null",
        file=sys.stderr,
    )
