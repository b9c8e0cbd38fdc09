/* tiles_data.h - the campaign's tiles for the driver (sa-campaign-data(1)):
 * what workflows/chunks.sh and sa-campaign read with awk and a bash loop.
 * LIST is a tiles list or a tile table (tiletable(5)); a line that is
 * blank or a comment (spaces, then '#' or nothing) is no tile, and a
 * list is a table when its first other line starts with the table's
 * first two columns. Every function dies (exit 1) naming file and line
 * on bad input; the caller writes fp out only when it returns. */
#ifndef SR_CAMPAIGN_TILES_DATA_H
#define SR_CAMPAIGN_TILES_DATA_H

#include <stdio.h>

/* Whether LIST is a tile table (image/tiletable.h's sniff); dies when it
 * cannot be read. */
int sr_data_tiles_kind(const char *list);

/* The campaign's tiles: of a tiles list (what, "tile" or "slide", names
 * what its lines are in messages; a list of slides is never a table),
 * each path trimmed and made absolute, relative to the list's directory
 * resolved, comments and blank lines dropped; dies on a name with a tab
 * or with nothing before its extension. Of a tile table (what "tile"),
 * checked whole (tiletable.h), its lines as they are (a CR dropped), the
 * slide column made absolute. */
void sr_data_tiles(const char *list, const char *what, FILE *fp);

/* The number of tiles of LIST (0 for a table without rows). */
long sr_data_tiles_count(const char *list);

/* The tiles' names, one a line in order, suffix (may be NULL) appended:
 * a table's tile column, else each file name without its extension
 * (core/path.h's stem). */
void sr_data_tiles_names(const char *list, const char *suffix, FILE *fp);

/* Chunk c of LIST, its tiles c * n to c * n + n - 1, lines as they are,
 * after a table's "#slide" lines (its slides' colour moments) and
 * header. */
void sr_data_tiles_chunk(const char *list, long c, long n, FILE *fp);
/* Whether path is a directory of tiles (tiles = DIR): its regular files
 * ending in .png, .tif or .tiff, in name order, are the tiles, but for
 * those ending in sr_data_tiles_ref_suffix (the references; NULL: none)
 * and hidden ones. sr_data_tiles lists them absolute; sr_data_tiles_check
 * checks them (a list of them made in TMPDIR), naming each by its path. */
int sr_data_tiles_is_dir(const char *path);
extern const char *sr_data_tiles_ref_suffix;

/* Checks, before a plan, that every tile of list can be read (a tiles
 * list's images; a table's slides are checked apart) and, with refdir
 * (NULL or empty: none), has its reference there (sr_tile_ref_path,
 * suffix NULL or empty for none): warns of each that does not, naming
 * list, line and tile, then dies (exit 1) counting them. */
void sr_data_tiles_check(const char *list, const char *refdir,
    const char *suffix);

/* For aggregate_by = slide: OUT/slides/SLIDE/results.tsv of each slide
 * of the tile table OUT/tiles.list (SLIDE: the slide's file name without
 * its extension), the rows of OUT/results.tsv whose tile is on it, its
 * comment lines and header kept, committed with the tool's outputs; the
 * slides' names to fp, one a line, sorted (strcmp). */
void sr_data_slides(const char *out, FILE *fp);

#endif
