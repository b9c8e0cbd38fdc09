/* mem.c - the memory budget: --max-memory, SR_MAX_MEMORY, the cgroup's
 * limit, the Slurm allocation's, physical memory; see mem.h. */
#include "core/mem.h"
#include "core/err.h"
#include "core/text.h"

#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const char *
sr_parse_size(const char *s, size_t *bytes)
{
	static const char suffix[] = "KMGT";
	unsigned long long v;
	const char *p;
	char *end;
	int shift = 0;

	if (*s < '0' || *s > '9')
		return "a size: a whole number of bytes, or with K, M, G or T";
	errno = 0;
	v = strtoull(s, &end, 10);
	if (*end != '\0') {
		if ((p = strchr(suffix, *end)) == NULL || *end == '\0' ||
		    end[1] != '\0')
			return "a size: a whole number of bytes, or with K, M, "
			    "G or T";
		shift = 10 * (int)(p - suffix + 1);
	}
	if (errno == ERANGE || v == 0 || v > (SIZE_MAX >> shift))
		return "a size from 1 byte to what a size_t holds";
	*bytes = (size_t)(v << shift);
	return NULL;
}

size_t
sr_physical_memory(void)
{
	long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);

	if (pages <= 0 || page <= 0 ||
	    (unsigned long)pages > SIZE_MAX / (unsigned long)page)
		return SIZE_MAX;
	return (size_t)pages * (size_t)page;
}

/* ------------------------------------------------------------ cgroup */

#define V1_UNLIMITED	((unsigned long long)1 << 62)	/* and above */

/* The limit in file (its first line: bytes, or "max"), or 0 when none
 * or unreadable. */
static size_t
read_limit(const char *file)
{
	char line[64], *end;
	unsigned long long v;
	FILE *fp;

	if ((fp = fopen(file, "re")) == NULL)
		return 0;
	if (fgets(line, sizeof line, fp) == NULL)
		line[0] = '\0';
	fclose(fp);
	errno = 0;
	v = strtoull(line, &end, 10);
	if (end == line || (*end != '\n' && *end != '\0') || errno ||
	    v == 0 || v >= V1_UNLIMITED || v > SIZE_MAX)
		return 0;
	return (size_t)v;
}

/* The least limit in NAME of dir (top/path) and of its ancestors up to
 * top; 0 when none. */
static size_t
least_limit_up(const char *top, const char *path, const char *name)
{
	char dir[PATH_MAX], file[PATH_MAX + 64], *slash;
	size_t least = 0, v, len = strlen(top);

	if ((size_t)snprintf(dir, sizeof dir, "%s%s", top, path) >= sizeof dir)
		return 0;
	for (;;) {
		snprintf(file, sizeof file, "%s/%s", dir, name);
		v = read_limit(file);
		if (v && (least == 0 || v < least))
			least = v;
		if (strlen(dir) <= len || (slash = strrchr(dir + len, '/')) ==
		    NULL)
			return least;
		*slash = '\0';
	}
}

/* The path of a /proc/PID/cgroup line "ID:CONTROLLERS:PATH" when it is
 * the v2 line (v2 set) or a v1 line listing the memory controller;
 * NULL otherwise. line is changed. */
static char *
cgroup_line_path(char *line, int v2)
{
	char *ctl, *path, *c, *save;

	if ((ctl = strchr(line, ':')) == NULL ||
	    (path = strchr(++ctl, ':')) == NULL)
		return NULL;
	*path++ = '\0';
	path[strcspn(path, "\n")] = '\0';
	if (*path != '/')
		return NULL;
	if (v2)
		return strncmp(line, "0:", 2) == 0 && *ctl == '\0' ? path : NULL;
	for (c = strtok_r(ctl, ",", &save); c; c = strtok_r(NULL, ",", &save))
		if (strcmp(c, "memory") == 0)
			return path;
	return NULL;
}

/* The least limit of the cgroups of self of one version (v2 or v1). */
static size_t
cgroup_limit(const char *root, const char *self, int v2)
{
	char line[PATH_MAX + 64], top[PATH_MAX], *path;
	const char *p = self, *nl;
	size_t len;

	snprintf(top, sizeof top, "%s%s", root, v2 ? "" : "/memory");
	for (; *p; p = nl ? nl + 1 : p + strlen(p)) {
		nl = strchr(p, '\n');
		len = nl ? (size_t)(nl - p) : strlen(p);
		if (len >= sizeof line)
			continue;
		memcpy(line, p, len);
		line[len] = '\0';
		if ((path = cgroup_line_path(line, v2)) == NULL)
			continue;
		/* "/": this namespace's root; "/..": a cgroup outside it,
		 * whose limits bound its root's too */
		if (strcmp(path, "/") == 0 || strstr(path, "/..") == path)
			path = "";
		return least_limit_up(top, path, v2 ? "memory.max" :
		    "memory.limit_in_bytes");
	}
	return 0;
}

