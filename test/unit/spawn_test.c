/* spawn_test.c - unit tests of tools/lib/exec/spawn.c: exit 0 and 3, a
 * signal, a program not found, a timeout that kills the command's
 * children too, children left running after a normal exit, the log of
 * both output streams, the peak memory, the thread variables (set, and
 * kept when set), values a shell would expand passed as they are, and
 * the caller killed with SIGKILL while its command runs: nothing of the
 * command outlives it. Exits 0 on success; prints "FAIL: ..." and exits
 * 1 otherwise. */
#define _GNU_SOURCE
#include "exec/spawn.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "check.h"

static char dir[64], logpath[96];

static void
nap(double s)
{
	struct timespec t = { (time_t)s, (long)((s - (double)(time_t)s) * 1e9) };

	nanosleep(&t, NULL);
}

/* Runs argv with timeout and threads; the result, the log in log. */
static int
run(char *const *argv, double timeout, int threads, sr_spawn_res *res,
    const char **log)
{
	sr_spawn_req req = { argv, logpath, timeout, threads };
	char err[256];
	int rc;

	unlink(logpath);
	rc = sr_spawn_run(&req, res, err);
	if (rc != 0)
		fail("%s: %s", argv[0], err);
	*log = slurp(logpath);
	return rc;
}

/* Whether pid runs: it exists and is not a zombie (a killed child whose
 * parent died is reaped by whatever reaps orphans, which may be late). */
static int
alive(long pid)
{
	char path[64], *p;
	const char *stat;

	if (kill((pid_t)pid, 0) != 0)
		return 0;
	snprintf(path, sizeof path, "/proc/%ld/stat", pid);
	stat = slurp(path);
	return (p = strrchr(stat, ')')) == NULL || p[1] != ' ' || p[2] != 'Z';
}

/* Whether the pids listed in file (one a line) are all gone within 2 s. */
static int
gone(const char *file)
{
	char text[256];
	long pid[4];
	int n = 0, k, i;
	FILE *fp = fopen(file, "r");

	if (!fp)
		return 0;
	while (n < 4 && fgets(text, sizeof text, fp))
		pid[n++] = atol(text);
	fclose(fp);
	if (n == 0)
		return 0;
	for (k = 0; k < 200; k++) {
		for (i = 0; i < n; i++)
			if (alive(pid[i]))
				break;
		if (i == n)
			return 1;
		nap(0.01);
	}
	return 0;
}

/* Waits (at most 5 s) until file has lines lines. */
static void
wait_lines(const char *file, int lines)
{
	int k, n;
	const char *s, *p;

	for (k = 0; k < 500; k++) {
		s = slurp(file);
		for (n = 0, p = s; *p; p++)
			n += *p == '\n';
		if (n >= lines)
			return;
		nap(0.01);
	}
}

static void
test_outcomes(void)
{
	sr_spawn_res r;
	const char *log;
	char why[128];

	if (run((char *[]){ "sh", "-c", "echo out; echo err >&2", NULL }, 0, 1,
	    &r, &log) == 0 && (r.how != SR_SPAWN_EXITED || r.code != 0 ||
	    strcmp(log, "out\nerr\n") != 0 || r.maxrss_kb <= 0 || r.wall <= 0 ||
	    *sr_spawn_reason(&r, 0, why, sizeof why)))
		fail("exit 0: how %d code %d log '%s' rss %ld", r.how, r.code, log,
		    r.maxrss_kb);
	if (run((char *[]){ "sh", "-c", "exit 3", NULL }, 0, 1, &r, &log) == 0 &&
	    strcmp(sr_spawn_reason(&r, 0, why, sizeof why), "exit 3") != 0)
		fail("exit 3: '%s'", why);
	if (run((char *[]){ "sh", "-c", "kill -SEGV $$", NULL }, 0, 1, &r,
	    &log) == 0 && (r.how != SR_SPAWN_SIGNALED || r.code != SIGSEGV ||
	    strncmp(sr_spawn_reason(&r, 0, why, sizeof why),
	    "killed by signal 11", 19) != 0))
		fail("SIGSEGV: how %d code %d '%s'", r.how, r.code, why);
	if (run((char *[]){ "/nonexistent/prog", NULL }, 0, 1, &r, &log) == 0 &&
	    (r.how != SR_SPAWN_NOEXEC || r.code != ENOENT ||
	    strcmp(sr_spawn_reason(&r, 0, why, sizeof why),
	    "cannot run: No such file or directory") != 0))
		fail("not found: how %d code %d '%s'", r.how, r.code, why);
	if (run((char *[]){ "no-such-program-anywhere", NULL }, 0, 1, &r,
	    &log) == 0 && (r.how != SR_SPAWN_NOEXEC || r.code != ENOENT))
		fail("not in PATH: how %d code %d", r.how, r.code);
}

