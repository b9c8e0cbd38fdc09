/* mem.c - the memory budget: --max-memory, SR_MAX_MEMORY, physical
 * memory; see mem.h. */
#include "core/mem.h"
#include "core/err.h"
#include "core/text.h"

#include <errno.h>
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

size_t
sr_memory_budget(const char *arg)
{
	const char *env = getenv(SR_MAX_MEMORY_ENV), *why;
	char show[SR_SHOWLEN];
	size_t bytes;

	if (arg) {
		if ((why = sr_parse_size(arg, &bytes)))
			sr_usage_error("--max-memory '%s': %s", sr_show(show, arg),
			    why);
		return bytes;
	}
	if (env && *env) {
		if ((why = sr_parse_size(env, &bytes)))
			sr_usage_error("%s='%s': %s", SR_MAX_MEMORY_ENV,
			    sr_show(show, env), why);
		return bytes;
	}
	return sr_physical_memory();
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
