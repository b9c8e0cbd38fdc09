/* arena.c - a pre-touched heap for the tasks' buffers (see heap.h). */
#define _DEFAULT_SOURCE		/* madvise, mallinfo2 */
#include "exec/arena.h"
#include "core/num.h"

#include <errno.h>
#include <malloc.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

static pthread_mutex_t heap_mu = PTHREAD_MUTEX_INITIALIZER;

void
sr_arena_keep(void)
{
	mallopt(M_MMAP_THRESHOLD, 1 << 30);
	mallopt(M_TRIM_THRESHOLD, -1);	/* never give the top back */
	mallopt(M_ARENA_MAX, 1);	/* threads too: a thread arena maps */
}

/* Populates the pages of [p, p + n) in the kernel in one call. On a
 * kernel without MADV_POPULATE_WRITE (before Linux 5.14) they are written
 * one by one; where they cannot be had (ENOMEM) nothing more is touched:
 * the tasks then fault in what they use themselves. */
static void
populate(char *p, size_t n, size_t page)
{
	uintptr_t a = ((uintptr_t)p + page - 1) & ~(uintptr_t)(page - 1);
	uintptr_t e = ((uintptr_t)p + n) & ~(uintptr_t)(page - 1);
	size_t k;

	if (e > a && madvise((void *)a, e - a, MADV_POPULATE_WRITE) != 0 &&
	    errno == EINVAL)
		for (k = 0; k < e - a; k += page)
			((volatile char *)a)[k] = 0;
}

/* What the heap is short of, as blocks of at most BLOCK bytes (below the
 * mmap threshold, so that they come from the heap and stay in it), each
 * populated, then all freed into the heap. */
#define BLOCK ((size_t)256 << 20)
#define MAXBLOCKS 256		/* 64 GiB */

double
sr_arena_prefault(size_t bytes)
{
	struct mallinfo2 mi;
	size_t page = (size_t)sysconf(_SC_PAGESIZE), n, k, nb = 0;
	double t0 = sr_now();
	char *blk[MAXBLOCKS];

	pthread_mutex_lock(&heap_mu);
	mi = mallinfo2();
	if (mi.arena >= bytes) {
		pthread_mutex_unlock(&heap_mu);
		return 0;
	}
	for (n = bytes - mi.uordblks; n > 0 && nb < MAXBLOCKS; n -= k) {
		k = n < BLOCK ? n : BLOCK;
		if ((blk[nb] = malloc(k)) == NULL)
			break;
		populate(blk[nb++], k, page);
	}
	while (nb > 0)
		free(blk[--nb]);
	pthread_mutex_unlock(&heap_mu);
	return sr_now() - t0;
}

size_t
sr_arena_size(void)
{
	return mallinfo2().arena;
}

size_t
sr_peak_rss(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_SELF, &ru) != 0)
		return 0;
	return (size_t)ru.ru_maxrss * 1024;	/* KiB on Linux */
}
