#!/bin/sh
# Guest job of the crash-test campaign (scripts/crashtest): mount /dev/vda
# and run the seeded workload, which logs to /dev/vdb until the host kills
# the guest at the cut (crashload/crashload.c).  The job never finishes by
# itself: the host expects no exit marker; a workload that returns failed.
# Busybox sh only.
#
# Environment (GUEST_JOB_ENV):
#   SEED  the workload's seed
#   OPS   MIN-MAX, the range the cut operation is drawn from

JOB_NAME=crash-run
# shellcheck source-path=SCRIPTDIR source=common.sh # put there by guest.sh
. /job-common.sh

[ -b /dev/vdb ] || fail "no log disk /dev/vdb"
step "mount"
mount_dev
step "workload seed $SEED, cut in ops $OPS"
crashload run --seed "$SEED" --ops "$OPS" --dir "$MNT" --log /dev/vdb
fail "the workload returned (status $?) before the power cut"
