/* sa-sample - draw parameter sets (a design) from a parameter space. */
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sa/design.h"
#include "core/err.h"
#include "plan/trials.h"
#include "sa/generator.h"
#include "core/opt.h"
#include "core/out.h"
#include "sa/method.h"
#include "sa/sample.h"
#include "sa/sampler.h"
#include "sa/search.h"
#include "sa/space.h"

#define DEF_N 1000
#define DEF_R 20
#define DEF_P 4
#define DEF_SEED 1UL

enum {
	OPT_BASE = CHAR_MAX + 1, OPT_SECOND_ORDER, OPT_OPTIMIZE, OPT_REFERENCE,
	OPT_FIX, OPT_FORCE, OPT_ROUND, OPT_ROUNDS, OPT_HISTORY, OPT_WITHIN,
	OPT_GAMMA, OPT_CANDIDATES, OPT_INDEPENDENT, OPT_INERTIA, OPT_C1, OPT_C2, OPT_COOLING,
	OPT_EXTEND, OPT_VERSION
};

static const struct option longopts[] = {
	{ "method", required_argument, NULL, 'm' },
	{ "samples", required_argument, NULL, 'n' },
	{ "trajectories", required_argument, NULL, 'r' },
	{ "levels", required_argument, NULL, 'p' },
	{ "interference", required_argument, NULL, 'M' },
	{ "seed", required_argument, NULL, 's' },
	{ "output", required_argument, NULL, 'o' },
	{ "base", required_argument, NULL, OPT_BASE },
	{ "second-order", no_argument, NULL, OPT_SECOND_ORDER },
	{ "optimize", required_argument, NULL, OPT_OPTIMIZE },
	{ "reference", no_argument, NULL, OPT_REFERENCE },
	{ "fix", required_argument, NULL, OPT_FIX },
	{ "force", no_argument, NULL, OPT_FORCE },
	{ "round", required_argument, NULL, OPT_ROUND },
	{ "rounds", required_argument, NULL, OPT_ROUNDS },
	{ "history", required_argument, NULL, OPT_HISTORY },
	{ "within", required_argument, NULL, OPT_WITHIN },
	{ "gamma", required_argument, NULL, OPT_GAMMA },
	{ "candidates", required_argument, NULL, OPT_CANDIDATES },
	{ "independent", no_argument, NULL, OPT_INDEPENDENT },
	{ "inertia", required_argument, NULL, OPT_INERTIA },
	{ "c1", required_argument, NULL, OPT_C1 },
	{ "c2", required_argument, NULL, OPT_C2 },
	{ "cooling", required_argument, NULL, OPT_COOLING },
	{ "extend", required_argument, NULL, OPT_EXTEND },
	SR_OPT_HELP_ENTRIES(OPT_VERSION)
};

struct opts {
	sr_sample_spec spec;
	const char *output, *space;
	const char *extend;		/* --extend: the design grown */
	int others;			/* options given but -n and -o */
	char **fix;
	size_t nfix;
	const char *history, *within;	/* pso, anneal, tpe */
	size_t rounds;
	sr_search_opts so;		/* their settings (rounds set later) */
	int set[SR_NMETHOD];		/* which method's settings were given */
	int n_given;
};

