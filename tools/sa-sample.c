/* sa-sample - draw parameter sets (a design) from a parameter space. */
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sa/design.h"
#include "core/err.h"
#include "sa/generator.h"
#include "core/opt.h"
#include "core/out.h"
#include "sa/method.h"
#include "sa/sample.h"
#include "sa/sampler.h"
#include "sa/space.h"

#define DEF_N 1000
#define DEF_R 20
#define DEF_P 4
#define DEF_SEED 1UL

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
	SR_OPT_HELP_ENTRIES(OPT_VERSION)
};

struct opts {
	sr_sample_spec spec;
	const char *output, *space;
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

static void
parse_args(int argc, char **argv, struct opts *o)
{
	const char *methods[SR_NMETHOD];
	sr_sample_spec *s = &o->spec;
	char errbuf[SR_ERRLEN];
	int c, method = -1;

	memset(o, 0, sizeof *o);
	s->n = DEF_N;
	s->r = DEF_R;
	s->p = DEF_P;
	s->seed = DEF_SEED;
	s->base = SR_SOBOL;
	sr_method_table(SR_METHODS_SAMPLE, methods);
	o->fix = sr_calloc((size_t)argc, sizeof *o->fix);
	while ((c = getopt_long(argc, argv, ":m:n:r:p:s:o:h", longopts,
	    NULL)) != -1) {
		switch (c) {
		case 'm': method = sr_opt_word("-m", optarg, methods, SR_NMETHOD);
			break;
		case 'n': s->n = sr_opt_count("-n", optarg, 1, SR_COUNT_MAX); break;
		case 'r': s->r = sr_opt_count("-r", optarg, 1, SR_COUNT_MAX); break;
		case 'p': s->p = sr_opt_count("-p", optarg, 2, SR_COUNT_MAX); break;
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
		case 'h': sr_opt_help(usage);
		case OPT_VERSION: sr_print_version();
		default: sr_getopt_fail(c, argv);
		}
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
	sr_generator g;
	char errbuf[1024];
	size_t i;

	sr_init(argv[0]);
	parse_args(argc, argv, &o);
	space = sr_space_read(o.space);
	for (i = 0; i < o.nfix; i++)
		if (sr_space_fix(space, o.fix[i], o.space, errbuf, sizeof errbuf))
			sr_usage_error("%s", errbuf);
	sr_generator_init(&g, space, NULL, o.spec.seed);
	if (sr_sample_rows(&o.spec, &g, &h.rows, errbuf, sizeof errbuf))
		sr_usage_error("%s", errbuf);
	g.fp = sr_out_open(o.output);
	h.spec = &o.spec;
	h.g = &g;
	g.before_rows = write_head;
	g.arg = &h;
	if (sr_sample_generate(&o.spec, &g, errbuf, sizeof errbuf))
		sr_die(SR_EXIT_DATA, "%s: %s", o.space, errbuf);
	if (o.spec.reference)
		sr_generator_reference(&g);
	sr_out_commit_all();
	sr_generator_free(&g);
	sr_space_free(space);
	free(o.fix);
	return SR_EXIT_OK;
}
