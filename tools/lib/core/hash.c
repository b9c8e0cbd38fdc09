/* hash.c - hash functions (FNV-1a with a shift mix), the integer map and
 * the interner of hash.h. */
#include "core/hash.h"
#include "core/err.h"

#include <stdlib.h>
#include <string.h>

#define FNV_OFFSET 1469598103934665603u
#define FNV_PRIME 1099511628211u

uint64_t
sr_hash_bytes(const void *p, size_t n)
{
	const unsigned char *s = p;
	uint64_t h = FNV_OFFSET, word;
	size_t i = 0;

	/* a word at a time (keys are mostly tuples of doubles), FNV-1a's
	 * step on each, then the tail byte by byte; the final mix spreads
	 * what the words' high bits left unmixed */
	for (; i + 8 <= n; i += 8) {
		memcpy(&word, s + i, 8);
		h = (h ^ word) * FNV_PRIME;
		h ^= h >> 29;
	}
	for (; i < n; i++)
		h = (h ^ s[i]) * FNV_PRIME;
	return sr_hash_u64(h);
}

uint64_t
sr_hash_u64(uint64_t h)
{
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdULL;
	h ^= h >> 33;
	h *= 0xc4ceb9fe1a85ec53ULL;
	return h ^ (h >> 33);
}

/* ---- integer map ------------------------------------------------------- */

void
sr_imap_init(sr_imap *m)
{
	memset(m, 0, sizeof *m);
}

void
sr_imap_free(sr_imap *m)
{
	free(m->key);
	free(m->val);
	free(m->used);
	memset(m, 0, sizeof *m);
}

/* The slot of key: where it is, or the empty slot where it would go. */
static size_t
imap_slot(const sr_imap *m, uint64_t key)
{
	size_t i = (size_t)sr_hash_u64(key) & (m->cap - 1);

	while (m->used[i] && m->key[i] != key)
		i = (i + 1) & (m->cap - 1);
	return i;
}

size_t *
sr_imap_find(const sr_imap *m, uint64_t key)
{
	size_t i;

	if (m->cap == 0)
		return NULL;
	i = imap_slot(m, key);
	return m->used[i] ? &m->val[i] : NULL;
}

/* Doubles the slots (16 at first), reinserting every key. */
static void
imap_grow(sr_imap *m)
{
	sr_imap big = { NULL, NULL, NULL, m->cap ? 2 * m->cap : 16, m->count };
	size_t i, j;

	big.key = sr_calloc(big.cap, sizeof *big.key);
	big.val = sr_calloc(big.cap, sizeof *big.val);
	big.used = sr_calloc(big.cap, 1);
	for (i = 0; i < m->cap; i++)
		if (m->used[i]) {
			j = imap_slot(&big, m->key[i]);
			big.key[j] = m->key[i];
			big.val[j] = m->val[i];
			big.used[j] = 1;
		}
	sr_imap_free(m);
	*m = big;
}

size_t *
sr_imap_at(sr_imap *m, uint64_t key, int *added)
{
	size_t i;

	if (m->cap == 0)
		imap_grow(m);
	i = imap_slot(m, key);
	if (added)
		*added = !m->used[i];
	if (m->used[i])
		return &m->val[i];
	if (2 * (m->count + 1) > m->cap) {
		imap_grow(m);
		i = imap_slot(m, key);
	}
	m->used[i] = 1;
	m->key[i] = key;
	m->val[i] = 0;
	m->count++;
	return &m->val[i];
}

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

uint64_t *
sr_imap_sorted_keys(const sr_imap *m)
{
	uint64_t *k = sr_calloc(m->count ? m->count : 1, sizeof *k);
	size_t i, n = 0;

	for (i = 0; i < m->cap; i++)
		if (m->used[i])
			k[n++] = m->key[i];
	qsort(k, n, sizeof *k, cmp_u64);
	return k;
}

/* ---- interner ---------------------------------------------------------- */

void
sr_interner_init(sr_interner *t)
{
	memset(t, 0, sizeof *t);
}

