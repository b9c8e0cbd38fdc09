/* seg-run-exec - seg-run's helper that runs one command of a workflow
 * (workflow(5)'s run column) and reports how it ended. Not a tool of its
 * own: seg-run starts it (exec/spawn.c), from LIBEXECDIR/sareuse or from
 * beside itself, as
 *
 *	seg-run-exec PPID TIMEOUT THREADS -- PROGRAM [ARG...]
 *
 * with the write end of a pipe as descriptor 3, where it writes one line,
 * "exited CODE", "signaled SIG", "timeout SECONDS" or "noexec ERRNO",
 * then " WALL CPU MAXRSS_KB", and exits 0. A helper is needed because
 * posix_spawn(3) cannot ask for a signal when its parent dies
 * (PR_SET_PDEATHSIG), and a command's own children (sh -c "a | b",
 * Python's workers) would outlive a seg-run killed with SIGKILL:
 *
 * - the helper gets SIGTERM when seg-run (PPID: the thread that started
 *   it) ends, however it ends; the command runs in a process group of its
 *   own, which the helper kills whole (SIGKILL) on that signal, on the
 *   timeout (TIMEOUT seconds, 0 for none), and after the command exits
 *   (what it left running);
 * - the command gets SIGKILL when the helper ends, if the helper itself
 *   is killed with SIGKILL;
 * - OMP_NUM_THREADS, OPENBLAS_NUM_THREADS, MKL_NUM_THREADS and
 *   NUMEXPR_NUM_THREADS are set to THREADS unless set already, so that a
 *   command's libraries use the CPUs of its path, not every core.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define STATUS_FD 3

static volatile sig_atomic_t child_pgid;	/* the command's group */
static volatile sig_atomic_t timed_out;

/* SIGTERM (seg-run gone) or SIGINT, SIGHUP: the command's group killed,
 * and this helper ends. */
static void
on_stop(int sig)
{
	(void)sig;
	if (child_pgid > 0)
		kill(-(pid_t)child_pgid, SIGKILL);
	_exit(1);
}

/* SIGALRM: the timeout. */
static void
on_alarm(int sig)
{
	(void)sig;
	timed_out = 1;
	if (child_pgid > 0)
		kill(-(pid_t)child_pgid, SIGKILL);
}

static double
now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void
set_threads(const char *threads)
{
	static const char *const var[] = { "OMP_NUM_THREADS",
	    "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "NUMEXPR_NUM_THREADS" };
	size_t i;

	for (i = 0; i < sizeof var / sizeof var[0]; i++)
		setenv(var[i], threads, 0);
}

/* In the child: its own group, killed with this helper, the threads, the
 * program; on a failed exec, errno through the pipe fd. */
static _Noreturn void
run_command(char **argv, const char *threads, int fd, pid_t helper)
{
	sigset_t none;
	int e;

	setpgid(0, 0);
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != helper)	/* the helper ended before the prctl */
		_exit(127);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	close(STATUS_FD);
	set_threads(threads);
	execvp(argv[0], argv);
	e = errno;
	if (write(fd, &e, sizeof e) < 0)
		_exit(127);
	_exit(127);
}

static void
usage(void)
{
	fprintf(stderr, "usage: seg-run-exec PPID TIMEOUT THREADS -- PROGRAM [ARG...] "
	    "(seg-run's helper: descriptor 3 gets the outcome)\n");
	exit(2);
}

int
main(int argc, char **argv)
{
	struct sigaction sa;
	struct rusage ru;
	struct itimerval it;
	sigset_t block, old;
	double timeout, t0;
	pid_t self;
	char *end;
	long ppid;
	int pipefd[2], e = 0, st = 0, n;
	pid_t pid;

	if (argc < 6 || strcmp(argv[4], "--") != 0)
		usage();
	ppid = strtol(argv[1], &end, 10);
	if (*end || ppid <= 0)
		usage();
	timeout = strtod(argv[2], &end);
	if (*end || !(timeout >= 0))
		usage();
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_stop;
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sa.sa_handler = on_alarm;
	sigaction(SIGALRM, &sa, NULL);
	/* seg-run's end is our SIGTERM; if it ended already, end now */
	prctl(PR_SET_PDEATHSIG, SIGTERM);
	if (getppid() != (pid_t)ppid)
		return 1;
	if (pipe2(pipefd, O_CLOEXEC) != 0)
		return 1;
	/* no stop between the fork and child_pgid: the group would live on */
	sigemptyset(&block);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGHUP);
	sigprocmask(SIG_BLOCK, &block, &old);
	t0 = now();
	self = getpid();
	if ((pid = fork()) < 0)
		return 1;
	if (pid == 0)
		run_command(argv + 5, argv[3], pipefd[1], self);
	setpgid(pid, pid);	/* both sides: no race with the kill */
	child_pgid = pid;
	sigprocmask(SIG_SETMASK, &old, NULL);
	close(pipefd[1]);
	if (timeout > 0) {
		memset(&it, 0, sizeof it);
		it.it_value.tv_sec = (time_t)timeout;
		it.it_value.tv_usec = (suseconds_t)((timeout - (double)(time_t)timeout) * 1e6);
		if (it.it_value.tv_sec == 0 && it.it_value.tv_usec == 0)
			it.it_value.tv_usec = 1;
		setitimer(ITIMER_REAL, &it, NULL);
	}
	while ((n = (int)read(pipefd[0], &e, sizeof e)) < 0 && errno == EINTR)
		;
	if (n != (int)sizeof e)
		e = 0;
	while (wait4(pid, &st, 0, &ru) < 0)
		if (errno != EINTR)
			return 1;
	/* what the command left running in its group goes with it */
	kill(-pid, SIGKILL);
	{
		double cpu = (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec * 1e-6 +
		    (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec * 1e-6;
		double wall = now() - t0;
		char line[128];
		int len;

		if (e)
			len = snprintf(line, sizeof line, "noexec %d", e);
		else if (timed_out)
			len = snprintf(line, sizeof line, "timeout %s", argv[2]);
		else if (WIFSIGNALED(st))
			len = snprintf(line, sizeof line, "signaled %d", WTERMSIG(st));
		else
			len = snprintf(line, sizeof line, "exited %d", WEXITSTATUS(st));
		len += snprintf(line + len, sizeof line - (size_t)len, " %.6f %.6f %ld\n",
		    wall, cpu, ru.ru_maxrss);
		if (write(STATUS_FD, line, (size_t)len) != len)
			return 1;
	}
	return 0;
}
