#!/bin/bash
# A filter: the output of dump.f2fs -d 1 (ours or upstream's) on stdin, the
# superblock and checkpoint fields that depend only on the layout on stdout,
# one "name value" line each (the decimal value).  Left out, as they differ
# by design between two formats of the same device: the magic and versions,
# the checkpoint version, CRCs and checksums, the elapsed time and the
# version bitmaps.  Used wherever two layouts are compared: compare-layout.sh,
# gen-layout-expected.sh, tests/cli/mkfs-layout.sh, tests/kernel/010-zoned.sh.
grep -E '^[a-z_]+(\[[A-Z_0-9]+\])?[[:space:]]+\[0x' |
	grep -Ev '^(magic|major_ver|minor_ver|checkpoint_ver|crc|checksum|elapsed_time)[[:space:]]' |
	grep -Ev '^[a-z_]+_version_bitmap\[' |
	sed -E 's/^([^[:space:]]+)[[:space:]]+\[0x[[:space:]]*[0-9a-f]+[[:space:]]*:[[:space:]]*([0-9]+)\]$/\1 \2/'
