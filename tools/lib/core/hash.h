/* hash.h - hashing of number tuples for the tools' hash tables. */
#ifndef SR_HASH_H
#define SR_HASH_H

#include <stddef.h>
#include <stdint.h>

/* FNV-1a over the bit patterns of v[0..n), -0 counted as 0 (so that values
 * equal as numbers hash alike), with a final mix. */
uint64_t sr_hash_doubles(const double *v, size_t n);

#endif