void
sr_interner_free(sr_interner *t)
{
	free(t->bytes);
	free(t->off);
	free(t->slot);
	free(t->hash);
	memset(t, 0, sizeof *t);
}

/* The slot holding the key of this hash and bytes, or the empty slot
 * where it would go. */
static size_t
intern_slot(const sr_interner *t, uint64_t h, const void *key, size_t len)
{
	size_t i = (size_t)h & (t->cap - 1), id;

	for (; t->slot[i]; i = (i + 1) & (t->cap - 1)) {
		id = t->slot[i] - 1;
		if (t->hash[id] == h && t->off[id + 1] - t->off[id] == len + 1 &&
		    memcmp(t->bytes + t->off[id], key, len) == 0)
			break;
	}
	return i;
}

static void
intern_grow(sr_interner *t)
{
	size_t i, j, cap = t->cap ? 2 * t->cap : 16;

	free(t->slot);
	t->cap = cap;
	t->slot = sr_calloc(cap, sizeof *t->slot);
	for (i = 0; i < t->n; i++) {
		for (j = (size_t)t->hash[i] & (cap - 1); t->slot[j];
		    j = (j + 1) & (cap - 1))
			;
		t->slot[j] = i + 1;
	}
}

/* Appends a new key of hash h; returns its id. */
static size_t
intern_add(sr_interner *t, uint64_t h, const void *key, size_t len)
{
	size_t id = t->n;

	if (t->off_cap < id + 2) {
		t->off_cap = t->off_cap ? 2 * t->off_cap : 64;
		t->off = sr_reallocarray(t->off, t->off_cap, sizeof *t->off);
		t->hash = sr_reallocarray(t->hash, t->off_cap, sizeof *t->hash);
	}
	while (t->bytes_cap < t->bytes_len + len + 1) {
		t->bytes_cap = t->bytes_cap ? 2 * t->bytes_cap : 1024;
		t->bytes = sr_reallocarray(t->bytes, t->bytes_cap, 1);
	}
	if (len)
		memcpy(t->bytes + t->bytes_len, key, len);
	t->off[id] = t->bytes_len;
	t->bytes_len += len;
	t->bytes[t->bytes_len++] = '\0';	/* every key terminated */
	t->off[id + 1] = t->bytes_len;
	t->hash[id] = h;
	t->n++;
	return id;
}

size_t
sr_intern(sr_interner *t, const void *key, size_t len, int *added)
{
	uint64_t h = sr_hash_bytes(key, len);
	size_t i;

	if (2 * (t->n + 1) > t->cap)
		intern_grow(t);
	i = intern_slot(t, h, key, len);
	if (added)
		*added = !t->slot[i];
	if (!t->slot[i])
		t->slot[i] = intern_add(t, h, key, len) + 1;
	return t->slot[i] - 1;
}

size_t
sr_intern_str(sr_interner *t, const char *s, int *added)
{
	return sr_intern(t, s, strlen(s), added);
}

size_t
sr_intern_doubles(sr_interner *t, const double *v, size_t n, int *added)
{
	double buf[16] = { 0 }, *x = n <= 16 ? buf : sr_calloc(n, sizeof *x);
	size_t i, id;

	for (i = 0; i < n; i++)
		x[i] = v[i] == 0 ? 0.0 : v[i];
	id = sr_intern(t, x, n * sizeof *x, added);
	if (x != buf)
		free(x);
	return id;
}

size_t
sr_interner_find(const sr_interner *t, const void *key, size_t len)
{
	size_t i;

	if (t->cap == 0)
		return SIZE_MAX;
	i = intern_slot(t, sr_hash_bytes(key, len), key, len);
	return t->slot[i] ? t->slot[i] - 1 : SIZE_MAX;
}

size_t
sr_interner_find_str(const sr_interner *t, const char *s)
{
	return sr_interner_find(t, s, strlen(s));
}

const void *
sr_interner_key(const sr_interner *t, size_t id, size_t *len)
{
	if (len)
		*len = t->off[id + 1] - t->off[id] - 1;
	return t->bytes + t->off[id];
}
