#!/bin/bash
# The layer check (run by make check).  Each folder lib/L is a layer:
#   format <- dev <- fs <- read <- check
#   format <- dev <- fs <- read <- write <- mkfs, load
#   check and write <- repair
#   write <- resize
#   trace (workloads and traces: uses nothing of lib)
#   format <- dev <- sched (the replay engine's I/O scheduler, a device layer)
#   write, trace and sched <- replay (the engine)
# and a layer may use only itself and the layers below it (allowed() lists
# them).  What is checked:
#
# - Includes, in both forms ("..." and <...>), each resolved the way the
#   compiler does ("..." first in the including file's folder, then both
#   forms in include/ and the top folder; config.h and headers found in
#   none of them, the system's, are left out):
#   - a lib/ file may include public headers (include/f2fs/) of its own layer
#     or below, and the internal headers of its own folder (any .h under
#     lib/L/) but no other folder's: shared_internal() lists the only
#     exception;
#   - a public header may include only public headers of its own layer or
#     below.  Every public header has a layer in header_layer(); one that has
#     none fails the check, so a new one must be placed;
#   - a public header restricted() names may be included only by the lib/
#     folders it lists (the write path's repair primitives: lib/repair);
#   - tools: the folders of the sources of every program and library that
#     Makefile.am builds, but lib/ (the layers) and tests/unit/ (white-box
#     tests of lib's internals), may include only include/f2fs/, tools/common/
#     and their own folder's headers, never a lib/ header.
# - Symbols, after the build: for each object lib/L/x.o, every undefined
#   symbol (nm -u) that another lib object defines must be defined in a layer
#   L may use, so a call through a prototype written by hand is caught too.
#   Symbols that no lib object defines (libc, zlib...) are not looked at.
#   Every lib/**.c must have its object; a missing one fails the check, unless
#   the script runs with --source-only, which skips the symbol check.
#
# Environment: top_srcdir, the source tree (default: the folder above this
# script's); top_builddir, where the objects are (default: top_srcdir; as
# make check passes them, both may be relative to the current folder); NM
# (default nm).  Each violation is one line "check-layers: ..." on stderr;
# then "PASS: check-layers", or "FAIL: check-layers: N violation(s)" and
# exit status 1, on stdout.
#
# The script runs in make check on every build, so it forks little: no
# $(...) per include (the lookups below set variables instead), and the
# #include lines of a group of files are read by one sed run (cache_includes).
set -u
source_only=0
case $#:${1:-} in
0:) ;;
1:--source-only) source_only=1 ;;
*)
	echo "usage: scripts/check-layers.sh [--source-only]" >&2
	exit 2
	;;
