/* campaign_test.c - unit tests of campaign/ (campaign(5)): one test per
 * message of the parser and of the checks, the settings and argument
 * lists of good campaigns, the paths, and the records.
 * Exits 0 on success; prints "FAIL: ..." and exits 1 otherwise.
 */
#include "campaign/campaign.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "check.h"

static char dir[64];	/* a temporary directory with a space, tiles, gt/ */
static char space[128], tiles[128];

/* Writes text to dir/name. */
static void
put(const char *name, const char *text)
{
	char path[256];
	FILE *fp;

	snprintf(path, sizeof path, "%s/%s", dir, name);
	if ((fp = fopen(path, "w")) == NULL || fputs(text, fp) < 0 ||
	    fclose(fp) != 0) {
		printf("FAIL: cannot write %s\n", path);
		exit(1);
	}
}

/* Parses text as campaign "c.campaign": 0, or -1 and the message. */
static int
parse(const char *text, size_t len, sr_campaign **out, char *err)
{
	FILE *fp = fmemopen((void *)text, len, "r");
	sr_campaign *c = sr_campaign_new("c.campaign");
	int r = sr_campaign_parse(c, fp, err, SR_CAMPAIGN_ERRLEN);

	fclose(fp);
	if (out)
		*out = c;
	else
		sr_campaign_free(c);
	return r;
}

/* text must be refused with the message want. */
static void
refused(const char *text, const char *want)
{
	char err[SR_CAMPAIGN_ERRLEN] = "";

	if (parse(text, strlen(text), NULL, err) == 0)
		fail("accepted: %s", text);
	else if (strcmp(err, want) != 0)
		fail("for %s: got \"%s\", expected \"%s\"", text, err, want);
}

/* The campaign text parsed and resolved from dir with output and share as
 * given: NULL and the message when refused. */
static sr_campaign *
resolve_full(const char *text, const char *output, const char *share,
    char *err)
{
	sr_campaign *c;
	sr_campaign_env env = { dir, output, share };

	if (parse(text, strlen(text), &c, err)) {
		fail("parse: %s", err);
		sr_campaign_free(c);
		return NULL;
	}
	if (sr_campaign_resolve(c, &env, err, SR_CAMPAIGN_ERRLEN)) {
		sr_campaign_free(c);
		return NULL;
	}
	return c;
}

/* A campaign with the space and tiles of dir, then more lines. */
static sr_campaign *
resolve(const char *more, const char *output, const char *share, char *err)
{
	char text[4096];

	snprintf(text, sizeof text, "space = space.tsv\nmethod = moat\n"
	    "tiles = tiles.list\n%s", more);
	return resolve_full(text, output, share, err);
}

/* The campaign must be refused by the checks with the message want (in
 * which %s is the directory). */
static void
resolve_refused(const char *more, const char *share, const char *want)
{
	char err[SR_CAMPAIGN_ERRLEN] = "", expect[1024];
	sr_campaign *c = resolve(more, NULL, share, err);

	snprintf(expect, sizeof expect, want, dir, dir);
	if (c != NULL) {
		fail("accepted: %s", more);
		sr_campaign_free(c);
	} else if (strcmp(err, expect) != 0) {
		fail("for %s: got \"%s\", expected \"%s\"", more, err, expect);
	}
}

/* ---- one test per message of the parser ------------------------------------ */

