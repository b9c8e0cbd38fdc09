/* sa-sample - draw parameter sets (a design) from a parameter space. */
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sa/design.h"
#include "core/err.h"
#include "sa/generator.h"
#include "core/num.h"
#include "core/out.h"
#include "core/rng.h"
#include "sa/sampler.h"
#include "sa/space.h"

#define DEF_N 1000
#define DEF_R 20
#define DEF_P 4
#define DEF_SEED 1UL
#define MAX_ROWS 1000000000.0	/* a billion runs is no longer a design */

enum {
	OPT_BASE = CHAR_MAX + 1, OPT_SECOND_ORDER, OPT_OPTIMIZE, OPT_REFERENCE,
	OPT_FIX, OPT_FORCE, OPT_VERSION
};

static const struct option longopts[] = {
	{ "method", required_argument, NULL, 'm' },
	{ "samples", required_argument, NULL, 'n' },
	{ "trajectories", required_argument, NULL, 'r' },
	{ "levels", required_argument, NULL, 'p' },
	{ "seed", required_argument, NULL, 's' },
	{ "output", required_argument, NULL, 'o' },
	{ "base", required_argument, NULL, OPT_BASE },
	{ "second-order", no_argument, NULL, OPT_SECOND_ORDER },
	{ "optimize", required_argument, NULL, OPT_OPTIMIZE },
	{ "reference", no_argument, NULL, OPT_REFERENCE },
	{ "fix", required_argument, NULL, OPT_FIX },
	{ "force", no_argument, NULL, OPT_FORCE },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ NULL, 0, NULL, 0 }
};

struct opts {
	const char *method, *base, *output, *space;
	size_t n, r, p, optimize;
	unsigned long seed;
	int second_order, reference, force;
	char **fix;
	size_t nfix;
};

static void
usage(FILE *fp)
{
	fprintf(fp,
"Usage: sa-sample -m METHOD [options] [-o DESIGN.tsv] SPACE.tsv\n"
"       sa-sample --reference [--fix NAME=VALUE] [-o DESIGN.tsv] SPACE.tsv\n"
"Draw parameter sets from SPACE.tsv and write a design (stdout without -o).\n"
"\n"
"Methods:\n"
"  mc, lhs, halton, hammersley, sobol   N points of the unit cube, mapped\n"
"                           onto the values (-n)\n"
"  random                   N distinct parameter sets, uniform over the values\n"
"  grid                     full factorial (continuous: -p levels)\n"
"  moat                     Morris screening: -r trajectories on -p levels\n"
"  vbd                      Saltelli/Sobol blocks: N base samples (-n)\n"
"Options:\n"
"  -m, --method METHOD      sampling method\n"
"  -n, --samples N          points or VBD base samples [%d]\n"
"  -r, --trajectories R     MOAT trajectories [%d]\n"
"  -p, --levels P           MOAT levels; grid levels of continuous ranges [%d]\n"
"  -s, --seed SEED          random seed [%lu]\n"
"      --base B             VBD base: mc, lhs, halton, hammersley, sobol [sobol]\n"
"      --second-order       VBD: add the BA blocks for second-order indices\n"
"      --optimize K         MOAT: keep the K most spread-out of R trajectories\n"
"      --reference          add the default parameter set as the last run\n"
"      --fix NAME=VALUE     hold NAME at VALUE (repeatable)\n"
"      --force              allow a grid of more than %.0e runs\n"
"  -o, --output FILE        write here (atomically) instead of stdout\n"
"  -h, --help               this help\n"
"      --version            version\n",
	    DEF_N, DEF_R, DEF_P, DEF_SEED, SR_GRID_LIMIT);
}

/* Parses a positive count option value; exits 2 on nonsense. */
static size_t
count_arg(const char *opt, const char *s, size_t min)
{
	long v;

	if (sr_parse_long(s, &v) || v < (long)min)
		sr_usage_error("%s: '%s' must be a whole number >= %zu", opt, s, min);
	return (size_t)v;
}

/* Checks the method and the options that go with it (before any file
 * is read, so a usage error is always exit 2). */
