/* sa-campaign-conf - a campaign file's settings, checked and resolved, as
 * NUL-separated key=value records for sa-campaign. */
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "campaign/campaign.h"
#include "campaign/makespan.h"
#include "core/err.h"
#include "core/lock.h"
#include "core/mem.h"
#include "core/num.h"
#include "core/opt.h"
#include "core/out.h"
#include "image/image.h"
#include "image/tiles.h"

enum { OPT_SHARE = CHAR_MAX + 1, OPT_KEYS, OPT_LOCK, OPT_UNLOCK, OPT_REFRESH,
    OPT_HOLDER, OPT_PID, OPT_GRACE, OPT_NO_WARNINGS, OPT_TILE_SIZES,
    OPT_ATTEMPTS, OPT_VERSION };

static const struct option longopts[] = {
	{ "output", required_argument, NULL, 'o' },
	{ "share", required_argument, NULL, OPT_SHARE },
	{ "keys", no_argument, NULL, OPT_KEYS },
	{ "lock", required_argument, NULL, OPT_LOCK },
	{ "unlock", required_argument, NULL, OPT_UNLOCK },
	{ "refresh", required_argument, NULL, OPT_REFRESH },
	{ "holder", required_argument, NULL, OPT_HOLDER },
	{ "pid", required_argument, NULL, OPT_PID },
	{ "grace", required_argument, NULL, OPT_GRACE },
	{ "no-warnings", no_argument, NULL, OPT_NO_WARNINGS },
	{ "tile-sizes", required_argument, NULL, OPT_TILE_SIZES },
	{ "attempts", required_argument, NULL, OPT_ATTEMPTS },
	SR_OPT_HELP_ENTRIES(OPT_VERSION)
};

static void
usage(FILE *fp)
{
	fputs(
"Usage: sa-campaign-conf [-o OUTDIR] [--share DIR] [--no-warnings] CAMPAIGN\n"
"       sa-campaign-conf --keys\n"
"       sa-campaign-conf --lock|--refresh|--unlock FILE --pid PID [--grace S]\n"
"       sa-campaign-conf --holder FILE\n"
"       sa-campaign-conf --tile-sizes TILES.list\n"
"       sa-campaign-conf --attempts LOG\n"
"Check a campaign file (campaign(5)) and print its settings as NUL-\n"
"terminated key=value records: paths absolute, defaults filled in, the\n"
"arguments of sa-sample and reuse-merge one record each. Keys that the\n"
"campaign's method, merge or engine does not use are warned of on stderr.\n"
"\n"
"  -o, --output DIR         the output directory, instead of the campaign's\n"
"                           (relative to the current directory)\n"
"      --share DIR          sareuse's shared files, for the default workflow\n"
"                           DIR/workflows/nuclei.wf [none]\n"
"      --no-warnings        no warnings (errors are still printed)\n"
"      --keys               print the table of keys (TSV) and exit\n"
"      --lock FILE          take the lock file FILE for process PID: exit 0,\n"
"                           or 1 while a live holder has it (stale locks\n"
"                           are broken: dead pid on this host, or untouched\n"
"                           for S seconds)\n"
"      --refresh FILE       touch PID's lock FILE (do it every S/3 seconds)\n"
"      --unlock FILE        remove PID's lock FILE\n"
"      --holder FILE        print \"PID START\" of the live process of this\n"
"                           host that holds FILE: exit 0, or 1 when none\n"
"      --pid PID            the holder's process id\n"
"      --grace S            the grace period of --lock [30]\n"
"      --tile-sizes LIST    print \"TILE WIDTH HEIGHT\" (tab-separated) of every\n"
"                           tile of the tiles list LIST, from its header\n"
"      --attempts LOG       print \"I HOST PID\" of the last attempt at each\n"
"                           task I of LOG (an output's logs/attempts), in\n"
"                           task order; malformed lines warned of, skipped\n"
"  -h, --help               this help\n"
"      --version            version\n", fp);
}

/* The lock file actions: exits 0, or 1 with a message. */
static _Noreturn void
lock_action(int action, const char *file, const char *pid, const char *grace)
{
	char msg[4352];
	long p, g = SR_LOCK_GRACE;
	sr_lock_holder h;
	long age;
	int where;

	if (action == OPT_HOLDER) {	/* no --pid: it reports one */
		if ((where = sr_lock_holder_of(file, &h, &age)) < 0)
			exit(SR_EXIT_DATA);
		if (where == 0)
			printf("%ld %lld\n", h.pid, h.start);
		else
			printf("%ld %lld %s %ld\n", h.pid, h.start, h.host, age);
		sr_out_commit_all();
		exit(SR_EXIT_OK);
	}
	if (pid == NULL || sr_parse_long(pid, &p) || p <= 0)
		sr_usage_error("--pid: expected a process id");
	if (grace && (sr_parse_long(grace, &g) || g < 0))
		sr_usage_error("--grace: expected seconds");
	if (action == OPT_LOCK) {
		if (sr_lock_take(file, p, g, msg, sizeof msg) != 0)
			sr_die(SR_EXIT_DATA, "%s: %s", file, msg);
	} else if ((action == OPT_UNLOCK ? sr_lock_release(file, p) :
	    sr_lock_refresh(file, p)) != 0) {
		sr_die(SR_EXIT_DATA, "%s: not held by pid %ld on this host",
		    file, p);
	}
	exit(SR_EXIT_OK);
}

