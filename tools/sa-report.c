/* sa-report - a campaign's report: one self-contained HTML page of what
 * ran, the reuse, the indices or the best sets, every plot (inlined),
 * the timings per task and the makespan, measured and predicted. */
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "campaign/report.h"
#include "core/err.h"
#include "core/mem.h"
#include "core/opt.h"
#include "core/out.h"
#include "image/image.h"

enum { OPT_CAMPAIGN = CHAR_MAX + 1, OPT_MAKESPAN, OPT_TOP, OPT_CONCURRENCY,
    OPT_WORKFLOW, OPT_VERSION };

#define DEFAULT_TOP 10

static const struct option longopts[] = {
	{ "campaign", required_argument, NULL, OPT_CAMPAIGN },
	{ "makespan", required_argument, NULL, OPT_MAKESPAN },
	{ "top", required_argument, NULL, OPT_TOP },
	{ "concurrency", no_argument, NULL, OPT_CONCURRENCY },
	{ "workflow", required_argument, NULL, OPT_WORKFLOW },
	SR_OPT_OUTPUT_TAIL(OPT_VERSION)
};

struct opts {
	sr_report_opts r;
	const char *output;
	int concurrency;
};

static void
usage(FILE *fp)
{
	fprintf(fp,
"Usage: sa-report [--campaign FILE] [--workflow FILE] [--makespan REPORT.tsv]\n"
"         [--top N] [-o REPORT.html] OUTDIR\n"
"       sa-report --concurrency OUTDIR\n"
"Write the report of the campaign whose output directory is OUTDIR, once\n"
"merged: one self-contained HTML page (the plots inlined) of what was run,\n"
"the indices or the best sets, the plots, the reuse, the timings per task\n"
"and the makespan of the buckets, measured and predicted.\n"
"\n"
"      --campaign FILE      the campaign file that ran: shown, with its engine\n"
"      --workflow FILE      the campaign's workflow: the task nodes and seconds\n"
"                           run, against all, in the work saved\n"
"      --makespan FILE      sim-runtime's report: the predicted makespan\n"
"      --top N              the best sets of a tune campaign shown [%d]\n"
"      --concurrency        print the most buckets seen running at once\n"
"                           (OUTDIR/logs/finished; 0: none recorded) and exit\n"
SR_OPT_OUTPUT_HELP, DEFAULT_TOP);
}

/* Checks the operand and how the options go together. */
static void
check_args(int argc, char **argv, struct opts *o)
{
	if (argc - optind != 1)
		sr_usage_error("expected OUTDIR, the campaign's output directory, "
		    "got %d arguments", argc - optind);
	o->r.outdir = argv[optind];
	if (o->concurrency && (o->output || o->r.campaign || o->r.makespan ||
	    o->r.workflow))
		sr_usage_error("--concurrency prints a number: it takes no "
		    "other option");
	if (o->r.campaign && strcmp(o->r.campaign, "-") == 0)
		sr_usage_error("--campaign: a file, not stdin");
	if (o->r.makespan && strcmp(o->r.makespan, "-") == 0)
		sr_usage_error("--makespan: a file, not stdin");
	if (o->r.workflow && strcmp(o->r.workflow, "-") == 0)
		sr_usage_error("--workflow: a file, not stdin");
	sr_out_refuse_inputs((const char *[]){ o->output }, 1,
	    (const char *[]){ o->r.campaign, o->r.makespan, o->r.workflow }, 3);
}

static void
parse_args(int argc, char **argv, struct opts *o)
{
	int c;

	memset(o, 0, sizeof *o);
	o->r.top = DEFAULT_TOP;
	while ((c = getopt_long(argc, argv, ":o:h", longopts, NULL)) != -1) {
		switch (c) {
		case OPT_CAMPAIGN: o->r.campaign = optarg; break;
		case OPT_MAKESPAN: o->r.makespan = optarg; break;
		case OPT_WORKFLOW: o->r.workflow = optarg; break;
		case OPT_TOP: o->r.top = sr_opt_count("--top", optarg, 1,
		    SR_COUNT_MAX); break;
		case OPT_CONCURRENCY: o->concurrency = 1; break;
		case 'o': o->output = optarg; break;
		case 'h': sr_opt_help(usage);
		case OPT_VERSION: sr_print_version();
		default: sr_getopt_fail(c, argv);
		}
	}
	check_args(argc, argv, o);
}

int
main(int argc, char **argv)
{
	struct opts o;
	FILE *fp;

	sr_init(argv[0]);
	parse_args(argc, argv, &o);
	sr_image_set_budget(sr_memory_budget(NULL));	/* the plots read */
	sr_report_check(o.r.outdir);
	if (o.concurrency) {
		printf("%zu\n", sr_report_concurrency(o.r.outdir));
		sr_out_commit_all();
		return SR_EXIT_OK;
	}
	o.r.now = (double)time(NULL);
	o.r.argc = argc;
	o.r.argv = argv;
	fp = sr_out_open(o.output);
	sr_report_write(fp, &o.r);
	sr_out_commit_all();
	return SR_EXIT_OK;
}