static void
check_options(const struct opts *o)
{
	const char *m = o->method ? o->method : "reference";

	if (o->method && strcmp(m, "vbd") && strcmp(m, "moat") &&
	    strcmp(m, "grid") && strcmp(m, "random") &&
	    sr_unit_method_parse(m) < 0)
		sr_usage_error("unknown method '%s' (mc, lhs, halton, hammersley, "
		    "sobol, random, grid, moat, vbd)", m);
	if (sr_unit_method_parse(o->base) < 0)
		sr_usage_error("--base '%s': not mc, lhs, halton, hammersley or "
		    "sobol", o->base);
	if (o->second_order && strcmp(m, "vbd") != 0)
		sr_usage_error("--second-order goes with -m vbd");
	if (o->optimize && strcmp(m, "moat") != 0)
		sr_usage_error("--optimize goes with -m moat");
	if (o->optimize > o->r)
		sr_usage_error("--optimize %zu keeps more trajectories than the "
		    "%zu drawn (-r)", o->optimize, o->r);
}

static void
parse_args(int argc, char **argv, struct opts *o)
{
	int c;

	memset(o, 0, sizeof *o);
	o->n = DEF_N;
	o->r = DEF_R;
	o->p = DEF_P;
	o->seed = DEF_SEED;
	o->base = "sobol";
	o->fix = sr_calloc((size_t)argc, sizeof *o->fix);
	while ((c = getopt_long(argc, argv, ":m:n:r:p:s:o:h", longopts,
	    NULL)) != -1) {
		switch (c) {
		case 'm': o->method = optarg; break;
		case 'n': o->n = count_arg("-n", optarg, 1); break;
		case 'r': o->r = count_arg("-r", optarg, 1); break;
		case 'p': o->p = count_arg("-p", optarg, 2); break;
		case 's':
			o->seed = count_arg("-s", optarg, 0);
			if (o->seed > SR_SEED_MAX)
				sr_usage_error("-s %s: seeds go from 0 to %lu", optarg,
				    SR_SEED_MAX);
			break;
		case 'o': o->output = optarg; break;
		case OPT_BASE: o->base = optarg; break;
		case OPT_SECOND_ORDER: o->second_order = 1; break;
		case OPT_OPTIMIZE: o->optimize = count_arg("--optimize", optarg, 1);
			break;
		case OPT_REFERENCE: o->reference = 1; break;
		case OPT_FIX: o->fix[o->nfix++] = optarg; break;
		case OPT_FORCE: o->force = 1; break;
		case 'h': usage(stdout); sr_out_commit_all(); exit(SR_EXIT_OK);
		case OPT_VERSION: sr_print_version();
		default: sr_getopt_fail(c, argv);
		}
	}
	if (optind != argc - 1)
		sr_usage_error(optind == argc ? "no SPACE.tsv given" :
		    "one SPACE.tsv expected, got %d arguments", argc - optind);
	o->space = argv[optind];
	if (o->method == NULL && !o->reference)
		sr_usage_error("no method given (-m)");
	check_options(o);
}

/* Marks --fix NAME=VALUE parameters as fixed; exits 2 on a bad option. */
static void
apply_fixes(sr_space *s, const struct opts *o)
{
	size_t i;

	for (i = 0; i < o->nfix; i++) {
		char *eq = strchr(o->fix[i], '='), name[256];
		double v;
		int j;

		if (eq == NULL || eq == o->fix[i] ||
		    (size_t)(eq - o->fix[i]) >= sizeof name)
			sr_usage_error("--fix '%s': expected NAME=VALUE", o->fix[i]);
		snprintf(name, sizeof name, "%.*s", (int)(eq - o->fix[i]),
		    o->fix[i]);
		if ((j = sr_space_find(s, name)) < 0)
			sr_usage_error("--fix %s: no parameter %s in %s", o->fix[i],
			    name, o->space);
		if (sr_parse_double(eq + 1, &v) || !sr_param_valid(&s->p[j], v))
			sr_usage_error("--fix %s: '%s' is not a value of %s (%s %s, "
			    "default %s)", o->fix[i], eq + 1, name,
			    sr_ptype_name(s->p[j].type), s->p[j].values_text,
			    s->p[j].default_text);
		s->p[j].fixed = 1;
		s->p[j].fixed_value = v;
	}
}

/* Returns the number of runs the design will have; exits 2 when it is
 * beyond any machine. */
