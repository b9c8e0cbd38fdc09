/* cmdrun.c - the task nodes of a workflow of commands (cmdrun.h). */
#define _GNU_SOURCE	/* nftw's FTW_PHYS, FTW_DEPTH */
#include "exec/cmdrun.h"
#include "core/err.h"
#include "core/mem.h"
#include "core/num.h"
#include "exec/spawn.h"
#include "image/image.h"

#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The lines of a failed command's log shown on standard error. */
#define TAIL_LINES 5

static char *scratch_dir;	/* removed at exit and by sr_die */
static pid_t scratch_owner;
static void (*next_hook)(void);

static char *
fmt(const char *f, ...) __attribute__((format(printf, 1, 2)));

static char *
fmt(const char *f, ...)
{
	va_list ap;
	int n;
	char *s;

	va_start(ap, f);
	n = vsnprintf(NULL, 0, f, ap);
	va_end(ap);
	s = sr_malloc((size_t)n + 1);
	va_start(ap, f);
	vsnprintf(s, (size_t)n + 1, f, ap);
	va_end(ap);
	return s;
}

static int
remove_one(const char *path, const struct stat *st, int flag, struct FTW *f)
{
	(void)st;
	(void)flag;
	(void)f;
	return remove(path) != 0 && errno != ENOENT ? -1 : 0;
}

