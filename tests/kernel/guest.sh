# shellcheck shell=bash
# Boot Debian's kernel under qemu with an F2FS image attached and run a job.
#
# Source this file from a bash test script.  The machine's own kernel has no
# f2fs, so every kernel-side check goes through a tiny guest: busybox, the
# virtio and f2fs modules, optional host binaries with their libraries, and a
# POSIX sh job script.  Success is read from markers on the serial console,
# never from qemu's exit status.  See tests/kernel/README.md.
#
# Functions:
#   guest_init                 set up qemu + kernel (runs setup.sh); 0 if usable,
#                              else non-zero with the reason in $guest_error
#   guest_run IMG JOB [HOSTFILE...]
#                              boot with IMG as /dev/vda, run JOB as /job.sh
#                              with DEV=/dev/vda
#                              (jobs/common.sh is there too, as
#                              /job-common.sh, for the job to source);
#                              0 only if the job exited 0, printed @@JOB-OK@@
#                              and no @@JOB-FAIL@@ line.  Sets guest_log (the
#                              console log), guest_error (one-line reason,
#                              empty on success) and guest_seconds (boot time).
#                              With GUEST_WATCH also guest_watch_log and
#                              guest_watch_status (see below).
#   guest_run_each JOB [HOSTFILE...]
#                              one boot for several images: those of the
#                              array GUEST_EACH_IMAGES (1 to 16) become
#                              /dev/vda, /dev/vdb, ... and JOB runs once per
#                              disk, with DEV=/dev/vdX, a fresh /tmp, an
#                              empty dmesg, nothing mounted, and the lines
#                              NAME=value of GUEST_EACH_ENV[i] (when set)
#                              exported after GUEST_JOB_ENV's.  Each run is
#                              judged as guest_run judges its one: 0 only
#                              when all passed.  Sets guest_each_error[i]
#                              (empty when run i passed), guest_each_log[i]
#                              (its part of the console), guest_log (the
#                              whole console) and guest_seconds.
#   guest_cleanup              remove the work directory (logs included)
#
# Environment:
#   GUEST_TIMEOUT       seconds before qemu is killed (default 600)
#   GUEST_SMP           virtual CPUs (default 1; 2 is no faster under TCG)
#   GUEST_MEM           guest memory in MiB (default 1024)
#   GUEST_EXTRA_DRIVES  extra -drive specs separated by spaces, e.g.
#                       "file=b.img,format=raw,if=virtio" (becomes /dev/vdb)
#   GUEST_DRIVE_OPTS    extra comma-separated options appended to IMG's own
#                       -drive spec, e.g. qemu's throttling
#                       "throttling.bps-total=20971520,throttling.iops-total=1000"
#   GUEST_EXTRA_MODULES kernel modules (space-separated names, e.g. "bfq")
#                       inserted after the standard list; they travel with
#                       the job, so each boot may ask for different ones.
#                       NAME:p1=v1,p2=v2 inserts NAME with those parameters
#                       (e.g. "configfs null_blk:zoned=1,gb=8")
#   GUEST_QEMU_ARGS     more qemu arguments, split on spaces (an NVMe
#                       device with a zoned namespace, say)
#   GUEST_JOB_ENV       lines of NAME=value exported to the job
#   GUEST_APPEND        extra kernel command line
#   GUEST_VERBOSE=1     copy the console to stderr while the guest runs
#   GUEST_TAIL_LINES    console lines shown on failure (default 40)
#   GUEST_WORKDIR       where initramfs and logs go (default: a new directory
#                       under ${TMPDIR:-/tmp})
#   GUEST_WATCH         a command (or shell function) run in the background
#                       while the guest runs, with two more arguments: the
#                       file qemu writes its pid to and the console log; it
#                       may kill qemu (a power cut).  guest_run waits for it
#                       after qemu ended; its output goes to the file
#                       $guest_watch_log, its exit status to
#                       $guest_watch_status.

GUEST_MODULES=(virtio_ring virtio virtio_pci_modern_dev virtio_pci_legacy_dev
	virtio_pci virtio_blk crc32_generic lz4_compress lz4hc_compress
	zstd_compress quota_tree quota_v2 f2fs)

_guest_here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# Results of the last guest_run, for callers.
guest_log=
guest_error=
guest_seconds=
guest_watch_log=
guest_watch_status=
guest_each_log=()
guest_each_error=()
_guest_ready=0
_guest_base=
_guest_seq=0
_guest_initrd=
_guest_rc=
_guest_each_disks=()

