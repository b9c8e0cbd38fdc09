/* arena.h - keeping the tasks' tile-sized buffers in one heap whose pages
 * are touched once, before the tasks run.
 *
 * The segmentation tasks allocate and free tile-sized buffers all the
 * time. Kept in the heap (not mapped per allocation), a freed buffer's
 * pages serve the next one; touched up front in one madvise() call, the
 * first path pays no page faults either, so a task's measured seconds are
 * the same in a fresh process as after other paths, whatever the plan
 * (timings of one plan cost another, see sim-runtime(1)), and many
 * processes starting at once do not fight over page faults.
 *
 * glibc-specific (mallopt, mallinfo2); the rest of the suite does not
 * depend on it.
 */
#ifndef SR_ARENA_H
#define SR_ARENA_H

#include <stddef.h>

/* Keeps freed memory in the heap of the main arena, for every thread.
 * Call before any thread starts. */
void sr_arena_keep(void);

/* Makes the heap at least `bytes` large, its pages touched; returns the
 * seconds this took (0 when it already was). Thread-safe. */
double sr_arena_prefault(size_t bytes);

/* The heap's size (bytes obtained from the system for the main arena)
 * and the process's peak resident set size in bytes. */
size_t sr_arena_size(void);
size_t sr_peak_rss(void);

#endif
