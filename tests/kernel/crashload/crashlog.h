// SPDX-License-Identifier: GPL-2.0
/*
 * The durability log of the crash-test campaign and the model that reads it.
 *
 * The guest workload (crashload run) writes one 512-byte record per event to
 * a raw disk of its own, with O_DIRECT|O_SYNC, and waits for each write: a
 * pre-record ("about to create, rename, link, unlink, modify ...") is on
 * the disk before the operation starts, a post-record ("fsync returned, the
 * file held this") only after the operation returned.  A power cut can then
 * lose operations a record announces, never a record of something done
 * before an operation that reached the disk.  Sector 0 holds a header,
 * sector 1 the cut marker the host watches for, records start at sector 2,
 * record n in sector 2 + n; reading stops at the first sector that is not
 * record n (a magic, a sequence number and a CRC32 guard each one).  The log
 * is written and read on the same architecture (host byte order).
 *
 * Record texts, after the operation number ("<op> <kind> <args>"):
 *   C id path        a new file id is created at path (pre)
 *   M path           a directory is created (pre)
 *   D id             file id's data or size is about to change (pre)
 *   D id x           file id's xattr is about to change (pre)
 *   R from to        rename (pre); replaces the file at "to", if any
 *   L from to        hard link (pre)
 *   U path           unlink (pre)
 *   S id size crc xlen xcrc nlink f|d
 *                    fsync (f) or fdatasync (d) of id returned (post): its
 *                    size, CRC32 of its data, length and CRC32 of its
 *                    user.crashtest xattr (0 0: none) and link count
 *   F path           fsync of a directory returned (post)
 *   Y                syncfs returned (post)
 *   X                the cut marker was written (the host may kill now)
 *
 * The model applies records in order and keeps, per name, the record that
 * last changed what it names and the last one that made it durable, and
 * per file whether its content is as its last fsync left it.  The rules
 * that make a name durable are F2FS's (kernel 6.1, fs/f2fs/file.c,
 * f2fs_do_sync_file and need_do_checkpoint), kept to what the kernel
 * promises:
 *   R1 data    fsync or fdatasync of a regular file makes its data and size
 *              durable (roll-forward recovery, or a checkpoint); fsync makes
 *              its xattrs durable too.
 *   R2 new     fsync of a file created at P and neither renamed nor linked
 *              since makes P durable: the kernel marks the inode for dentry
 *              recovery, or checkpoints when the parent directory is not in
 *              the last checkpoint.
 * (F2FS takes the same path for fdatasync, "both are able to be recovered",
 * but POSIX promises an fdatasync neither the xattrs nor the name, so the
 * rules do not count it for them.)
 *   R3 checkpoint  fsync of a directory and syncfs write a checkpoint
 *              (a directory always takes f2fs_sync_fs): every name that
 *              exists when they return is durable.
 * A renamed or linked name becomes durable only by R3.  The kernel's fsync
 * of a renamed file, or of one with more than one link, checkpoints too,
 * but only when the file has something to write, which the workload cannot
 * tell from outside, so the rules do not lean on it.  A
 * name is checked after the crash when a rule made it durable after the
 * last record that changed it, and its file's last fsync (R1) came after
 * the file's last D record; its xattr is checked too when an fsync came
 * after the last "D id x".
 */
#ifndef CRASHLOG_H
#define CRASHLOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CRASHLOG_SECTOR	      512
#define CRASHLOG_FIRST_RECORD 2 /* sector of record 0 */
#define CRASHLOG_CUT_SECTOR   1
#define CRASHLOG_TEXT	      (CRASHLOG_SECTOR - 16)
#define CRASHLOG_PATH	      160
#define CRASHLOG_XATTR	      "user.crashtest"

/* One sector of the log. */
struct crashlog_record {
	char magic[8]; /* "CRLOGREC", "CRLOGHDR" or "CRLOGCUT" */
	uint32_t seq;  /* record number (0 in the header and cut marker) */
	uint32_t crc;  /* CRC32 of the sector with this field zero */
	char text[CRASHLOG_TEXT];
};

/* Seal REC (magic, seq, text) with its CRC; check one read back. */
void crashlog_seal(struct crashlog_record *rec, const char *magic, uint32_t seq, const char *text);
bool crashlog_valid(const struct crashlog_record *rec, const char *magic, uint32_t seq);

struct model_name {
	char path[CRASHLOG_PATH];
	int id; /* file it names, -1 none (directories: -1, is_dir) */
	bool is_dir;
	uint32_t changed; /* 1 + seq of the last record that changed it, 0 never */
	uint32_t durable; /* 1 + seq of the last rule that made it durable, 0 never */
};

struct model_file {
	int nlink;
	bool fresh;   /* created and neither renamed nor linked since (R2) */
	bool synced;  /* data and size as the last S record says */
	bool xsynced; /* xattr as the last fsync (S ... f) says */
	size_t home;  /* name it was created at */
	uint64_t size;
	uint32_t crc, xlen, xcrc;
};

struct model {
	struct model_name *names;
	size_t nnames, names_cap;
	struct model_file *files;
	size_t nfiles, files_cap;
	uint32_t records; /* records applied */
	uint32_t last_op; /* operation number of the last record */
	uint32_t cut_op;  /* operation at the cut marker, when cut */
	bool cut;
	uint32_t syncs;	      /* S records */
	uint32_t checkpoints; /* R3 events */
	char error[200];      /* why model_apply refused a record */
};

/* What the rules say about the names that exist at the end of the log. */
struct model_tally {
	uint32_t expected;    /* durable names of synced files: checked */
	uint32_t not_durable; /* synced files whose name no rule made durable */
	uint32_t not_synced;  /* names of files changed since their last fsync */
	uint32_t directories;
};

void model_init(struct model *m);
void model_free(struct model *m);
/* Apply record SEQ with TEXT; 0, or -1 with m->error set (a log the model
 * cannot follow: a bug of the workload, never of the file system). */
int model_apply(struct model *m, uint32_t seq, const char *text);
/* The index of PATH among m->names, or -1. */
long model_find(const struct model *m, const char *path);
/* Whether name I must hold its file's synced content after a crash. */
bool model_name_expected(const struct model *m, size_t i);
void model_tally(const struct model *m, struct model_tally *t);

/*
 * Read the log at PATH into M: the header text goes to HEADER (may be NULL),
 * records are applied until the first one that is missing or torn.  0, or
 * -1 with a reason in m->error.
 */
int crashlog_read(const char *path, struct model *m, char *header, size_t header_len);

#endif
