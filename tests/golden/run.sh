#!/bin/bash
# Golden outputs of fsck.f2fs, dump.f2fs and inject.f2fs on the checked-in
# images (cases.txt): each case's output must equal expected/NAME.out byte
# for byte.  `run.sh --update` rewrites the expected files (review the diff:
# only lines a commit changes on purpose may move).  Prints PASS:/FAIL: lines.
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
FSCK=${FSCK:-$top/fsck/fsck.f2fs}
DUMP=${DUMP:-$top/dump/dump.f2fs}
INJECT=${INJECT:-$top/inject/inject.f2fs}
update=0
[ "${1:-}" = --update ] && update=1
work=$(mktemp -d "${TMPDIR:-/tmp}/golden.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$here/expected"
npass=0 nfail=0

# run_case NAME IMAGE TOOL ARGS...: write the case's output on stdout
run_case() {
	local name=$1 image=$2 tool=$3 bin before after rc f
	shift 3
	case $tool in
	fsck) bin=$FSCK ;;
	dump) bin=$DUMP ;;
	inject) bin=$INJECT ;;
	esac
	rm -rf "$work/cwd" && mkdir "$work/cwd"
	# only inject gets a copy; for the others a changed mtime shows a write
	img=$work/$image.img
	if [ "$tool" = inject ]; then
		cp --sparse=always "$img" "$work/case.img"
		img=$work/case.img
	fi
	before=$(stat -c %Y.%y "$img")
	echo "\$ $tool $* IMG"
	(cd "$work/cwd" && timeout 120 "$bin" "$@" "$img" </dev/null >../stdout 2>../stderr)
	rc=$?
	cat "$work/stdout"
	echo "--- stderr"
	cat "$work/stderr"
	echo "--- exit $rc"
	(cd "$work/cwd" && find . -mindepth 1 | LC_ALL=C sort) | while read -r f; do
		if [ -f "$work/cwd/$f" ]; then
			echo "--- file $f ($(stat -c %s "$work/cwd/$f") bytes, sha256 $(sha256sum <"$work/cwd/$f" | cut -c1-16))"
			case $f in ./dump_*) head -c 20000 "$work/cwd/$f" ;; esac
		else
			echo "--- dir $f"
		fi
	done
	after=$(stat -c %Y.%y "$img")
	if [ "$before" = "$after" ]; then
		echo "--- image unchanged"
	else
		echo "--- image changed: $(sha256sum <"$img" | cut -c1-16)"
	fi
}

for x in "$here"/images/*.img.xz; do
	xz -dc "$x" >"$work/$(basename "$x" .img.xz).img"
done
while read -r name image tool args; do
	case $name in "#"* | "") continue ;; esac
	# shellcheck disable=SC2086
	run_case "$name" "$image" "$tool" $args 2>&1 |
		sed -e "s|$work/|WORK/|g" -e 's/^Done: [0-9.]* secs$/Done: N secs/' \
			-e 's/^    to ".*"$/    to "RUNNING KERNEL"/' >"$work/out"
	if [ $update = 1 ]; then
		cp "$work/out" "$here/expected/$name.out"
		echo "PASS: golden-$name (updated)"
		npass=$((npass + 1))
	elif cmp -s "$work/out" "$here/expected/$name.out"; then
		echo "PASS: golden-$name"
		npass=$((npass + 1))
	else
		echo "FAIL: golden-$name: output differs: $(diff "$here/expected/$name.out" "$work/out" | head -n 6 | tr '\n' ' ' | cut -c1-300)"
		nfail=$((nfail + 1))
	fi
done <"$here/cases.txt"
echo "# golden: $npass passed, $nfail failed" >&2
[ $nfail -eq 0 ]