_guest_msg() {
	echo "guest: $*" >&2
}

guest_init() {
	local env_file
	[ "$_guest_ready" = 1 ] && return 0
	guest_error=
	if ! command -v timeout >/dev/null; then
		guest_error="timeout(1) not found"
		return 1
	fi
	if ! env_file=$("$_guest_here/setup.sh" 2>"${TMPDIR:-/tmp}/guest-setup.$$.err"); then
		guest_error=$(grep '^setup: ' "${TMPDIR:-/tmp}/guest-setup.$$.err" | tail -n 1)
		[ -n "$guest_error" ] || guest_error="setup.sh failed"
		rm -f "${TMPDIR:-/tmp}/guest-setup.$$.err"
		return 1
	fi
	rm -f "${TMPDIR:-/tmp}/guest-setup.$$.err"
	# shellcheck source=/dev/null
	. "$env_file" || {
		guest_error="cannot read $env_file"
		return 1
	}
	if ! command -v qemu-system-x86_64 >/dev/null; then
		guest_error="qemu-system-x86_64 not found"
		return 1
	fi
	if [ -z "${GUEST_WORKDIR:-}" ]; then
		GUEST_WORKDIR=$(mktemp -d "${TMPDIR:-/tmp}/f2fs-guest.XXXXXX") || {
			guest_error="cannot create a work directory"
			return 1
		}
	fi
	mkdir -p "$GUEST_WORKDIR" || {
		guest_error="cannot create $GUEST_WORKDIR"
		return 1
	}
	_guest_ready=1
}

guest_cleanup() {
	[ -n "${GUEST_WORKDIR:-}" ] && rm -rf "$GUEST_WORKDIR"
	_guest_ready=0
	_guest_base=
}

# Copy FILE to ROOT/DEST and every shared library it needs (as ldd resolves
# them, the dynamic loader included) to the same absolute path under ROOT.
_guest_copy_with_libs() {
	local root=$1 file=$2 dest=$3 lib
	mkdir -p "$root/$(dirname "$dest")" && cp -L "$file" "$root/$dest" || return 1
	chmod 0755 "$root/$dest"
	# A static binary makes ldd fail; it needs nothing more.
	ldd "$file" >/dev/null 2>&1 || return 0
	if ldd "$file" | grep -q 'not found'; then
		_guest_msg "$file: $(ldd "$file" | grep 'not found' | head -n 1 | tr -s ' \t' ' ')"
		return 1
	fi
	for lib in $(ldd "$file" | awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\// { print $1 }'); do
		[ -e "$root/$lib" ] && continue
		mkdir -p "$root/$(dirname "$lib")" && cp -L "$lib" "$root/$lib" || return 1
	done
}

# Resolve one module to a .ko file under GUEST_MODDIR, decompressed into DIR.
# Prints the module's file name, or nothing when builtin or absent.
_guest_module() {
	local name=$1 dir=$2 pattern file
	pattern=${name//_/[-_]}
	file=$(find "$GUEST_MODDIR/kernel" -name "$pattern.ko" -o -name "$pattern.ko.xz" \
		-o -name "$pattern.ko.zst" -o -name "$pattern.ko.gz" | head -n 1)
	if [ -z "$file" ]; then
		if ! grep -Eq "/$pattern\.ko" "$GUEST_MODDIR/modules.builtin" 2>/dev/null; then
			_guest_msg "note: module $name is neither in $GUEST_KVER nor builtin; skipped"
		fi
		return 0
	fi
	case $file in
	*.ko.xz) xz -dc "$file" >"$dir/$name.ko" ;;
	*.ko.zst) zstd -qdc "$file" >"$dir/$name.ko" ;;
	*.ko.gz) gzip -dc "$file" >"$dir/$name.ko" ;;
	*) cp "$file" "$dir/$name.ko" ;;
	esac || {
		_guest_msg "cannot decompress $file"
		return 1
	}
	echo "$name"
}

# Pack directory $1 as a gzip'd newc cpio into file $2.
_guest_pack() {
	(cd "$1" && find . -mindepth 1 | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) |
		gzip -1 >"$2"
}

