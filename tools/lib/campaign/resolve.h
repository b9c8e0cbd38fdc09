/* resolve.h - what the parts of sr_campaign_resolve share (resolve.c,
 * resolve_paths.c, resolve_goal.c, resolve_args.c, resolve_write.c):
 * the settings by key, messages, and each part's checks. Not for the
 * tools: campaign.h is the interface. */
#ifndef SR_CAMPAIGN_RESOLVE_H
#define SR_CAMPAIGN_RESOLVE_H

#include <stddef.h>

#include "campaign/campaign.h"
#include "sa/space.h"

/* resolve.c: the settings and messages */

/* Sets err to the message; returns -1. */
int sr_resolve_error(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* The index of key in the key table (dies on a name not in it). */
size_t sr_resolve_key(const char *name);
/* The line of a key, 0 when it is not given. */
size_t sr_resolve_line(const sr_campaign *c, const char *key);
/* Replaces the setting of key with s (taken). */
void sr_resolve_set(sr_campaign *c, const char *key, char *s);
/* Whether the setting of key is str. */
int sr_resolve_is(const sr_campaign *c, const char *key, const char *str);
/* Where key comes from, for messages: "FILE:LINE: KEY", or "FILE: KEY". */
void sr_resolve_key_place(const sr_campaign *c, const char *key, char *buf,
    size_t size);
/* Whether key is one of wsi-tiles' options (slides = ... only). */
int sr_resolve_is_slide_key(const char *key);
/* tiles or slides, exactly one; level and mpp together refused. */
int sr_resolve_check_tile_source(sr_campaign *c, char *err, size_t errlen);

/* resolve_paths.c: the files and directories, each resolved from dir */

int sr_resolve_readable(const char *path);
int sr_resolve_is_dir(const char *path);
int sr_resolve_files(sr_campaign *c, const char *dir,
    const sr_campaign_env *env, char *err, size_t errlen);
int sr_resolve_reference(sr_campaign *c, const char *dir, char *err,
    size_t errlen);
int sr_resolve_estimate_from(sr_campaign *c, const char *dir, char *err,
    size_t errlen);
int sr_resolve_knowledge(sr_campaign *c, const char *dir, char *err,
    size_t errlen);
int sr_resolve_validate(sr_campaign *c, const char *dir, char *err,
    size_t errlen);
void sr_resolve_output(sr_campaign *c, const char *dir,
    const sr_campaign_env *env);
int sr_resolve_check_paths(const sr_campaign *c, char *err, size_t errlen);

/* resolve_goal.c: goals, cancellation rules and the keys' concerns */

/* Whether w (len bytes) is one of the blank-separated words. */
int sr_resolve_word_in(const char *w, size_t len, const char *words);
/* Whether k concerns c's goal and cancellation rule. */
int sr_resolve_key_in_campaign(const sr_campaign *c, const sr_campaign_key *k);
int sr_resolve_check_concerns(const sr_campaign *c, char *err, size_t errlen);
void sr_resolve_warnings(sr_campaign *c);
void sr_resolve_goal_settings(sr_campaign *c);
int sr_resolve_check_batches(sr_campaign *c, char *err, size_t errlen);
int sr_resolve_check_tune(const sr_campaign *c, char *err, size_t errlen);
int sr_resolve_check_indices(const sr_campaign *c, char *err, size_t errlen);
/* The workflow read (dying as wf-compact would on a bad one): whether its
 * tasks are commands (c->commands), and metric a column its results
 * have: a built-in score where it compares, or a metric its commands
 * declare. */
int sr_resolve_workflow(sr_campaign *c, char *err, size_t errlen);

/* resolve_args.c: sa-sample's and reuse-merge's arguments, the bounds */

void sr_resolve_sample_args(sr_campaign *c);
int sr_resolve_check_fixes(sr_campaign *c, const sr_space *s, char *err,
    size_t errlen);
/* The next item of a list of fix or vary items at *p (commas or blanks
 * between), NUL-terminated in place, *p moved past it; NULL at the end. */
char *sr_resolve_item(char **p);
/* Whether the fix items (in sample_args, after sr_resolve_check_fixes)
 * hold the parameter name. */
int sr_resolve_is_fixed(const sr_campaign *c, const char *name);
/* A space with an enum of words for a workflow whose tasks are built in
 * (they take numbers): -1 with err. */
int sr_resolve_check_words(const sr_campaign *c, const sr_space *s, char *err,
    size_t errlen);
int sr_resolve_check_bounds(const sr_campaign *c, const sr_space *s,
    char *err, size_t errlen);
void sr_resolve_merge_args(sr_campaign *c);

/* resolve_vary.c: the space against the workflow, and vary */

/* Every parameter the workflow reads is in the space s: else -1 with
 * err naming the missing ones and suggesting vary. */
int sr_resolve_check_params(const sr_campaign *c, const sr_space *s,
    char *err, size_t errlen);
/* vary: each name a parameter of s, once, not fixed; every other
 * parameter not fixed becomes --fix NAME=DEFAULT of sa-sample (its
 * default one of its values). After sr_resolve_check_fixes. */
int sr_resolve_check_vary(sr_campaign *c, const sr_space *s, char *err,
    size_t errlen);

#endif
