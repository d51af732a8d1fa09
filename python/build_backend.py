"""The in-tree PEP 517 backend behind `pip install --no-build-isolation .`:
it configures and builds the package with CMake and Ninja into build/ (the
README's build tree, so a built tree is reused), then packs
build/python/mech/ into a wheel for this interpreter. Nothing is fetched:
Debian's pip cannot fetch build backends here, and the build needs only
what scripts/install-deps.sh installs."""

import base64
import hashlib
import os
import subprocess
import sys
import sysconfig
import zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NAME, VERSION = "mech", "0.1.0"


def _build_package():
    build = os.environ.get("MECH_BUILD_DIR", os.path.join(ROOT, "build"))
    subprocess.run(["cmake", "-S", ROOT, "-B", build, "-G", "Ninja",
                    "-DCMAKE_BUILD_TYPE=Release", f"-DPython3_EXECUTABLE={sys.executable}"],
                   check=True, stdout=sys.stderr)
    subprocess.run(["ninja", "-C", build, "-j", os.environ.get("MECH_JOBS", "2"), "mech_python"],
                   check=True, stdout=sys.stderr)
    package = os.path.join(build, "python", NAME)
    if not os.path.isfile(os.path.join(package, "__init__.py")):
        raise RuntimeError("the build made no Python package: is pybind11-dev installed?")
    return package


def _tag():
    interpreter = "cp%d%d" % sys.version_info[:2]
    platform = sysconfig.get_platform().replace("-", "_").replace(".", "_")
    return f"{interpreter}-{interpreter}-{platform}"


def _record_line(path, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{path},sha256={digest},{len(data)}"


def _metadata():
    return (f"Metadata-Version: 2.1\nName: {NAME}\nVersion: {VERSION}\n"
            "Summary: Models of analytical mechanics: equations, simulations and sweeps\n"
            "Requires-Python: >=3.11\nRequires-Dist: numpy\n")


def get_requires_for_build_wheel(config_settings=None):
    return []


def prepare_metadata_for_build_wheel(metadata_directory, config_settings=None):
    info = os.path.join(metadata_directory, f"{NAME}-{VERSION}.dist-info")
    os.makedirs(info, exist_ok=True)
    with open(os.path.join(info, "METADATA"), "w") as out:
        out.write(_metadata())
    return os.path.basename(info)


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    package = _build_package()
    tag = _tag()
    wheel = os.path.join(wheel_directory, f"{NAME}-{VERSION}-{tag}.whl")
    info = f"{NAME}-{VERSION}.dist-info"
    records = []
    with zipfile.ZipFile(wheel, "w", zipfile.ZIP_DEFLATED) as archive:
        def add(path, data):
            archive.writestr(path, data)
            records.append(_record_line(path, data))

        for entry in sorted(os.listdir(package)):
            full = os.path.join(package, entry)
            if os.path.isfile(full) and not entry.endswith(".pyc"):
                with open(full, "rb") as source:
                    add(f"{NAME}/{entry}", source.read())
        add(f"{info}/METADATA", _metadata().encode())
        add(f"{info}/WHEEL", ("Wheel-Version: 1.0\nGenerator: mech build_backend\n"
                              f"Root-Is-Purelib: false\nTag: {tag}\n").encode())
        records.append(f"{info}/RECORD,,")
        archive.writestr(f"{info}/RECORD", "\n".join(records) + "\n")
    return os.path.basename(wheel)
