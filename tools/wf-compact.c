/* wf-compact - stage-level reuse: each unique stage instance once. */
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan/compact.h"
#include "sa/design.h"
#include "core/err.h"
#include "core/opt.h"
#include "core/out.h"
#include "plan/instances.h"

enum { OPT_VERSION = CHAR_MAX + 1 };

static const struct option longopts[] = {
	{ "output", required_argument, NULL, 'o' },
	{ "quiet", no_argument, NULL, 'q' },
	SR_OPT_HELP_ENTRIES(OPT_VERSION)
};

static void
usage(FILE *fp)
{
	fputs(
"Usage: wf-compact [-q] [-o INSTANCES.tsv] WORKFLOW.wf DESIGN.tsv\n"
"Stage-level reuse: write each unique stage instance of the design's runs\n"
"through the workflow once, with the runs it serves (stdout without -o).\n"
"\n"
"  -o, --output FILE        write here (atomically) instead of stdout\n"
"  -q, --quiet              no summary on stderr\n"
"  -h, --help               this help\n"
"      --version            version\n", fp);
}

/* Prints runs and instances per stage, before and after, on stderr. */
static void
summary(const sr_instances *s)
{
	size_t st, before = s->nruns * s->w->nstage, after = s->n;

	fprintf(stderr, "%s: %zu runs; stage instances %zu -> %zu (%.1f%% "
	    "fewer):", sr_progname, s->nruns, before, after,
	    before ? 100.0 * (1 - (double)after / (double)before) : 0.0);
	for (st = 0; st < s->w->nstage; st++)
		fprintf(stderr, " %s %zu -> %zu%s", s->w->stage[st].name, s->nruns,
		    s->first[st + 1] - s->first[st],
		    st + 1 < s->w->nstage ? "," : "\n");
}

int
main(int argc, char **argv)
{
	const char *output = NULL;
	int c, quiet = 0;
	sr_workflow *w;
	sr_design *d;
	sr_instances *s;
	double *values;
	FILE *fp;
	size_t i;

	sr_init(argv[0]);
	while ((c = getopt_long(argc, argv, ":o:qh", longopts, NULL)) != -1) {
		switch (c) {
		case 'o': output = optarg; break;
		case 'q': quiet = 1; break;
		case 'h': sr_opt_help(usage);
		case OPT_VERSION: sr_print_version();
		default: sr_getopt_fail(c, argv);
		}
	}
	if (argc - optind != 2)
		sr_usage_error("expected WORKFLOW.wf and DESIGN.tsv, got %d "
		    "arguments", argc - optind);
	if (strcmp(argv[optind], "-") == 0 && strcmp(argv[optind + 1], "-") == 0)
		sr_usage_error("only one of WORKFLOW.wf and DESIGN.tsv can be stdin");
	sr_out_refuse_inputs(&output, 1, (const char **)argv + optind, 2);
	w = sr_workflow_read(argv[optind]);
	d = sr_design_read(argv[optind + 1]);
	values = sr_compact_values(w, d);
	s = sr_compact(w, values, d->nrun);
	sr_instances_set_space(s, d->space);
	fp = sr_out_open(output);
	sr_out_provenance(fp, argc, argv);
	sr_instances_write_meta(fp, s);
	sr_instances_write_head(fp, w);
	for (i = 0; i < s->n; i++)
		sr_instance_write(fp, s, &s->inst[i]);
	if (!quiet)
		summary(s);
	sr_out_commit_all();
	sr_instances_free(s);
	free(values);
	sr_design_free(d);
	sr_workflow_free(w);
	return SR_EXIT_OK;
}
