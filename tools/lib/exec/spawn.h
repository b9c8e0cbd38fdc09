/* spawn.h - one command of a workflow run to its end, never through a
 * shell: in a process group of its own, killed whole on a timeout and
 * after it exits (what it left running), and when this process ends,
 * however it ends; its standard output and error appended to a log, its
 * standard input /dev/null; the thread variables of numerical libraries
 * (OMP_NUM_THREADS, OPENBLAS_NUM_THREADS, MKL_NUM_THREADS,
 * NUMEXPR_NUM_THREADS) set to the CPUs of its path unless set already.
 *
 * When this process ends, the command gets SIGKILL (PR_SET_PDEATHSIG of
 * the thread that started it: a command is started only from a thread
 * that waits for it, as sr_spawn_run does), and a reaper process, of a
 * group of its own so that a kill of this process's group spares it,
 * kills the groups of the commands still running (their children: sh -c
 * "a | b", Python's workers). The reaper, rather than a helper process
 * per command, because a helper's exec doubles the cost of a command
 * (test/bench/commands). */
#ifndef SR_SPAWN_H
#define SR_SPAWN_H

#include <stddef.h>

/* Starts the reaper; once, before any thread. 0, or -1 with errbuf. */
int sr_spawn_init(char *errbuf);

typedef struct {
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

/* Runs the command; 0 with res filled, or -1 with errbuf set when it
 * could not be started (the log, a process). */
int sr_spawn_run(const sr_spawn_req *req, sr_spawn_res *res, char *errbuf);

/* Why a command failed, in a few words ("exit 3", "killed by signal 9
 * (Killed)", "timeout after 2 s", "cannot run: No such file or
 * directory"), or "" when it exited 0. */
const char *sr_spawn_reason(const sr_spawn_res *res, double timeout,
    char *buf, size_t size);

#endif
