/* template.h - command templates, the run column of workflow files
 * (workflow(5)): parsed once when the workflow is read, rendered into an
 * argument vector for each task node. A template is never given to a
 * shell: its words are split here, and a placeholder's value becomes
 * part of one word, whatever it holds.
 *
 * Grammar: the field is split into words at spaces (runs of them are one
 * separator); a part of a word in double or single quotes may hold
 * spaces and the other quote ("" is an empty word); {{ and }} are
 * literal braces, also in quotes; {NAME} is a placeholder, NAME one of in, out, out.EXT
 * (EXT letters and digits), out/, tile, ref, threads, metrics, scratch
 * or a parameter of the task. The first word, the program, is literal. */
#ifndef SR_TEMPLATE_H
#define SR_TEMPLATE_H

#include <stddef.h>

/* The placeholders, and the literal text between them. */
enum sr_tpiece_kind {
	SR_TP_TEXT,
	SR_TP_IN,		/* the previous task's output, or the tile */
	SR_TP_OUT,		/* the output, a path ending .png */
	SR_TP_OUT_EXT,		/* the output, a path ending .EXT */
	SR_TP_OUT_DIR,		/* the output, a directory */
	SR_TP_TILE,		/* the tile's name */
	SR_TP_REF,		/* the tile's reference */
	SR_TP_THREADS,		/* the CPUs of one active path */
	SR_TP_METRICS,		/* the file of the task's own metrics */
	SR_TP_SCRATCH,		/* a directory of the task node's own */
	SR_TP_PARAM,		/* a parameter's value */
	SR_TP_NKIND
};

typedef struct {
	int kind;
	char *text;		/* SR_TP_TEXT: its bytes; SR_TP_OUT_EXT: EXT */
	size_t param;		/* SR_TP_PARAM: index in the task's params */
} sr_tpiece;

typedef struct {
	sr_tpiece *piece;
	size_t npiece;
} sr_tword;

typedef struct {
	sr_tword *word;		/* word[0]: the program, literal */
	size_t nword;
	int out;		/* SR_TP_OUT, _OUT_EXT, _OUT_DIR; 0: none */
	char *out_ext;		/* the output's extension: "png" for {out},
				 * EXT for {out.EXT}; NULL for {out/} */
	unsigned uses;		/* bit 1 << kind of each placeholder used */
	unsigned char *param_used;	/* per parameter of the task, 0 or 1 */
} sr_template;

/* Parses field as the template of a task of parameters param[0..nparam).
 * Returns 0, or -1 with *col the 1-based byte in field where the error
 * is and err (size errlen) saying what it is. */
int sr_template_parse(const char *field, char *const *param, size_t nparam,
    sr_template *t, size_t *col, char *err, size_t errlen);
void sr_template_free(sr_template *t);

/* The values of a task node's placeholders; param[i] the text of the
 * task's parameter i, as the design writes it. A placeholder whose value
 * is NULL renders as the empty string. */
typedef struct {
	const char *in, *out, *tile, *ref, *threads, *metrics, *scratch;
	const char *const *param;
} sr_tvalues;

/* The argument vector of t with v: nword words and a NULL, in one
 * allocation that the caller frees. */
char **sr_template_render(const sr_template *t, const sr_tvalues *v);

#endif