esac
top=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
build=${top_builddir:-$top}
case $build in /*) ;; *) build=$PWD/$build ;; esac
[ -d "$build" ] && build=$(cd "$build" && pwd)
cd "$top" || exit 1

layers="format dev fs read check write mkfs load trace sched replay repair resize"

# allowed LAYER: the layers a file of LAYER may use, itself included, in
# $allowed (empty for no layer)
allowed() {
	case $1 in
	format) allowed="format" ;;
	dev) allowed="format dev" ;;
	fs) allowed="format dev fs" ;;
	read) allowed="format dev fs read" ;;
	check) allowed="format dev fs read check" ;;
	write) allowed="format dev fs read write" ;;
	mkfs) allowed="format dev fs read write mkfs" ;;
	load) allowed="format dev fs read write load" ;;
	trace) allowed="trace" ;;
	sched) allowed="format dev sched" ;;
	replay) allowed="format dev fs read write trace sched replay" ;;
	repair) allowed="format dev fs read check write repair" ;;
	resize) allowed="format dev fs read write resize" ;;
	*) allowed= ;;
	esac
}

# may LAYER use USED?
may_use() {
	allowed "$1"
	case " $allowed " in *" $2 "*) return 0 ;; esac
	return 1
}

# header_layer NAME: the layer of public header NAME in $header_layer
# ("unknown" for none)
header_layer() {
	case $1 in
	format.h | endian.h | crc.h | hash.h | feature.h | super.h | layout.h | geometry.h | quota.h | \
		checkpoint.h | node.h | dir.h | bitops.h | label.h | xattr.h | fields.h) header_layer="format" ;;
	compress.h) header_layer="format" ;;
	blkgeo.h) header_layer="format" ;;
	device.h | undo.h | zone.h) header_layer="dev" ;;
	fs.h | volume.h | summary.h | sit.h | nat.h | ssa.h) header_layer="fs" ;;
	read.h) header_layer="read" ;;
	check.h) header_layer="check" ;;
	write.h | fixup.h) header_layer="write" ;;
	mkfs.h) header_layer="mkfs" ;;
	load.h) header_layer="load" ;;
	trace.h) header_layer="trace" ;;
	sched.h | clock.h) header_layer="sched" ;;
	replay.h) header_layer="replay" ;;
	repair.h) header_layer="repair" ;;
	resize.h) header_layer="resize" ;;
	*) header_layer="unknown" ;;
	esac
}

# restricted HEADER: the lib/ folders that alone may include public HEADER,
# in $restricted (empty: anyone whose layer allows it)
restricted() {
	case $1 in
	fixup.h) restricted="write repair resize" ;;
	*) restricted= ;;
	esac
}

# restricted_rule: $f of lib/$1 (or a tool or public header, $1 empty) includes $name
restricted_rule() {
	local who
	restricted "$name"
	who=$restricted
	[ -n "$who" ] || return 0
	case " $who " in *" $1 "*) [ -n "$1" ] && return 0 ;; esac
	complain "$f includes f2fs/$name, which only lib/{${who// /,}} may include"
}

# shared_internal HEADER LAYER: may a file of lib/LAYER include HEADER, an
# internal header of another folder?  Only fs_internal.h, to write: the write
# path keeps its dirty state in the fs handle (the header says so).
shared_internal() {
	case $1:$2 in
	lib/fs/fs_internal.h:write) return 0 ;;
	esac
	return 1
}

bad=0
complain() {
	echo "check-layers: $*" >&2
	bad=$((bad + 1))
}

# norm PATH: PATH without "." and "dir/.." parts, in $normed; fails when
# PATH climbs out of the top folder
norm() {
	local part parts out=()
	# most paths have no part to drop: they are their own normal form
	case /$1/ in
	*//* | */./* | */../*) ;;
	*)
		normed=$1
		return 0
		;;
	esac
	IFS=/ read -ra parts <<<"$1"
	for part in "${parts[@]}"; do
		case $part in
		'' | .) ;;
		..)
			[ ${#out[@]} -gt 0 ] || return 1
			unset 'out[${#out[@]}-1]'
			;;
		*) out+=("$part") ;;
		esac
	done
	normed=
	for part in "${out[@]}"; do
		normed+=${normed:+/}$part
	done
}

# resolve FORM INC DIR: the file that #include FORM INC (FORM is " or <) in
# a file of folder DIR names, relative to the top folder, in $res; empty when
# it is not in the tree.  Remembered in resolved[], as the same few headers
# are included all over: by FORM and INC, and DIR for a "..." include (no
# part of the key holds a newline)
declare -A resolved=()
resolve() {
	local form=$1 inc=$2 dir=$3 d key
	key=$form$inc
	[ "$form" = '"' ] && key+=$'\n'$dir
	if [ -n "${resolved[$key]+1}" ]; then
		res=${resolved[$key]}
		return
	fi
	res=
	if [ "$form" = '"' ]; then
		set -- "$dir" include .
	else
		set -- include .
	fi
	for d; do
		norm "$d/$inc" || continue
		if [ -f "$normed" ]; then
			res=$normed
			break
		fi
	done
	resolved[$key]=$res
}

# an #include line made "FORM INC"
include_sed='s/^[[:space:]]*#[[:space:]]*include[[:space:]]*\([<"]\)\([^>"]*\)[>"].*/\1 \2/'

# includes FILE: "FORM INC" per #include line of FILE
includes() {
	sed -n "${include_sed}p" "$1"
}

