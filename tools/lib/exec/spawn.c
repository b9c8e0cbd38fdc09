/* spawn.c - one command run to its end (spawn.h). Written with vfork
 * rather than posix_spawn(3), which cannot set a death signal. */
#define _GNU_SOURCE
#include "exec/spawn.h"
#include "core/fault.h"
#include "core/err.h"
#include "core/num.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/pidfd.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

static int reaper_fd = -1;	/* write end of the reaper's pipe */
static pid_t reaper_owner;	/* the process it serves (a fork of it
				 * starts its own) */

/* The reaper: reads the groups of running commands (+pgid, -pgid: one
 * int each, atomic writes) until the pipe's end, then kills those left. */
static _Noreturn void
reap(int fd)
{
	int *group = NULL, g, n = 0, cap = 0, i;

	setpgid(0, 0);
	signal(SIGINT, SIG_IGN);
	signal(SIGTERM, SIG_IGN);
	signal(SIGHUP, SIG_IGN);
	while (read(fd, &g, sizeof g) == (ssize_t)sizeof g || errno == EINTR) {
		if (g > 0) {
			if (n == cap) {
				cap = cap ? 2 * cap : 64;
				if ((group = realloc(group, (size_t)cap * sizeof *group)) == NULL)
					_exit(1);
			}
			group[n++] = g;
		} else
			for (i = 0; i < n; i++)
				if (group[i] == -g) {
					group[i] = group[--n];
					break;
				}
	}
	for (i = 0; i < n; i++)
		kill(-group[i], SIGKILL);
	free(group);
	_exit(0);
}

int
sr_spawn_init(char *errbuf)
{
	int fd[2];
	pid_t pid;

	if (reaper_fd >= 0 && reaper_owner == getpid())
		return 0;
	if (reaper_fd >= 0)
		close(reaper_fd);
	reaper_fd = -1;
	if (pipe2(fd, O_CLOEXEC) != 0 || (pid = fork()) < 0) {
		sr_seterr(errbuf, "the commands' reaper: %s", strerror(errno));
		return -1;
	}
	if (pid == 0) {
		close(fd[1]);
		reap(fd[0]);
	}
	close(fd[0]);
	reaper_fd = fd[1];
	reaper_owner = getpid();
	return 0;
}

/* Tells the reaper of a group (g > 0) or of its end (-g). */
static void
tell_reaper(int g)
{
	if (reaper_fd >= 0 && write(reaper_fd, &g, sizeof g) != (ssize_t)sizeof g)
		sr_warn("the commands' reaper is gone: %s", strerror(errno));
}

/* The environment of a command: this process's, with the thread
 * variables that are not set set to threads; free with free_env. */
