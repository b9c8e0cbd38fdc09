/* hash.h - the suite's one hash facility: hash functions, an integer map
 * and an interner (dense ids for distinct keys).
 *
 * Both tables use open addressing with linear probing over a power-of-two
 * number of slots, kept at most half full. Allocation failures die through
 * sr_calloc; nothing else fails.
 */
#ifndef SR_HASH_H
#define SR_HASH_H

#include <stddef.h>
#include <stdint.h>

/* FNV-1a over n bytes, eight at a time, with a final mix. */
uint64_t sr_hash_bytes(const void *p, size_t n);
/* A 64-bit finalizer (MurmurHash3's): spreads every input bit. */
uint64_t sr_hash_u64(uint64_t x);

/* ---- integer map: uint64_t key -> size_t value ------------------------- */

typedef struct {
	uint64_t *key;
	size_t *val;
	unsigned char *used;	/* 1: slot i holds key[i] */
	size_t cap, count;
} sr_imap;

void sr_imap_init(sr_imap *m);
void sr_imap_free(sr_imap *m);
/* The value of key, or NULL when absent. The pointer is good until the
 * next insertion. */
size_t *sr_imap_find(const sr_imap *m, uint64_t key);
/* The value of key, inserted as 0 when absent (*added = 1; added may be
 * NULL). The pointer is good until the next insertion. */
size_t *sr_imap_at(sr_imap *m, uint64_t key, int *added);
/* The keys of m in increasing order (m->count of them; free()). */
uint64_t *sr_imap_sorted_keys(const sr_imap *m);

/* ---- interner: distinct keys -> ids 0, 1, 2, ... in order of first sight -- */

typedef struct {
	char *bytes;		/* the keys, each followed by a NUL */
	size_t *off;		/* key id at bytes + off[id], its NUL at off[id + 1] - 1 */
	size_t n, bytes_len, bytes_cap, off_cap;
	size_t *slot;		/* id + 1; 0 = empty */
	uint64_t *hash;		/* hash of key id */
	size_t cap;
} sr_interner;

void sr_interner_init(sr_interner *t);
void sr_interner_free(sr_interner *t);
/* The id of the len bytes at key, added when new (*added = 1, else 0;
 * added may be NULL). Keys compare byte for byte. */
size_t sr_intern(sr_interner *t, const void *key, size_t len, int *added);
/* The same for a NUL-terminated string. */
size_t sr_intern_str(sr_interner *t, const char *s, int *added);
/* The same for a tuple of n doubles compared as numbers (-0 equals 0). */
size_t sr_intern_doubles(sr_interner *t, const double *v, size_t n,
    int *added);
/* The id of a key, or SIZE_MAX when it was never interned. */
size_t sr_interner_find(const sr_interner *t, const void *key, size_t len);
size_t sr_interner_find_str(const sr_interner *t, const char *s);
/* Key id's bytes (a string key is NUL-terminated) and its length. */
const void *sr_interner_key(const sr_interner *t, size_t id, size_t *len);

#endif