# cache_includes FILE...: what includes prints for each FILE, lines joined
# by newlines, in includes_of[FILE], read by one sed run for all (GNU's F
# names the file before each line).  Left out, for each_include to run
# includes on as before: a file sed cannot read (its error is then printed
# in order), one whose last line is an #include (sed prints it without a
# newline when the file has none, and read drops it), one whose name holds a
# newline (F would print two lines), every file when the sed run fails (no F).
declare -A includes_of=()
cache_includes() {
	local f file line out files=()
	local -A seen=() text=() last=()
	for f; do
		case $f in *$'\n'*) continue ;; esac
		if [ -f "$f" ] && [ -r "$f" ] && [ -z "${seen[$f]+1}${includes_of[$f]+1}" ]; then
			seen[$f]=1
			files+=("$f")
		fi
	done
	[ ${#files[@]} -gt 0 ] || return 0
	out=$(sed -s -n -e "$include_sed" -e T -e '$s/^/$/' -e F -e p -- "${files[@]}" 2>/dev/null) || return 0
	while IFS= read -r file && IFS= read -r line; do
		[ "${line:0:1}" = '$' ] && last[$file]=1
		text[$file]+=${text[$file]:+$'\n'}${line#'$'}
	done <<<"$out"
	for f in "${files[@]}"; do
		[ -n "${last[$f]+1}" ] || includes_of[$f]=${text[$f]-}
	done
}

# Each include of FILE, classified: sets inc (as written), res (the file it
# resolves to), kind and, by kind, name and owner:
#   public    a header of include/f2fs/, $name (e.g. fs.h)
#   internal  a header under lib/$owner/
#   common    a header of tools/common/
#   other     any other file of the tree
#   missing   a "..." include (or an f2fs/ one) found nowhere
#   system    a <...> include found nowhere: the system's
# and calls the function $2 (FILE stays in $f).
each_include() {
	f=$1
	if [ -z "${includes_of[$f]+1}" ]; then
		classify_includes "$2" < <(includes "$f")
	elif [ -n "${includes_of[$f]}" ]; then
		classify_includes "$2" <<<"${includes_of[$f]}"
	fi
}

# classify_includes FUNC: each_include's work on its "FORM INC" lines (stdin)
classify_includes() {
	local form
	while read -r form inc; do
		[ "$inc" = config.h ] && continue
		resolve "$form" "$inc" "${f%/*}"
		case $res in
		include/f2fs/*.h) kind=public name=${res#include/f2fs/} ;;
		lib/*/*)
			kind=internal owner=${res#lib/}
			owner=${owner%%/*}
			;;
		tools/common/*) kind=common ;;
		'')
			case $form:$inc in
			*:f2fs/* | '":'*) kind=missing ;;
			*) kind=system ;;
			esac
			;;
		*) kind=other ;;
		esac
		"$1"
	done
}

for h in include/f2fs/*.h; do
	header_layer "${h##*/}"
	[ "$header_layer" = unknown ] &&
		complain "$h: no layer assigned (add it to scripts/check-layers.sh)"
done

# a header used by lib and tools alike, so it must not include upward either
public_rule() {
	case $kind in
	public)
		header_layer "$name"
		l=$header_layer
		may_use "$own" "$l" || complain "$f ($own) includes f2fs/$name ($l)"
		[ "$f" = "include/f2fs/$name" ] || restricted_rule ""
		;;
	internal | common | other) complain "$f includes $res (public headers include only include/f2fs/)" ;;
	missing) complain "$f includes \"$inc\", which is not in the tree" ;;
	esac
}
cache_includes include/f2fs/*.h
for h in include/f2fs/*.h; do
	header_layer "${h##*/}"
	own=$header_layer
	[ "$own" = unknown ] && continue
	each_include "$h" public_rule
done

lib_rule() {
	case $kind in
	public)
		header_layer "$name"
		l=$header_layer
		may_use "$own" "$l" || complain "$f ($own) includes f2fs/$name ($l)"
		restricted_rule "$own"
		;;
	internal)
		[ "$owner" = "$own" ] && return
		shared_internal "$res" "$own" && may_use "$own" "$owner" && return
		complain "$f includes $res, internal to lib/$owner"
		;;
	common | other) complain "$f includes $res, outside lib/ and include/f2fs/" ;;
	missing) complain "$f includes \"$inc\", which is not in the tree" ;;
	esac
}
lib_files=$(find lib -name '*.[ch]' | sort)
# shellcheck disable=SC2086 # split (and globbed) as the loop below does
cache_includes $lib_files
for f in $lib_files; do
	own=${f#*/}
	own=${own%%/*}
	allowed "$own"
	[ -n "$allowed" ] || {
		complain "$f: lib/$own is not a known layer"
		continue
	}
	each_include "$f" lib_rule
done

# tool_folders: the folders of the sources of every program and library in
# Makefile.am (a target's _SOURCES, or the default TARGET.c), but lib/ and
# tests/unit/
tool_folders() {
	awk '
	function expand(s, guard, name) {
		while (match(s, /\$\([A-Za-z0-9_]+\)/) && guard++ < 1000) {
			name = substr(s, RSTART + 2, RLENGTH - 3)
			s = substr(s, 1, RSTART - 1) " " val[name] " " substr(s, RSTART + RLENGTH)
		}
		return s
	}
	{
		line = line $0
		if (line ~ /\\$/) {
			sub(/\\$/, " ", line)
			next
		}
		l = line
		line = ""
		if (!match(l, /^[A-Za-z0-9_]+[ \t]*\+?=/))
			next
		name = l
		sub(/[ \t]*\+?=.*/, "", name)
		v = l
		sub(/^[^=]*=/, "", v)
		if (l ~ /^[A-Za-z0-9_]+[ \t]*\+=/)
			val[name] = val[name] " " v
		else
			val[name] = v
	}
	END {
		for (name in val) {
			if (name !~ /_(PROGRAMS|LIBRARIES)$/)
				continue
			n = split(expand(val[name]), t, /[ \t]+/)
			for (i = 1; i <= n; i++) {
				if (t[i] == "")
					continue
				c = t[i]
				gsub(/[^A-Za-z0-9_]/, "_", c)
				if ((c "_SOURCES") in val)
					s = expand(val[c "_SOURCES"])
				else
					s = t[i] ".c"
				m = split(s, src, /[ \t]+/)
				for (j = 1; j <= m; j++) {
					d = src[j]
					if (d == "")
						continue
					if (!sub(/\/[^\/]*$/, "", d))
						d = "."
					print d
				}
			}
		}
	}' Makefile.am | sort -u | grep -v -e '^lib$' -e '^lib/' -e '^tests/unit$' -e '^tests/unit/'
}

