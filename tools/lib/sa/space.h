/* space.h - parameter spaces (space.tsv, see space(5)). */
#ifndef SR_SPACE_H
#define SR_SPACE_H

#include <stddef.h>
#include <stdio.h>

#include "core/num.h"
#include "core/tsv.h"

/* The columns of space.tsv. */
#define SR_SPACE_NAME	"name"
#define SR_SPACE_TYPE	"type"
#define SR_SPACE_VALUES	"values"
#define SR_SPACE_DEFAULT	"default"

enum sr_ptype { SR_INT, SR_REAL, SR_ENUM };
enum sr_pkind {
	SR_GRID,	/* lo:step:hi */
	SR_RANGE,	/* lo..hi, continuous (or every integer for int) */
	SR_LIST		/* v1,v2,... */
};

#define SR_MAX_LEVELS 10000000	/* more values in one grid is absurd */
#define SR_WORD_MAX 255		/* bytes of a word of a word enum */

typedef struct {
	char *name;
	enum sr_ptype type;
	enum sr_pkind kind;
	char *values_text, *default_text;	/* as written */
	double lo, step, hi;	/* grid and range */
	double *list;		/* list values, in order */
	size_t nlist;
	char **word;		/* a word enum's words, NULL-terminated
				 * (list[i] is i, its code: the position),
				 * or NULL */
	double def;
	int fixed;		/* held at fixed_value (--fix) */
	double fixed_value;
} sr_param;

/* The names of optional columns that sareuse reserves for attributes of
 * parameters it will read (space(5)): refused until then. */
#define SR_SPACE_RESERVED "dist"
/* The optional column of a parameter's group (space(5)): a grouped
 * sensitivity analysis (vbd) takes each group as one factor. Read and
 * carried as a note. */
#define SR_SPACE_GROUP "group"
#define SR_SPACE_GROUP_CHARS "abcdefghijklmnopqrstuvwxyz" \
	"ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-"

typedef struct {
	sr_param *p;
	size_t n;
	/* the other columns (space(5)): notes, carried as written to the
	 * spaces made from this one (best sets, pruned spaces) */
	size_t nnote;
	char **note_name;	/* nnote */
	char **note;		/* n * nnote, row-major */
} sr_space;

/* Parameter i's group (its group column), or NULL: none, empty or "-". */
const char *sr_space_group(const sr_space *s, size_t i);

/* Whether name is reserved, no parameter's name: the columns of results
 * and designs (run, tile) and the placeholders of command templates (in,
 * out, ref, threads, metrics, scratch; workflow(5)). */
int sr_param_reserved(const char *name);

/* The four fields of a parameter, in space.tsv's column order. */
enum { SR_FIELD_NAME, SR_FIELD_TYPE, SR_FIELD_VALUES, SR_FIELD_DEFAULT };

/* Parses one parameter from its four fields; NULL or the reason (errbuf
 * holds it, *field says which field is at fault). */
const char *sr_param_parse(sr_param *p, const char *name, const char *type,
    const char *values, const char *def, int *field, char *errbuf,
    size_t errlen);

/* Rebuilds the space of a file's "#space NAME TYPE VALUES DEFAULT"
 * comment lines (design(5)), or returns NULL when it has none; dies on a
 * malformed one. */
sr_space *sr_space_from_comments(const sr_tsv *t);
/* Writes those lines, one per parameter of s. */
void sr_space_write_comments(FILE *fp, const sr_space *s);

/* Reads a space.tsv; dies naming file, line and column on any error. */
sr_space *sr_space_read(const char *path);
/* Writes s as a space.tsv: the header, then one row per parameter, its
 * values and default as written, its notes after them (the caller writes
 * any comments first). */
void sr_space_write(FILE *fp, const sr_space *s);
/* Makes v, a value of p's domain, p's default, written in its shortest
 * decimal form. */
void sr_param_set_default(sr_param *p, double v);
void sr_space_free(sr_space *s);
/* A copy of s, read again from its texts (fixed values are not copied). */
sr_space *sr_space_copy(const sr_space *s);
/* Gives to, a space of the same parameters as from, from's notes. */
void sr_space_copy_notes(sr_space *to, const sr_space *from);
/* Index of the parameter called name, or -1. */
int sr_space_find(const sr_space *s, const char *name);

/* Applies sa-sample's "--fix NAME=VALUE" (arg): marks NAME fixed at
 * VALUE. NULL, or the reason (a usage error, naming the space's path) in
 * errbuf. */
const char *sr_space_fix(sr_space *s, const char *arg, const char *path,
    char *errbuf, size_t errlen);

/* Number of distinct values; 0 for a continuous real range. */
size_t sr_param_count(const sr_param *p);
/* The i-th value (0 <= i < count). */
double sr_param_value(const sr_param *p, size_t i);
/* Maps u in [0,1) onto the values, each with equal probability (strata),
 * or onto [lo,hi) for a continuous range. */
double sr_param_from_unit(const sr_param *p, double u);
/* Maps a level u in [0,1] onto the nearest value: index round(u*(m-1)),
 * or lo + u*(hi-lo) for a continuous range (Morris levels). */
double sr_param_at_level(const sr_param *p, double u);
/* Unit coordinate of v: index/(m-1), or (v-lo)/(hi-lo); NaN when v is not
 * one of the values. */
double sr_param_unit_of(const sr_param *p, double v);
/* Whether v lies in the domain: the values (or range) plus the default. */
int sr_param_valid(const sr_param *p, double v);
/* The text of v, a value of p, as files hold it: a word enum's word,
 * else the shortest decimal, written in buf. */
const char *sr_param_text(const sr_param *p, double v, char buf[SR_NUMLEN]);
/* Reads text as a value of p: one of a word enum's words (*v its code),
 * else a number. NULL or the reason (static text). */
const char *sr_param_read(const sr_param *p, const char *text, double *v);
/* Field col of t's current row read as a value of p (sr_param_read);
 * dies naming file, line and column when it is not one. */
double sr_param_field(const sr_tsv *t, int col, const sr_param *p);
/* v, a value of from, as a value of to (the same parameter in another
 * space: a word enum's codes are positions, which pruning changes); NaN
 * when to has no such value. */
double sr_param_recode(const sr_param *from, const sr_param *to, double v);

/* Writes "TYPE VALUES DEFAULT" description for messages. */
const char *sr_ptype_name(enum sr_ptype t);

#endif
