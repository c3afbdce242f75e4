#!/bin/bash
# Prepare the kernel oracle: make sure the host tools are installed and that
# Debian's current amd64 kernel is downloaded and unpacked in the cache.
#
# The machine's own kernel has no f2fs, so the kernel tests boot Debian's
# kernel under qemu (see tests/kernel/README.md).  This script is idempotent:
# a second run with the same kernel package does nothing but a few look-ups.
#
# On success it writes $CACHE/kernel/kernel.env (shell assignments of
# GUEST_KPKG, GUEST_KPKG_VERSION, GUEST_KVER, GUEST_VMLINUZ, GUEST_MODDIR)
# and prints its path on stdout.  On failure it prints one line starting with
# "setup: " on stderr and exits non-zero.
#
# Environment:
#   F2FS_NG_CACHE  cache root (default: <repo>/build-cache); the kernel goes
#                  into $F2FS_NG_CACHE/kernel
#   GUEST_KERNEL_PKG  use this kernel package instead of the one that
#                  linux-image-amd64 depends on

set -u -o pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
cache_root=${F2FS_NG_CACHE:-$repo/build-cache}
kcache=$cache_root/kernel
env_file=$kcache/kernel.env

PACKAGES=(qemu-system-x86 busybox-static cpio kmod f2fs-tools)

die() {
	echo "setup: $*" >&2
	exit 1
}

note() {
	echo "setup: $*" >&2
}

apt_updated=0
apt_update_once() {
	[ "$apt_updated" = 1 ] && return 0
	apt_updated=1
	note "running apt-get update"
	apt-get update -qq >/dev/null || note "apt-get update failed"
}

pkg_installed() {
	[ "$(dpkg-query -W -f='${db:Status-Status}' "$1" 2>/dev/null)" = installed ]
}

ensure_packages() {
	local missing=() p
	for p in "${PACKAGES[@]}"; do
		pkg_installed "$p" || missing+=("$p")
	done
	[ ${#missing[@]} -eq 0 ] && return 0
	[ "$(id -u)" = 0 ] || die "missing packages ${missing[*]} (run as root to install them)"
	command -v apt-get >/dev/null || die "missing packages ${missing[*]} and no apt-get"
	apt_update_once
	note "installing ${missing[*]}"
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
		"${missing[@]}" >/dev/null ||
		die "apt-get install ${missing[*]} failed"
}

# The versioned kernel package behind the linux-image-amd64 metapackage.
kernel_package() {
	if [ -n "${GUEST_KERNEL_PKG:-}" ]; then
		echo "$GUEST_KERNEL_PKG"
		return 0
	fi
	apt-cache depends linux-image-amd64 2>/dev/null |
		awk '$1 == "Depends:" && $2 ~ /^linux-image-/ { print $2; exit }'
}

package_version() {
	apt-cache show --no-all-versions "$1" 2>/dev/null |
		awk '$1 == "Version:" { print $2; exit }'
}

# True when kernel.env exists and names files that are still there.
cache_valid() {
	[ -r "$env_file" ] || return 1
	(
		# shellcheck source=/dev/null
		. "$env_file" || exit 1
		[ -f "${GUEST_VMLINUZ:-}" ] && [ -d "${GUEST_MODDIR:-}" ] &&
			[ "${1:-$GUEST_KPKG}" = "$GUEST_KPKG" ] &&
			[ "${2:-$GUEST_KPKG_VERSION}" = "$GUEST_KPKG_VERSION" ]
	)
}

fetch_kernel() {
	local pkg=$1 version=$2 dir tmp deb vmlinuz moddir kver

	dir=$kcache/${pkg}_$version
	mkdir -p "$kcache" || die "cannot create $kcache"
	tmp=$(mktemp -d "$kcache/.fetch.XXXXXX") || die "cannot create a temporary directory in $kcache"
	# shellcheck disable=SC2064
	trap "rm -rf '$tmp'" EXIT

	note "downloading $pkg $version"
	# As root, apt drops privileges to _apt for downloads, which cannot write
	# into our directory; downloading as root is fine for a public package.
	(cd "$tmp" && apt-get download -qq -o APT::Sandbox::User=root "$pkg=$version" >/dev/null) ||
		die "apt-get download $pkg=$version failed"
	deb=$(find "$tmp" -maxdepth 1 -name '*.deb' | head -n 1)
	[ -n "$deb" ] || die "apt-get download $pkg produced no .deb"
	dpkg-deb -x "$deb" "$tmp/root" || die "dpkg-deb -x $deb failed"
	rm -f "$deb"

	vmlinuz=$(find "$tmp/root/boot" -maxdepth 1 -name 'vmlinuz-*' | head -n 1)
	[ -n "$vmlinuz" ] || die "$pkg contains no /boot/vmlinuz-*"
	kver=${vmlinuz##*/vmlinuz-}
	moddir=lib/modules/$kver
	[ -d "$tmp/root/$moddir" ] || moddir=usr/lib/modules/$kver
	[ -d "$tmp/root/$moddir" ] || die "$pkg contains no module directory for $kver"

	rm -rf "$dir"
	mv "$tmp/root" "$dir" || die "cannot move the kernel into $dir"

	{
		printf 'GUEST_KPKG=%q\n' "$pkg"
		printf 'GUEST_KPKG_VERSION=%q\n' "$version"
		printf 'GUEST_KVER=%q\n' "$kver"
		printf 'GUEST_VMLINUZ=%q\n' "$dir/boot/vmlinuz-$kver"
		printf 'GUEST_MODDIR=%q\n' "$dir/$moddir"
	} >"$tmp/kernel.env" || die "cannot write kernel.env"
	mv "$tmp/kernel.env" "$env_file" || die "cannot write $env_file"

	# Drop kernels of earlier runs: only the current one is ever used.
	find "$kcache" -mindepth 1 -maxdepth 1 -type d -name 'linux-image-*' \
		! -path "$dir" -exec rm -rf {} +
	rm -rf "$tmp"
	trap - EXIT
}

main() {
	local pkg version

	ensure_packages
	command -v qemu-system-x86_64 >/dev/null || die "qemu-system-x86_64 not found after install"
	[ -x /bin/busybox ] || die "/bin/busybox not found after install"

	pkg=$(kernel_package)
	if [ -z "$pkg" ]; then
		apt_update_once
		pkg=$(kernel_package)
	fi
	if [ -z "$pkg" ]; then
		# Offline or no apt lists: a kernel fetched earlier is still good.
		cache_valid && { echo "$env_file"; return 0; }
		die "cannot resolve the package behind linux-image-amd64 (apt-cache depends)"
	fi

	version=$(package_version "$pkg")
	if [ -z "$version" ]; then
		apt_update_once
		version=$(package_version "$pkg")
	fi
	[ -n "$version" ] || die "apt-cache knows no version of $pkg"

	if ! cache_valid "$pkg" "$version"; then
		fetch_kernel "$pkg" "$version"
		cache_valid "$pkg" "$version" || die "kernel cache in $kcache is unusable after fetching"
	fi
	echo "$env_file"
}

main "$@"