static void
test_line_messages(void)
{
	size_t n = 10 * 1024 * 1024;
	char *big = malloc(n), err[SR_CAMPAIGN_ERRLEN];

	refused("just words\n", "c.campaign:1: not a 'key = value' line");
	refused("\n# c\n= 3\n", "c.campaign:3: not a 'key = value' line");
	refused("seed = 1\nfoo = 1\n", "c.campaign:2: unknown key 'foo'");
	refused("seed = 1\n\nseed = 2\n", "c.campaign:3: key 'seed' repeats line 1");
	refused("seed =   # none\n", "c.campaign:1: seed: no value");
	refused("samples = 0\n", "c.campaign:1: samples: '0' is not a positive integer");
	refused("jobs = 99999999999999999999\n",
	    "c.campaign:1: jobs: '99999999999999999999' is not a positive integer");
	refused("seed = -1\n", "c.campaign:1: seed: '-1' is not an integer from 0");
	refused("levels = 1\n", "c.campaign:1: levels: '1' is not an integer from 2");
	refused("method = morris\n", "c.campaign:1: method: 'morris' is not moat, "
	    "vbd, efast, rbd_fast, mc, lhs, halton, hammersley, sobol, random, grid, pso, anneal or tpe");
	refused("plot = maybe\n", "c.campaign:1: plot: 'maybe' is not yes or no");
	refused("mem = 4GB\n", "c.campaign:1: mem: '4GB' is not a size such as "
	    "2000M or 4G");
	refused("fix = B=220, G\n", "c.campaign:1: fix: 'G': expected NAME=VALUE");
	refused("fix = =3\n", "c.campaign:1: fix: '=3': expected NAME=VALUE");
	if (parse("a = b\0c\n", 8, NULL, err) == 0 ||
	    strcmp(err, "c.campaign:1: a NUL byte: not a text file") != 0)
		fail("a NUL byte: %s", err);
	/* a 10 MB line: refused after 64 KiB, without reading it all */
	memset(big, 'a', n);
	if (parse(big, n, NULL, err) == 0 ||
	    strcmp(err, "c.campaign:1: a line longer than 65536 bytes") != 0)
		fail("a 10 MB line: %s", err);
	free(big);
}

/* A read error (a directory read as a file) ends the process naming the
 * file and line, with the exit status of its errno (EISDIR: 1). */
static void
test_read_error(void)
{
	FILE *fp = fopen(dir, "r"), *msg = tmpfile();
	sr_campaign *c;
	char err[SR_CAMPAIGN_ERRLEN] = "", text[256] = "";
	pid_t pid;
	int st;

	if (fp == NULL || msg == NULL)
		return;	/* not every system opens a directory */
	fflush(stdout);
	if ((pid = fork()) == 0) {
		dup2(fileno(msg), 2);
		c = sr_campaign_new("d");
		sr_campaign_parse(c, fp, err, sizeof err);
		_exit(99);	/* not reached: the read error dies */
	}
	waitpid(pid, &st, 0);
	rewind(msg);
	if (!fgets(text, sizeof text, msg))
		text[0] = '\0';
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 1 ||
	    strcmp(text, "sareuse: d:1: Is a directory\n") != 0)
		fail("read error: status %d, '%s'", st, text);
	fclose(fp);
	fclose(msg);
}

static void
test_accepted_lines(void)
{
	const char *text = "  # comment\n\r\n\tseed=7 # seven\r\nfix = B=220 ,G=230\n"
	    "sbatch_options =  --a  --b  \nmem = 4G\nlevels = 2\nmethod = grid";
	char err[SR_CAMPAIGN_ERRLEN];
	sr_campaign *c;

	if (parse(text, strlen(text), &c, err)) {
		fail("good lines refused: %s", err);
	} else {
		if (strcmp(c->value[sr_campaign_key_find("seed")], "7") != 0 ||
		    c->line[sr_campaign_key_find("seed")] != 3)
			fail("seed: %s", c->value[sr_campaign_key_find("seed")]);
		if (strcmp(c->value[sr_campaign_key_find("sbatch_options")],
		    "--a  --b") != 0)
			fail("inner blanks not kept");
		if (strcmp(c->value[sr_campaign_key_find("method")], "grid") != 0)
			fail("a last line without newline");
	}
	sr_campaign_free(c);
}

/* ---- one test per message of the checks -------------------------------------- */

static void
test_check_messages(void)
{
	resolve_refused("", NULL, "c.campaign: no 'workflow' key, and no share "
	    "directory for its default");
	resolve_refused("", "/nonexistent", "c.campaign:0: workflow: "
	    "/nonexistent/workflows/nuclei.wf: no such readable file");
	resolve_refused("workflow = w.wf\n", NULL,
	    "c.campaign:4: workflow: %s/w.wf: no such readable file");
	resolve_refused("reference = nodir\nworkflow = flow.wf\n", NULL,
	    "c.campaign:4: reference: %s/nodir: no such directory");
	resolve_refused("reference_suffix = .png\nworkflow = flow.wf\n", NULL,
	    "c.campaign:4: reference_suffix needs a reference directory");
	resolve_refused("fix = X=1\nworkflow = flow.wf\n", NULL,
	    "c.campaign:4: fix: X=1: no parameter X in %s/space.tsv");
	resolve_refused("fix = B=2?\nworkflow = flow.wf\n", NULL,
	    "c.campaign:4: fix: B=2?: '2?' is not a value of B (int 0:10:250, "
	    "default 220)");
	resolve_refused("fix = B=10 B=20\nworkflow = flow.wf\n", NULL,
	    "c.campaign:4: fix: B=20: B is fixed twice");
	resolve_refused("merge = trtma\nworkflow = flow.wf\n", NULL,
	    "c.campaign: merge = trtma needs max_buckets or cores");
	resolve_refused("workflow = flow.wf\nslides = tiles.list\n", NULL,
	    "c.campaign:5: slides: the campaign has tiles (line 3) already: "
	    "give tiles or slides, not both");
	resolve_refused("workflow = flow.wf\nlevel = 1\nmpp = 0.5\n", NULL,
	    "c.campaign:6: mpp: the campaign has level (line 5): give one of "
	    "them");
}

