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

char *
sr_path_real(const char *path)
{
	return realpath(path, NULL);
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

/* Moves *p past one path component and its slashes; its length. */
static size_t
component(const char **p)
{
	size_t n = strcspn(*p, "/");

	*p += n;
	*p += strspn(*p, "/");
	return n;
}

char *
sr_path_from(const char *base, const char *path)
{
	char *bd, *pd, *out;
	const char *b, *q, *name;
	size_t ups = 0, n, cap;

	if (*path == '/')
		return sr_strdup(path);
	bd = sr_path_real_dir(base);
	pd = sr_path_real_dir(path);
	if (!bd || !pd) {
		free(bd);
		free(pd);
		return NULL;
	}
	name = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	b = bd + 1;	/* both absolute: past the root's '/' */
	q = pd + 1;
	while (*b && *q && (n = strcspn(b, "/")) == strcspn(q, "/") &&
	    strncmp(b, q, n) == 0) {
		component(&b);
		component(&q);
	}
	while (*b && component(&b))
		ups++;
	cap = 3 * ups + strlen(q) + strlen(name) + 2;
	out = sr_malloc(cap);
	out[0] = '\0';
	while (ups-- > 0)
		strcat(out, "../");
	if (*q)
		strcat(strcat(out, q), "/");
	strcat(out, name);
	free(bd);
	free(pd);
	return out;
}
