/* mem.h - the memory budget of a tool that reads images: --max-memory
 * SIZE, else the environment variable SR_MAX_MEMORY, else the machine's
 * physical memory. A size is a whole number of bytes with an optional
 * binary suffix K, M, G or T (KiB, MiB, GiB, TiB): 512M, 16G. */
#ifndef SR_MEM_H
#define SR_MEM_H

#include <stddef.h>

#define SR_MAX_MEMORY_ENV "SR_MAX_MEMORY"

/* Parses a size as above into *bytes; returns NULL or why it is not one. */
const char *sr_parse_size(const char *s, size_t *bytes);

/* The budget in bytes: arg (the value of --max-memory, or NULL), else
 * $SR_MAX_MEMORY when set and not empty, else physical memory. A bad
 * value is a usage error naming the option or the variable (exit 2). */
size_t sr_memory_budget(const char *arg);

/* The machine's physical memory in bytes (SIZE_MAX when unknown). */
size_t sr_physical_memory(void);

/* bytes as "N MiB" (rounded up) into buf of len bytes; returns buf. */
char *sr_fmt_mib(char *buf, size_t len, unsigned long long bytes);

#endif