static void
usage(FILE *fp)
{
	fprintf(fp,
"Usage: sa-sample -m METHOD [options] [-o DESIGN.tsv] SPACE.tsv\n"
"       sa-sample --reference [--fix NAME=VALUE] [-o DESIGN.tsv] SPACE.tsv\n"
"       sa-sample --extend DESIGN.tsv -n N [-o DESIGN2.tsv]\n"
"Draw parameter sets from SPACE.tsv and write a design (stdout without -o).\n"
"\n"
"Methods:\n"
"  mc, lhs, halton, hammersley, sobol   N points of the unit cube, mapped\n"
"                           onto the values (-n)\n"
"  random                   N distinct parameter sets, uniform over the values\n"
"  grid                     full factorial (continuous: -p levels)\n"
"  moat                     Morris screening: -r trajectories on -p levels\n"
"  vbd                      Saltelli/Sobol blocks: N base samples (-n)\n"
"  efast                    Fourier search curves: N runs a parameter (-n)\n"
"  rbd_fast                 random balance design: N runs on one curve (-n)\n"
"  pso, anneal, tpe         round K (--round) of a search that learns: N sets\n"
"                           from the rounds before (--history)\n"
"Options:\n"
"  -m, --method METHOD      sampling method\n"
"  -n, --samples N          points, VBD base samples, eFAST runs a parameter,\n"
"                           RBD-FAST runs\n"
"                           [%d]\n"
"  -r, --trajectories R     MOAT trajectories [%d]\n"
"  -p, --levels P           MOAT levels; grid levels of continuous ranges [%d]\n"
"  -s, --seed SEED          random seed [%lu]\n"
"  -M, --interference M     eFAST: the harmonics (N > 4 M^2) [4]\n"
"      --base B             VBD base: mc, lhs, halton, hammersley, sobol [sobol]\n"
"      --second-order       VBD: add the BA blocks for second-order indices\n"
"      --optimize K         MOAT: keep the K most spread-out of R trajectories\n"
"      --reference          add the default parameter set as the last run\n"
"      --fix NAME=VALUE     hold NAME at VALUE (repeatable)\n"
"      --force              allow a grid of more than %.0e runs\n"
"      --round K            the round of a search to draw, from 1\n"
"      --rounds R           the search's rounds in all (anneal's cooling) [K]\n"
"      --history TRIALS     the rounds before: a trials.tsv (its batch column\n"
"                           the round; needed from round 2)\n"
"      --within SPACE2      project every set onto SPACE2's values (a pruned\n"
"                           copy of SPACE.tsv)\n"
"      --gamma G            tpe: the share of good sets [0.1]\n"
"      --candidates N       tpe: candidates per set [24]\n"
"      --independent        tpe: one estimator per parameter, not one joint\n"
"      --inertia W          pso: the inertia weight [0.7298]\n"
"      --c1 C, --c2 C       pso: the pulls to the particle's and the swarm's\n"
"                           best [1.49618]\n"
"      --cooling A          anneal: the temperature's factor per round [5 %%\n"
"                           of the start at the last round]\n"
"      --extend DESIGN      grow DESIGN (mc, halton, sobol, vbd) to -n N: its\n"
"                           rows, then those a design of N adds after them\n"
"  -o, --output FILE        write here (atomically) instead of stdout\n"
"  -h, --help               this help\n"
"      --version            version\n",
	    DEF_N, DEF_R, DEF_P, DEF_SEED, SR_GRID_LIMIT);
}

/* --extend DESIGN -n N: nothing else, the rest is the design's. */
static void
extend_args(int argc, struct opts *o)
{
	if (o->others)
		sr_usage_error("--extend takes -n and -o only: the method, seed "
		    "and the rest are the design's");
	if (optind != argc)
		sr_usage_error("--extend takes no SPACE.tsv: the design's #space "
		    "lines are its space");
	if (!o->n_given)
		sr_usage_error("--extend needs -n N, the size grown to");
	sr_out_refuse_inputs(&o->output, 1, &o->extend, 1);
}