static void
test_required(void)
{
	const char *text = "space = s\ntiles = t\n";
	char err[SR_CAMPAIGN_ERRLEN] = "";
	sr_campaign_env env = { dir, NULL, NULL };
	sr_campaign *c;

	parse(text, strlen(text), &c, err);
	if (sr_campaign_resolve(c, &env, err, sizeof err) == 0 ||
	    strcmp(err, "c.campaign: no 'method' key (required)") != 0)
		fail("required: %s", err);
	sr_campaign_free(c);
}

static void
test_missing_files(void)
{
	char err[SR_CAMPAIGN_ERRLEN] = "", want[256];
	sr_campaign_env env = { dir, NULL, NULL };
	sr_campaign *c = sr_campaign_load("/nonexistent/c.campaign", &env, err,
	    sizeof err);

	if (c || strcmp(err, "/nonexistent/c.campaign: no such readable file"))
		fail("missing campaign: %s", err);
	c = sr_campaign_load(dir, &env, err, sizeof err);
	snprintf(want, sizeof want, "%s: no such readable file", dir);
	if (c || strcmp(err, want))
		fail("a directory as campaign: %s", err);
}

/* ---- warnings and suggestions -------------------------------------------------- */

/* The edit distance, and the key an unknown one is suggested for. */
static void
test_suggestions(void)
{
	static const struct { const char *a, *b; size_t d; } dist[] = {
		{ "", "", 0 }, { "", "abc", 3 }, { "kitten", "sitting", 3 },
		{ "seed", "sede", 1 }, { "ca", "abc", 3 }, { "bucketsize",
		"bucket_size", 1 }, { "levles", "levels", 1 } };
	size_t i;

	for (i = 0; i < sizeof dist / sizeof dist[0]; i++)
		if (sr_edit_distance(dist[i].a, dist[i].b) != dist[i].d ||
		    sr_edit_distance(dist[i].b, dist[i].a) != dist[i].d)
			fail("distance %s %s: %zu", dist[i].a, dist[i].b,
			    sr_edit_distance(dist[i].a, dist[i].b));
	refused("trajectorys = 3\n", "c.campaign:1: unknown key 'trajectorys': "
	    "did you mean 'trajectories'?");
	refused("seed = 1\nbucketsize = 2\n", "c.campaign:2: unknown key "
	    "'bucketsize': did you mean 'bucket_size'?");
	refused("Method = moat\n", "c.campaign:1: unknown key 'Method': did you "
	    "mean 'method'?");
	refused("sed = 1\n", "c.campaign:1: unknown key 'sed': did you mean "
	    "'seed'?");
	refused("traj = 3\n", "c.campaign:1: unknown key 'traj': did you mean "
	    "'trajectories'?");	/* a unique prefix */
	/* no near miss, or two as near: no suggestion */
	refused("foo = 1\n", "c.campaign:1: unknown key 'foo'");
	refused("cancel_ = 1\n", "c.campaign:1: unknown key 'cancel_'");
	refused("ca = 1\n", "c.campaign:1: unknown key 'ca'");
}

/* The campaign text resolves, with the warnings want (joined by '|'). */
static void
warned(const char *text, const char *want)
{
	char err[SR_CAMPAIGN_ERRLEN] = "", got[4096] = "";
	sr_campaign *c = resolve_full(text, NULL, NULL, err);
	size_t i;

	if (c == NULL) {
		fail("refused: %s: %s", text, err);
		return;
	}
	for (i = 0; i < c->warnings.n; i++)
		snprintf(got + strlen(got), sizeof got - strlen(got), "%s%s",
		    i ? "|" : "", c->warnings.v[i]);
	if (strcmp(got, want) != 0)
		fail("for %s: warnings \"%s\", expected \"%s\"", text, got, want);
	sr_campaign_free(c);
}

