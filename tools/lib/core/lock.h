/* lock.h - one lock file per resource (an output directory, a ledger):
 * taken by an exclusive create (link() of a private file: atomic on NFS
 * too; no fcntl or flock), holding "HOST PID START" (START in seconds
 * since the epoch). A lock is stale, and may be broken, when its holder's
 * pid is dead on this host, or when the file was not touched for a grace
 * period (a long-running holder touches it: sr_lock_refresh). */
#ifndef SR_LOCK_H
#define SR_LOCK_H

#include <stddef.h>
#include <time.h>

#define SR_LOCK_GRACE 30	/* seconds, the default grace period */

typedef struct {
	char host[256];
	long pid;
	long long start;
} sr_lock_holder;

/* This host's name as lock files record it (gethostname, cut at the first
 * blank; "localhost" when it has none; for tests, SR_FAULT_HOST when set:
 * another host, injected). */
void sr_lock_host(char *host, size_t size);

/* Parses a lock file's text "HOST PID START\n": 0, or -1 when malformed. */
int sr_lock_parse(const char *text, sr_lock_holder *h);

/* Whether a lock held by h, last touched at mtime, is stale at now for a
 * process on host myhost with a grace period of grace seconds: h's pid
 * dead on myhost (alive(pid) is 0), or mtime older than grace. */
int sr_lock_is_stale(const sr_lock_holder *h, time_t mtime, time_t now,
    long grace, const char *myhost, int (*alive)(long pid));

/* Takes the lock file path for pid on this host. Returns 0 when taken
 * (or already held by pid on this host), 1 when a live holder has it (its
 * description, "held by pid P on HOST since DATE", in msg), -1 on a
 * system error (errno set, msg says what failed). A stale lock is broken
 * and taken. */
int sr_lock_take(const char *path, long pid, long grace, char *msg,
    size_t msglen);

/* The holder of lock path, wherever it runs, and the seconds since the
 * lock was last touched (*age): 0 when it is a live process on this host,
 * 1 when it is on another host (alive or not, this host cannot tell: its
 * lock goes stale grace seconds after its last touch), -1 when there is
 * no lock, garbage, or a dead pid of this host. */
int sr_lock_holder_of(const char *path, sr_lock_holder *h, long *age);

/* The name of a temporary of lock path: ".BASE.tmp.TAIL" beside it (BASE
 * the lock's file name), the rule of every temporary of a campaign's
 * output (a hidden name with ".tmp.": what sa-campaign cleans). */
void sr_lock_temp(char *buf, size_t size, const char *path, const char *tail);

/* Touches the lock (a long-running holder, every grace / 3 seconds):
 * 0, or -1 when it is not held by pid on this host any more, or pid is
 * dead (a refresher that outlived its owner stops). */
int sr_lock_refresh(const char *path, long pid);

/* Removes the lock when pid on this host holds it: 0, or -1 when it is
 * held by another (left as it is) or cannot be removed. */
int sr_lock_release(const char *path, long pid);

#endif
