#!/usr/bin/env bash
# Build the hub's Debian packages, lumen-hub_VERSION_amd64.deb and lumen-hub_VERSION_arm64.deb,
# with Debian's tools (dpkg-buildpackage, debhelper; hub/deploy/debian/). Both are built on this
# machine, whatever its architecture: the wheels come from PyPI built for each target
# (wheelhouse.py) and debian/venv.py only unpacks and byte-compiles them.
#
#   hub/deploy/build-deb.sh [--out DIR] [ARCH ...]      (default: amd64 arm64, into /tmp/lumen-deb)
#
# Needs: debhelper, dpkg-dev, python3-venv, python3-installer, binutils (installed when run as root).
# The target's Python is this machine's /usr/bin/python3 (3.11 on bookworm and Raspberry Pi OS
# bookworm): build on the Debian release you install on.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
out=/tmp/lumen-deb
archs=()
while [ $# -gt 0 ]; do
    case "$1" in
        --out) out="$2"; shift 2 ;;
        amd64|arm64) archs+=("$1"); shift ;;
        *) echo "build-deb.sh: unknown argument $1 (--out DIR, amd64, arm64)" >&2; exit 2 ;;
    esac
done
[ ${#archs[@]} -gt 0 ] || archs=(amd64 arm64)

missing=()
command -v dh >/dev/null || missing+=(debhelper)
command -v dpkg-buildpackage >/dev/null || missing+=(dpkg-dev)
command -v readelf >/dev/null || missing+=(binutils)
/usr/bin/python3 -c "import installer" 2>/dev/null || missing+=(python3-installer)
/usr/bin/python3 -c "import ensurepip, venv" 2>/dev/null || missing+=(python3-venv)
if [ ${#missing[@]} -gt 0 ]; then
    if [ "$(id -u)" != 0 ]; then
        echo "build-deb.sh: needs ${missing[*]}: sudo apt-get install ${missing[*]}" >&2
        exit 2
    fi
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

work="$(mktemp -d /tmp/lumen-deb-build.XXXXXX)"
[ -n "${LUMEN_DEB_KEEP:-}" ] || trap 'rm -rf "$work"' EXIT
pyver="$(/usr/bin/python3 -c 'import sys; print("%d.%d" % sys.version_info[:2])')"

# the build's own pip, on the target's Python (its markers and tags are the target's)
/usr/bin/python3 -m venv "$work/venv"
export PIP_DISABLE_PIP_VERSION_CHECK=1
# the project's wheel from a copy of its sources (a build/ left in the work tree could carry stale files)
mkdir "$work/src"
tar -C "$root" --exclude=__pycache__ -cf - pyproject.toml README.md engine hub firmware | tar -C "$work/src" -xf -
"$work/venv/bin/python" -m pip wheel --quiet --no-deps --wheel-dir "$work/project" "$work/src"
wheel="$(ls "$work"/project/lumen_condenser-*.whl)"
version="$(basename "$wheel" | cut -d- -f2)"
"$work/venv/bin/python" "$here/wheelhouse.py" --project-wheel "$wheel" --out "$work/wheels" --python "$pyver" \
    "${archs[@]}"
echo "build-deb.sh: wheels fetched (${SECONDS}s)"

# the packages' date: the last commit's (the same sources give the same packages)
export SOURCE_DATE_EPOCH="$(git -C "$root" log -1 --format=%ct 2>/dev/null || date +%s)"
mkdir -p "$out"
for arch in "${archs[@]}"; do
    src="$work/$arch/lumen-hub-$version"
    mkdir -p "$src/deploy"
    cp -r "$here/debian" "$src/debian"
    cp -r "$work/wheels/$arch" "$src/wheels"
    cp "$here/hub.toml" "$here/lumen-kiosk" "$here/lumen-hub.conf" "$src/deploy/"
    # debhelper's names: dh_installsystemd --name=..., dh_installudev --name=lumen-pods
    cp "$here/lumen-hub.service" "$src/debian/lumen-hub.lumen-hub.service"
    cp "$here/lumen-kiosk.service" "$src/debian/lumen-hub.lumen-kiosk.service"
    cp "$here/99-lumen-pods.rules" "$src/debian/lumen-hub.lumen-pods.udev"
    cat > "$src/debian/changelog" <<EOF
lumen-hub ($version) stable; urgency=medium

  * Built from lumen-condenser $version ($(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo "no git")).

 -- Lumen Condenser developers <lumen-hub@localhost>  $(date -R -u -d "@$SOURCE_DATE_EPOCH")
EOF
    (cd "$src" && dpkg-buildpackage --build=binary --host-arch="$arch" --no-sign --no-check-builddeps \
        2>&1 | while IFS= read -r line; do printf '%s %s\n' "$SECONDS" "$line"; done >"$work/$arch/build.log"; exit "${PIPESTATUS[0]}") || { tail -40 "$work/$arch/build.log" >&2; exit 1; }
    grep "^venv.py:" "$work/$arch/build.log" || true
    cp "$work/$arch/lumen-hub_${version}_${arch}.deb" "$out/"
    echo "built $out/lumen-hub_${version}_${arch}.deb ($(du -k "$out/lumen-hub_${version}_${arch}.deb" | cut -f1) KB, ${SECONDS}s)"
done
