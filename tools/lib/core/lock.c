/* lock.c - lock files taken by link() of a private file, broken when
 * stale (lock.h). */
#include "core/lock.h"
#include "core/fault.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int
sr_lock_parse(const char *text, sr_lock_holder *h)
{
	char end;

	if (sscanf(text, "%255s %ld %lld%c", h->host, &h->pid, &h->start,
	    &end) != 4 || end != '\n' || h->pid <= 0)
		return -1;
	return 0;
}

int
sr_lock_is_stale(const sr_lock_holder *h, time_t mtime, time_t now,
    long grace, const char *myhost, int (*alive)(long pid))
{
	if (strcmp(h->host, myhost) == 0 && !alive(h->pid))
		return 1;
	return now - mtime > grace;
}

/* Whether pid is a live process (of any user) on this host. */
static int
pid_alive(long pid)
{
	return kill((pid_t)pid, 0) == 0 || errno == EPERM;
}

void
sr_lock_host(char *host, size_t size)
{
	const char *test = getenv("SR_FAULT_HOST");

	if (test && *test)
		snprintf(host, size, "%s", test);
	else if (gethostname(host, size) != 0 || host[0] == '\0')
		snprintf(host, size, "localhost");
	host[size - 1] = '\0';
	host[strcspn(host, " \t\n")] = '\0';
}

/* Reads the lock file path into h and its mtime: 0, -1 (errno) or -2
 * (malformed: a lock being written, or garbage). */
static int
read_lock(const char *path, sr_lock_holder *h, time_t *mtime)
{
	char text[512];
	struct stat st;
	ssize_t n;
	int fd, e;

	if ((fd = open(path, O_RDONLY)) < 0)
		return -1;
	if (fstat(fd, &st) != 0 || (n = read(fd, text, sizeof text - 1)) < 0) {
		e = errno;
		close(fd);
		errno = e;
		return -1;
	}
	close(fd);
	text[n] = '\0';
	*mtime = st.st_mtime;
	return sr_lock_parse(text, h) ? -2 : 0;
}

/* Writes "HOST PID START" to a new private file tmp: 0 or -1. */
static int
write_private(const char *tmp, const char *host, long pid)
{
	char text[512];
	int fd, n, ok;

	n = snprintf(text, sizeof text, "%s %ld %lld\n", host, pid,
	    (long long)time(NULL));
	unlink(tmp);
	if ((fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL, 0644)) < 0)
		return -1;
	ok = write(fd, text, (size_t)n) == n && fsync(fd) == 0;
	return close(fd) == 0 && ok ? 0 : -1;
}

void
sr_lock_temp(char *buf, size_t size, const char *path, const char *tail)
{
	const char *base = strrchr(path, '/');

	base = base ? base + 1 : path;
	snprintf(buf, size, "%.*s.%s.tmp.%s", (int)(base - path), path, base,
	    tail);
}

/* Breaks the stale lock path that h held. Breakers take a second lock,
 * its temporary "break" (sr_lock_temp), so that one at a time looks again and removes the lock:
 * a lock taken afresh meanwhile is never removed. A break lock left by a
 * dead breaker is removed when stale itself. */
static void
break_lock(const char *path, const sr_lock_holder *h, const char *tmp,
    long grace, const char *host)
{
	char brk[4096];
	sr_lock_holder now, b;
	time_t mtime;

	sr_lock_temp(brk, sizeof brk, path, "break");
	if (link(tmp, brk) != 0) {
		if (errno == EEXIST && read_lock(brk, &b, &mtime) == 0 &&
		    sr_lock_is_stale(&b, mtime, time(NULL), grace, host, pid_alive))
			unlink(brk);
		return;
	}
	if (read_lock(path, &now, &mtime) == 0 && now.pid == h->pid &&
	    now.start == h->start && strcmp(now.host, h->host) == 0)
		unlink(path);
	else if (read_lock(path, &now, &mtime) == -2 && h->pid == 0)
		unlink(path);	/* garbage, still */
	unlink(brk);
}

int
sr_lock_take(const char *path, long pid, long grace, char *msg, size_t msglen)
{
	char host[256], tmp[4096], tail[300], date[64];
	sr_lock_holder h;
	time_t mtime;
	int tries, r, st = -1;

	sr_lock_host(host, sizeof host);
	snprintf(tail, sizeof tail, "%s.%ld", host, pid);
	sr_lock_temp(tmp, sizeof tmp, path, tail);
	if (write_private(tmp, host, pid) != 0) {
		snprintf(msg, msglen, "%s: %s", tmp, strerror(errno));
		return -1;
	}
	if (sr_fault("lock-temp"))	/* killed holding its temporary */
		raise(SIGKILL);
	for (tries = 0; tries < 200; tries++) {
		if (link(tmp, path) == 0) {
			st = 0;
			break;
		}
		if (errno != EEXIST) {
			snprintf(msg, msglen, "%s: %s", path, strerror(errno));
			break;
		}
		memset(&h, 0, sizeof h);
		r = read_lock(path, &h, &mtime);
		if (r == -1 && errno == ENOENT)
			continue;
		if (r == 0 && h.pid == pid && strcmp(h.host, host) == 0) {
			st = 0;
			break;
		}
		if (r == 0 && !sr_lock_is_stale(&h, mtime, time(NULL), grace,
		    host, pid_alive)) {
			time_t t = (time_t)h.start;
			strftime(date, sizeof date, "%Y-%m-%d %H:%M:%S",
			    localtime(&t));
			snprintf(msg, msglen, "held by pid %ld on %s since %s",
			    h.pid, h.host, date);
			st = 1;
			break;
		}
		if (r == -2 && time(NULL) - mtime <= grace) {
			struct timespec wait = { 0, 20000000 };
			nanosleep(&wait, NULL);	/* being written: wait */
			continue;
		}
		break_lock(path, &h, tmp, grace, host);
	}
	if (st == -1 && tries == 200)
		snprintf(msg, msglen, "%s: cannot take it", path);
	unlink(tmp);
	return st;
}

/* Whether path is held by pid on this host. */
static int
held_by(const char *path, long pid)
{
	char host[256];
	sr_lock_holder h;
	time_t mtime;

	sr_lock_host(host, sizeof host);
	return read_lock(path, &h, &mtime) == 0 && h.pid == pid &&
	    strcmp(h.host, host) == 0;
}

int
sr_lock_holder_of(const char *path, sr_lock_holder *h, long *age)
{
	char host[256];
	time_t mtime;

	sr_lock_host(host, sizeof host);
	if (read_lock(path, h, &mtime) != 0)
		return -1;
	*age = (long)(time(NULL) - mtime);
	if (strcmp(h->host, host) != 0)
		return 1;
	return pid_alive(h->pid) ? 0 : -1;
}

int
sr_lock_refresh(const char *path, long pid)
{
	/* a dead holder's heartbeat stops: its lock goes stale for every
	 * host (a refresher that outlived its owner) */
	if (!held_by(path, pid) || !pid_alive(pid))
		return -1;
	return utimensat(AT_FDCWD, path, NULL, 0) == 0 ? 0 : -1;
}

int
sr_lock_release(const char *path, long pid)
{
	if (!held_by(path, pid))
		return -1;
	return unlink(path) == 0 ? 0 : -1;
}
