#!/bin/sh
# The guest's /init (guest.sh packs it into every initramfs): mount the
# pseudo file systems, insert the modules, run /job.sh -- once with
# DEV=/dev/vda, or once per disk listed in /etc/guest-each (guest_run_each)
# -- report through markers on the console, and power off.  Busybox sh only.
#
# Markers: "@@JOB-START@@" before a run, "@@JOB-EXIT rc@@" after it, the
# f2fs lines of dmesg between "@@DMESG-F2FS-BEGIN@@" and
# "@@DMESG-F2FS-END@@" when it failed; in the per-disk mode each run is
# framed by "@@DISK-START vdX@@" and "@@DISK-END vdX@@".
export PATH=/bin:/sbin:/usr/bin:/usr/sbin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mount -t tmpfs tmpfs /tmp
mkdir -p /mnt
# one module a line, with its parameters after the name
cat /etc/guest-modules /etc/guest-extra-modules 2>/dev/null | while read -r m args; do
	# shellcheck disable=SC2086 # the parameters are words
	insmod "/lib/modules/$m.ko" $args || echo "@@GUEST-WARN@@ insmod $m failed"
done

disks=vda
[ -r /etc/guest-each ] && disks=$(cat /etc/guest-each)
last=${disks##* }
i=0
while [ ! -b "/dev/$last" ] && [ $i -lt 100 ]; do
	sleep 0.1
	i=$((i + 1))
done
[ -b "/dev/$last" ] || echo "@@GUEST-WARN@@ /dev/$last did not appear"

# load_env FILE: export the NAME=value lines of FILE, when there is one.
load_env() {
	[ -r "$1" ] || return 0
	set -a
	. "$1"
	set +a
}

# run_job: /job.sh with its output on the console, the f2fs lines of dmesg
# when it failed, and the exit marker.
run_job() {
	echo
	echo "@@JOB-START@@"
	{
		cd / && sh /job.sh
		echo $? >/.job-rc
	} 2>&1 | tee /.job-out
	rc=$(cat /.job-rc 2>/dev/null)
	[ -n "$rc" ] || rc=255
	if [ "$rc" != 0 ] || grep -q '@@JOB-FAIL@@' /.job-out ||
		! grep -q '@@JOB-OK@@' /.job-out; then
		echo "@@DMESG-F2FS-BEGIN@@"
		dmesg | grep -i f2fs
		echo "@@DMESG-F2FS-END@@"
	fi
	echo "@@JOB-EXIT $rc@@"
	rm -f /.job-rc /.job-out
}

if [ -r /etc/guest-each ]; then
	# Each run gets a fresh /tmp and an empty kernel log, and finds nothing
	# mounted by the run before it.
	for d in $disks; do
		echo
		echo "@@DISK-START $d@@"
		mount -t tmpfs tmpfs /tmp
		dmesg -c >/dev/null
		(
			export DEV=/dev/$d
			load_env /etc/job.env
			load_env "/etc/job.env.$d"
			run_job
		)
		if grep -q " /mnt " /proc/mounts; then
			umount /mnt || umount -l /mnt
		fi
		umount /tmp
		echo "@@DISK-END $d@@"
	done
else
	export DEV=/dev/vda
	load_env /etc/job.env
	run_job
fi
sync
poweroff -f
