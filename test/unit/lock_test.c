/* lock_test.c - lock files (tools/lib/core/lock.c): taken once, refused
 * while held, broken when stale (dead pid on this host, or untouched
 * past the grace period), released only by their holder. */
#include "core/lock.h"
#include "check.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static int dead(long pid) { (void)pid; return 0; }
static int live(long pid) { (void)pid; return 1; }

/* The staleness rule on its own. */
static void
test_stale_rule(void)
{
	sr_lock_holder h;

	if (sr_lock_parse("node1 42 1000\n", &h) || h.pid != 42 ||
	    h.start != 1000 || strcmp(h.host, "node1") != 0)
		fail("parse: a good lock");
	if (sr_lock_parse("node1 42\n", &h) == 0 ||
	    sr_lock_parse("node1 0 1000\n", &h) == 0 ||
	    sr_lock_parse("node1 42 1000", &h) == 0 ||
	    sr_lock_parse("", &h) == 0)
		fail("parse: a malformed lock taken");
	sr_lock_parse("node1 42 1000\n", &h);
	if (!sr_lock_is_stale(&h, 1000, 1001, 30, "node1", dead))
		fail("stale: dead pid on this host");
	if (sr_lock_is_stale(&h, 1000, 1001, 30, "node2", dead))
		fail("stale: a pid of another host is not looked at");
	if (sr_lock_is_stale(&h, 1000, 1030, 30, "node1", live))
		fail("stale: live and touched within the grace period");
	if (!sr_lock_is_stale(&h, 1000, 1031, 30, "node2", live))
		fail("stale: untouched past the grace period");
}

static void
test_files(void)
{
	char dir[] = "/tmp/lock_test.XXXXXX", path[256], msg[512];
	long me = (long)getpid(), other = (long)getppid();
	struct stat st;

	if (mkdtemp(dir) == NULL) {
		fail("mkdtemp");
		return;
	}
	snprintf(path, sizeof path, "%s/lock", dir);
	if (sr_lock_take(path, me, 30, msg, sizeof msg) != 0)
		fail("take: a free lock: %s", msg);
	if (sr_lock_take(path, me, 30, msg, sizeof msg) != 0)
		fail("take: held by the same pid again");
	if (sr_lock_take(path, other, 30, msg, sizeof msg) != 1 ||
	    strstr(msg, "held by pid") == NULL)
		fail("take: a live holder's lock taken (%s)", msg);
	if (sr_lock_release(path, other) == 0 || stat(path, &st) != 0)
		fail("release: by another pid");
	if (sr_lock_refresh(path, me) != 0)
		fail("refresh: by the holder");
	if (sr_lock_release(path, me) != 0 || stat(path, &st) == 0)
		fail("release: by the holder");
	/* a dead holder on this host: broken at once */
	if (sr_lock_take(path, dead_pid(), 30, msg, sizeof msg) != 0)
		fail("take: for a dead pid");
	if (sr_lock_take(path, me, 30, msg, sizeof msg) != 0)
		fail("take: a dead holder's lock not broken: %s", msg);
	sr_lock_release(path, me);
	/* a live holder untouched past the grace period (0 s, and the
	 * file dated back): broken */
	if (sr_lock_take(path, other, 30, msg, sizeof msg) != 0)
		fail("take: for the parent");
	{
		struct timespec ts[2] = { { 1000, 0 }, { 1000, 0 } };
		utimensat(AT_FDCWD, path, ts, 0);
	}
	if (sr_lock_take(path, me, 30, msg, sizeof msg) != 0)
		fail("take: an untouched lock not broken: %s", msg);
	if (sr_lock_refresh(path, other) == 0)
		fail("refresh: by a holder whose lock was broken");
	sr_lock_release(path, me);
	/* garbage older than the grace period is broken too */
	{
		FILE *fp = fopen(path, "w");
		struct timespec ts[2] = { { 1000, 0 }, { 1000, 0 } };
		fputs("garbage", fp);
		fclose(fp);
		utimensat(AT_FDCWD, path, ts, 0);
	}
	if (sr_lock_take(path, me, 30, msg, sizeof msg) != 0)
		fail("take: old garbage not broken: %s", msg);
	sr_lock_release(path, me);
	/* nothing left beside the lock */
	if (rmdir(dir) != 0)
		fail("files left in %s", dir);
}