static void
parse_args(int argc, char **argv, struct opts *o)
{
	const char *methods[SR_NMETHOD];
	sr_sample_spec *s = &o->spec;
	char errbuf[SR_ERRLEN];
	int c, method = -1;

	memset(o, 0, sizeof *o);
	sr_search_opts_init(&o->so, 0);
	s->n = DEF_N;
	s->r = DEF_R;
	s->p = DEF_P;
	s->seed = DEF_SEED;
	s->base = SR_SOBOL;
	sr_method_table(SR_METHODS_SAMPLE, methods);
	o->fix = sr_calloc((size_t)argc, sizeof *o->fix);
	while ((c = getopt_long(argc, argv, ":m:n:r:p:s:o:M:h", longopts,
	    NULL)) != -1) {
		o->others += c != 'n' && c != 'o' && c != OPT_EXTEND;
		switch (c) {
		case 'm': method = sr_opt_word("-m", optarg, methods, SR_NMETHOD);
			break;
		case 'n': s->n = sr_opt_count("-n", optarg, 1, SR_COUNT_MAX);
			o->n_given = 1; break;
		case 'r': s->r = sr_opt_count("-r", optarg, 1, SR_COUNT_MAX); break;
		case 'p': s->p = sr_opt_count("-p", optarg, 2, SR_COUNT_MAX); break;
		case 'M': s->m = sr_opt_count("-M", optarg, 1, 1000); break;
		case 's': s->seed = sr_opt_seed("-s", optarg); break;
		case 'o': o->output = optarg; break;
		case OPT_BASE: s->base = sr_opt_word("--base", optarg,
		    sr_unit_method_names, SR_NUNIT); break;
		case OPT_SECOND_ORDER: s->second_order = 1; break;
		case OPT_OPTIMIZE: s->optimize = sr_opt_count("--optimize", optarg,
		    1, SR_COUNT_MAX); break;
		case OPT_REFERENCE: s->reference = 1; break;
		case OPT_FIX: o->fix[o->nfix++] = optarg; break;
		case OPT_FORCE: s->force = 1; break;
		case OPT_ROUND: s->round = sr_opt_count("--round", optarg, 1,
		    SR_COUNT_MAX); break;
		case OPT_ROUNDS: o->rounds = sr_opt_count("--rounds", optarg, 1,
		    SR_COUNT_MAX); break;
		case OPT_HISTORY: o->history = optarg; break;
		case OPT_WITHIN: o->within = optarg; break;
		case OPT_GAMMA: o->so.gamma = sr_opt_real("--gamma", optarg, 0, 1,
		    SR_OPEN_LO, "a share"); o->set[SR_METHOD_TPE] = 1; break;
		case OPT_CANDIDATES: o->so.candidates = sr_opt_count(
		    "--candidates", optarg, 1, 100000);
		    o->set[SR_METHOD_TPE] = 1; break;
		case OPT_INDEPENDENT: o->so.multivariate = 0;
		    o->set[SR_METHOD_TPE] = 1; break;
		case OPT_INERTIA: o->so.inertia = sr_opt_real("--inertia", optarg,
		    0, 10, 0, "a weight"); o->set[SR_METHOD_PSO] = 1; break;
		case OPT_C1: o->so.c1 = sr_opt_real("--c1", optarg, 0, 10, 0,
		    "a weight"); o->set[SR_METHOD_PSO] = 1; break;
		case OPT_C2: o->so.c2 = sr_opt_real("--c2", optarg, 0, 10, 0,
		    "a weight"); o->set[SR_METHOD_PSO] = 1; break;
		case OPT_EXTEND: o->extend = optarg; break;
		case OPT_COOLING: o->so.cooling = sr_opt_real("--cooling", optarg,
		    0, 1, SR_OPEN_LO | SR_OPEN_HI, "a factor");
		    o->set[SR_METHOD_ANNEAL] = 1; break;
		case 'h': sr_opt_help(usage);
		case OPT_VERSION: sr_print_version();
		default: sr_getopt_fail(c, argv);
		}
	}
	if (o->extend) {
		extend_args(argc, o);
		return;
	}
	if (optind != argc - 1)
		sr_usage_error(optind == argc ? "no SPACE.tsv given" :
		    "one SPACE.tsv expected, got %d arguments", argc - optind);
	o->space = argv[optind];
	sr_out_refuse_inputs(&o->output, 1, &o->space, 1);
	if (method < 0 && !s->reference)
		sr_usage_error("no method given (-m)");
	s->method = method < 0 ? SR_METHOD_REFERENCE : (enum sr_method)method;
	if (sr_sample_check(s, errbuf, sizeof errbuf))
		sr_usage_error("%s", errbuf);
	if (sr_sample_check_search(s, o->set, o->history != NULL, o->within !=
	    NULL, o->rounds, errbuf, sizeof errbuf))
		sr_usage_error("%s", errbuf);
}

