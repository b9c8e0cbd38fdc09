/* template.c - command templates (template.h). Written by hand: the
 * grammar is workflow(5)'s own (no shell's: wordexp(3) would run command
 * substitutions and expand variables, which a template must never do). */
#include "plan/template.h"
#include "core/err.h"
#include "core/text.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The built-in placeholders by name; out.EXT and parameters apart. */
static const struct {
	const char *name;
	int kind;
} builtin[] = {
	{ "in", SR_TP_IN }, { "out", SR_TP_OUT }, { "out/", SR_TP_OUT_DIR },
	{ "tile", SR_TP_TILE }, { "ref", SR_TP_REF },
	{ "threads", SR_TP_THREADS }, { "metrics", SR_TP_METRICS },
	{ "scratch", SR_TP_SCRATCH },
};

/* The parse's state: the template, the word being read and its
 * literal text not yet made a piece. */
typedef struct {
	sr_template *t;
	sr_tword word;
	char *text;
	size_t ntext, captext;
	char *const *param;
	size_t nparam;
	char *err;
	size_t errlen;
} parser;

static int
failf(parser *p, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(p->err, p->errlen, fmt, ap);
	va_end(ap);
	return -1;
}

static void
add_char(parser *p, char c)
{
	if (p->ntext + 1 >= p->captext) {
		p->captext = p->captext ? 2 * p->captext : 64;
		p->text = sr_reallocarray(p->text, p->captext, 1);
	}
	p->text[p->ntext++] = c;
}

static void
add_piece(parser *p, int kind, char *text, size_t param)
{
	sr_tword *w = &p->word;

	w->piece = sr_reallocarray(w->piece, w->npiece + 1, sizeof *w->piece);
	w->piece[w->npiece].kind = kind;
	w->piece[w->npiece].text = text;
	w->piece[w->npiece].param = param;
	w->npiece++;
}

/* Ends the literal text read so far as a piece of the word. */
static void
flush_text(parser *p)
{
	char *s;

	if (p->ntext == 0)
		return;
	s = sr_malloc(p->ntext + 1);
	memcpy(s, p->text, p->ntext);
	s[p->ntext] = '\0';
	p->ntext = 0;
	add_piece(p, SR_TP_TEXT, s, 0);
}

/* Ends the word being read (an empty word is a word: "" writes one). */
static void
end_word(parser *p)
{
	sr_template *t = p->t;

	flush_text(p);
	t->word = sr_reallocarray(t->word, t->nword + 1, sizeof *t->word);
	t->word[t->nword++] = p->word;
	memset(&p->word, 0, sizeof p->word);
}

/* The task's parameters as a message lists them. */
static const char *
param_list(const parser *p, char *buf, size_t size)
{
	size_t i, n = 0;

	if (p->nparam == 0)
		return "it has none";
	buf[0] = '\0';
	for (i = 0; i < p->nparam && n + 1 < size; i++)
		n += (size_t)snprintf(buf + n, size - n, "%s%s", i ? ", " : "its params: ",
		    p->param[i]);
	return buf;
}

/* Whether s (n bytes) is an extension: letters and digits, at least one. */
static int
is_ext(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') ||
		    (s[i] >= '0' && s[i] <= '9')))
			return 0;
	return n > 0;
}

/* Records the output form of a placeholder {out...}; one form a task. */
static int
set_output(parser *p, int kind, const char *ext, size_t n)
{
	sr_template *t = p->t;
	char *e = ext ? sr_malloc(n + 1) : NULL;

	if (e) {
		memcpy(e, ext, n);
		e[n] = '\0';
	}
	if (t->out && (t->out != kind || (e == NULL) != (t->out_ext == NULL) ||
	    (e && strcmp(e, t->out_ext) != 0))) {
		free(e);
		return failf(p, "a second output form: a task writes one output, "
		    "named the same way in every word ({out}, {out.EXT} or {out/})");
	}
	if (t->out) {
		free(e);
		return 0;
	}
	t->out = kind;
	t->out_ext = e;
	return 0;
}

/* Adds the placeholder named by the n bytes at name. */
static int
placeholder(parser *p, const char *name, size_t n)
{
	char list[256];
	size_t i;

	if (p->t->nword == 0)
		return failf(p, "the program (the first word) cannot hold a "
		    "placeholder: write its name or path");
	if (n == 0)
		return failf(p, "an empty placeholder {}: write {{ and }} for braces");
	for (i = 0; i < sizeof builtin / sizeof builtin[0]; i++)
		if (strlen(builtin[i].name) == n &&
		    memcmp(builtin[i].name, name, n) == 0) {
			if (builtin[i].kind == SR_TP_OUT &&
			    set_output(p, SR_TP_OUT, "png", 3) < 0)
				return -1;
			if (builtin[i].kind == SR_TP_OUT_DIR &&
			    set_output(p, SR_TP_OUT_DIR, NULL, 0) < 0)
				return -1;
			add_piece(p, builtin[i].kind, NULL, 0);
			p->t->uses |= 1u << builtin[i].kind;
			return 0;
		}
	if (n >= 4 && memcmp(name, "out.", 4) == 0) {
		if (!is_ext(name + 4, n - 4))
			return failf(p, "{%.*s}: an extension is letters and digits",
			    (int)n, name);
		if (set_output(p, SR_TP_OUT_EXT, name + 4, n - 4) < 0)
			return -1;
		add_piece(p, SR_TP_OUT_EXT, NULL, 0);
		p->t->uses |= 1u << SR_TP_OUT_EXT;
		return 0;
	}
	for (i = 0; i < p->nparam; i++)
		if (strlen(p->param[i]) == n && memcmp(p->param[i], name, n) == 0) {
			add_piece(p, SR_TP_PARAM, NULL, i);
			p->t->uses |= 1u << SR_TP_PARAM;
			p->t->param_used[i] = 1;
			return 0;
		}
	{
		char *s = sr_malloc(n + 1);
		memcpy(s, name, n);
		s[n] = '\0';
		failf(p, "{%s}: not a placeholder nor a parameter of the task (%s)",
		    SR_SHOW(s), param_list(p, list, sizeof list));
		free(s);
	}
	return -1;
}