static char **
command_env(int threads)
{
	static const char *const var[] = { "OMP_NUM_THREADS",
	    "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "NUMEXPR_NUM_THREADS" };
	size_t n = 0, k = 0, i;
	char **env;

	while (environ[n])
		n++;
	env = sr_reallocarray(NULL, n + 5, sizeof *env);
	for (i = 0; i < n; i++)
		env[i] = environ[i];
	for (i = 0; i < sizeof var / sizeof var[0]; i++)
		if (getenv(var[i]) == NULL) {
			env[n + k] = sr_malloc(strlen(var[i]) + 24);
			sprintf(env[n + k++], "%s=%d", var[i], threads > 0 ? threads : 1);
		}
	env[n + k] = NULL;
	return env;
}

static void
free_env(char **env)
{
	size_t n = 0;

	while (environ[n])
		n++;
	while (env[n])
		free(env[n++]);
	free(env);
}

/* In the vfork child (memory shared with the parent: system calls only):
 * its own group, told to the reaper here, before anything of the command
 * runs (told by the parent after vfork, a caller killed in between left
 * the command's children to run on), killed with the parent's thread,
 * default signals, stdin /dev/null, stdout and stderr the log; errno of
 * a failed exec through errfd. */
static _Noreturn void
child(const sr_spawn_req *req, char **env, int null, int log, int errfd,
    pid_t parent)
{
	struct sigaction dfl;
	sigset_t none;
	int sig, e;

	setpgid(0, 0);
	if (reaper_fd >= 0) {
		int g = (int)getpid();
		if (write(reaper_fd, &g, sizeof g) != (ssize_t)sizeof g)
			_exit(127);
	}
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(127);
	memset(&dfl, 0, sizeof dfl);
	dfl.sa_handler = SIG_DFL;
	for (sig = 1; sig < NSIG; sig++)
		sigaction(sig, &dfl, NULL);
	if (dup2(null, 0) < 0 || dup2(log, 1) < 0 || dup2(log, 2) < 0)
		_exit(127);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	execvpe(req->argv[0], req->argv, env);
	e = errno;
	if (write(errfd, &e, sizeof e) < 0)
		_exit(127);
	_exit(127);
}

/* vfork and the child, apart from the caller's locals (vfork's child
 * shares them: none must live across it). */
static __attribute__((noinline)) pid_t
fork_child(const sr_spawn_req *req, char **env, int null, int log, int errfd,
    pid_t parent)
{
	pid_t pid = vfork();

	if (pid == 0)
		child(req, env, null, log, errfd, parent);
	return pid;
}

/* Starts the command; its pid, or -1 with errbuf set. *execerr: the read
 * end of the pipe of a failed exec's errno. */
static pid_t
start(const sr_spawn_req *req, int *execerr, char *errbuf)
{
	int null, log, fd[2];
	sigset_t all, old;
	char **env;
	pid_t pid, self = getpid();

	*execerr = -1;
	if ((log = open(req->log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC,
	    0644)) < 0) {
		sr_seterr(errbuf, "%s: %s", req->log, strerror(errno));
		return -1;
	}
	if ((null = open("/dev/null", O_RDONLY | O_CLOEXEC)) < 0 ||
	    pipe2(fd, O_CLOEXEC) != 0) {
		sr_seterr(errbuf, "/dev/null or a pipe: %s", strerror(errno));
		close(log);
		return -1;
	}
	env = command_env(req->threads);
	/* no handler of this process may run in the child */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	pid = fork_child(req, env, null, log, fd[1], self);
	/* SR_FAULT=spawn-slow: the caller is slow to go on once the command
	 * runs (a test kills it then) */
	if (pid > 0 && sr_fault("spawn-slow"))
		nanosleep(&(struct timespec){ 2, 0 }, NULL);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (pid < 0)
		sr_seterr(errbuf, "%s: %s", req->argv[0], strerror(errno));
	free_env(env);
	close(null);
	close(log);
	close(fd[1]);
	*execerr = fd[0];
	return pid;
}

/* Whether pid has ended (left a zombie); waits for it if block. */
static int
ended(pid_t pid, int block)
{
	siginfo_t info;

	memset(&info, 0, sizeof info);
	while (waitid(P_PID, (id_t)pid, &info, WEXITED | WNOWAIT |
	    (block ? 0 : WNOHANG)) < 0)
		if (errno != EINTR)
			return 1;
	return info.si_pid == pid;
}

/* await without a pidfd (a kernel before 5.3, valgrind): polls every
 * 10 ms. */
static int
await_polling(pid_t pid, double end)
{
	struct timespec t = { 0, 10000000 };

	while (!ended(pid, 0)) {
		if (sr_now() >= end) {
			kill(-pid, SIGKILL);
			return 1;
		}
		nanosleep(&t, NULL);
	}
	return 0;
}

/* Waits for pid (timeout seconds, 0: none), killing its group then;
 * whether it timed out. The child is left a zombie, its group intact. */
static int
await(pid_t pid, double timeout)
{
	struct pollfd p = { -1, POLLIN, 0 };
	double end = sr_now() + timeout;
	int ms, rc;

	if (timeout <= 0) {
		ended(pid, 1);
		return 0;
	}
	if ((p.fd = pidfd_open(pid, 0)) < 0)
		return await_polling(pid, end);
	for (;;) {
		ms = (int)((end - sr_now()) * 1e3 + 0.999);
		if (ms <= 0) {
			kill(-pid, SIGKILL);
			close(p.fd);
			return 1;
		}
		rc = poll(&p, 1, ms);
		if (rc > 0)
			break;
		if (rc < 0 && errno != EINTR)
			break;
	}
	close(p.fd);
	return 0;
}

int
sr_spawn_run(const sr_spawn_req *req, sr_spawn_res *res, char *errbuf)
{
	struct rusage ru = { 0 };
	double t0 = sr_now();
	int execerr = -1, e = 0, st = 0, timed_out;
	ssize_t n;
	pid_t pid;

	memset(res, 0, sizeof *res);
	if ((pid = start(req, &execerr, errbuf)) < 0) {
		if (execerr >= 0)
			close(execerr);
		return -1;
	}
	while ((n = read(execerr, &e, sizeof e)) < 0 && errno == EINTR)
		;
	close(execerr);
	if (n != (ssize_t)sizeof e)
		e = 0;
	timed_out = await(pid, req->timeout);
	kill(-pid, SIGKILL);	/* what it left running: its group */
	while (wait4(pid, &st, 0, &ru) < 0 && errno == EINTR)
		;
	tell_reaper(-pid);
	res->wall = sr_now() - t0;
	res->cpu = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec * 1e-6 +
	    (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec * 1e-6;
	res->maxrss_kb = ru.ru_maxrss;
	if (e) {
		res->how = SR_SPAWN_NOEXEC;
		res->code = e;
	} else if (timed_out) {
		res->how = SR_SPAWN_TIMEOUT;
	} else if (WIFSIGNALED(st)) {
		res->how = SR_SPAWN_SIGNALED;
		res->code = WTERMSIG(st);
	} else {
		res->how = SR_SPAWN_EXITED;
		res->code = WEXITSTATUS(st);
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
