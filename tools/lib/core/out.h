/* out.h - output files written atomically, provenance headers. */
#ifndef SR_OUT_H
#define SR_OUT_H

#include <stdio.h>

#define SR_VERSION "0.1.0"

/* Opens an output: "-" or NULL is stdout, and so is an existing device
 * or FIFO (written in place, as the file itself); any other path is a
 * temporary file beside it (same directory, so rename is atomic) that
 * becomes PATH only at sr_out_commit_all(). Until then sr_die(), SIGINT,
 * SIGTERM and SIGHUP remove it, so a failed or killed run leaves no file
 * behind and an existing PATH is untouched. The first output opened is
 * the tool's primary one, renamed last. */
FILE *sr_out_open(const char *path);

/* The longest part of an output's name that its temporaries keep: the
 * temporary of "DIR/NAME" is "DIR/.NAME.tmp.XXXXXX" (or, of a KIND of at
 * most 4 bytes, "DIR/.NAME.KIND.tmp.XXXXXX"), NAME cut to its first
 * SR_OUT_TEMP_BASE_MAX bytes (at a UTF-8 boundary), so that a temporary
 * of any legal 255-byte name is itself legal; a cleanup may match
 * ".*.tmp.??????". */
#define SR_OUT_TEMP_BASE_MAX (255 - 17)

/* Writes the temporary-name pattern of path (above; kind NULL or of at
 * most 4 bytes) to buf as snprintf does; returns its length. */
size_t sr_out_temp_name(char *buf, size_t size, const char *path,
    const char *kind);

/* Opens a descriptor to write output path through another program (a
 * plot): in place, *tmp NULL, for an existing device or FIFO; else a new
 * temporary of kind, registered (sr_out_temp_add) and named in *tmp
 * (free()), to be handed over complete and synced with sr_out_adopt. */
int sr_out_open_fd(const char *path, const char *kind, char **tmp);

/* Makes tmp, a complete and synced temporary registered with
 * sr_out_temp_add, one of the outputs: renamed to path at
 * sr_out_commit_all() with the others (before the primary one),
 * removed with them on a failure. */
void sr_out_adopt(const char *tmp, const char *path);

/* Registers path, a temporary file of the caller's (a plot's data, script
 * or image): until sr_out_temp_forget(path), sr_die(), SIGINT, SIGTERM
 * and SIGHUP remove it, as they do the outputs' temporaries. */
void sr_out_temp_add(const char *path);
/* Forgets a registered temporary (once removed or renamed into place). */
void sr_out_temp_forget(const char *path);

/* One commit for all outputs: flushes, checks, syncs and closes every
 * output (write errors surface here) and stdout; only when all are
 * complete, renames the temporaries into place, the primary output last.
 * On any error exits 3 (SR_EXIT_IO) after removing what was not yet
 * renamed, so that a failure commits nothing. */
void sr_out_commit_all(void);
/* fwrite of n bytes to an output; a short write's errno is kept for
 * the commit's message (a large fwrite bypasses stdio's buffer, so the
 * commit's fflush has nothing left to fail on and no errno to say). */
size_t sr_out_write(FILE *fp, const void *buf, size_t n);

/* Usage error (exit 2), "PATH: named twice as an output", when two of
 * outs[0..n) are the same name (NULL skipped): before any work, the rule
 * sr_out_open applies when it opens them. */
void sr_out_refuse_twice(const char *const *outs, size_t n);

/* Usage error (exit 2), naming both, when one of the outputs outs[0..nout)
 * is one of the inputs ins[0..nin) (the same name or the same file; NULL
 * and "-" skipped): the commit would replace the input. */
void sr_out_refuse_inputs(const char *const *outs, size_t nout,
    const char *const *ins, size_t nin);

/* Writes the provenance comments: "#PROG VERSION" and "#command line:
 * ARGS" (arguments shell-quoted where needed). */
void sr_out_provenance(FILE *fp, int argc, char **argv);

/* The process's umask (without changing it), for files made by mkstemp. */
unsigned sr_current_umask(void);

/* Prints "PROG (sareuse) VERSION" to stdout and exits 0. */
_Noreturn void sr_print_version(void);

#endif
