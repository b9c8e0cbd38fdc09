/* sa-spawnbench - the cost of running a workflow's command through
 * exec/spawn (seg-run-exec: a process group, the death signal, the
 * outcome and rusage through a pipe) against a bare posix_spawn and
 * waitpid of the same command, for test/bench/commands.
 *
 *	sa-spawnbench HELPER N DIR
 *
 * runs N times `touch DIR/out.png` each way, alternating, and prints
 * "bare MEDIAN_MS", "spawn MEDIAN_MS" and "direct MEDIAN_MS"
 * (milliseconds of wall time per command, the median of N); direct is
 * the design without a helper: vfork, the child's own group and death
 * signal, exec (what a reaper process per seg-run would pair with). */
#define _GNU_SOURCE
#include "exec/spawn.h"

#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <sys/prctl.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>

extern char **environ;

static double
now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int
cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* vfork, own group, death signal, exec: the command's pid. */
static pid_t
direct(char *const *cmd)
{
	pid_t pid = vfork();

	if (pid == 0) {
		setpgid(0, 0);
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		execvp(cmd[0], cmd);
		_exit(127);
	}
	return pid;
}

int
main(int argc, char **argv)
{
	char out[4096], log[4096], err[256];
	double *bare, *spawned, *dir, t;
	long n, i;
	int st;

	if (argc != 4 || (n = atol(argv[2])) < 1) {
		fprintf(stderr, "usage: sa-spawnbench HELPER N DIR\n");
		return 2;
	}
	snprintf(out, sizeof out, "%s/out.png", argv[3]);
	snprintf(log, sizeof log, "%s/log", argv[3]);
	char *cmd[] = { "touch", out, NULL };
	sr_spawn_req req = { argv[1], cmd, log, 0, 1 };
	sr_spawn_res res;
	bare = calloc((size_t)n, sizeof *bare);
	spawned = calloc((size_t)n, sizeof *spawned);
	dir = calloc((size_t)n, sizeof *dir);
	for (i = 0; i < n; i++) {
		pid_t pid;
		t = now();
		if (posix_spawnp(&pid, "touch", NULL, NULL, cmd, environ) != 0 ||
		    waitpid(pid, &st, 0) < 0 || st != 0)
			return 1;
		bare[i] = now() - t;
		t = now();
		if (sr_spawn_run(&req, &res, err) != 0 ||
		    res.how != SR_SPAWN_EXITED || res.code != 0) {
			fprintf(stderr, "sa-spawnbench: %s\n", err);
			return 1;
		}
		spawned[i] = now() - t;
		t = now();
		if ((pid = direct(cmd)) < 0 || waitpid(pid, &st, 0) < 0 || st != 0)
			return 1;
		dir[i] = now() - t;
	}
	qsort(bare, (size_t)n, sizeof *bare, cmp);
	qsort(spawned, (size_t)n, sizeof *spawned, cmp);
	qsort(dir, (size_t)n, sizeof *dir, cmp);
	printf("bare %.3f\nspawn %.3f\ndirect %.3f\n", 1e3 * bare[n / 2],
	    1e3 * spawned[n / 2], 1e3 * dir[n / 2]);
	free(bare);
	free(spawned);
	free(dir);
	return 0;
}