/* Keys the campaign's method, merge or engine does not use, and sobol:
 * warnings naming the line, in line order; valid campaigns: none. */
static void
test_warnings(void)
{
	const char *base = "space = space.tsv\ntiles = tiles.list\n"
	    "workflow = flow.wf\n";
	char text[1024];

	snprintf(text, sizeof text, "%smethod = vbd\ntrajectories = 3\n"
	    "levels = 3\nsamples = 8\nresamples = 10\n", base);
	warned(text, "c.campaign:5: trajectories: not used by method = vbd (it "
	    "concerns moat)|c.campaign:6: levels: not used by method = vbd (it "
	    "concerns moat or grid)");
	snprintf(text, sizeof text, "%sbucket_size = 3\nmethod = moat\n"
	    "merge = trtma\nmax_buckets = 2\ncost = weights\n", base);
	warned(text, "c.campaign:4: bucket_size: not used by merge = trtma (it "
	    "concerns naive, sca or rtma)");
	snprintf(text, sizeof text, "%smethod = moat\npartition = p\n"
	    "engine = local\njobs = 2\ncores = 3\n", base);
	warned(text, "c.campaign:5: partition: not used by engine = local (it "
	    "concerns slurm)");
	snprintf(text, sizeof text, "%smethod = moat\ncores = 3\n"
	    "engine = pbs\nmem = 4G\njobs = 1\n", base);
	warned(text, "c.campaign:5: cores: not used by merge = rtma and engine = "
	    "pbs (it concerns trtma or local)|c.campaign:8: jobs: not used by "
	    "engine = pbs (it concerns local)");
	snprintf(text, sizeof text, "%smethod = moat\nmin_tissue = 0.5\n"
	    "tile_size = 512\n", base);
	warned(text, "c.campaign:5: min_tissue: not used without slides (it is "
	    "an option of wsi-tiles)|c.campaign:6: tile_size: not used without "
	    "slides (it is an option of wsi-tiles)");
	snprintf(text, sizeof text, "space = space.tsv\nslides = tiles.list\n"
	    "workflow = flow.wf\nmethod = moat\ntile_size = 512\n");
	warned(text, "");
	snprintf(text, sizeof text, "%smethod = sobol\nsamples = 8\n", base);
	warned(text, "c.campaign:4: method: sobol plans a correlation study on "
	    "Sobol points; Sobol (variance-based) indices are method = vbd");
	/* no warning: sobol as a tuning design; keys of the campaign's own */
	snprintf(text, sizeof text, "%smethod = sobol\ngoal = tune\n"
	    "reference = gt\nsamples = 8\ncancel = median\n"
	    "cancel_startup = 2\n", base);
	warned(text, "");
	snprintf(text, sizeof text, "%smethod = moat\ntrajectories = 2\n"
	    "levels = 4\noptimize = 9\nresamples = 5\nbucket_size = 2\n"
	    "double_prune = yes\ncost = tasks\nengine = slurm\n"
	    "partition = p\naccount = a\nmem = 1G\nseed = 3\n", base);
	warned(text, "");
	snprintf(text, sizeof text, "%smethod = grid\nlevels = 2\n"
	    "merge = trtma\ncores = 4\nnodes = 2\nengine = pbs\nqueue = q\n"
	    "pbs = torque\n", base);
	warned(text, "");
}

/* ---- goals and cancellation rules -------------------------------------------- */

/* A tune campaign of dir's space, tiles and gt/, then more lines (from
 * line 7). */
static void
tune_text(char *text, size_t size, const char *more)
{
	snprintf(text, size, "space = space.tsv\nmethod = random\n"
	    "tiles = tiles.list\nworkflow = flow.wf\ngoal = tune\n"
	    "reference = gt\n%s", more);
}

/* text must be refused by the checks with the message want. */
static void
text_refused(const char *text, const char *want)
{
	char err[SR_CAMPAIGN_ERRLEN] = "";
	sr_campaign *c = resolve_full(text, NULL, NULL, err);

	if (c != NULL) {
		fail("accepted: %s", text);
		sr_campaign_free(c);
	} else if (strcmp(err, want) != 0) {
		fail("for %s: got \"%s\", expected \"%s\"", text, err, want);
	}
}

