# scripts/link-python.sh: after the release build of scripts/build.sh,
# Debian's python3 imports this build's package from any folder, with no
# PYTHONPATH. Skipped, saying why, where the path file names another
# build (the tree was built with ninja alone, or another clone built last)
# or the package was not built: the release pass of scripts/test.sh runs it
# after build.sh.
source "$(dirname "$0")/lib.sh" "$@"

package="$(readlink -f "$build/python")"
site="$(/usr/bin/python3 -c 'import site; print(site.getsitepackages()[0])' 2>/dev/null)"
if [ ! -d "$package/mech" ]; then
  skip "built without the Python package (pybind11-dev, python3-dev)"
elif [ "$(cat "$site/mech.pth" 2>/dev/null)" != "$package" ]; then
  skip "$site/mech.pth does not name $package (scripts/build.sh release writes it)"
else
  cd "$work" || exit 1
  expect "import mech from another folder" 0 env -u PYTHONPATH /usr/bin/python3 -c \
    "import mech; print(mech.__file__); print(mech.load('$root/examples/double_pendulum.mech'))"
  contains "this build's package" out "$package/mech/__init__.py"
  contains "a model loads" out "<mech.Model DoublePendulum>"
fi
finish