tool_rule() {
	case $kind in
	public) restricted_rule "" ;;
	common | system) ;;
	internal) complain "$f includes $res, internal to lib/$owner (tools use include/f2fs/ and tools/common/ only)" ;;
	other)
		[ "${res%/*}" = "${f%/*}" ] ||
			complain "$f includes \"$inc\" (tools use include/f2fs/ and tools/common/ only)"
		;;
	missing) complain "$f includes \"$inc\", which is not in the tree" ;;
	esac
}
folders=$(tool_folders)
[ -n "$folders" ] || complain "Makefile.am: no program sources found outside lib/"
for d in $folders; do
	tool_files=$(find "$d" -maxdepth 1 -name '*.[ch]' | sort)
	# shellcheck disable=SC2086 # split (and globbed) as the loop below does
	cache_includes $tool_files
	for f in $tool_files; do
		each_include "$f" tool_rule
	done
done

# symbol_uses: "OBJECT uses SYMBOL from lib/LAYER (why)" per use of a
# symbol defined in a lib object of a layer the user may not use, from
# "OBJECT: SYMBOL TYPE ..." lines (nm -A -P) on stdin
symbol_uses() {
	local l table=
	for l in $layers; do
		allowed "$l"
		table+="$l:$allowed;"
	done
	awk -v table="$table" '
	function layer(o, p) {
		split(o, p, "/")
		return p[2]
	}
	BEGIN {
		n = split(table, rows, ";")
		for (i = 1; i <= n; i++) {
			if (split(rows[i], kv, ":") != 2)
				continue
			m = split(kv[2], us, " ")
			for (j = 1; j <= m; j++)
				ok[kv[1], us[j]] = 1
		}
	}
	{
		o = $1
		sub(/:$/, "", o)
		if ($3 == "U" || $3 == "w" || $3 == "v") {
			nu++
			uobj[nu] = o
			usym[nu] = $2
		} else {
			def[$2] = def[$2] " " o
		}
	}
	END {
		for (i = 1; i <= nu; i++) {
			if (!(usym[i] in def))
				continue
			user = layer(uobj[i])
			k = split(def[usym[i]], d, " ")
			for (j = 1; j <= k; j++) {
				l = layer(d[j])
				if (d[j] == uobj[i] || ((user, l) in ok))
					continue
				if ((l, user) in ok)
					why = l " is above " user
				else
					why = user " may not use " l
				printf "%s uses %s from lib/%s (%s)\n", uobj[i], usym[i], l, why
			}
		}
	}' | sort -u
}

if [ "$source_only" = 1 ]; then
	echo "check-layers: --source-only: the symbol check is skipped" >&2
else
	objs=()
	missing=()
	for c in $(find lib -name '*.c' | sort); do
		o=${c%.c}.o
		# with per-target flags automake names the object after the target
		alt=${c%/*}/lib_libf2fs_a-${o##*/}
		if [ -f "$build/$o" ]; then
			objs+=("$o")
		elif [ -f "$build/$alt" ]; then
			objs+=("$alt")
		else
			missing+=("$o")
		fi
	done
	nm=${NM:-nm}
	if [ ${#objs[@]} -eq 0 ]; then
		complain "no lib objects under $build: build first, or run with --source-only"
	elif [ ${#missing[@]} -gt 0 ]; then
		complain "${#missing[@]} lib object(s) missing under $build (${missing[*]:0:3}...): build first, or run with --source-only"
	fi
	if [ ${#objs[@]} -gt 0 ]; then
		if ! syms=$(cd "$build" && "$nm" -A -P -g "${objs[@]}"); then
			complain "$nm failed on the objects under $build"
		else
			while read -r line; do
				complain "$line"
			done < <(symbol_uses <<<"$syms")
		fi
	fi
fi

if [ "$bad" -ne 0 ]; then
	echo "FAIL: check-layers: $bad violation(s)"
	exit 1
fi
echo "PASS: check-layers"
