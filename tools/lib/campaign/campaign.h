/* campaign.h - campaign files (campaign(5)): the table of keys, the
 * parser, the checks of every value, and the settings sa-campaign runs
 * from (paths made absolute, defaults filled in, the argument lists of
 * sa-sample and reuse-merge).
 *
 * The functions return 0, or -1 with the message in err: "FILE:LINE:
 * why" for a line, "FILE: why" for the file as a whole, without the
 * program's name. What is accepted but likely a mistake (a key the
 * campaign's method, merge or engine does not use) becomes a warning of
 * the same form in the campaign's list of warnings. */
#ifndef SR_CAMPAIGN_H
#define SR_CAMPAIGN_H

#include <stddef.h>
#include <stdio.h>

#define SR_CAMPAIGN_MAXLINE 65536	/* longer lines are refused */
#define SR_CAMPAIGN_ERRLEN 4096		/* room for a message with paths */

enum sr_key_type {
	SR_KEY_PATH,		/* a readable file, relative to the campaign */
	SR_KEY_REFERENCE,	/* defaults, or a directory that exists */
	SR_KEY_OUTPUT,		/* a directory, made by sa-campaign */
	SR_KEY_INT,		/* decimal digits, a long of at least min */
	SR_KEY_REAL,		/* a finite decimal number above 0 */
	SR_KEY_FRACTION,	/* a decimal number between 0 and 1, excluded */
	SR_KEY_ENUM,		/* one of words */
	SR_KEY_YESNO,		/* yes or no */
	SR_KEY_SIZE,		/* digits and nothing or K, M, G, T */
	SR_KEY_TEXT,		/* free text */
	SR_KEY_FIX,		/* NAME=VALUE items, commas or blanks between */
	SR_KEY_WORDS,		/* blank-separated words of SR_CAMPAIGN_WORDCHARS */
	SR_KEY_RUN,		/* a campaign's output directory that ran, relative
				 * to the campaign */
	SR_KEY_DIR		/* a directory that exists, relative to the
				 * campaign */
};

/* The characters of SR_KEY_WORDS values (scheduler names and options
 * that some qsub front ends pass through a shell): none a shell treats
 * specially. */
#define SR_CAMPAIGN_WORDCHARS "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.,:=@%+/-"


/* What a key decides (the role column of campaign(5)). */
enum sr_key_role {
	SR_ROLE_PLAN,		/* the runs: design, plan, what buckets compute */
	SR_ROLE_ANALYSIS,	/* the merge's indices and plot only */
	SR_ROLE_ENGINE,		/* where and how buckets run, where files go */
	SR_ROLE_TUNE_PLAN	/* plan in a tune campaign, else analysis */
};

/* The words of a key's concerns that name goals and cancellation rules.
 * A key that names goals (rules) concerns campaigns of those goals
 * (rules) only, and is refused in the others; the other words (methods,
 * merges, engines) only say where a key has an effect. */
#define SR_CAMPAIGN_GOALS "sensitivity tune"
#define SR_CAMPAIGN_RULES "stable median wilcoxon"
/* The other words of concerns: the values of method, merge and engine. A
 * key given that names some and none of the campaign's is warned of. */
#define SR_CAMPAIGN_METHODS "moat vbd efast rbd_fast mc lhs halton " \
    "hammersley sobol random grid pso anneal tpe"
/* The analyses (the values of indices): a key of the analysis that names
 * some concerns the campaign's analysis, not its method. */
#define SR_CAMPAIGN_ANALYSES "moat vbd efast rbd_fast pawn delta corr"
#define SR_CAMPAIGN_MERGES "none stage naive sca rtma trtma"
#define SR_CAMPAIGN_ENGINES "local slurm pbs"


typedef struct {
	const char *name;
	enum sr_key_type type;
	const char *def;	/* the default as written; NULL: none */
	long min;		/* SR_KEY_INT: the least value */
	const char *words;	/* SR_KEY_ENUM: the words, blank-separated;
				 * SR_KEY_REAL, _FRACTION: words taken too */
	enum sr_key_role role;
	const char *concerns;	/* the goals, cancellation rules, methods,
				 * merges or engines it concerns,
				 * blank-separated; NULL: all */
	unsigned flags;		/* SR_KEY_REQUIRED, SR_KEY_LATE */
} sr_campaign_key;

/* A key's flags. A late key came after campaigns were planned without
 * it: a plan records it (it decides the runs) only when it is set off
 * its default, so that their plans stay theirs. */
#define SR_KEY_REQUIRED	1u
#define SR_KEY_LATE	2u

extern const sr_campaign_key sr_campaign_keys[];
extern const size_t sr_campaign_nkeys;

/* Index of the key called name in the table, or -1. */
int sr_campaign_key_find(const char *name);
/* The key that name most likely misspells: the one nearest in edit
 * distance (adjacent transpositions count one), at most 1 for names of
 * up to 4 characters and 2 for longer ones, when no other is as near;
 * else the only key that name (of 3 characters or more) begins; else
 * NULL. */
