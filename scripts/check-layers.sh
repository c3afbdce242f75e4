#!/bin/bash
# The layer check (run by make check): lib/ is layered
#   format <- dev <- fs <- read <- check
#   format <- dev <- fs <- read <- write <- mkfs, load, replay
#   check and write <- repair
# and each file may include only headers of its own layer or the layers
# below it (allowed() lists them).  Tools (mkfs/ fsck/ dump/ inject/ tools/) may include only the
# public API (include/f2fs/) and tools/common/, never lib/'s internal
# headers.  Every public header is assigned to a layer below; a header that
# is not fails the check, so a new one must be placed.
set -u
top=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$top" || exit 1

# allowed LAYER: the layers a file of LAYER may use, itself included
allowed() {
	case $1 in
	format) echo format ;;
	dev) echo format dev ;;
	fs) echo format dev fs ;;
	read) echo format dev fs read ;;
	check) echo format dev fs read check ;;
	write) echo format dev fs read write ;;
	mkfs) echo format dev fs read write mkfs ;;
	load) echo format dev fs read write load ;;
	replay) echo format dev fs read write replay ;;
	repair) echo format dev fs read check write repair ;;
	esac
}

# may LAYER use USED?
may_use() {
	case " $(allowed "$1") " in *" $2 "*) return 0 ;; esac
	return 1
}

# layer of a public header, by its name
header_layer() {
	case $1 in
	format.h | endian.h | crc.h | hash.h | feature.h | super.h | layout.h | geometry.h | quota.h | \
		checkpoint.h | node.h | dir.h | bitops.h | label.h | xattr.h) echo format ;;
	device.h | undo.h | zone.h) echo dev ;;
	fs.h | volume.h | summary.h | sit.h | nat.h | ssa.h) echo fs ;;
	read.h) echo read ;;
	check.h) echo check ;;
	write.h) echo write ;;
	mkfs.h) echo mkfs ;;
	load.h) echo load ;;
	replay.h) echo replay ;;
	repair.h) echo repair ;;
	*) echo unknown ;;
	esac
}

bad=0
complain() {
	echo "check-layers: $*" >&2
	bad=$((bad + 1))
}

for h in include/f2fs/*.h; do
	[ "$(header_layer "$(basename "$h")")" = unknown ] &&
		complain "$h: no layer assigned (add it to scripts/check-layers.sh)"
done

# a header used by lib and tools alike, so it must not include upward either
for h in include/f2fs/*.h; do
	own=$(header_layer "$(basename "$h")")
	[ "$own" = unknown ] && continue
	for inc in $(sed -n 's/^#include "f2fs\/\([a-z_]*\.h\)".*/\1/p' "$h"); do
		l=$(header_layer "$inc")
		may_use "$own" "$l" || complain "$h ($own) includes f2fs/$inc ($l)"
	done
done

for f in $(find lib -name '*.[ch]' | sort); do
	own=$(echo "$f" | cut -d/ -f2)
	[ -n "$(allowed "$own")" ] || { complain "$f: lib/$own is not a known layer"; continue; }
	while read -r inc; do
		case $inc in
		f2fs/*)
			l=$(header_layer "${inc#f2fs/}")
			;;
		config.h) continue ;;
		*/*)
			# another folder's internal header, e.g. ../fs/fs_internal.h
			l=$(echo "$inc" | sed -n 's|^\.\./\([a-z]*\)/.*|\1|p')
			[ -n "$l" ] || { complain "$f includes \"$inc\""; continue; }
			;;
		*)
			[ -f "$(dirname "$f")/$inc" ] || complain "$f includes \"$inc\", not in lib/$own"
			continue
			;;
		esac
		may_use "$own" "$l" || complain "$f ($own) includes $inc ($l)"
	done < <(sed -n 's/^#include "\([^"]*\)".*/\1/p' "$f")
done

for f in $(find mkfs fsck dump inject sload tools -name '*.[ch]' 2>/dev/null | sort); do
	while read -r inc; do
		case $inc in
		f2fs/* | config.h) ;;
		*/*) case $inc in *common/*) ;; *) complain "$f includes \"$inc\" (tools use include/f2fs/ and tools/common/ only)" ;; esac ;;
		*) [ -f "$(dirname "$f")/$inc" ] || complain "$f includes \"$inc\"" ;;
		esac
	done < <(sed -n 's/^#include "\([^"]*\)".*/\1/p' "$f")
	grep -q 'fs_internal\|check_internal' "$f" && complain "$f uses a lib-internal header"
done

if [ "$bad" -ne 0 ]; then
	echo "FAIL: check-layers: $bad violation(s)"
	exit 1
fi
echo "PASS: check-layers"
