#!/usr/bin/env bash
# Makes `import mech` work in Debian's /usr/bin/python3 from any folder,
# without PYTHONPATH: a path file (mech.pth) in the interpreter's first
# site folder, /usr/local/lib/python3.11/dist-packages, naming this
# clone's build/python (the package the release build makes). The path
# file is the whole installation: the next release build of any clone
# points it at that clone. Run by scripts/build.sh after a release build;
# a site folder that is not writable (not root) is said and skipped, never
# an error. `cmake --install build` is the way to copy the package instead.
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
package="$root/build/python"
if [ ! -d "$package/mech" ]; then
  echo "link-python.sh: no Python package in $package (built without pybind11): not linked"
  exit 0
fi
site="$(/usr/bin/python3 -c 'import site; print(site.getsitepackages()[0])' 2>/dev/null)" || {
  echo "link-python.sh: /usr/bin/python3 is missing: not linked"
  exit 0
}
mkdir -p "$site" 2>/dev/null
if ! printf '%s\n' "$package" >"$site/mech.pth" 2>/dev/null; then
  echo "link-python.sh: $site is not writable: import mech with PYTHONPATH=$package"
  exit 0
fi
echo "link-python.sh: /usr/bin/python3 imports mech from $package ($site/mech.pth)"
