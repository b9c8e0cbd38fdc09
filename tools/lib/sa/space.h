/* space.h - parameter spaces (space.tsv, see space(5)). */
#ifndef SR_SPACE_H
#define SR_SPACE_H

#include <stddef.h>
#include <stdio.h>

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

typedef struct {
	char *name;
	enum sr_ptype type;
	enum sr_pkind kind;
	char *values_text, *default_text;	/* as written */
	double lo, step, hi;	/* grid and range */
	double *list;		/* list values, in order */
	size_t nlist;
	double def;
	int fixed;		/* held at fixed_value (--fix) */
	double fixed_value;
} sr_param;

typedef struct {
	sr_param *p;
	size_t n;
} sr_space;

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

/* Reads a space.tsv; dies naming file, line and column on any error. */
sr_space *sr_space_read(const char *path);
/* Writes s as a space.tsv: the header, then one row per parameter, its
 * values and default as written (the caller writes any comments first). */
void sr_space_write(FILE *fp, const sr_space *s);
/* Makes v, a value of p's domain, p's default, written in its shortest
 * decimal form. */
void sr_param_set_default(sr_param *p, double v);
void sr_space_free(sr_space *s);
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
/* Writes "TYPE VALUES DEFAULT" description for messages. */
const char *sr_ptype_name(enum sr_ptype t);

#endif
