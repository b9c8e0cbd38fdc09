/* tiles.h - tiles lists: one image path per line, relative to the list's
 * directory; '#' comments and blank lines skipped. */
#ifndef SR_TILES_H
#define SR_TILES_H

#include <stddef.h>

typedef struct {
	char **path;		/* as resolved (list directory prefixed) */
	char **name;		/* file name without directory and extension */
	size_t *line;		/* line in the list */
	size_t n;
	char *list;		/* the list's path */
} sr_tiles;

/* Reads the list; dies naming file and line on an empty list, an empty
 * name, or two tiles of the same name (their results could not be told
 * apart). The images are not opened. */
sr_tiles *sr_tiles_read(const char *list);
void sr_tiles_free(sr_tiles *t);

/* Puts the tiles in the order of a shuffle seeded by seed (<=
 * SR_SEED_MAX): GSL's gsl_ran_shuffle on mt19937, so the same list and
 * seed give the same order everywhere (every bucket of a tuning campaign
 * walks the tiles in one order). */
void sr_tiles_shuffle(sr_tiles *t, unsigned long seed);

/* Parses a tile order, "list" (0) or "shuffle:SEED" (1, the seed into
 * *seed); a usage error naming opt otherwise. */
int sr_tiles_order_parse(const char *opt, const char *arg,
    unsigned long *seed);

#endif