/* By task, then in file order (their places in one array). */
static int
cmp_start(const void *pa, const void *pb)
{
	const sr_task_start *a = *(const sr_task_start *const *)pa;
	const sr_task_start *b = *(const sr_task_start *const *)pb;

	if (a->task != b->task)
		return a->task < b->task ? -1 : 1;
	return (a > b) - (a < b);
}

/* --attempts: the last attempt at each task of the log, in task order
 * (sa-campaign status: is it still running?) */
static _Noreturn void
last_attempts(const char *log)
{
	size_t n, i;
	sr_task_start *s = sr_task_starts_read(log, &n, 1);
	const sr_task_start **by = sr_calloc(n + 1, sizeof *by);

	for (i = 0; i < n; i++)
		by[i] = &s[i];
	qsort(by, n, sizeof *by, cmp_start);
	for (i = 0; i < n; i++)
		if (i + 1 == n || by[i + 1]->task != by[i]->task)
			printf("%ld %s %ld\n", by[i]->task, by[i]->host,
			    by[i]->pid);
	free(by);
	free(s);
	sr_out_commit_all();
	exit(SR_EXIT_OK);
}

/* --tile-sizes: each tile's name, width and height, from its header or
 * a tile table's columns (the plan's estimate scales the workflow's costs
 * by the tiles' pixels). */
static _Noreturn void
tile_sizes(const char *list)
{
	char err[SR_ERRLEN];
	sr_tiles *t = sr_tiles_read(list);
	size_t i, *wh = sr_calloc(2 * t->n, sizeof *wh);

	for (i = 0; i < t->n; i++)	/* all read before any is printed */
		if (sr_tile_size(t, i, &wh[2 * i], &wh[2 * i + 1], err) < 0)
			sr_die(SR_EXIT_DATA, "%s:%zu: %s", t->list, t->line[i],
			    err);
	for (i = 0; i < t->n; i++)
		printf("%s\t%zu\t%zu\n", t->name[i], wh[2 * i], wh[2 * i + 1]);
	free(wh);
	sr_tiles_free(t);
	sr_out_commit_all();
	exit(SR_EXIT_OK);
}

int
main(int argc, char **argv)
{
	sr_campaign_env env = { NULL, NULL, NULL };
	char err[SR_CAMPAIGN_ERRLEN], *cwd;
	const char *lockfile = NULL, *pid = NULL, *grace = NULL;
	sr_campaign *c;
	size_t i;
	int ch, action = 0, warnings = 1;

	sr_init(argv[0]);
	while ((ch = getopt_long(argc, argv, ":o:h", longopts, NULL)) != -1) {
		switch (ch) {
		case 'o': env.output = optarg; break;
		case OPT_SHARE: env.sharedir = optarg; break;
		case OPT_LOCK: case OPT_UNLOCK: case OPT_REFRESH: case OPT_HOLDER:
			action = ch;
			lockfile = optarg;
			break;
		case OPT_PID: pid = optarg; break;
		case OPT_GRACE: grace = optarg; break;
		case OPT_NO_WARNINGS: warnings = 0; break;
		case OPT_TILE_SIZES: tile_sizes(optarg);
		case OPT_ATTEMPTS: last_attempts(optarg);
		case OPT_KEYS:
			sr_campaign_keys_write(stdout);
			sr_out_commit_all();
			exit(SR_EXIT_OK);
		case 'h': usage(stdout); sr_out_commit_all(); exit(SR_EXIT_OK);
		case OPT_VERSION: sr_print_version();
		default: sr_getopt_fail(ch, argv);
		}
	}
	if (action)
		lock_action(action, lockfile, pid, grace);
	if (argc - optind != 1)
		sr_usage_error("expected one CAMPAIGN file, got %d arguments",
		    argc - optind);
	if (strcmp(argv[optind], "-") == 0)
		sr_usage_error("the campaign cannot be stdin: its paths are "
		    "relative to its directory");
	if ((env.cwd = cwd = sr_campaign_cwd()) == NULL)
		sr_die_errno("the current directory");
	if ((c = sr_campaign_load(argv[optind], &env, err, sizeof err)) == NULL)
		sr_die(SR_EXIT_DATA, "%s", err);
	for (i = 0; warnings && i < c->warnings.n; i++)
		sr_warn("%s", c->warnings.v[i]);
	if (sr_campaign_write(stdout, c))
		sr_die_errno("standard output");
	sr_out_commit_all();
	sr_campaign_free(c);
	free(cwd);
	return SR_EXIT_OK;
}