static void
test_trees(void)
{
	sr_spawn_res r;
	const char *log;
	char why[128], script[512], pids[128];

	snprintf(pids, sizeof pids, "%s/pids1", dir);
	snprintf(script, sizeof script,
	    "sleep 60 & echo $! > %s; echo $$ >> %s; sleep 60", pids, pids);
	if (run((char *[]){ "sh", "-c", script, NULL }, 0.5, 1, &r, &log) == 0 &&
	    (r.how != SR_SPAWN_TIMEOUT || strcmp(sr_spawn_reason(&r, 0.5, why,
	    sizeof why), "timeout after 0.5 s") != 0 || r.wall > 10))
		fail("timeout: how %d '%s' wall %g", r.how, why, r.wall);
	if (!gone(pids))
		fail("timeout: the command or its child still runs");
	snprintf(pids, sizeof pids, "%s/pids2", dir);
	snprintf(script, sizeof script, "sleep 60 & echo $! > %s; exit 0", pids);
	if (run((char *[]){ "sh", "-c", script, NULL }, 0, 1, &r, &log) == 0 &&
	    (r.how != SR_SPAWN_EXITED || r.code != 0))
		fail("left running: how %d code %d", r.how, r.code);
	if (!gone(pids))
		fail("left running: the command's child outlived it");
}

static void
test_environment(void)
{
	sr_spawn_res r;
	const char *log;

	unsetenv("OMP_NUM_THREADS");
	setenv("MKL_NUM_THREADS", "7", 1);
	if (run((char *[]){ "sh", "-c", "echo $OMP_NUM_THREADS $OPENBLAS_NUM_THREADS "
	    "$MKL_NUM_THREADS $NUMEXPR_NUM_THREADS", NULL }, 0, 3, &r, &log) == 0 &&
	    strcmp(log, "3 3 7 3\n") != 0)
		fail("threads: '%s'", log);
	unsetenv("MKL_NUM_THREADS");
	if (run((char *[]){ "printf", "[%s]\n", "$(touch PWNED)", ";rm x", "a b",
	    "`id`", NULL }, 0, 1, &r, &log) == 0 &&
	    strcmp(log, "[$(touch PWNED)]\n[;rm x]\n[a b]\n[`id`]\n") != 0)
		fail("values: '%s'", log);
	if (access("PWNED", F_OK) == 0)
		fail("values: PWNED made");
	if (run((char *[]){ "sh", "-c", "cat; echo end", NULL }, 0, 1, &r,
	    &log) == 0 && strcmp(log, "end\n") != 0)
		fail("stdin: '%s' (not /dev/null)", log);
}

/* The caller killed with SIGKILL while its command and the command's
 * child run: both gone within 2 s. With slow, the caller is killed
 * while it is slow to go on once the command runs (SR_FAULT=spawn-slow):
 * the command's group was told to the reaper before (a kill there left
 * the command's child running, once under a loaded make check). */
static void
test_caller_killed(int slow)
{
	char script[512], pids[128];
	pid_t pid;
	int st;

	snprintf(pids, sizeof pids, "%s/pids%d", dir, slow ? 4 : 3);
	snprintf(script, sizeof script,
	    "sleep 60 & echo $! > %s; echo $$ >> %s; wait", pids, pids);
	if ((pid = fork()) == 0) {
		sr_spawn_res r;
		const char *log;
		char err[256];
		if (sr_spawn_init(err) != 0)
			_exit(1);
		if (slow)
			setenv("SR_FAULT", "spawn-slow", 1);
		run((char *[]){ "sh", "-c", script, NULL }, 0, 1, &r, &log);
		_exit(0);
	}
	wait_lines(pids, 2);
	kill(pid, SIGKILL);
	waitpid(pid, &st, 0);
	if (!gone(pids))
		fail("caller killed%s: the command or its child still runs",
		    slow ? " as it is slow to go on" : "");
}

int
main(int argc, char **argv)
{
	const char *tmp = getenv("TMPDIR");
	char err[256];

	(void)argv;
	if (argc != 1) {
		printf("usage: spawn_test\n");
		return 2;
	}
	if (sr_spawn_init(err) != 0) {
		printf("FAIL: %s\n", err);
		return 1;
	}
	snprintf(dir, sizeof dir, "%s/spawn_test.XXXXXX",
	    tmp && *tmp && strlen(tmp) < 40 ? tmp : "/tmp");
	if (!mkdtemp(dir)) {
		printf("FAIL: mkdtemp\n");
		return 1;
	}
	if (chdir(dir) != 0)
		return 1;
	snprintf(logpath, sizeof logpath, "%s/log", dir);
	test_outcomes();
	test_trees();
	test_environment();
	test_caller_killed(0);
	test_caller_killed(1);
	{
		static const char *const files[] = { "log", "pids1", "pids2",
		    "pids3", "pids4" };
		size_t i;
		for (i = 0; i < sizeof files / sizeof files[0]; i++)
			unlink(files[i]);
		if (chdir("/") != 0 || rmdir(dir) != 0)
			fail("rmdir %s: %s", dir, strerror(errno));
	}
	return failures ? 1 : 0;
}
