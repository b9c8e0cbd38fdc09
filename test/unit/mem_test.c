/* mem_test.c - unit tests of core/mem.c: the sources of the default
 * memory budget.
 *
 * Builds cgroup trees in a temporary directory (v2: memory.max in the
 * process's cgroup and its ancestors, "max" for none; v1:
 * memory/.../memory.limit_in_bytes, its unlimited value) and reads them
 * through sr_cgroup_memory_limit with /proc/PID/cgroup texts; gives
 * sr_slurm_memory and sr_memory_default environments from a table.
 * Exits 0 on success; prints "FAIL: ..." and exits 1 otherwise.
 */
#include "core/mem.h"
#include "check.h"

#include <limits.h>
#include <stdlib.h>
#include <sys/stat.h>

#define MiB ((size_t)1 << 20)

static char root[64];

/* The environment of a test: NAME=VALUE strings, NULL-terminated. */
static const char *const *test_env;

static const char *
table_env(const char *name)
{
	size_t i, len = strlen(name);

	for (i = 0; test_env[i]; i++)
		if (strncmp(test_env[i], name, len) == 0 &&
		    test_env[i][len] == '=')
			return test_env[i] + len + 1;
	return NULL;
}

/* Writes text to ROOT/rel, making its directories. */
static void
put(const char *rel, const char *text)
{
	char path[PATH_MAX], *p;
	FILE *fp;

	snprintf(path, sizeof path, "%s/%s", root, rel);
	for (p = path + strlen(root) + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		mkdir(path, 0777);
		*p = '/';
	}
	if ((fp = fopen(path, "w")) == NULL || fputs(text, fp) < 0 ||
	    fclose(fp) != 0)
		fail("cannot write %s", path);
}

static void
expect_cgroup(const char *self, size_t want, const char *want_source)
{
	const char *source = "none";
	size_t got = sr_cgroup_memory_limit(root, self, &source);

	if (got != want || (want && strcmp(source, want_source) != 0))
		fail("cgroup of '%s': %zu (%s), not %zu (%s)", self, got, source,
		    want, want ? want_source : "none");
}

/* v2: the least of the cgroup and its ancestors; "max" is none. */
static void
test_cgroup_v2(void)
{
	put("system.slice/job_7/step_batch/memory.max", "max\n");
	put("system.slice/job_7/memory.max", "2147483648\n");
	put("system.slice/memory.max", "8589934592\n");
	expect_cgroup("0::/system.slice/job_7/step_batch\n", 2048 * MiB,
	    "cgroup memory.max");
	expect_cgroup("0::/system.slice\n", 8192 * MiB, "cgroup memory.max");
	put("user.slice/memory.max", "max\n");
	expect_cgroup("0::/user.slice\n", 0, NULL);
	/* a path this namespace does not have: its root's limit */
	put("memory.max", "1073741824\n");
	expect_cgroup("0::/../host/path\n", 1024 * MiB, "cgroup memory.max");
	expect_cgroup("0::/\n", 1024 * MiB, "cgroup memory.max");
	expect_cgroup("", 0, NULL);
	expect_cgroup("garbage", 0, NULL);
}

/* v1: the memory controller's line, its unlimited value, the least of
 * v1 and v2. */
static void
test_cgroup_v1(void)
{
	static const char self[] = "12:cpu,cpuacct:/x\n"
	    "4:memory:/slurm/uid_1/job_9\n1:name=systemd:/y\n";

	put("memory.max", "max\n");
	put("memory/slurm/uid_1/job_9/memory.limit_in_bytes",
	    "9223372036854771712\n");
	put("memory/slurm/memory.limit_in_bytes", "536870912\n");
	expect_cgroup(self, 512 * MiB, "cgroup memory.limit_in_bytes");
	put("memory/slurm/memory.limit_in_bytes", "9223372036854771712\n");
	expect_cgroup(self, 0, NULL);
	put("memory/slurm/uid_1/job_9/memory.limit_in_bytes", "268435456\n");
	expect_cgroup("3:memory,blkio:/slurm/uid_1/job_9\n", 256 * MiB,
	    "cgroup memory.limit_in_bytes");
	put("memory.max", "134217728\n");
	expect_cgroup("0::/\n4:memory:/slurm/uid_1/job_9\n", 128 * MiB,
	    "cgroup memory.max");
}

