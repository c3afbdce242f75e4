/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Workloads and traces: what emulated threads do, op by op, and where it
 * comes from -- the built-in generators (named after the seed experiments),
 * a trace file in the text format f2fs_io(8) documents, importers of
 * strace and fio logs.  All of them produce a struct f2fs_replay_workload,
 * which the replay engine (replay.h) runs.  Nothing here needs a file
 * system: this layer sits at the bottom of lib/.
 *
 * A workload is a set of threads, each with its I/O class (the cgroup
 * weight class its I/O is scheduled in) and a list of ops it performs in
 * order.  Ops name files by absolute path inside the volume.  A thread may
 * loop over its list until the threads that do not loop have all finished
 * (the seed experiments' background streams); "%n" in a path of a looping
 * thread becomes the round number, so each round makes new names.
 */
#ifndef F2FS_TRACE_H
#define F2FS_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum f2fs_replay_opcode {
	F2FS_RP_CREATE,	   /* path: a new empty regular file (existing: opened) */
	F2FS_RP_MKDIR,	   /* path */
	F2FS_RP_WRITE,	   /* path, length: at the thread's position in that file, which advances */
	F2FS_RP_PWRITE,	   /* path, offset, length */
	F2FS_RP_READ,	   /* path, offset, length */
	F2FS_RP_FSYNC,	   /* path (a file or a directory) */
	F2FS_RP_FDATASYNC, /* path */
	F2FS_RP_SYNC,	   /* no path: sync(2) */
	F2FS_RP_UNLINK,	   /* path (a file, or an empty directory) */
	F2FS_RP_RENAME,	   /* path, path2 */
	F2FS_RP_TRUNCATE,  /* path, length: the new size */
	F2FS_RP_SLEEP,	   /* length: nanoseconds */
	F2FS_RP_OPCODES
};

/* Op flags. */
enum f2fs_replay_op_flags {
	F2FS_RP_F_SYNC = 1u << 0, /* O_SYNC write: an fsync follows it */
};

/* "Start as soon as the thread's previous op ends", for time_ns. */
#define F2FS_RP_ASAP UINT64_MAX

struct f2fs_replay_op {
	uint64_t time_ns; /* earliest start, from the run's start, or F2FS_RP_ASAP */
	enum f2fs_replay_opcode op;
	uint32_t flags;	 /* enum f2fs_replay_op_flags */
	char *path;	 /* absolute, inside the volume (NULL for sync and sleep) */
	char *path2;	 /* rename's target */
	uint64_t offset; /* pwrite, read */
	uint64_t length; /* bytes (write, pwrite, read), new size (truncate), ns (sleep) */
	uint32_t line;	 /* the trace line it came from, 0 for generated ops */
};

/* The I/O class a thread's requests are scheduled in (f2fs_io replay --io-weights). */
enum f2fs_replay_class {
	F2FS_RP_CLASS_FG, /* foreground: default weight 100 */
	F2FS_RP_CLASS_BG, /* background (the seed's low-weight cgroup): default weight 20 */
	F2FS_RP_CLASSES
};

/* The report's I/O classes: the workload's, then the checkpoint thread's and the flusher's. */
#define F2FS_RP_IO_CLASSES (F2FS_RP_CLASSES + 2)

struct f2fs_replay_thread {
	char name[32];
	enum f2fs_replay_class io_class;
	bool loop; /* repeat the ops until every non-looping thread has finished */
	struct f2fs_replay_op *ops;
	size_t nops, cap;
};

struct f2fs_replay_workload {
	char name[32]; /* "ckpt-storm", ..., or "trace" */
	struct f2fs_replay_thread *threads;
	size_t nthreads, cap;
	/* paths (directories) made before the run, not timed: the generators' setup */
	char **setup_dirs;
	size_t nsetup_dirs;
	/* files written in full before the run, not timed (fio lays its files out first) */
	struct f2fs_replay_setup_file {
		char *path;
		uint64_t size;
	} * setup_files;
	size_t nsetup_files;
	/* after the ops: every file written is read back sequentially and the read timed */
	bool read_pass;
};

/* ---- building workloads ---- */

void f2fs_replay_workload_init(struct f2fs_replay_workload *wl, const char *name);
void f2fs_replay_workload_free(struct f2fs_replay_workload *wl);

/* The thread named @name, added (class FG, not looping) when it is not there yet; NULL on ENOMEM.
 */