int
sr_remove_tree(const char *path)
{
	struct stat st;

	if (lstat(path, &st) != 0)
		return errno == ENOENT ? 0 : -1;
	return nftw(path, remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

char *
sr_cmd_abs(const char *path)
{
	char cwd[4096];

	if (path[0] == '/' || !getcwd(cwd, sizeof cwd))
		return sr_strdup(path);
	return fmt("%s/%s", cwd, path[0] == '.' && path[1] == '/' ? path + 2 :
	    path);
}

/* Removes the scratch directory, in the process that made it only (a
 * fork's exit leaves it); frees nothing, to be safe in the handlers of
 * fatal signals. A kill -9 leaves it to sweep. */
static void
remove_scratch(void)
{
	if (scratch_dir && *scratch_dir && getpid() == scratch_owner &&
	    sr_remove_tree(scratch_dir) == 0)
		scratch_dir[0] = '\0';
}

/* sr_die's and the fatal signals' hook: the scratch, then the chain. */
static void
cleanup(void)
{
	remove_scratch();
	if (next_hook)
		next_hook();
}

/* Removes the scratch directories under parent left by this host's
 * seg-runs that are gone: seg-run.HOST.PID.* with PID no process (a
 * kill -9 runs no cleanup). */
static void
sweep(const char *parent, const char *host)
{
	char prefix[300];
	size_t n = (size_t)snprintf(prefix, sizeof prefix, "seg-run.%s.", host);
	struct dirent *e;
	DIR *d = opendir(parent);
	long pid;
	char *end, *p;

	if (!d)
		return;
	while ((e = readdir(d))) {
		if (strncmp(e->d_name, prefix, n) != 0)
			continue;
		pid = strtol(e->d_name + n, &end, 10);
		if (end == e->d_name + n || *end != '.' || pid <= 0 ||
		    kill((pid_t)pid, 0) == 0 || errno != ESRCH)
			continue;
		p = fmt("%s/%s", parent, e->d_name);
		if (sr_remove_tree(p) != 0)
			sr_warn("%s: cannot remove: %s", p, strerror(errno));
		free(p);
	}
	closedir(d);
}

/* Makes the bucket's scratch directory under parent. */
static char *
make_scratch(const char *parent)
{
	char host[256] = "host";
	char *dir, *abs;

	if (!parent || !*parent)
		parent = getenv("TMPDIR");
	if (!parent || !*parent)
		parent = "/tmp";
	if (gethostname(host, sizeof host - 1) != 0 || strchr(host, '/'))
		strcpy(host, "host");
	sweep(parent, host);
	abs = sr_cmd_abs(parent);
	dir = fmt("%s/seg-run.%s.%ld.XXXXXX", abs, host, (long)getpid());
	free(abs);
	if (!mkdtemp(dir))
		sr_die(sr_exit_for_errno(errno), "--scratch %s: cannot make a "
		    "directory there: %s", parent, strerror(errno));
	scratch_dir = sr_strdup(dir);
	scratch_owner = getpid();
	next_hook = sr_cleanup_hook;
	sr_cleanup_hook = cleanup;
	atexit(remove_scratch);
	return dir;
}

/* Whether prog (argv[0]) names an executable: itself when it has a '/',
 * else in a directory of PATH. */
static int
found(const char *prog)
{
	const char *path = getenv("PATH"), *p, *q;
	char buf[4096];
	int n;

	if (strchr(prog, '/'))
		return access(prog, X_OK) == 0;
	for (p = path ? path : "/usr/bin:/bin"; ; p = q + 1) {
		q = strchr(p, ':');
		n = q ? (int)(q - p) : (int)strlen(p);
		snprintf(buf, sizeof buf, "%.*s/%s", n, n ? p : ".", prog);
		if (access(buf, X_OK) == 0)
			return 1;
		if (!q)
			return 0;
	}
}

void
sr_cmdjob_init(sr_cmdjob *j, const sr_workflow *w, size_t st,
    const char *parent)
{
	const sr_stage *s = &w->stage[st];
	size_t t, k, off = 0;
	char **argv;

	memset(j, 0, sizeof *j);
	j->w = w;
	j->st = st;
	j->np = w->nparam;
	j->threads = 1;
	j->pcol = sr_calloc(s->ntask, sizeof *j->pcol);
	j->moff = sr_calloc(s->ntask, sizeof *j->moff);
	for (t = 0; t < s->ntask; t++) {
		const sr_task *task = &s->task[t];
		argv = sr_template_render(task->run, &(sr_tvalues){ 0 });
		if (!found(argv[0]))
			sr_die(SR_EXIT_DATA, "%s:%zu: column run: command '%s' "
			    "not found (PATH=%s)", w->path, task->line, argv[0],
			    getenv("PATH") ? getenv("PATH") : "");
		free(argv);
		j->pcol[t] = sr_calloc(task->nparam + 1, sizeof **j->pcol);
		for (k = 0; k < task->nparam; k++)
			j->pcol[t][k] = (size_t)sr_workflow_param(w,
			    task->param[k]);
		j->moff[t] = off;
		off += task->nmetric;
	}
	j->scratch = make_scratch(parent);
}

void
sr_cmdjob_free(sr_cmdjob *j)
{
	size_t t;

	if (!j->w)
		return;
	for (t = 0; t < j->w->stage[j->st].ntask; t++)
		free(j->pcol[t]);
	free(j->pcol);
	free(j->moff);
	remove_scratch();
	free(scratch_dir);
	scratch_dir = NULL;
	free(j->scratch);
	memset(j, 0, sizeof *j);
}

char *
sr_cmd_tile(const sr_cmdjob *j, size_t t, const sr_rgb *img,
    const char *path, char *err)
{
	char *dir = fmt("%s/%zu", j->scratch, t), *in;
	FILE *fp;
	int rc;

	if (mkdir(dir, 0700) != 0 && errno != EEXIST) {
		sr_seterr(err, "%s: %s", dir, strerror(errno));
		free(dir);
		return NULL;
	}
	if (!img) {
		free(dir);
		return sr_cmd_abs(path);
	}
	in = fmt("%s/in.png", dir);
	free(dir);
	if (!(fp = fopen(in, "wb"))) {
		sr_seterr(err, "%s: %s", in, strerror(errno));
		free(in);
		return NULL;
	}
	rc = sr_rgb_write_png(fp, in, img, err);
	if (fclose(fp) != 0 && rc == 0) {
		sr_seterr(err, "%s: %s", in, strerror(errno));
		rc = -1;
	}
	if (rc < 0) {
		free(in);
		return NULL;
	}
	return in;
}

void
sr_cmd_tile_free(const sr_cmdjob *j, size_t t, char *in)
{
	char *dir = fmt("%s/%zu", j->scratch, t);

	sr_remove_tree(dir);
	free(dir);
	free(in);
}

/* Writes the last TAIL_LINES lines of log to stderr, indented. */
static void
show_tail(const char *log)
{
	char buf[4096];
	FILE *fp = fopen(log, "r");
	long end, at;
	size_t n, k, lines = 0;

	if (!fp)
		return;
	fseek(fp, 0, SEEK_END);
	end = ftell(fp);
	at = end > (long)sizeof buf - 1 ? end - (long)sizeof buf + 1 : 0;
	fseek(fp, at, SEEK_SET);
	n = fread(buf, 1, sizeof buf - 1, fp);
	fclose(fp);
	buf[n] = '\0';
	if (n > 0 && buf[n - 1] == '\n')
		buf[--n] = '\0';
	for (k = n; k > 0; k--)
		if (buf[k - 1] == '\n' && ++lines == TAIL_LINES)
			break;
	if (n == 0)
		fputs("  (its log is empty)\n", stderr);
	for (char *l = buf + k, *e; l && *l; l = e ? e + 1 : NULL) {
		e = strchr(l, '\n');
		fprintf(stderr, "  | %.*s\n", e ? (int)(e - l) : (int)strlen(l), l);
	}
}

/* Reads the metrics file of task t into m: NULL, or the reason (in why). */
static const char *
read_metrics(const sr_task *t, const char *path, double *m, char *why,
    size_t size)
{
	char line[512], *tab, *nl;
	size_t k, ln = 0;
	double v;
	int bad = 0;
	FILE *fp = fopen(path, "r");

	for (k = 0; k < t->nmetric; k++)
		m[k] = NAN;
	if (!fp)
		return snprintf(why, size, "it wrote no metrics file"), why;
	while (!bad && fgets(line, sizeof line, fp)) {
		ln++;
		if ((nl = strchr(line, '\n')))
			*nl = '\0';
		if (!(tab = strchr(line, '\t')) || tab == line) {
			snprintf(why, size, "metrics line %zu: not NAME<TAB>"
			    "number: '%.64s'", ln, line);
			bad = 1;
			break;
		}
		*tab = '\0';
		for (k = 0; k < t->nmetric && strcmp(t->metric[k], line); k++)
			;
		v = NAN;
		if (k == t->nmetric || !isnan(m[k]) ||
		    sr_parse_double(tab + 1, &v)) {
			snprintf(why, size, "metrics line %zu: %s '%.64s': %s",
			    ln, line, tab + 1, k == t->nmetric ? "not a metric "
			    "of the task" : !isnan(m[k]) ? "given twice" :
			    "not a number");
			bad = 1;
		} else
			m[k] = v;
	}
	fclose(fp);
	if (bad)
		return why;
	for (k = 0; k < t->nmetric; k++)
		if (isnan(m[k]))
			return snprintf(why, size, "metric %s missing",
			    t->metric[k]), why;
	return NULL;
}

/* The output's path in dir, as the template asks. */
static char *
out_path(const sr_template *tp, const char *dir)
{
	if (tp->out == SR_TP_OUT_DIR)
		return fmt("%s/out", dir);
	return fmt("%s/out.%s", dir, tp->out_ext);
}

/* Whether the command made its output: a file, or the directory. */
static int
made(const sr_template *tp, const char *out)
{
	struct stat st;

	return stat(out, &st) == 0 && (tp->out == SR_TP_OUT_DIR ?
	    S_ISDIR(st.st_mode) : S_ISREG(st.st_mode));
}

/* The values of the node's placeholders, rendered into argv. */
static char **
render(const sr_cmdjob *j, const sr_cmdnode_in *in, const sr_cmdnode *o,
    char *tmp, char *met)
{
	const sr_task *task = &j->w->stage[j->st].task[in->task];
	char (*num)[SR_NUMLEN] = sr_calloc(task->nparam + 1, sizeof *num);
	const char **pv = sr_calloc(task->nparam + 1, sizeof *pv);
	char threads[24], **argv;
	size_t k;

	for (k = 0; k < task->nparam; k++) {
		size_t c = j->pcol[in->task][k];
		pv[k] = j->inst ? sr_instances_value_text(j->inst, c,
		    in->value[c], num[k]) : sr_fmt_double(num[k], in->value[c]);
	}
	snprintf(threads, sizeof threads, "%d", j->threads);
	argv = sr_template_render(task->run, &(sr_tvalues){ .in = in->in,
	    .out = o->out, .tile = in->name, .ref = in->ref, .threads = threads,
	    .metrics = met, .scratch = tmp, .param = pv });
	free(pv);
	free(num);
	return argv;
}

int
sr_cmd_node(const sr_cmdjob *j, const sr_cmdnode_in *in, sr_cmdnode *o,
    double *secs, size_t *maxrss, char *reason, size_t size)
{
	const sr_task *task = &j->w->stage[j->st].task[in->task];
	char *tmp, *met, *log, **argv, err[SR_ERRLEN];
	sr_spawn_res res = { 0 };
	const char *why = NULL;
	struct stat st;

	reason[0] = '\0';
	o->dir = fmt("%s/%zu/%zu", j->scratch, in->tile, in->node);
	o->out = out_path(task->run, o->dir);
	o->metric = sr_calloc(task->nmetric + 1, sizeof *o->metric);
	tmp = fmt("%s/scratch", o->dir);
	met = fmt("%s/metrics.tsv", o->dir);
	log = j->logs ? fmt("%s/%s.n%zu.%s.log", j->logs, in->name, in->node,
	    task->name) : fmt("%s/log", o->dir);
	if (mkdir(o->dir, 0700) != 0 || mkdir(tmp, 0700) != 0)
		sr_die(sr_exit_for_errno(errno), "%s: %s", o->dir,
		    strerror(errno));
	argv = render(j, in, o, tmp, met);
	if (sr_spawn_run(&(sr_spawn_req){ argv, log, j->timeout, j->threads },
	    &res, err) < 0)
		sr_die(sr_exit_for_errno(errno), "%s", err);
	*secs = res.wall;
	*maxrss = (size_t)(res.maxrss_kb > 0 ? res.maxrss_kb : 0) * 1024;
	if (*sr_spawn_reason(&res, j->timeout, reason, size))
		why = reason;
	else if (!made(task->run, o->out)) {
		snprintf(reason, size, "it did not create %s",
		    task->run->out == SR_TP_OUT_DIR ? "{out/}" :
		    task->run->out == SR_TP_OUT ? "{out}" : "its {out.EXT}");
		why = reason;
	}
	else if (task->nmetric > 0)
		why = read_metrics(task, met, o->metric, reason, size);
	if (why) {
		sr_warn("%s: task %s (node %zu): %s; %s:", in->name, task->name,
		    in->node, why, j->logs ? log : "the last lines of its log");
		show_tail(log);
	}
	if (j->logs && stat(log, &st) == 0 && st.st_size == 0)
		unlink(log);
	free(argv);
	free(tmp);
	free(met);
	free(log);
	return why ? -1 : 0;
}

void
sr_cmd_node_free(sr_cmdnode *n)
{
	if (n->dir)
		sr_remove_tree(n->dir);
	free(n->dir);
	free(n->out);
	free(n->metric);
	memset(n, 0, sizeof *n);
}