static void
expect_slurm(const char *const *env, size_t want, const char *want_source)
{
	const char *source = "none";
	size_t got;

	test_env = env;
	got = sr_slurm_memory(table_env, &source);
	if (got != want || (want && strcmp(source, want_source) != 0))
		fail("Slurm %s...: %zu (%s), not %zu (%s)", env[0] ? env[0] : "",
		    got, source, want, want ? want_source : "none");
}

static void
test_slurm(void)
{
	expect_slurm((const char *[]){ NULL }, 0, NULL);
	expect_slurm((const char *[]){ "SLURM_MEM_PER_NODE=512", NULL },
	    512 * MiB, "SLURM_MEM_PER_NODE");
	expect_slurm((const char *[]){ "SLURM_MEM_PER_NODE=4G",
	    "SLURM_MEM_PER_CPU=1", NULL }, 4096 * MiB, "SLURM_MEM_PER_NODE");
	/* --mem=0: the whole node; a bad value: none */
	expect_slurm((const char *[]){ "SLURM_MEM_PER_NODE=0", NULL }, 0, NULL);
	expect_slurm((const char *[]){ "SLURM_MEM_PER_NODE=lots", NULL }, 0,
	    NULL);
	expect_slurm((const char *[]){ "SLURM_MEM_PER_CPU=256",
	    "SLURM_CPUS_ON_NODE=4", "SLURM_CPUS_PER_TASK=2", NULL }, 1024 * MiB,
	    "SLURM_MEM_PER_CPU x SLURM_CPUS_ON_NODE");
	expect_slurm((const char *[]){ "SLURM_MEM_PER_CPU=256",
	    "SLURM_CPUS_PER_TASK=2", NULL }, 512 * MiB,
	    "SLURM_MEM_PER_CPU x SLURM_CPUS_PER_TASK");
	expect_slurm((const char *[]){ "SLURM_MEM_PER_CPU=256", NULL },
	    256 * MiB, "SLURM_MEM_PER_CPU");
}

static void
expect_default(const char *self, const char *const *env, size_t want,
    const char *want_source)
{
	sr_budget b;

	test_env = env;
	b = sr_memory_default(root, self, table_env);
	if (b.bytes != want || strcmp(b.source, want_source) != 0)
		fail("default of '%s', %s...: %zu (%s), not %zu (%s)",
		    self ? self : "(none)", env[0] ? env[0] : "", b.bytes,
		    b.source, want, want_source);
}

/* The least of the cgroup's, Slurm's and physical memory; a limit at or
 * above physical memory is none. */
static void
test_default(void)
{
	static const char *const none[] = { NULL };
	static const char *const slurm[] = { "SLURM_MEM_PER_NODE=200", NULL };
	char huge[64];
	size_t phys = sr_physical_memory();

	put("memory.max", "max\n");
	put("a/memory.max", "314572800\n");
	expect_default(NULL, none, phys, "physical memory");
	expect_default("0::/\n", none, phys, "physical memory");
	expect_default("0::/a\n", none, 300 * MiB, "cgroup memory.max");
	expect_default("0::/a\n", slurm, 200 * MiB, "SLURM_MEM_PER_NODE");
	expect_default(NULL, slurm, 200 * MiB, "SLURM_MEM_PER_NODE");
	put("a/memory.max", "104857600\n");
	expect_default("0::/a\n", slurm, 100 * MiB, "cgroup memory.max");
	if (phys < SIZE_MAX / 2) {
		snprintf(huge, sizeof huge, "%zu\n", 2 * phys);
		put("a/memory.max", huge);
		expect_default("0::/a\n", none, phys, "physical memory");
	}
}

int
main(void)
{
	char cmd[256];

	snprintf(root, sizeof root, "/tmp/mem_test.XXXXXX");
	if (mkdtemp(root) == NULL) {
		fail("mkdtemp");
		return 1;
	}
	test_cgroup_v2();
	snprintf(cmd, sizeof cmd, "rm -rf '%s' && mkdir '%s'", root, root);
	if (system(cmd) != 0)
		fail("%s", cmd);
	test_cgroup_v1();
	test_slurm();
	test_default();
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
	if (system(cmd) != 0)
		fail("%s", cmd);
	return failures != 0;
}