/* The records of c named key ("plan_key" gives one line each),
 * joined by '|'. */
static void
records_of(const sr_campaign *c, const char *key, char *out, size_t size)
{
	char *buf = NULL, *p;
	size_t n = 0, klen = strlen(key);
	FILE *fp = open_memstream(&buf, &n);

	out[0] = '\0';
	sr_campaign_write(fp, c);
	fclose(fp);
	for (p = buf; p < buf + n; p += strlen(p) + 1)
		if (strncmp(p, key, klen) == 0 && p[klen] == '=')
			snprintf(out + strlen(out), size - strlen(out), "%s%s",
			    out[0] ? "|" : "", p + klen + 1);
	free(buf);
}

/* Every new value checked with its message. */
static void
test_tune_values(void)
{
	refused("goal = optimize\n", "c.campaign:1: goal: 'optimize' is not "
	    "sensitivity or tune");
	/* metric names a results column: checked against the workflow */
	resolve_refused("metric = f1\nworkflow = flow.wf\n", NULL,
	    "c.campaign:4: metric: f1: not a column of the results of "
	    "%s/flow.wf (its metrics: dice jaccard object_dice aji objects)");
	refused("tile_order = random\n", "c.campaign:1: tile_order: 'random' is "
	    "not shuffle or list");
	refused("cancel = asha\n", "c.campaign:1: cancel: 'asha' is not none, "
	    "stable, median or wilcoxon");
	refused("cancel_acc = 0\n", "c.campaign:1: cancel_acc: '0' is not a "
	    "positive number");
	refused("cancel_time = -2\n", "c.campaign:1: cancel_time: '-2' is not a "
	    "positive number");
	refused("cancel_time = inf\n", "c.campaign:1: cancel_time: 'inf' is not "
	    "a positive number");
	refused("cancel_window = 0\n", "c.campaign:1: cancel_window: '0' is not "
	    "a positive integer");
	refused("cancel_warmup = x\n", "c.campaign:1: cancel_warmup: 'x' is not "
	    "a positive integer");
	refused("cancel_startup = 0\n", "c.campaign:1: cancel_startup: '0' is "
	    "not a positive integer");
	refused("cancel_p = 1\n", "c.campaign:1: cancel_p: '1' is not a number "
	    "between 0 and 1 (both excluded)");
	refused("cancel_p = 0\n", "c.campaign:1: cancel_p: '0' is not a number "
	    "between 0 and 1 (both excluded)");
}

/* The tuning keys in a sensitivity campaign, a rule's keys with another
 * rule, and what a tune campaign needs. */
static void
test_tune_refusals(void)
{
	char text[1024];

	resolve_refused("workflow = flow.wf\ncancel = median\n", NULL,
	    "c.campaign:5: cancel: only for goal = tune (this campaign's goal "
	    "is sensitivity)");
	resolve_refused("workflow = flow.wf\ncancel_p = 0.2\n", NULL,
	    "c.campaign:5: cancel_p: only for goal = tune (this campaign's goal "
	    "is sensitivity)");
	tune_text(text, sizeof text, "cancel = median\ncancel_p = 0.2\n");
	text_refused(text, "c.campaign:8: cancel_p: only for cancel = wilcoxon "
	    "(this campaign's cancel is median)");
	tune_text(text, sizeof text, "cancel_warmup = 3\n");
	text_refused(text, "c.campaign:7: cancel_warmup: only for cancel = "
	    "median or wilcoxon (this campaign's cancel is stable)");
	tune_text(text, sizeof text, "cancel = none\ncancel_acc = 0.1\n");
	text_refused(text, "c.campaign:8: cancel_acc: only for cancel = stable "
	    "(this campaign's cancel is none)");
	tune_text(text, sizeof text, "cancel = wilcoxon\ncancel_window = 3\n");
	text_refused(text, "c.campaign:8: cancel_window: only for cancel = "
	    "stable (this campaign's cancel is wilcoxon)");
	text_refused("space = space.tsv\nmethod = random\ntiles = tiles.list\n"
	    "workflow = flow.wf\ngoal = tune\n", "c.campaign:5: goal: tune "
	    "needs a reference directory of ground-truth masks (the default, "
	    "reference = defaults, is the default run's masks, no ground truth)");
	text_refused("space = space.tsv\nmethod = random\ntiles = tiles.list\n"
	    "workflow = flow.wf\nreference = defaults\ngoal = tune\n",
	    "c.campaign:5: reference: defaults is refused with goal = tune: "
	    "tuning scores every set against ground-truth masks; give their "
	    "directory");
	text_refused("space = space.tsv\nmethod = moat\ntiles = tiles.list\n"
	    "workflow = flow.wf\ngoal = tune\nreference = gt\n",
	    "c.campaign:2: method: moat is a design for sensitivity indices, "
	    "refused with goal = tune: use grid, random, lhs, sobol, halton, "
	    "hammersley or mc");
	text_refused("space = space.tsv\nmethod = vbd\ntiles = tiles.list\n"
	    "workflow = flow.wf\ngoal = tune\nreference = gt\n",
	    "c.campaign:2: method: vbd is a design for sensitivity indices, "
	    "refused with goal = tune: use grid, random, lhs, sobol, halton, "
	    "hammersley or mc");
	tune_text(text, sizeof text, "metric = objects\n");
	text_refused(text, "c.campaign:7: metric: objects is a count, not a "
	    "score, refused with goal = tune: use dice, jaccard, object_dice or "
	    "aji");
}