# The part of the initramfs shared by every boot: busybox, modules, init,
# and the helpers of the jobs.
_guest_build_base() {
	local root=$GUEST_WORKDIR/base m applet mods=()
	rm -rf "$root"
	mkdir -p "$root"/{bin,sbin,usr/bin,usr/sbin,etc,proc,sys,dev,tmp,mnt,lib/modules} || return 1
	_guest_copy_with_libs "$root" /bin/busybox bin/busybox || return 1
	for applet in $(/bin/busybox --list-full); do
		[ -e "$root/$applet" ] || ln -s /bin/busybox "$root/$applet"
	done
	for m in "${GUEST_MODULES[@]}"; do
		m=$(_guest_module "$m" "$root/lib/modules") || return 1
		[ -n "$m" ] && mods+=("$m")
	done
	printf '%s\n' "${mods[@]}" >"$root/etc/guest-modules"
	cp "$_guest_here/guest-init.sh" "$root/init" && chmod 0755 "$root/init" || return 1
	cp "$_guest_here/jobs/common.sh" "$root/job-common.sh" || return 1
	_guest_pack "$root" "$GUEST_WORKDIR/base.cpio.gz" || return 1
	rm -rf "$root"
	_guest_base=$GUEST_WORKDIR/base.cpio.gz
}