static double
design_rows(const struct opts *o, const sr_generator *g)
{
	const char *m = o->method ? o->method : "reference";
	double k = (double)g->k, rows;

	if (strcmp(m, "vbd") == 0)
		rows = (double)o->n * (o->second_order ? 2 * k + 2 : k + 2);
	else if (strcmp(m, "moat") == 0)
		rows = (double)(o->optimize ? o->optimize : o->r) * (k + 1);
	else if (strcmp(m, "grid") == 0)
		rows = sr_generator_grid_size(g, o->p);
	else if (strcmp(m, "reference") == 0)
		rows = 0;
	else
		rows = (double)o->n;
	if (rows > MAX_ROWS)
		sr_usage_error("%s: %.4g runs is too many (limit %.0e)", m, rows,
		    MAX_ROWS);
	if (strcmp(m, "grid") == 0 && rows > SR_GRID_LIMIT && !o->force)
		sr_usage_error("grid of %.4g runs (more than %.0e): narrow it with "
		    "--fix, or give --force", rows, SR_GRID_LIMIT);
	return rows;
}

/* Writes the metadata comment line (see design(5)). */
static void
write_meta(FILE *fp, const struct opts *o, const sr_generator *g, double rows)
{
	const char *m = o->method ? o->method : "reference";
	size_t j;

	fprintf(fp, "#method=%s", m);
	if (strcmp(m, "moat") == 0)
		fprintf(fp, " r=%zu p=%zu", o->optimize ? o->optimize : o->r, o->p);
	else if (strcmp(m, "grid") == 0)
		fprintf(fp, " n=%.0f p=%zu", rows, o->p);
	else if (strcmp(m, "reference") != 0)
		fprintf(fp, " n=%zu", o->n);
	fprintf(fp, " k=%zu params=", strcmp(m, "reference") ? g->k : 0);
	for (j = 0; strcmp(m, "reference") && j < g->k; j++)
		fprintf(fp, "%s%s", j ? "," : "", g->space->p[g->varied[j]].name);
	if (strcmp(m, "reference") == 0 || g->k == 0)
		fputc('-', fp);
	if (strcmp(m, "vbd") == 0)
		fprintf(fp, " base=%s second_order=%d", o->base, o->second_order);
	if (strcmp(m, "vbd") == 0 && strcmp(o->base, "sobol") == 0)
		fprintf(fp, " skip=%zu", sr_vbd_sobol_skip(o->n));
	if (o->optimize)
		fprintf(fp, " candidates=%zu", o->r);
	fprintf(fp, " seed=%lu", o->seed);
	if (o->reference)
		fprintf(fp, " reference=%.0f", rows);
	fputc('\n', fp);
}

/* What precedes the rows; written only once the first row is ready. */
struct head {
	const struct opts *o;
	const sr_generator *g;
	double rows;
	int argc;
	char **argv;
};

static void
write_head(void *arg)
{
	const struct head *h = arg;

	sr_out_provenance(h->g->fp, h->argc, h->argv);
	write_meta(h->g->fp, h->o, h->g, h->rows);
	sr_design_write_head(h->g->fp, h->g->space);
}

/* Runs the generator the method names. */
static void
generate(const struct opts *o, sr_generator *g, int base)
{
	const char *m = o->method, *why = NULL;
	char errbuf[256];

	if (m == NULL)
		return;
	if (strcmp(m, "vbd") == 0)
		why = sr_generator_vbd(g, base, o->n, o->second_order, errbuf,
		    sizeof errbuf);
	else if (strcmp(m, "moat") == 0)
		why = sr_generator_moat(g, o->r, o->p, o->optimize, errbuf,
		    sizeof errbuf);
	else if (strcmp(m, "grid") == 0)
		sr_generator_grid(g, o->p);
	else if (strcmp(m, "random") == 0)
		why = sr_generator_random(g, o->n, errbuf, sizeof errbuf);
	else
		why = sr_generator_unit(g, sr_unit_method_parse(m), o->n, errbuf,
		    sizeof errbuf);
	if (why)
		sr_die(SR_EXIT_DATA, "%s: %s", o->space, why);
}

int
main(int argc, char **argv)
{
	struct opts o;
	struct head h;
	sr_space *space;
	sr_generator g;
	double rows;
	int base;

	sr_init(argv[0]);
	parse_args(argc, argv, &o);
	space = sr_space_read(o.space);
	apply_fixes(space, &o);
	sr_generator_init(&g, space, NULL, o.seed);
	base = sr_unit_method_parse(o.base);
	rows = design_rows(&o, &g);
	g.fp = sr_out_open(o.output);
	h.o = &o;
	h.g = &g;
	h.rows = rows;
	h.argc = argc;
	h.argv = argv;
	g.before_rows = write_head;
	g.arg = &h;
	generate(&o, &g, base);
	if (o.reference)
		sr_generator_reference(&g);
	sr_out_commit_all();
	sr_generator_free(&g);
	sr_space_free(space);
	free(o.fix);
	return SR_EXIT_OK;
}