/* Reads field into p->t; -1 with *col set on an error. */
static int
parse(parser *p, const char *field, size_t *col)
{
	size_t i, quote = 0;
	const char *close;
	char qchar = 0;
	int inword = 0;

	for (i = 0; field[i]; i++) {
		char c = field[i];
		*col = i + 1;
		if ((c == '"' || c == '\'') && (!quote || c == qchar)) {
			inword = 1;
			quote = quote ? 0 : i + 1;
			qchar = c;
		} else if (c == ' ' && !quote) {
			if (inword)
				end_word(p);
			inword = 0;
		} else if ((c == '{' || c == '}') && field[i + 1] == c) {
			inword = 1;
			add_char(p, c);
			i++;
		} else if (c == '}') {
			return failf(p, "a lone '}': write }} for a brace");
		} else if (c == '{') {
			if ((close = strchr(field + i + 1, '}')) == NULL)
				return failf(p, "'{' without its '}': write {{ for a brace");
			inword = 1;
			flush_text(p);
			if (placeholder(p, field + i + 1,
			    (size_t)(close - field) - i - 1) < 0)
				return -1;
			i = (size_t)(close - field);
		} else {
			inword = 1;
			add_char(p, c);
		}
	}
	if (quote) {
		*col = quote;
		return failf(p, "a quote without its closing quote");
	}
	if (inword)
		end_word(p);
	if (p->t->nword == 0) {
		*col = 1;
		return failf(p, "an empty command");
	}
	return 0;
}

int
sr_template_parse(const char *field, char *const *param, size_t nparam,
    sr_template *t, size_t *col, char *err, size_t errlen)
{
	parser p = { t, { NULL, 0 }, NULL, 0, 0, param, nparam, err, errlen };
	size_t i;
	int rc;

	memset(t, 0, sizeof *t);
	t->param_used = sr_calloc(nparam ? nparam : 1, 1);
	*col = 0;
	rc = parse(&p, field, col);
	free(p.text);
	for (i = 0; i < p.word.npiece; i++)
		free(p.word.piece[i].text);
	free(p.word.piece);
	if (rc < 0)
		sr_template_free(t);
	return rc;
}

void
sr_template_free(sr_template *t)
{
	size_t i, j;

	for (i = 0; i < t->nword; i++) {
		for (j = 0; j < t->word[i].npiece; j++)
			free(t->word[i].piece[j].text);
		free(t->word[i].piece);
	}
	free(t->word);
	free(t->out_ext);
	free(t->param_used);
	memset(t, 0, sizeof *t);
}

/* The text a piece renders as. */
static const char *
piece_text(const sr_tpiece *pc, const sr_tvalues *v)
{
	const char *s = NULL;

	switch (pc->kind) {
	case SR_TP_TEXT: s = pc->text; break;
	case SR_TP_IN: s = v->in; break;
	case SR_TP_OUT: case SR_TP_OUT_EXT: case SR_TP_OUT_DIR: s = v->out; break;
	case SR_TP_TILE: s = v->tile; break;
	case SR_TP_REF: s = v->ref; break;
	case SR_TP_THREADS: s = v->threads; break;
	case SR_TP_METRICS: s = v->metrics; break;
	case SR_TP_SCRATCH: s = v->scratch; break;
	case SR_TP_PARAM: s = v->param ? v->param[pc->param] : NULL; break;
	}
	return s ? s : "";
}

char **
sr_template_render(const sr_template *t, const sr_tvalues *v)
{
	size_t i, j, size = (t->nword + 1) * sizeof(char *), len;
	char **argv, *at;

	for (i = 0; i < t->nword; i++) {
		for (j = 0; j < t->word[i].npiece; j++)
			size += strlen(piece_text(&t->word[i].piece[j], v));
		size++;
	}
	argv = sr_malloc(size);
	at = (char *)(argv + t->nword + 1);
	for (i = 0; i < t->nword; i++) {
		argv[i] = at;
		for (j = 0; j < t->word[i].npiece; j++) {
			const char *s = piece_text(&t->word[i].piece[j], v);
			len = strlen(s);
			memcpy(at, s, len);
			at += len;
		}
		*at++ = '\0';
	}
	argv[t->nword] = NULL;
	return argv;
}