# The per-boot part: the job, its environment, its extra modules and the
# host files.
_guest_build_job() {
	local root=$1 job=$2 out=$3 f m i args mods=()
	shift 3
	rm -rf "$root"
	mkdir -p "$root/bin" "$root/etc" "$root/lib/modules" || return 1
	cp "$job" "$root/job.sh" && chmod 0755 "$root/job.sh" || return 1
	[ -n "${GUEST_JOB_ENV:-}" ] && printf '%s\n' "$GUEST_JOB_ENV" >"$root/etc/job.env"
	if [ ${#_guest_each_disks[@]} -gt 0 ]; then
		echo "${_guest_each_disks[*]}" >"$root/etc/guest-each"
		for i in "${!_guest_each_disks[@]}"; do
			[ -n "${GUEST_EACH_ENV[i]:-}" ] &&
				printf '%s\n' "${GUEST_EACH_ENV[i]}" >"$root/etc/job.env.${_guest_each_disks[i]}"
		done
	fi
	for m in ${GUEST_EXTRA_MODULES:-}; do
		args=
		[[ $m == *:* ]] && args=" ${m#*:}" && args=${args//,/ }
		m=$(_guest_module "${m%%:*}" "$root/lib/modules") || return 1
		[ -n "$m" ] && mods+=("$m$args")
	done
	[ ${#mods[@]} = 0 ] || printf '%s\n' "${mods[@]}" >"$root/etc/guest-extra-modules"
	for f in "$@"; do
		if [ ! -f "$f" ]; then
			_guest_msg "host file $f not found"
			return 1
		fi
		_guest_copy_with_libs "$root" "$f" "bin/$(basename "$f")" || return 1
	done
	_guest_pack "$root" "$out"
}

# Drop carriage returns and the firmware's terminal escapes from the console.
_guest_clean_console() {
	sed -u -e 's/\r$//' -e 's/\x1b\[[0-9;?]*[A-Za-z]//g' -e 's/\x1bc//g'
}

# Print the part of the console log worth reading after a failure.
_guest_report() {
	local log=$1 lines=${GUEST_TAIL_LINES:-40}
	{
		echo "guest: $guest_error"
		echo "guest: console log: $log"
		echo "----- console tail -----"
		sed '/^@@DMESG-F2FS-BEGIN@@/,/^@@DMESG-F2FS-END@@/d' "$log" | tail -n "$lines"
		echo "----- guest dmesg (f2fs) -----"
		if grep -q '@@DMESG-F2FS-BEGIN@@' "$log"; then
			sed -n '/^@@DMESG-F2FS-BEGIN@@/,/^@@DMESG-F2FS-END@@/p' "$log" | sed '1d;$d' |
				grep . || echo "(no f2fs messages)"
		else
			grep -ai f2fs "$log" | grep -v '^@@' || echo "(none on the console)"
		fi
		echo "------------------------"
	} >&2
}


# _guest_prepare JOB HOSTFILE...: check the harness and the job, name this
# boot's log (guest_log) and pack its initrd (_guest_initrd).  Returns 1
# with guest_error set when it cannot.
_guest_prepare() {
	local job=$1 name jobcpio
	shift
	if ! guest_init; then
		_guest_msg "$guest_error"
		return 1
	fi
	if [ ! -f "$job" ]; then
		guest_error="job $job not found"
		_guest_msg "$guest_error"
		return 1
	fi
	if [ -z "$_guest_base" ] || [ ! -f "$_guest_base" ]; then
		_guest_build_base || {
			guest_error="cannot build the initramfs"
			_guest_msg "$guest_error"
			return 1
		}
	fi
	_guest_seq=$((_guest_seq + 1))
	name=$(basename "$job" .sh)
	guest_log=$GUEST_WORKDIR/$_guest_seq-$name.log
	jobcpio=$GUEST_WORKDIR/$_guest_seq-$name.cpio.gz
	_guest_initrd=$GUEST_WORKDIR/$_guest_seq-$name.initrd
	_guest_build_job "$GUEST_WORKDIR/$_guest_seq-root" "$job" "$jobcpio" "$@" || {
		guest_error="cannot pack the job and host files"
		_guest_msg "$guest_error"
		return 1
	}
	rm -rf "$GUEST_WORKDIR/$_guest_seq-root"
	# The kernel unpacks concatenated cpio archives in order.
	cat "$_guest_base" "$jobcpio" >"$_guest_initrd" && rm -f "$jobcpio"
}

# _guest_boot DRIVE-SPEC...: run qemu on _guest_initrd with these -drive
# specs (then GUEST_EXTRA_DRIVES'), the console cleaned into guest_log and
# the watcher beside it.  Sets _guest_rc (qemu's status through timeout),
# guest_seconds, guest_watch_log and guest_watch_status.
_guest_boot() {
	local spec start watch_pid='' pidfile
	local -a drives=() qemu
	for spec in "$@" ${GUEST_EXTRA_DRIVES:-}; do
		drives+=(-drive "$spec")
	done
	qemu=(qemu-system-x86_64 -accel tcg -m "${GUEST_MEM:-1024}" -smp "${GUEST_SMP:-1}"
		-nographic -monitor none -no-reboot -nic none
		-kernel "$GUEST_VMLINUZ" -initrd "$_guest_initrd"
		-append "console=ttyS0 loglevel=3 panic=-1 ${GUEST_APPEND:-}"
		"${drives[@]}")
	# shellcheck disable=SC2206 # split on purpose
	[ -n "${GUEST_QEMU_ARGS:-}" ] && qemu+=(${GUEST_QEMU_ARGS})
	if [ -n "${GUEST_WATCH:-}" ]; then
		pidfile=${guest_log%.log}.pid
		guest_watch_log=${guest_log%.log}.watch
		rm -f "$pidfile"
		qemu+=(-pidfile "$pidfile")
		# shellcheck disable=SC2086 # a command line, split on purpose
		$GUEST_WATCH "$pidfile" "$guest_log" >"$guest_watch_log" 2>&1 &
		watch_pid=$!
	fi
	start=$(date +%s.%N)
	if [ "${GUEST_VERBOSE:-0}" = 1 ]; then
		timeout -k 10 "${GUEST_TIMEOUT:-600}" "${qemu[@]}" </dev/null 2>&1 |
			_guest_clean_console | tee "$guest_log" >&2
		_guest_rc=${PIPESTATUS[0]}
	else
		timeout -k 10 "${GUEST_TIMEOUT:-600}" "${qemu[@]}" </dev/null 2>&1 |
			_guest_clean_console >"$guest_log"
		_guest_rc=${PIPESTATUS[0]}
	fi
	# shellcheck disable=SC2034 # read by callers
	guest_seconds=$(echo "$start $(date +%s.%N)" | awk '{ printf "%.1f", $2 - $1 }')
	# where a test's time goes, for whoever trims the tiers
	echo "# boot: $(basename "$_guest_initrd" .initrd), ${guest_seconds} s" >&2
	rm -f "$_guest_initrd"
	if [ -n "$watch_pid" ]; then
		wait "$watch_pid"
		guest_watch_status=$?
	fi
}

# _guest_judge LOG: the verdict on one run of the job from its part of the
# console: guest_error is empty when it passed, else the reason.
_guest_judge() {
	local log=$1 exit_line
	guest_error=
	exit_line=$(grep -ao '@@JOB-EXIT [0-9]*@@' "$log" | tail -n 1)
	if [ -n "$guest_watch_log" ] && [ "$_guest_rc" = 137 ] && [ "$guest_watch_status" = 0 ]; then
		guest_error="killed by GUEST_WATCH ($(tail -n 1 "$guest_watch_log"))"
	elif [ -z "$exit_line" ] && { [ "$_guest_rc" = 124 ] || [ "$_guest_rc" = 137 ]; }; then
		guest_error="timed out after ${GUEST_TIMEOUT:-600} s"
	elif [ -z "$exit_line" ]; then
		guest_error="no exit marker on the console (qemu status $_guest_rc)"
	elif grep -aq '@@JOB-FAIL@@' "$log"; then
		guest_error="job failed: $(grep -ao '@@JOB-FAIL@@.*' "$log" | head -n 1 |
			sed 's/^@@JOB-FAIL@@ *//')"
	elif [ "$exit_line" != "@@JOB-EXIT 0@@" ]; then
		guest_error="job exited with status ${exit_line//[!0-9]/}"
	elif ! grep -aq '@@JOB-OK@@' "$log"; then
		guest_error="job exited 0 without printing @@JOB-OK@@"
	fi
	[ -z "$guest_error" ]
}

guest_run() {
	local img=$1 job=$2
	shift 2
	guest_error=
	guest_log=
	guest_watch_log=
	guest_watch_status=
	_guest_each_disks=()
	if [ ! -f "$img" ]; then
		guest_error="image $img not found"
		_guest_msg "$guest_error"
		return 1
	fi
	_guest_prepare "$job" "$@" || return 1
	_guest_boot "file=$img,format=raw,if=virtio${GUEST_DRIVE_OPTS:+,$GUEST_DRIVE_OPTS}"
	if ! _guest_judge "$guest_log"; then
		_guest_report "$guest_log"
		return 1
	fi
	return 0
}

# _guest_disk N: the name the guest gives the Nth virtio disk (0: vda).
_guest_disk() {
	printf 'vd%b' "\\$(printf '%03o' $((97 + $1)))"
}

guest_run_each() {
	local job=$1 i d
	shift
	local -a drives=()
	guest_error=
	guest_log=
	guest_watch_log=
	guest_watch_status=
	guest_each_log=()
	guest_each_error=()
	_guest_each_disks=()
	if [ ${#GUEST_EACH_IMAGES[@]} -eq 0 ] || [ ${#GUEST_EACH_IMAGES[@]} -gt 16 ]; then
		guest_error="guest_run_each needs 1 to 16 images, not ${#GUEST_EACH_IMAGES[@]}"
		_guest_msg "$guest_error"
		return 1
	fi
	for i in "${!GUEST_EACH_IMAGES[@]}"; do
		guest_each_error[i]="not run"
		if [ ! -f "${GUEST_EACH_IMAGES[i]}" ]; then
			guest_error="image ${GUEST_EACH_IMAGES[i]} not found"
		fi
		_guest_each_disks+=("$(_guest_disk "$i")")
		drives+=("file=${GUEST_EACH_IMAGES[i]},format=raw,if=virtio${GUEST_DRIVE_OPTS:+,$GUEST_DRIVE_OPTS}")
	done
	if [ -n "$guest_error" ] || ! _guest_prepare "$job" "$@"; then
		[ -n "$guest_error" ] && _guest_msg "$guest_error"
		for i in "${!GUEST_EACH_IMAGES[@]}"; do guest_each_error[i]=$guest_error; done
		return 1
	fi
	_guest_boot "${drives[@]}"
	local failures=0 whole=$guest_log
	for i in "${!_guest_each_disks[@]}"; do
		d=${_guest_each_disks[i]}
		guest_each_log[i]=${whole%.log}.$d.log
		awk -v s="@@DISK-START $d@@" -v e="@@DISK-END $d@@" '
			index($0, s) { on = 1 } on { print } index($0, e) { on = 0 }' "$whole" >"${guest_each_log[i]}"
		if _guest_judge "${guest_each_log[i]}"; then
			guest_each_error[i]=
		else
			guest_each_error[i]=$guest_error
			failures=$((failures + 1))
			guest_log=${guest_each_log[i]}
			_guest_msg "disk $d (${GUEST_EACH_IMAGES[i]}):"
			[ -s "${guest_each_log[i]}" ] || guest_log=$whole
			_guest_report "$guest_log"
		fi
	done
	guest_log=$whole
	guest_error=
	[ $failures -eq 0 ] || guest_error="$failures of ${#_guest_each_disks[@]} runs failed"
	[ $failures -eq 0 ]
}
