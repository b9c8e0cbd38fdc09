/* out.h - output files written atomically, provenance headers. */
#ifndef SR_OUT_H
#define SR_OUT_H

#include <stdio.h>

#define SR_VERSION "0.1.0"

/* Opens an output: "-" or NULL is stdout; any other path is a temporary
 * file beside it (same directory, so rename is atomic) that becomes PATH
 * only at sr_out_commit_all(). Until then sr_die(), SIGINT, SIGTERM and
 * SIGHUP remove it, so a failed or killed run leaves no file behind and
 * an existing PATH is untouched. */
FILE *sr_out_open(const char *path);

/* Registers path, a temporary file of the caller's (a plot's data, script
 * or image): until sr_out_temp_forget(path), sr_die(), SIGINT, SIGTERM
 * and SIGHUP remove it, as they do the outputs' temporaries. */
void sr_out_temp_add(const char *path);
/* Forgets a registered temporary (once removed or renamed into place). */
void sr_out_temp_forget(const char *path);

/* Flushes and checks every output (write errors surface here), syncs and
 * renames the temporaries into place, and checks stdout. Exits 1 on any
 * error, after removing what was not yet renamed. */
void sr_out_commit_all(void);

/* Writes the provenance comments: "#PROG VERSION" and "#command line:
 * ARGS" (arguments shell-quoted where needed). */
void sr_out_provenance(FILE *fp, int argc, char **argv);

/* The process's umask (without changing it), for files made by mkstemp. */
unsigned sr_current_umask(void);

/* Prints "PROG (sareuse) VERSION" to stdout and exits 0. */
_Noreturn void sr_print_version(void);

#endif
