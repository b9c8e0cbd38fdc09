/* spawn.h - one command of a workflow run to its end: through seg-run's
 * helper seg-run-exec (tools/seg-run-exec.c), in a process group of its
 * own that is killed whole on a timeout and when seg-run ends, however
 * it ends; its standard output and error appended to a log, its standard
 * input /dev/null; never through a shell.
 *
 * The helper's death signal follows the thread that starts it: a command
 * is started only from a thread that waits for it (sr_spawn_run returns
 * when the command has ended). */
#ifndef SR_SPAWN_H
#define SR_SPAWN_H

#include <stddef.h>

typedef struct {
	const char *helper;	/* seg-run-exec's path */
	char *const *argv;	/* the command, argv[0] looked up in PATH */
	const char *log;	/* standard output and error, appended */
	double timeout;		/* seconds; 0: none */
	int threads;		/* the CPUs of its path (thread variables) */
} sr_spawn_req;

enum { SR_SPAWN_EXITED, SR_SPAWN_SIGNALED, SR_SPAWN_TIMEOUT,
    SR_SPAWN_NOEXEC };

typedef struct {
	int how;		/* SR_SPAWN_* */
	int code;		/* the exit status, the signal, or errno of
				 * the failed exec (SR_SPAWN_NOEXEC) */
	double wall, cpu;	/* seconds */
	long maxrss_kb;		/* the command's peak resident memory */
} sr_spawn_res;

/* Runs the command; 0 with res filled, or -1 with errbuf set when the
 * helper could not be started or reported nothing (killed). */
int sr_spawn_run(const sr_spawn_req *req, sr_spawn_res *res, char *errbuf);

/* Why a command failed, in a few words ("exit 3", "killed by signal 9
 * (Killed)", "timeout after 2 s", "cannot run: No such file or
 * directory"), or "" when it exited 0. */
const char *sr_spawn_reason(const sr_spawn_res *res, double timeout,
    char *buf, size_t size);

/* The helper beside the running program (DIR/.libexec, the source
 * tree's build; DIR/../libexec/sareuse, an installation), else
 * libexecdir/sareuse; NULL if none is executable. A static buffer. */
const char *sr_spawn_helper(const char *libexecdir);

#endif
