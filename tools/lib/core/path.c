/* path.c - file paths (path.h). */
#define _XOPEN_SOURCE 700	/* realpath */
#include "core/path.h"
#include "core/err.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char *
sr_path_dir(const char *path)
{
	const char *s = strrchr(path, '/');
	size_t n = s ? (size_t)(s - path) + 1 : 0;
	char *d = sr_malloc(n + 1);

	memcpy(d, path, n);
	d[n] = '\0';
	return d;
}

char *
sr_path_resolve(const char *dir, const char *path)
{
	size_t n = strlen(dir) + strlen(path) + 1;
	char *s = sr_malloc(n);

	snprintf(s, n, "%s%s", *path == '/' ? "" : dir, path);
	return s;
}

char *
sr_path_stem(const char *path)
{
	const char *b = strrchr(path, '/'), *e;
	char *s;

	b = b ? b + 1 : path;
	e = strrchr(b, '.');
	if (!e || e == b)
		e = b + strlen(b);
	s = sr_malloc((size_t)(e - b) + 1);
	memcpy(s, b, (size_t)(e - b));
	s[e - b] = '\0';
	return s;
}

char *
sr_path_join(const char *a, const char *b, const char *c)
{
	size_t n = strlen(a) + strlen(b) + strlen(c) + 2;
	char *s = sr_malloc(n);

	snprintf(s, n, "%s/%s%s", a, b, c);
	return s;
}

char *
sr_path_real_dir(const char *path)
{
	char *d = sr_path_dir(path), *r = realpath(*d ? d : ".", NULL);

	free(d);
	return r;
}

int
sr_path_same(const char *a, const char *b)
{
	char *ra = sr_path_real_dir(a), *rb = sr_path_real_dir(b);
	char *da = sr_path_dir(a), *db = sr_path_dir(b);
	int same = strcmp(a + strlen(da), b + strlen(db)) == 0 &&
	    (ra && rb ? strcmp(ra, rb) == 0 : strcmp(da, db) == 0);

	free(ra);
	free(rb);
	free(da);
	free(db);
	return same;
}
