#!/bin/bash
# Install what building and testing need on a fresh Debian machine (as root,
# or with sudo).  Idempotent: packages already present are not fetched again.
# The guest kernel for tests/kernel is fetched by tests/kernel/setup.sh.
set -eu
packages=(
	build-essential autoconf automake libtool pkg-config
	uuid-dev libblkid-dev zlib1g-dev liblz4-dev libselinux1-dev
	liblzo2-dev android-libsparse-dev android-sdk-libsparse-utils
	f2fs-tools e2fsprogs util-linux bsdutils xz-utils jq attr strace
	qemu-system-x86 busybox-static cpio kmod
)
missing=()
for p in "${packages[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
sudo=
[ "$(id -u)" -eq 0 ] || sudo=sudo
echo "setup: installing ${missing[*]}"
$sudo env DEBIAN_FRONTEND=noninteractive apt-get update -qq
$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
