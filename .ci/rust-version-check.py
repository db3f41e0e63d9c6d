"""Every manifest names the one rust-version the README quotes, and the
toolchain that runs CI is that version: the version the manifests claim is
the one the tests are built and run with."""

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
manifests = [ROOT / path for path in subprocess.run(
    ["git", "ls-files", "*Cargo.toml"], cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()]
versions = {}
for manifest in manifests:
    text = manifest.read_text()
    match = re.search(r'^rust-version\s*=\s*"([^"]+)"', text, re.M)
    if match:
        versions[manifest] = match.group(1)
    elif not re.search(r"^rust-version\.workspace\s*=\s*true", text, re.M):
        sys.exit(f"{manifest.relative_to(ROOT)}: no rust-version")
wanted = set(versions.values())
if len(wanted) != 1:
    sys.exit(f"the manifests name several rust-versions: {sorted(wanted)}")
version = wanted.pop()
readme = (ROOT / "README.md").read_text()
if f"Rust {version}" not in readme:
    sys.exit(f"the README does not quote the rust-version (Rust {version})")
rustc = subprocess.run(["rustc", "--version"], capture_output=True, text=True, check=True).stdout
found = re.match(r"rustc (\d+\.\d+)", rustc).group(1)
if found != version:
    sys.exit(f"CI runs rustc {found}, the manifests claim rust-version {version}: build with that toolchain")
print(f"rust-version {version} in {len(manifests)} manifests, the README and the toolchain ({rustc.strip()})")
