/* hash_test.c - the integer map and the interner (tools/lib/core/hash.c)
 * against a brute-force list; the word helpers of core/opt.c. */
#include "core/hash.h"
#include "core/opt.h"
#include "check.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Random keys from a small range (many repeats) into the map and a plain
 * array; every lookup agrees, also after growth. */
static void
test_imap(void)
{
	enum { N = 20000, RANGE = 5000 };
	size_t *val = calloc(RANGE, sizeof *val), i, v;
	unsigned char *has = calloc(RANGE, 1);
	sr_imap m;

	sr_imap_init(&m);
	if (sr_imap_find(&m, 7) != NULL)
		fail("imap: empty map finds a key");
	for (i = 0; i < N; i++) {
		uint64_t k = rnd(RANGE);
		size_t x = rnd(1000000);
		*sr_imap_at(&m, k * 0x100000001ULL, NULL) = x;	/* spread keys */
		val[k] = x;
		has[k] = 1;
	}
	for (i = 0; i < RANGE; i++) {
		size_t *p = sr_imap_find(&m, i * 0x100000001ULL);
		int got = p != NULL;

		v = p ? *p : 0;
		if (got != has[i] || (got && v != val[i]))
			fail("imap: key %zu: got %d/%zu, want %d/%zu", i, got,
			    v, has[i], val[i]);
	}
	v = 0;
	for (i = 0; i < RANGE; i++)
		v += has[i];
	if (m.count != v)
		fail("imap: count %zu, want %zu", m.count, v);
	/* sorted keys, and counting in place through sr_imap_at */
	{
		uint64_t *k = sr_imap_sorted_keys(&m);
		size_t j = 0;
		for (i = 0; i < RANGE; i++)
			if (has[i] && k[j++] != i * 0x100000001ULL)
				fail("imap: sorted key %zu", j - 1);
		free(k);
	}
	sr_imap_free(&m);
	sr_imap_init(&m);
	for (i = 0; i < 1000; i++) {
		int added;
		size_t *c = sr_imap_at(&m, i % 7, &added);
		if (added != (i < 7) || *c != i / 7)
			fail("imap_at: %zu: added %d count %zu", i, added, *c);
		++*c;
	}
	if (sr_imap_find(&m, 8) != NULL || *sr_imap_find(&m, 3) != 143)
		fail("imap_find");
	sr_imap_free(&m);
	free(val);
	free(has);
}

/* Strings interned twice get one id, ids dense in order of first sight,
 * keys read back; a key never interned is not found. */
static void
test_interner_strings(void)
{
	enum { N = 3000 };
	sr_interner t;
	char key[32];
	size_t i, id, len;
	int added;

	sr_interner_init(&t);
	if (sr_interner_find_str(&t, "x") != SIZE_MAX)
		fail("interner: empty finds a key");
	for (i = 0; i < N; i++) {
		snprintf(key, sizeof key, "run%zu\ttile", i);
		if ((id = sr_intern_str(&t, key, &added)) != i || !added)
			fail("interner: %s: id %zu added %d", key, id, added);
	}
	for (i = 0; i < N; i++) {
		snprintf(key, sizeof key, "run%zu\ttile", i);
		if ((id = sr_intern_str(&t, key, &added)) != i || added)
			fail("interner: again %s: id %zu added %d", key, id, added);
		if (strcmp(sr_interner_key(&t, i, &len), key) != 0 ||
		    len != strlen(key))
			fail("interner: key %zu reads back wrong", i);
	}
	if (sr_interner_find_str(&t, "run1\ttil") != SIZE_MAX ||
	    sr_interner_find_str(&t, "run17\ttile") != 17)
		fail("interner: find");
	/* a prefix and the empty key are keys of their own */
	if (sr_intern(&t, "run1", 4, &added) != N || !added ||
	    sr_intern(&t, "", 0, &added) != N + 1 || !added ||
	    sr_intern(&t, "", 0, &added) != N + 1 || added)
		fail("interner: prefix or empty key");
	sr_interner_free(&t);
}

/* Tuples of doubles: equal as numbers (0 and -0) is one key. */
static void
test_interner_doubles(void)
{
	double a[3] = { 1.5, 0.0, -2 }, b[3] = { 1.5, -0.0, -2 },
	    c[3] = { 1.5, 0.0, 2 };
	sr_interner t;
	int added;

	sr_interner_init(&t);
	if (sr_intern_doubles(&t, a, 3, &added) != 0 || !added ||
	    sr_intern_doubles(&t, b, 3, &added) != 0 || added ||
	    sr_intern_doubles(&t, c, 3, &added) != 1 || !added ||
	    sr_intern_doubles(&t, a, 2, &added) != 2 || !added)
		fail("interner: doubles");
	sr_interner_free(&t);
}

static void
test_words(void)
{
	static const char *const names[] = { "mc", "lhs", NULL, "sobol" };
	char buf[64];

	if (sr_word_index("lhs", names, 4) != 1 ||
	    sr_word_index("sobol", names, 4) != 3 ||
	    sr_word_index("x", names, 4) != -1)
		fail("sr_word_index");
	if (strcmp(sr_word_list(buf, sizeof buf, names, 4),
	    "mc, lhs or sobol") != 0)
		fail("sr_word_list: '%s'", buf);
	if (strcmp(sr_word_list(buf, sizeof buf, names, 1), "mc") != 0)
		fail("sr_word_list one: '%s'", buf);
}

int
main(void)
{
	test_imap();
	test_interner_strings();
	test_interner_doubles();
	test_words();
	if (failures)
		printf("%d failure(s)\n", failures);
	return failures != 0;
}
