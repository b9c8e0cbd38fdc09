/* fuzz.h - what the libFuzzer harnesses (harness.c) share with the
 * tracking of a refused read's leftovers (track.c). */
#ifndef SR_FUZZ_H
#define SR_FUZZ_H

/* Tracks allocations, FILEs and descriptors from now on. */
void fuzz_track_begin(void);
/* Stops tracking and forgets (the read returned and freed its own). */
void fuzz_track_end(void);
/* Stops tracking, closes and frees everything tracked (the read was
 * refused: sr_die longjmped out of it). */
void fuzz_track_reclaim(void);

#endif