/* Eight processes race for one lock, each alive until all have tried:
 * exactly one wins each round (the last round's winner, dead then, left
 * a stale lock: broken by exactly one). */
static void
test_race(void)
{
	char dir[] = "/tmp/lock_race.XXXXXX", path[256], msg[512], r;
	int i, round, winners, result[2], go[2];
	pid_t kids[8];

	if (mkdtemp(dir) == NULL)
		return;
	snprintf(path, sizeof path, "%s/lock", dir);
	for (round = 0; round < 20; round++) {
		if (pipe(result) || pipe(go))
			return;
		for (i = 0; i < 8; i++)
			if ((kids[i] = fork()) == 0) {
				close(go[1]);
				r = sr_lock_take(path, (long)getpid(), 30, msg,
				    sizeof msg) == 0 ? 'W' : 'L';
				if (write(result[1], &r, 1) != 1 ||
				    read(go[0], &r, 1) < 0)
					_exit(2);
				_exit(0);
			}
		close(go[0]);
		close(result[1]);
		for (winners = i = 0; i < 8 && read(result[0], &r, 1) == 1; i++)
			winners += r == 'W';
		close(go[1]);
		close(result[0]);
		for (i = 0; i < 8; i++)
			waitpid(kids[i], NULL, 0);
		if (winners != 1)
			fail("race round %d: %d winners", round, winners);
	}
	unlink(path);
	rmdir(dir);
}

/* Temporaries are hidden, .BASE.tmp.TAIL beside the lock; a dead pid's
 * refresh fails (its heartbeat stops); a holder on another host (injected
 * by SR_FAULT_HOST) is reported as such, with the lock's age. */
static void
test_temps_refresh_hosts(void)
{
	char dir[] = "/tmp/lock_test.XXXXXX", path[256], buf[512], msg[512];
	sr_lock_holder h;
	long me = (long)getpid(), age = -1;

	sr_lock_temp(buf, sizeof buf, "/a/b/ledger.tsv.lock", "break");
	if (strcmp(buf, "/a/b/.ledger.tsv.lock.tmp.break") != 0)
		fail("temp: %s", buf);
	sr_lock_temp(buf, sizeof buf, ".lock", "h.1");
	if (strcmp(buf, "..lock.tmp.h.1") != 0)
		fail("temp of a relative path: %s", buf);
	if (mkdtemp(dir) == NULL) {
		fail("mkdtemp");
		return;
	}
	snprintf(path, sizeof path, "%s/lock", dir);
	if (sr_lock_take(path, dead_pid(), 30, msg, sizeof msg) != 0)
		fail("take: for a dead pid");
	if (sr_lock_refresh(path, dead_pid()) == 0)
		fail("refresh: a dead pid's lock touched");
	if (sr_lock_holder_of(path, &h, &age) != -1)
		fail("holder: a dead pid of this host");
	unlink(path);
	if (sr_lock_take(path, me, 30, msg, sizeof msg) != 0)
		fail("take: %s", msg);
	if (sr_lock_holder_of(path, &h, &age) != 0 || h.pid != me || age > 1)
		fail("holder: this process (age %ld)", age);
	setenv("SR_FAULT_HOST", "login.example", 1);
	if (sr_lock_holder_of(path, &h, &age) != 1 || h.pid != me)
		fail("holder: seen from another host");
	if (sr_lock_take(path, me + 1, 30, msg, sizeof msg) != 1)
		fail("take: another host's live lock (%s)", msg);
	unsetenv("SR_FAULT_HOST");
	sr_lock_release(path, me);
	if (rmdir(dir) != 0)
		fail("files left in %s", dir);
}

int
main(void)
{
	(void)rnd;
	test_stale_rule();
	test_files();
	test_temps_refresh_hosts();
	test_race();
	return failures ? 1 : 0;
}