/* expect_record: the records key of c are want. */
static void
expect_record(const sr_campaign *c, const char *key, const char *want)
{
	char got[2048];

	records_of(c, key, got, sizeof got);
	if (strcmp(got, want) != 0)
		fail("%s: \"%s\", expected \"%s\"", key, got, want);
}

/* The settings, the derived records and the plan keys of tune and
 * sensitivity campaigns. */
static void
test_tune_records(void)
{
	static const char *const cases[][4] = {	/* more, rule, order, plan keys */
		{ "", "stable:acc=0.05,time=2,window=5", "shuffle:1",
		    "goal = tune|method = random|samples = 1000|seed = 1|fix = |"
		    "reference = %s/gt|reference_suffix = |masks = no|metric = dice|"
		    "tile_order = shuffle|cancel = stable|cancel_acc = 0.05|"
		    "cancel_time = 2|cancel_window = 5|merge = rtma|bucket_size = 8|"
		    "double_prune = no|cost = tasks" },
		{ "cancel = median\nseed = 9\ncancel_startup = 3\nmetric = aji\n",
		    "median:warmup=2,startup=3", "shuffle:9",
		    "goal = tune|method = random|samples = 1000|seed = 9|fix = |"
		    "reference = %s/gt|reference_suffix = |masks = no|metric = aji|"
		    "tile_order = shuffle|cancel = median|cancel_warmup = 2|"
		    "cancel_startup = 3|merge = rtma|bucket_size = 8|"
		    "double_prune = no|cost = tasks" },
		{ "cancel = wilcoxon\ncancel_p = 0.050\ntile_order = list\n",
		    "wilcoxon:warmup=2,p=0.05", "list", NULL },
		{ "cancel = stable\ncancel_time = 3.0\ncancel_acc = 1e-2\n",
		    "stable:acc=0.01,time=3,window=5", "shuffle:1", NULL },
		{ "cancel = none\n", "none", "shuffle:1", NULL },
	};
	char text[1024], err[SR_CAMPAIGN_ERRLEN], want[2048];
	sr_campaign *c;
	size_t i;

	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		tune_text(text, sizeof text, cases[i][0]);
		if ((c = resolve_full(text, NULL, NULL, err)) == NULL) {
			fail("tune case %zu: %s", i, err);
			continue;
		}
		expect_record(c, "cancel_rule", cases[i][1]);
		expect_record(c, "tile_order_arg", cases[i][2]);
		if (cases[i][3]) {
			snprintf(want, sizeof want, cases[i][3], dir);
			expect_record(c, "plan_key", want);
		}
		if (!sr_campaign_is_tune(c))
			fail("tune case %zu: not tune", i);
		sr_campaign_free(c);
	}
	/* a sensitivity campaign: list order, nothing cancelled, and neither
	 * goal, metric nor a tuning key among the plan keys */
	c = resolve("workflow = flow.wf\nmetric = aji\ngoal = sensitivity\n",
	    NULL, NULL, err);
	if (c == NULL) {
		fail("sensitivity: %s", err);
		return;
	}
	expect_record(c, "cancel_rule", "none");
	expect_record(c, "tile_order_arg", "list");
	expect_record(c, "tile_order", "list");
	expect_record(c, "cancel", "none");
	expect_record(c, "metric", "aji");
	snprintf(want, sizeof want, "method = moat|trajectories = 20|levels = 4|"
	    "optimize = |seed = 1|fix = |reference = defaults|"
	    "reference_suffix = |masks = no|merge = rtma|bucket_size = 8|"
	    "double_prune = no|cost = tasks|tiles_per_task = 16");
	expect_record(c, "plan_key", want);
	if (sr_campaign_is_tune(c))
		fail("sensitivity taken for tune");
	sr_campaign_free(c);
}

