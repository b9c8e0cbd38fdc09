/* spawn.c - one command run to its end (spawn.h). */
#define _GNU_SOURCE
#include "exec/spawn.h"
#include "core/err.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

/* The helper's argument vector: helper PPID TIMEOUT THREADS -- argv...,
 * its numbers in nums; freed by the caller. */
static char **
helper_argv(const sr_spawn_req *req, char nums[3][32])
{
	size_t n = 0, i;
	char **v;

	while (req->argv[n])
		n++;
	v = sr_reallocarray(NULL, n + 6, sizeof *v);
	snprintf(nums[0], 32, "%ld", (long)getpid());
	snprintf(nums[1], 32, "%.17g", req->timeout > 0 ? req->timeout : 0.0);
	snprintf(nums[2], 32, "%d", req->threads > 0 ? req->threads : 1);
	v[0] = (char *)req->helper;
	v[1] = nums[0];
	v[2] = nums[1];
	v[3] = nums[2];
	v[4] = "--";
	for (i = 0; i <= n; i++)
		v[5 + i] = req->argv[i];
	return v;
}

/* Starts the helper with stdin /dev/null, stdout and stderr the log,
 * descriptor 3 the status pipe's write end, in a group of its own and
 * with default signals; its pid, or -1 with errno set. */
static pid_t
start(const sr_spawn_req *req, int wfd)
{
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t at;
	sigset_t none, all;
	char nums[3][32], **argv = helper_argv(req, nums);
	pid_t pid = -1;
	int rc;

	sigemptyset(&none);
	sigfillset(&all);
	posix_spawn_file_actions_init(&fa);
	posix_spawnattr_init(&at);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 1, req->log,
	    O_WRONLY | O_CREAT | O_APPEND, 0644);
	posix_spawn_file_actions_adddup2(&fa, 1, 2);
	posix_spawn_file_actions_adddup2(&fa, wfd, 3);
	posix_spawnattr_setpgroup(&at, 0);
	posix_spawnattr_setsigmask(&at, &none);
	posix_spawnattr_setsigdefault(&at, &all);
	posix_spawnattr_setflags(&at, POSIX_SPAWN_SETPGROUP |
	    POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
	rc = posix_spawn(&pid, req->helper, &fa, &at, argv, environ);
	posix_spawnattr_destroy(&at);
	posix_spawn_file_actions_destroy(&fa);
	free(argv);
	if (rc != 0) {
		errno = rc;
		return -1;
	}
	return pid;
}

/* Parses the helper's line into res; -1 if it is not one. */
static int
parse_status(const char *line, sr_spawn_res *res)
{
	static const char *const how[] = { "exited", "signaled", "timeout",
	    "noexec" };
	char word[16];
	double code;
	size_t i;

	if (sscanf(line, "%15s %lf %lf %lf %ld", word, &code, &res->wall,
	    &res->cpu, &res->maxrss_kb) != 5)
		return -1;
	for (i = 0; i < sizeof how / sizeof how[0]; i++)
		if (strcmp(word, how[i]) == 0) {
			res->how = (int)i;
			res->code = (int)code;
			return 0;
		}
	return -1;
}

int
sr_spawn_run(const sr_spawn_req *req, sr_spawn_res *res, char *errbuf)
{
	char line[256];
	size_t got = 0;
	ssize_t n;
	int fd[2], st;
	pid_t pid;

	memset(res, 0, sizeof *res);
	if (pipe2(fd, O_CLOEXEC) != 0) {
		sr_seterr(errbuf, "pipe: %s", strerror(errno));
		return -1;
	}
	if ((pid = start(req, fd[1])) < 0) {
		sr_seterr(errbuf, "%s: %s", req->helper, strerror(errno));
		close(fd[0]);
		close(fd[1]);
		return -1;
	}
	close(fd[1]);
	while (got + 1 < sizeof line &&
	    ((n = read(fd[0], line + got, sizeof line - 1 - got)) > 0 ||
	    (n < 0 && errno == EINTR)))
		if (n > 0)
			got += (size_t)n;
	line[got] = '\0';
	close(fd[0]);
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	if (parse_status(line, res) != 0) {
		sr_seterr(errbuf, "%s ended without reporting the command's end "
		    "(%s %d)", req->helper, WIFSIGNALED(st) ? "signal" : "exit",
		    WIFSIGNALED(st) ? WTERMSIG(st) : WEXITSTATUS(st));
		return -1;
	}
	return 0;
}

const char *
sr_spawn_reason(const sr_spawn_res *res, double timeout, char *buf,
    size_t size)
{
	switch (res->how) {
	case SR_SPAWN_EXITED:
		if (res->code == 0)
			snprintf(buf, size, "%s", "");
		else
			snprintf(buf, size, "exit %d", res->code);
		break;
	case SR_SPAWN_SIGNALED:
		snprintf(buf, size, "killed by signal %d (%s)", res->code,
		    strsignal(res->code));
		break;
	case SR_SPAWN_TIMEOUT:
		snprintf(buf, size, "timeout after %g s", timeout);
		break;
	default:
		snprintf(buf, size, "cannot run: %s", strerror(res->code));
		break;
	}
	return buf;
}

const char *
sr_spawn_helper(const char *libexecdir)
{
	static char path[PATH_MAX + 64];
	char exe[PATH_MAX], *slash;
	ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);

	if (n > 0) {
		exe[n] = '\0';
		if ((slash = strrchr(exe, '/')) != NULL) {
			*slash = '\0';
			snprintf(path, sizeof path, "%s/.libexec/seg-run-exec", exe);
			if (access(path, X_OK) == 0)
				return path;
			snprintf(path, sizeof path,
			    "%s/../libexec/sareuse/seg-run-exec", exe);
			if (access(path, X_OK) == 0)
				return path;
		}
	}
	snprintf(path, sizeof path, "%s/sareuse/seg-run-exec", libexecdir);
	return access(path, X_OK) == 0 ? path : NULL;
}
