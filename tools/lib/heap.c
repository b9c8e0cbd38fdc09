/* heap.c - a pre-touched heap for the tasks' buffers (see heap.h). */
#define _DEFAULT_SOURCE		/* madvise, mallinfo2 */
#include "heap.h"
#include "num.h"

#include <malloc.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

static pthread_mutex_t heap_mu = PTHREAD_MUTEX_INITIALIZER;

void
sr_heap_keep(void)
{
	mallopt(M_MMAP_THRESHOLD, 1 << 30);
	mallopt(M_TRIM_THRESHOLD, 1 << 30);
	mallopt(M_ARENA_MAX, 1);	/* threads too: a thread arena maps */
}

/* One block as large as the heap is short of, its pages populated in the
 * kernel in one call (a page fault each costs several times more, and
 * more still when processes fault at once), then freed into the heap. On
 * a kernel without MADV_POPULATE_WRITE (before Linux 5.14), or where a
 * block cannot be had, the pages are written one by one or not at all:
 * the tasks then fault them in themselves. */
double
sr_heap_prefault(size_t bytes)
{
	struct mallinfo2 mi;
	size_t page = (size_t)sysconf(_SC_PAGESIZE), n, k;
	double t0 = sr_now();
	uintptr_t a, e;
	char *p;

	pthread_mutex_lock(&heap_mu);
	mi = mallinfo2();
	if (mi.arena >= bytes || (p = malloc(bytes - mi.uordblks)) == NULL) {
		pthread_mutex_unlock(&heap_mu);
		return 0;
	}
	n = bytes - mi.uordblks;
	a = ((uintptr_t)p + page - 1) & ~(uintptr_t)(page - 1);
	e = ((uintptr_t)p + n) & ~(uintptr_t)(page - 1);
	if (e > a && madvise((void *)a, e - a, MADV_POPULATE_WRITE) != 0)
		for (k = 0; k < e - a; k += page)
			((volatile char *)a)[k] = 0;
	free(p);
	pthread_mutex_unlock(&heap_mu);
	return sr_now() - t0;
}

size_t
sr_heap_size(void)
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
