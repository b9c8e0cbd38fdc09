/* opt.h - option values every tool parses the same way, with one set of
 * messages: counts, seeds, seconds, fractions, words from a list, and the
 * standard --help. A bad value is a usage error (exit 2) naming the option
 * and the value: "-n 'abc': a whole number from 1 to 1e9".
 */
#ifndef SR_OPT_H
#define SR_OPT_H

#include <stddef.h>
#include <stdio.h>

#define SR_COUNT_MAX 1000000000UL	/* counts stop at 1e9 */

/* A whole number from min to max (max <= SR_COUNT_MAX prints as 1e9 when
 * it is that). */
size_t sr_opt_count(const char *opt, const char *arg, size_t min, size_t max);
/* A seed, 0 to SR_SEED_MAX: "OPT 'ARG': seeds go from 0 to 4294967294". */
unsigned long sr_opt_seed(const char *opt, const char *arg);
/* Seconds, a finite number >= 0. */
double sr_opt_seconds(const char *opt, const char *arg);
/* A finite number from lo to hi, for levels and fractions; ends says
 * which ends are excluded: 0 [lo, hi], SR_OPEN_LO (lo, hi], SR_OPEN_HI
 * [lo, hi), both (lo, hi). what says what it is ("a level", "a number"). */
#define SR_OPEN_LO 1
#define SR_OPEN_HI 2
double sr_opt_real(const char *opt, const char *arg, double lo, double hi,
    int ends, const char *what);

/* The index of word in names[0..n) or -1. */
int sr_word_index(const char *word, const char *const names[], size_t n);
/* names[0..n) as "a, b or c" into buf (truncated to len). */
char *sr_word_list(char *buf, size_t len, const char *const names[],
    size_t n);
/* The index of arg in names[0..n); a usage error "OPT 'ARG': not a, b or
 * c" otherwise. */
int sr_opt_word(const char *opt, const char *arg, const char *const names[],
    size_t n);

/* The tail of the getopt_long table of a tool that writes one output:
 * -o/--output, -h/--help, --version (version: the tool's long-only code
 * for it) and the table's end; SR_OPT_OUTPUT_HELP, the lines of the
 * usage that tell them, SR_OPT_HELP_TAIL the last two alone. */
#define SR_OPT_OUTPUT_TAIL(version)					\
	{ "output", required_argument, NULL, 'o' },			\
	SR_OPT_HELP_ENTRIES(version)
/* The end of a table of a tool without -o: --help, --version, the end. */
#define SR_OPT_HELP_ENTRIES(version)					\
	{ "help", no_argument, NULL, 'h' },				\
	{ "version", no_argument, NULL, (version) },			\
	{ NULL, 0, NULL, 0 }
#define SR_OPT_OUTPUT_HELP						\
"  -o, --output FILE        write here (atomically) instead of stdout\n" \
	SR_OPT_HELP_TAIL
#define SR_OPT_HELP_TAIL						\
"  -h, --help               this help\n"				\
"      --version            version\n"

/* -h/--help: usage(stdout), checked, then exit 0. */
_Noreturn void sr_opt_help(void (*usage)(FILE *));

#endif
