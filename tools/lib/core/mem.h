/* mem.h - the memory budget of a tool that reads images: --max-memory
 * SIZE, else the environment variable SR_MAX_MEMORY, else the memory
 * this process is given: the least of its cgroup's limit, its Slurm
 * allocation's and the machine's physical memory. A size is a whole
 * number of bytes with an optional binary suffix K, M, G or T (KiB,
 * MiB, GiB, TiB): 512M, 16G. */
#ifndef SR_MEM_H
#define SR_MEM_H

#include <stddef.h>

#define SR_MAX_MEMORY_ENV "SR_MAX_MEMORY"
#define SR_CGROUP_ROOT "/sys/fs/cgroup"

/* A budget in bytes and where it came from, for messages: "--max-memory",
 * "SR_MAX_MEMORY", "cgroup memory.max", "SLURM_MEM_PER_NODE", ...,
 * "physical memory" (a static string). */
typedef struct {
	size_t bytes;
	const char *source;
} sr_budget;

/* Looks up an environment variable (getenv, or a test's table). */
typedef const char *(*sr_getenv_fn)(const char *name);

/* Parses a size as above into *bytes; returns NULL or why it is not one. */
const char *sr_parse_size(const char *s, size_t *bytes);

/* The budget: arg (the value of --max-memory, or NULL), else
 * $SR_MAX_MEMORY when set and not empty, else sr_memory_default with
 * this process's cgroup and environment. A bad value is a usage error
 * naming the option or the variable (exit 2). */
sr_budget sr_memory_budget(const char *arg);

/* The memory this process is given, the least of: the cgroup limit
 * (sr_cgroup_memory_limit of root and self, the text of
 * /proc/self/cgroup; NULL self: none), the Slurm allocation's
 * (sr_slurm_memory of env), the machine's physical memory. A limit at
 * or above physical memory is none. */
sr_budget sr_memory_default(const char *root, const char *self,
    sr_getenv_fn env);

/* The least memory limit of the cgroup that self (the text of a
 * /proc/PID/cgroup) names and of its ancestors, under the cgroup file
 * system mounted at root: cgroup v2's memory.max ("max": none) or v1's
 * memory/.../memory.limit_in_bytes; 0 when none. *source names the file
 * kind when not 0. */
size_t sr_cgroup_memory_limit(const char *root, const char *self,
    const char **source);

/* The memory of the Slurm allocation on this node from env:
 * SLURM_MEM_PER_NODE MiB, else SLURM_MEM_PER_CPU MiB times
 * SLURM_CPUS_ON_NODE (else SLURM_CPUS_PER_TASK, else 1); a value may
 * carry a K, M, G or T suffix. 0 when neither is set to a size above 0
 * (--mem=0: the whole node). *source names the variables when not 0.
 * PBS Pro and Torque export no memory variable: their jobs are bounded
 * by the cgroup their MoM makes, or by physical memory. */
size_t sr_slurm_memory(sr_getenv_fn env, const char **source);

/* The machine's physical memory in bytes (SIZE_MAX when unknown). */
size_t sr_physical_memory(void);

/* bytes as "N MiB" (rounded up) into buf of len bytes; returns buf. */
char *sr_fmt_mib(char *buf, size_t len, unsigned long long bytes);

#endif