const char *sr_campaign_key_suggest(const char *name);
/* The optimal string alignment distance of a and b (Levenshtein with
 * adjacent transpositions): the edits that make one the other. */
size_t sr_edit_distance(const char *a, const char *b);
/* The type's and the role's names ("int", "plan"). */
const char *sr_campaign_type_name(enum sr_key_type t);
const char *sr_campaign_role_name(enum sr_key_role r);

/* A growable list of strings (argument lists). */
typedef struct {
	char **v;
	size_t n, cap;
} sr_strlist;

void sr_strlist_add(sr_strlist *l, const char *s);
void sr_strlist_free(sr_strlist *l);

typedef struct {
	char *path;		/* as given: messages name it */
	char **value;		/* per key of the table: as written, or NULL */
	size_t *line;		/* per key: its line, 0 when not given */
	/* set by sr_campaign_resolve: */
	char *abspath;		/* the file, absolute */
	char **setting;		/* per key: the value or its default ("" for
				 * none), paths absolute */
	char *refdir;		/* the reference directory, NULL: defaults */
	int commands;		/* the workflow's tasks are commands */
	int compares;		/* it ends with the built-in compare */
	sr_strlist sample_args, merge_args;
	sr_strlist warnings;	/* "FILE:LINE: why", in line order */
} sr_campaign;

/* Where relative paths start and what the command line overrides. */
typedef struct {
	const char *cwd;	/* the current directory, absolute */
	const char *output;	/* the output directory (-o), or NULL */
	const char *sharedir;	/* sareuse's shared files (the default
				 * workflow is in workflows/), or NULL */
} sr_campaign_env;

/* An empty campaign named path. */
sr_campaign *sr_campaign_new(const char *path);
void sr_campaign_free(sr_campaign *c);

/* Checks a value of key k: 0, or -1 with "KEY: why" in err. */
int sr_campaign_check_value(const sr_campaign_key *k, const char *v,
    char *err, size_t errlen);

/* Reads the key = value lines of fp into c (linear time; a line over
 * SR_CAMPAIGN_MAXLINE bytes is refused without reading it whole): 0, or
 * -1 and the message. A read error ends the process, never taken as an
 * end of file (sr_die_errno: exit 3 for EIO and the like). */
int sr_campaign_parse(sr_campaign *c, FILE *fp, char *err, size_t errlen);

/* The checks across keys and of the files: required keys, files readable,
 * the reference directory, fix against the space, merge's needs; makes
 * the settings and the argument lists, and the warnings: keys given that
 * the campaign's method, merge or engine does not use, and method = sobol
 * in a sensitivity campaign (a correlation study, not Sobol indices).
 * Reads the space (sr_space_read ends the process on a malformed space,
 * naming its line). */
int sr_campaign_resolve(sr_campaign *c, const sr_campaign_env *env,
    char *err, size_t errlen);

/* Opens path, parses and resolves it: NULL with the message in err. */
sr_campaign *sr_campaign_load(const char *path, const sr_campaign_env *env,
    char *err, size_t errlen);

/* The setting of a key after sr_campaign_resolve ("" for none). */
const char *sr_campaign_get(const sr_campaign *c, const char *key);

/* The analysis of sa-indices (sa-indices -m): the indices key, else the
 * design's own (moat, vbd, efast, rbd_fast), else corr. */
const char *sr_campaign_indices_method(const sr_campaign *c);

/* Whether the campaign's goal is tune. */
int sr_campaign_is_tune(const sr_campaign *c);

/* The cancellation rule of a tune campaign as seg-run's --cancel takes
 * it, every parameter spelled ("median:warmup=2,startup=5"), or "none";
 * newly allocated. */
char *sr_campaign_cancel_rule(const sr_campaign *c);

/* seg-run's --tile-order: "shuffle:SEED" or "list"; newly allocated. */
char *sr_campaign_tile_order_arg(const sr_campaign *c);

/* Writes the settings as NUL-terminated key=value records (see
 * sa-campaign-conf(1)). Returns 0, or -1 on a write error. */
int sr_campaign_write(FILE *fp, const sr_campaign *c);

/* Joins dir and a path relative to it (an absolute path stays as it is);
 * newly allocated. */
char *sr_campaign_path(const char *dir, const char *path);

/* path's directory, absolute and without "." or ".." components (as the
 * shell's cd and pwd make it), relative paths from cwd; newly allocated. */
char *sr_campaign_dirname(const char *cwd, const char *path);

/* The current directory as the shell has it: $PWD when it names ".",
 * else getcwd(); newly allocated, or NULL. */
char *sr_campaign_cwd(void);

/* The table of keys as TSV (sa-campaign-conf --keys): key, type,
 * default, role, concerns. */
void sr_campaign_keys_write(FILE *fp);

#endif