/* ---- settings, argument lists, paths, records ---------------------------------- */

/* The list l joined by blanks must be want. */
static void
expect_args(const char *what, const sr_strlist *l, const char *want)
{
	char got[1024] = "";
	size_t i;

	for (i = 0; i < l->n; i++)
		snprintf(got + strlen(got), sizeof got - strlen(got), "%s%s",
		    i ? " " : "", l->v[i]);
	if (strcmp(got, want) != 0)
		fail("%s: \"%s\", expected \"%s\"", what, got, want);
}

static void
test_settings(void)
{
	char err[SR_CAMPAIGN_ERRLEN], want[256];
	sr_campaign *c;

	c = resolve("workflow = flow.wf\nfix = B=20, G=20\noptimize = 4\n"
	    "merge = trtma\ncores = 4\nmax_bucket_tasks = 9\nreference = gt\n"
	    "reference_suffix = .mask.png\n", "o", NULL, err);
	if (c == NULL) {
		fail("good campaign: %s", err);
		return;
	}
	expect_args("sample args", &c->sample_args,
	    "-m moat -r 20 -p 4 --optimize 4 -s 1 --fix B=20 --fix G=20");
	expect_args("merge args", &c->merge_args,
	    "-a trtma --nodes 1 --cores 4 --max-bucket-tasks 9 --cost tasks");
	snprintf(want, sizeof want, "%s/o", dir);
	if (strcmp(sr_campaign_get(c, "output"), want))
		fail("-o: %s", sr_campaign_get(c, "output"));
	snprintf(want, sizeof want, "%s/gt", dir);
	if (strcmp(sr_campaign_get(c, "reference"), want) || !c->refdir)
		fail("reference: %s", sr_campaign_get(c, "reference"));
	if (strcmp(sr_campaign_get(c, "plot"), "yes") ||
	    strcmp(sr_campaign_get(c, "resamples"), ""))
		fail("defaults not filled in");
	if (strcmp(sr_campaign_indices_method(c), "moat"))
		fail("indices method");
	sr_campaign_free(c);
}

/* The argument lists of every method and merge. */
static void
test_args(void)
{
	static const char *const cases[][3] = {
		{ "method = vbd\nsecond_order = yes\nbase = lhs\n",
		    "-m vbd -n 1000 --base lhs --second-order -s 1", "-a rtma -b 8 --cost tasks" },
		{ "method = grid\nmerge = none\n", "-m grid -p 4 -s 1", "-a none" },
		{ "method = lhs\nsamples = 9\nmerge = stage\nseed = 0\n",
		    "-m lhs -n 9 -s 0", "-a none" },
		{ "merge = rtma\ndouble_prune = yes\ncost = weights\n",
		    "-m moat -r 20 -p 4 -s 1", "-a rtma -b 8 --double-prune --cost weights" },
		{ "merge = sca\nbucket_size = 3\n", "-m moat -r 20 -p 4 -s 1",
		    "-a sca -b 3 --cost tasks" },
		{ "merge = trtma\nmax_buckets = 5\nnodes = 2\n", "-m moat -r 20 -p 4 -s 1",
		    "-a trtma --nodes 2 -B 5 --cost tasks" },
	};
	char text[512], err[SR_CAMPAIGN_ERRLEN];
	sr_campaign *c;
	size_t i;

	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		snprintf(text, sizeof text, "space = space.tsv\ntiles = tiles.list\n"
		    "workflow = flow.wf\n%s%s", strncmp(cases[i][0], "method", 6) ?
		    "method = moat\n" : "", cases[i][0]);
		if ((c = resolve_full(text, NULL, NULL, err)) == NULL) {
			fail("case %zu: %s", i, err);
			continue;
		}
		expect_args(cases[i][0], &c->sample_args, cases[i][1]);
		expect_args(cases[i][0], &c->merge_args, cases[i][2]);
		sr_campaign_free(c);
	}
}

