/* fault.c - fault injection for tests (fault.h). */
#include "core/fault.h"

#include <stdlib.h>
#include <string.h>

int
sr_fault(const char *name)
{
	const char *list = getenv("SR_FAULT"), *p;
	size_t n = strlen(name);

	for (p = list; p && *p; p += strcspn(p, ","), p += *p == ',')
		if (strncmp(p, name, n) == 0 && (p[n] == ',' || p[n] == '\0'))
			return 1;
	return 0;
}