size_t
sr_cgroup_memory_limit(const char *root, const char *self,
    const char **source)
{
	size_t v2 = cgroup_limit(root, self, 1), v1 = cgroup_limit(root, self, 0);

	if (v2 && (v1 == 0 || v2 <= v1)) {
		*source = "cgroup memory.max";
		return v2;
	}
	if (v1)
		*source = "cgroup memory.limit_in_bytes";
	return v1;
}

/* ------------------------------------------------------------- Slurm */

/* A Slurm memory value: MiB, or with a K, M, G or T suffix; 0 when
 * absent, 0 or not a size. */
static size_t
slurm_size(const char *s)
{
	char buf[64];
	size_t bytes;

	if (s == NULL || *s == '\0' || strlen(s) + 2 > sizeof buf)
		return 0;
	snprintf(buf, sizeof buf, "%s%s", s,
	    s[strlen(s) - 1] >= '0' && s[strlen(s) - 1] <= '9' ? "M" : "");
	return sr_parse_size(buf, &bytes) ? 0 : bytes;
}

/* A count of CPUs in s: a whole number from 1, else 0. */
static size_t
slurm_count(const char *s)
{
	unsigned long long v;
	char *end;

	if (s == NULL || *s < '0' || *s > '9')
		return 0;
	errno = 0;
	v = strtoull(s, &end, 10);
	return *end || errno || v > SIZE_MAX ? 0 : (size_t)v;
}

size_t
sr_slurm_memory(sr_getenv_fn env, const char **source)
{
	size_t node = slurm_size(env("SLURM_MEM_PER_NODE"));
	size_t cpu = slurm_size(env("SLURM_MEM_PER_CPU"));
	size_t on = slurm_count(env("SLURM_CPUS_ON_NODE"));
	size_t task = slurm_count(env("SLURM_CPUS_PER_TASK"));

	if (node) {
		*source = "SLURM_MEM_PER_NODE";
		return node;
	}
	if (cpu == 0)
		return 0;
	*source = on ? "SLURM_MEM_PER_CPU x SLURM_CPUS_ON_NODE" : task ?
	    "SLURM_MEM_PER_CPU x SLURM_CPUS_PER_TASK" : "SLURM_MEM_PER_CPU";
	if (on == 0)
		on = task ? task : 1;
	return cpu > SIZE_MAX / on ? SIZE_MAX : cpu * on;
}

/* ------------------------------------------------------------ budget */

sr_budget
sr_memory_default(const char *root, const char *self, sr_getenv_fn env)
{
	sr_budget b = { sr_physical_memory(), "physical memory" };
	const char *src = NULL;
	size_t v;

	if (self && (v = sr_cgroup_memory_limit(root, self, &src)) &&
	    v < b.bytes) {
		b.bytes = v;
		b.source = src;
	}
	if ((v = sr_slurm_memory(env, &src)) && v < b.bytes) {
		b.bytes = v;
		b.source = src;
	}
	return b;
}

/* The text of /proc/self/cgroup into buf, or NULL. */
static const char *
self_cgroup(char *buf, size_t len)
{
	size_t n;
	FILE *fp;

	if ((fp = fopen("/proc/self/cgroup", "re")) == NULL)
		return NULL;
	n = fread(buf, 1, len - 1, fp);
	fclose(fp);
	buf[n] = '\0';
	return buf;
}

static const char *
process_env(const char *name)
{
	return getenv(name);
}

sr_budget
sr_memory_budget(const char *arg)
{
	const char *env = getenv(SR_MAX_MEMORY_ENV), *why;
	char show[SR_SHOWLEN], self[8192];
	sr_budget b = { 0, "--max-memory" };

	if (arg) {
		if ((why = sr_parse_size(arg, &b.bytes)))
			sr_usage_error("--max-memory '%s': %s", sr_show(show, arg),
			    why);
		return b;
	}
	if (env && *env) {
		if ((why = sr_parse_size(env, &b.bytes)))
			sr_usage_error("%s='%s': %s", SR_MAX_MEMORY_ENV,
			    sr_show(show, env), why);
		b.source = SR_MAX_MEMORY_ENV;
		return b;
	}
	return sr_memory_default(SR_CGROUP_ROOT, self_cgroup(self, sizeof self),
	    process_env);
}

char *
sr_fmt_mib(char *buf, size_t len, unsigned long long bytes)
{
	if (bytes < 1048576) {
		snprintf(buf, len, "%llu bytes", bytes);
		return buf;
	}
	snprintf(buf, len, "%llu MiB", bytes / 1048576 +
	    (bytes % 1048576 != 0));
	return buf;
}
