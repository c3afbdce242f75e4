/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Repairs (fsck's fix mode).  The checker reports problems and keeps what
 * its walk found (f2fs_check_options.findings); the caller decides which
 * problems to fix -- its policy: -y, -p, -n, a prompt -- and adds those
 * here.  Each problem's table row names its fix (f2fs_problem_info()->fix);
 * a fix kind runs once however many problems asked for it (the SIT is
 * rebuilt once for all of its problems).  Everything goes through the
 * write path of a handle opened with F2FS_FS_WRITE and ends with one
 * checkpoint, written as the kernel writes an unmount checkpoint.
 *
 * The fixes that rebuild state from the walk (F2FS_FIX_SPACE,
 * F2FS_FIX_UNREACHABLE) are withheld when a problem found cut the walk short
 * (its row lacks F2FS_PR_KEEPS_WALK), whether or not that problem is being
 * fixed: blocks and nodes past it would look unused and be freed.
 */
#ifndef F2FS_REPAIR_H
#define F2FS_REPAIR_H

#include <stdbool.h>
#include <stdint.h>

#include "f2fs/check.h"
#include "f2fs/device.h"
#include "f2fs/fs.h"

struct f2fs_repair;

/* What became of one fix kind. */
struct f2fs_fix_report {
	enum f2fs_fix fix;
	unsigned int problems; /* the problems it was asked to fix */
	unsigned int changed;  /* segments, entries or inodes it changed */
	int result;	       /* 0, or a negative errno: nothing of it was kept */
	bool withheld;	       /* not run: the walk was cut short (why says by what) */
	char why[200];
};

/* Start a repair of @fs (opened with F2FS_FS_WRITE), before its check. */
int f2fs_repair_begin(struct f2fs_fs *fs, struct f2fs_repair **out);

/*
 * Note that the check reported @p (every problem, fixed or not: the walk
 * rule needs them all).  With @fix, queue its fix.  Returns -ENOMEM, else 0.
 */
int f2fs_repair_note(struct f2fs_repair *r, const struct f2fs_problem *p, bool fix);

/*
 * After the check of @fs that kept @findings with result @res: run the
 * queued fixes in a fixed order (the space first, inodes last), then one
 * checkpoint.  @on_fix hears each fix kind that was queued, run or
 * withheld.  Returns how many fix kinds ran (0: nothing was written), or a
 * negative errno: a fix or the checkpoint failed, and nothing reached the
 * device's checkpointed state.
 */
int f2fs_repair_run(struct f2fs_repair *r, const struct f2fs_findings *findings,
		    const struct f2fs_check_result *res,
		    void (*on_fix)(const struct f2fs_fix_report *, void *), void *arg);

void f2fs_repair_free(struct f2fs_repair *r);

/*
 * A repair session: fsck's whole run on one handle (lib/repair/session.c).
 * Open it on the device, check (the caller prints what it hears), let the
 * caller decide, then repair: rounds of the approved fixes, each ending
 * with a checkpoint after which the handle reads the volume again
 * (f2fs_fs_reload()) and checks it, until a check finds nothing the caller
 * approves or a round changes nothing.  The first round works from the
 * first check's findings: no second walk before it.
 */
struct f2fs_session;
struct f2fs_recovery;

#define F2FS_SESSION_WRITE	       (1u << 0) /* open for writing (read-only when it cannot) */
#define F2FS_SESSION_ROLL_FORWARD      (1u << 1) /* apply a fsynced chain at open, as a mount */
#define F2FS_SESSION_DROP_ROLL_FORWARD (1u << 2) /* the repair's checkpoint discards the chain */

struct f2fs_session_hooks {
	/* may the fix of a problem with @code run (the caller's policy; asked each round) */
	bool (*approve)(enum f2fs_problem_code code, void *arg);
	void (*on_recovery)(const struct f2fs_recovery *rec, void *arg);
	void (*on_fix)(const struct f2fs_fix_report *rep, void *arg);
	void *arg;
};

struct f2fs_session_outcome {
	bool checkpointed;   /* something was written and checkpointed */
	unsigned int rounds; /* rounds that wrote */
	unsigned int left;   /* problems the last check found */
};

/* Why f2fs_session_open() failed: the caller's exit code differs. */
enum f2fs_session_failure {
	F2FS_SESSION_NOT_OPENED = 1, /* the volume could not be opened at all */
	F2FS_SESSION_NOT_RECOVERED,  /* opened, but the fsynced chain could not be applied */
};

/*
 * Open a session on @dev (the caller closes the device after the session).
 * With F2FS_SESSION_WRITE the handle is opened for writing, else (or when
 * that fails: f2fs_session_repair() then says why) read-only, accepting a
 * short device.  With F2FS_SESSION_ROLL_FORWARD a fsynced chain is applied
 * and checkpointed first (@h->on_recovery hears it); its failure fails the
 * open.  Returns 0, or a negative errno with one line in @why and the
 * kind of failure in @failure.
 */
int f2fs_session_open(struct f2fs_device *dev, unsigned int flags,
		      const struct f2fs_session_hooks *h, struct f2fs_session **out, char *why,
		      size_t why_len, enum f2fs_session_failure *failure);

struct f2fs_fs *f2fs_session_fs(const struct f2fs_session *s);
/* Was a fsynced chain applied and checkpointed? */
bool f2fs_session_recovered(const struct f2fs_session *s);

/*
 * Check the volume as the handle holds it now; @o's callbacks hear the
 * problems (its findings member is ignored: the session keeps them).
 * Returns 0, or a negative errno with res->fatal set.
 */
int f2fs_session_check(struct f2fs_session *s, const struct f2fs_check_options *o,
		       struct f2fs_check_result *res);

/*
 * The rounds, from the last check (see above).  Returns 0 with @out
 * filled, -EROFS when the handle is read-only, or another negative errno
 * (one line in the open's @why): a fix or a checkpoint failed, and what
 * the device holds is what the last checkpoint written says.
 */
int f2fs_session_repair(struct f2fs_session *s, struct f2fs_session_outcome *out);

void f2fs_session_close(struct f2fs_session *s);

/* What f2fs_rebuild() found and used. */
struct f2fs_rebuild_report {
	bool used_checkpoint, used_nat, used_sit; /* what of the damaged volume still loaded */
	bool used_raw_nat;	 /* the stored NAT copies, read without a checkpoint */
	uint64_t blocks_scanned; /* main-area blocks read */
	uint32_t unreadable_segments;
	uint64_t node_blocks;	/* blocks that read as node blocks, stale copies included */
	uint32_t nodes, inodes; /* nids kept (with their newest copy) */
	uint32_t dropped;	/* nids found whose node the tables say was freed */
	uint32_t leftovers;	/* of them, nodes a newer node took a data block from */
	const char *liveness;	/* the table that said which nids are alive, or "no table" */
	uint64_t data_blocks;	/* data addresses of kept nodes marked in use */
	uint32_t summaries;	/* SSA blocks written (the stored ones disagreed) */
	uint64_t cp_version;	/* of the checkpoint written */
};

/*
 * Rebuild the NAT, the SIT and a checkpoint of the volume on @dev (opened
 * for writing) from a scan of its main area for node blocks, for a volume
 * whose NAT, SIT or checkpoint packs are unusable; only a superblock must
 * be valid.  Whatever of the damaged tables still loads decides which copy
 * of a node is current and which nids are alive (lib/repair/rebuild.c has
 * the rules).  Copy 0 of the NAT and SIT is rewritten and a checkpoint
 * selecting it written last.  Run the check and repair afterwards: link
 * counts, sizes, summary entries and what two files share are theirs.
 * Returns 0, or a negative errno with a one-line reason in @why (nothing
 * was written unless the failure came while writing).
 */
int f2fs_rebuild(struct f2fs_device *dev, struct f2fs_rebuild_report *rep, char *why,
		 size_t why_len);

#endif