/* Draws round spec->round of the search into g (sa/search.h). */
static void
search(const struct opts *o, sr_generator *g, const sr_space *s)
{
	sr_search_history h = { 0, NULL, NULL, NULL };
	sr_space *w = o->within ? sr_space_read(o->within) : NULL;
	double *out = sr_calloc(o->spec.n * s->n + 1, sizeof *out);
	sr_search_opts so = o->so;
	enum sr_search_method m;
	const char *why;
	size_t i;

	sr_search_parse(sr_method_name(o->spec.method), &m);
	so.rounds = o->rounds ? o->rounds : o->spec.round;
	if (o->history)
		sr_trials_search_history(o->history, s, &h);
	if ((why = sr_search_round(m, &so, s, &h, o->spec.round, o->spec.n,
	    o->spec.seed, out)) != NULL)
		sr_die(SR_EXIT_DATA, "%s: %s", o->history, why);
	if (w && (why = sr_search_within(s, w, o->spec.n, out)) != NULL)
		sr_die(SR_EXIT_DATA, "%s: no parameter %s", o->within, why);
	for (i = 0; i < o->spec.n; i++)
		sr_generator_put(g, out + i * s->n);
	sr_space_free(w);
	sr_search_history_free(&h);
	free(out);
}

/* What precedes the rows; written only once the first row is ready. */
struct head {
	const sr_sample_spec *spec;
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
	sr_design_write_meta(h->g->fp, h->spec, h->g, h->rows);
	sr_design_write_head(h->g->fp, h->g->space);
}

int
main(int argc, char **argv)
{
	struct opts o;
	struct head h = { NULL, NULL, 0, argc, argv };
	sr_space *space;
	sr_design *d = NULL;
	sr_generator g;
	char errbuf[1024];
	size_t i;

	sr_init(argv[0]);
	parse_args(argc, argv, &o);
	if (o.extend) {	/* the design's space and settings, its rows first */
		d = sr_design_read(o.extend);
		if (sr_design_grow_spec(d, o.spec.n, &o.spec, errbuf,
		    sizeof errbuf))
			sr_die(SR_EXIT_DATA, "%s", errbuf);
		space = d->space;
	} else
		space = sr_space_read(o.space);
	for (i = 0; i < o.nfix; i++)
		if (sr_space_fix(space, o.fix[i], o.space, errbuf, sizeof errbuf))
			sr_usage_error("%s", errbuf);
	sr_generator_init(&g, space, NULL, o.spec.seed);
	if (d) {
		g.expect = d->x;
		g.nexpect = d->nrun - (d->reference >= 0);
	}
	if (sr_sample_rows(&o.spec, &g, &h.rows, errbuf, sizeof errbuf))
		sr_usage_error("%s", errbuf);
	if (g.ngroup && o.spec.method != SR_METHOD_VBD &&
	    o.spec.method != SR_METHOD_MOAT)
		sr_warn("%s: the groups of its group column go with -m vbd and "
		    "moat; -m %s draws each parameter alone", o.extend ? o.extend : o.space,
		    sr_method_name(o.spec.method));
	g.fp = sr_out_open(o.output);
	h.spec = &o.spec;
	h.g = &g;
	g.before_rows = write_head;
	g.arg = &h;
	if (sr_method_is_search(o.spec.method))
		search(&o, &g, space);
	else if (sr_sample_generate(&o.spec, &g, errbuf, sizeof errbuf))
		sr_die(SR_EXIT_DATA, "%s: %s", o.space, errbuf);
	if (o.spec.reference)
		sr_generator_reference(&g);
	sr_generator_flush(&g);
	if (g.mismatch >= 0)	/* the output, uncommitted, goes */
		sr_die(SR_EXIT_DATA, "%s: run %ld is not the one this design's "
		    "settings draw (edited, or drawn by another version): it "
		    "cannot grow", o.extend, g.mismatch);
	sr_out_commit_all();
	sr_generator_free(&g);
	if (d)
		sr_design_free(d);
	else
		sr_space_free(space);
	free(o.fix);
	return SR_EXIT_OK;
}