struct f2fs_replay_thread *f2fs_replay_thread_get(struct f2fs_replay_workload *wl,
						  const char *name);

/* Append a copy of @op (its paths duplicated) to @t.  0 or -ENOMEM. */
int f2fs_replay_thread_add(struct f2fs_replay_thread *t, const struct f2fs_replay_op *op);

/* A directory to make before the run (its parents first).  0 or -ENOMEM. */
int f2fs_replay_add_setup_dir(struct f2fs_replay_workload *wl, const char *path);

/* A file of @size bytes to write before the run (its directory a setup dir).  0 or -ENOMEM. */
int f2fs_replay_add_setup_file(struct f2fs_replay_workload *wl, const char *path, uint64_t size);

/* The opcode's name in the trace format ("pwrite"), and back (-1 when unknown). */
const char *f2fs_replay_opcode_name(enum f2fs_replay_opcode op);
int f2fs_replay_opcode_parse(const char *name);

/* ---- the trace format (f2fs_io(8), REPLAY TRACE FORMAT) ---- */

/*
 * Where a trace or log was refused: the file, the line (1-based) and the
 * reason, so a tool prints "FILE:LINE: REASON".
 */
struct f2fs_replay_parse_error {
	char file[256];
	uint32_t line;
	char reason[160];
};

/*
 * Read a trace from @in (named @file in errors) into @wl (initialised by
 * the caller).  Every line is checked before the first op is used: on the
 * first bad line returns -EINVAL with *err filled, and @wl holds nothing of
 * the trace.  -ENOMEM, or -EIO for a read error.
 */
int f2fs_replay_trace_read(FILE *in, const char *file, struct f2fs_replay_workload *wl,
			   struct f2fs_replay_parse_error *err);

/* Write @wl as a trace (what f2fs_replay_trace_read reads back to the same workload). */
int f2fs_replay_trace_write(FILE *out, const struct f2fs_replay_workload *wl);

/*
 * Convert an `strace -f -ttt -e trace=%file,%desc` log: file-descriptor
 * operations become ops on the paths the descriptors were opened with,
 * one thread per traced pid.  Only paths under @root (a directory of the
 * traced program's view) are kept, renamed to paths inside the volume
 * ("/" for @root itself); NULL keeps every absolute path as it is.
 * Relative paths start where the log shows each process to be (chdir,
 * getcwd, strace -y), or at @root until it does; a relative path that
 * cannot be placed so is refused (-EINVAL, *err naming its line).
 */
int f2fs_replay_import_strace(FILE *in, const char *file, const char *root,
			      struct f2fs_replay_workload *wl, struct f2fs_replay_parse_error *err);

/* Convert a fio iolog (version 2 or 3): one thread per log, files named by their log name. */
int f2fs_replay_import_fio_iolog(FILE *in, const char *file, struct f2fs_replay_workload *wl,
				 struct f2fs_replay_parse_error *err);

/* ---- the built-in workloads (f2fs_io(8), WORKLOADS) ---- */

/* Parameters of the generators; 0 means the seed experiment's value. */
struct f2fs_replay_gen_params {
	uint32_t count;	     /* ckpt-storm: thread A's rounds (1000); writeback: small files (2000);
				untar: files (35000) */
	uint32_t threads;    /* tiotest: threads, one file each (32) */
	uint64_t file_size;  /* ckpt-storm: thread B's file (1 GiB); tiotest: per file (32 MiB);
				seqwrite: 1536 MiB; writeback and dd: the stream (1000 MiB) */
	uint64_t io_size;    /* ckpt-storm 128 KiB; tiotest and seqwrite 512 KiB; writeback 1 MiB */
	uint64_t small_size; /* writeback: each small file (16 KiB); untar: every file's (spread) */
};

/* The generators' names, NULL-terminated, for help texts. */
extern const char *const f2fs_replay_generators[];

/*
 * Build workload @name ("ckpt-storm", "tiotest", "seqwrite", "writeback", "dd", "untar")
 * into @wl (initialised by the caller).  -ENOENT for an unknown name,
 * -EINVAL for parameters out of range (*why says which), -ENOMEM.
 */
int f2fs_replay_generate(const char *name, const struct f2fs_replay_gen_params *p,
			 struct f2fs_replay_workload *wl, char *why, size_t why_len);

#endif
