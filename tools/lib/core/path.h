/* path.h - file paths: directories, names, joining, resolving against a
 * list's directory, and whether two paths name one file. Results are
 * newly allocated (free()); allocation failures die through sr_malloc. */
#ifndef SR_PATH_H
#define SR_PATH_H

/* The directory part of path with its trailing '/' ("a/b/c" -> "a/b/"),
 * "" when path has none. */
char *sr_path_dir(const char *path);
/* dir + path, or path alone when it is absolute (dir as sr_path_dir
 * gives it: empty or ending in '/'). */
char *sr_path_resolve(const char *dir, const char *path);
/* The file name of path without its last extension ("a/b.x.png" ->
 * "b.x"); a leading dot is not an extension. */
char *sr_path_stem(const char *path);
/* "a/bc". */
char *sr_path_join(const char *a, const char *b, const char *c);
/* The directory of path resolved (realpath: absolute, no links), or
 * NULL (errno set) when it cannot be resolved. */
char *sr_path_real_dir(const char *path);
/* path resolved (realpath), or NULL (errno set). */
char *sr_path_real(const char *path);
/* Whether paths a and b name the same file (they need not exist): their
 * directories resolved, their last components compared. */
int sr_path_same(const char *a, const char *b);

/* The file path as seen from the directory of file base (both as given,
 * relative to the current directory or absolute): path itself when
 * absolute, else the way from base's directory to it, both directories
 * resolved ("out/t.tsv", "data/a.svs" -> "../data/a.svs"); NULL (errno
 * set) when a directory cannot be resolved. */
char *sr_path_from(const char *base, const char *path);

#endif
