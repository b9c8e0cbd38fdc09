/* sa-spawnbench - the cost of running a workflow's command through
 * exec/spawn (its own process group and death signal, the commands'
 * reaper, the log, the wait with a timeout, the outcome and rusage)
 * against a bare posix_spawn and
 * waitpid of the same command, for test/bench/commands.
 *
 *	sa-spawnbench N DIR
 *
 * runs N times `touch DIR/out.png` each way, alternating, and prints
 * "bare MEDIAN_MS" and "spawn MEDIAN_MS" (milliseconds of wall time per
 * command, the median of N). */
#define _GNU_SOURCE
#include "exec/spawn.h"
#include "core/num.h"

#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

extern char **environ;

static int
cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

int
main(int argc, char **argv)
{
	char out[4096], log[4096], err[256];
	double *bare, *spawned, t;
	long n, i;
	int st;

	if (argc != 3 || (n = atol(argv[1])) < 1) {
		fprintf(stderr, "usage: sa-spawnbench N DIR\n");
		return 2;
	}
	if (sr_spawn_init(err) != 0) {
		fprintf(stderr, "sa-spawnbench: %s\n", err);
		return 1;
	}
	snprintf(out, sizeof out, "%s/out.png", argv[2]);
	snprintf(log, sizeof log, "%s/log", argv[2]);
	char *cmd[] = { "touch", out, NULL };
	sr_spawn_req req = { cmd, log, 0, 1 };
	sr_spawn_res res;
	bare = calloc((size_t)n, sizeof *bare);
	spawned = calloc((size_t)n, sizeof *spawned);
	for (i = 0; i < n; i++) {
		pid_t pid;
		t = sr_now();
		if (posix_spawnp(&pid, "touch", NULL, NULL, cmd, environ) != 0 ||
		    waitpid(pid, &st, 0) < 0 || st != 0)
			return 1;
		bare[i] = sr_now() - t;
		t = sr_now();
		if (sr_spawn_run(&req, &res, err) != 0 ||
		    res.how != SR_SPAWN_EXITED || res.code != 0) {
			fprintf(stderr, "sa-spawnbench: %s\n", err);
			return 1;
		}
		spawned[i] = sr_now() - t;
	}
	qsort(bare, (size_t)n, sizeof *bare, cmp);
	qsort(spawned, (size_t)n, sizeof *spawned, cmp);
	printf("bare %.3f\nspawn %.3f\n", 1e3 * bare[n / 2], 1e3 * spawned[n / 2]);
	free(bare);
	free(spawned);
	return 0;
}