static void
test_paths(void)
{
	static const char *const cases[][3] = {
		{ "/a/b", "c.campaign", "/a/b" },
		{ "/a/b", "../x/./c.campaign", "/a/x" },
		{ "/a/b", "/r//s/c", "/r/s" },
		{ "/", "../../c", "/" },
		{ "/a", "x/y/", "/a/x" },
	};
	char *d;
	size_t i;

	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		d = sr_campaign_dirname(cases[i][0], cases[i][1]);
		if (strcmp(d, cases[i][2]))
			fail("dirname(%s, %s): %s, expected %s", cases[i][0],
			    cases[i][1], d, cases[i][2]);
		free(d);
	}
	d = sr_campaign_path("/a", "/b");
	if (strcmp(d, "/b"))
		fail("absolute path joined: %s", d);
	free(d);
}

/* The records: NUL-terminated key=value, every key once, args in order. */
static void
test_records(void)
{
	char err[SR_CAMPAIGN_ERRLEN], *buf = NULL, *p, *end, key[64];
	size_t size = 0, nkeys = 0, nsample = 0;
	sr_campaign *c = resolve("workflow = flow.wf\n", NULL, NULL, err);
	FILE *fp = open_memstream(&buf, &size);

	if (c == NULL || fp == NULL) {
		fail("records: %s", err);
		return;
	}
	sr_campaign_write(fp, c);
	fclose(fp);
	for (p = buf, end = buf + size; p < end; p += strlen(p) + 1) {
		if (strchr(p, '=') == NULL)
			fail("record without '=': %s", p);
		nsample += strncmp(p, "sample_arg=", 11) == 0;
		snprintf(key, sizeof key, "%.*s", (int)strcspn(p, "="), p);
		nkeys += sr_campaign_key_find(key) >= 0;
	}
	if (size == 0 || buf[size - 1] != '\0')
		fail("records not NUL-terminated");
	if (nkeys != sr_campaign_nkeys || nsample != 8)
		fail("records: %zu keys of %zu, %zu sample args", nkeys,
		    sr_campaign_nkeys, nsample);
	if (strncmp(buf, "campaign=", 9) || strstr(buf + 9, "/c.campaign") == NULL)
		fail("first record: %s", buf);
	free(buf);
	sr_campaign_free(c);
}

/* The table itself: unique names, a default of every key valid. */
static void
test_table(void)
{
	char err[SR_CAMPAIGN_ERRLEN];
	size_t i;

	for (i = 0; i < sr_campaign_nkeys; i++) {
		const sr_campaign_key *k = &sr_campaign_keys[i];

		if (sr_campaign_key_find(k->name) != (int)i)
			fail("key %s twice", k->name);
		if (k->def && sr_campaign_check_value(k, k->def, err, sizeof err))
			fail("default of %s: %s", k->name, err);
		if (k->flags & SR_KEY_REQUIRED && k->def)
			fail("%s: required with a default", k->name);
	}
}

int
main(void)
{
	char path[160];

	(void)rnd;	/* check.h's generator: not needed here */
	snprintf(dir, sizeof dir, "/tmp/campaign_test.XXXXXX");
	if (mkdtemp(dir) == NULL) {
		printf("FAIL: mkdtemp\n");
		return 1;
	}
	put("space.tsv", "name\ttype\tvalues\tdefault\nB\tint\t0:10:250\t220\n"
	    "G\tint\t0:10:250\t220\n");
	put("tiles.list", "a.png\n");
	put("flow.wf", "stage\ttask\tparams\tcost\nseg\tt\tB,G\t1\n"
	    "compare\tcompare\t-\t0.01\n");
	snprintf(space, sizeof space, "%s/space.tsv", dir);
	snprintf(tiles, sizeof tiles, "%s/tiles.list", dir);
	snprintf(path, sizeof path, "%s/gt", dir);
	mkdir(path, 0755);
	test_line_messages();
	test_read_error();
	test_accepted_lines();
	test_check_messages();
	test_required();
	test_missing_files();
	test_suggestions();
	test_warnings();
	test_settings();
	test_args();
	test_paths();
	test_records();
	test_table();
	test_tune_values();
	test_tune_refusals();
	test_tune_records();
	unlink(space);
	unlink(tiles);
	rmdir(path);
	rmdir(dir);
	if (failures)
		printf("%d failure(s)\n", failures);
	return failures != 0;
}
