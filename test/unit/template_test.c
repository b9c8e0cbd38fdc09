/* template_test.c - unit tests of tools/lib/plan/template.c, the command
 * templates of workflow(5): words and quotes, empty words, literal
 * braces, every placeholder, the output forms, parameters used; the
 * refusals with the byte where each is (a placeholder naming nothing, in
 * the program, unclosed quotes (double, single) and braces, a lone brace, an empty
 * placeholder, a bad extension, two output forms, an empty command); and
 * rendering: values of any bytes (a shell's $( ), ;, quotes, spaces)
 * each stay inside their one argument.
 * Exits 0 on success; prints "FAIL: ..." and exits 1 otherwise.
 */
#include "plan/template.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"

static char *params[] = { "sigma", "method", "min_size" };

/* The words of t rendered with v, joined by '|'. */
static const char *
joined(const sr_template *t, const sr_tvalues *v)
{
	static char buf[1024];
	char **argv = sr_template_render(t, v);
	size_t i, n = 0;

	buf[0] = '\0';
	for (i = 0; argv[i]; i++)
		n += (size_t)snprintf(buf + n, sizeof buf - n, "%s%s", i ? "|" : "",
		    argv[i]);
	if (i != t->nword)
		fail("render: %zu words, the template has %zu", i, t->nword);
	free(argv);
	return buf;
}

static const sr_tvalues values = {
	"/s/in.png", "/s/out.png", "TCGA-1", "/r/TCGA-1.png", "2",
	"/s/metrics.tsv", "/s/tmp", (const char *const[]){ "1.5", "otsu", "30" }
};

/* Expects field to parse and render as want. */
static void
good(const char *field, const char *want, int out, const char *ext)
{
	sr_template t;
	char err[256];
	size_t col;
	const char *got;

	if (sr_template_parse(field, params, 3, &t, &col, err, sizeof err) != 0) {
		fail("'%s': refused at byte %zu: %s", field, col, err);
		return;
	}
	if (strcmp((got = joined(&t, &values)), want) != 0)
		fail("'%s': rendered '%s', want '%s'", field, got, want);
	if (t.out != out)
		fail("'%s': output form %d, want %d", field, t.out, out);
	if ((ext == NULL) != (t.out_ext == NULL) ||
	    (ext && strcmp(ext, t.out_ext) != 0))
		fail("'%s': extension %s, want %s", field,
		    t.out_ext ? t.out_ext : "none", ext ? ext : "none");
	sr_template_free(&t);
}

/* Expects field to be refused at byte want_col with want in the message. */
static void
bad(const char *field, size_t want_col, const char *want)
{
	sr_template t;
	char err[256] = "";
	size_t col;

	if (sr_template_parse(field, params, 3, &t, &col, err, sizeof err) == 0) {
		fail("'%s': accepted", field);
		sr_template_free(&t);
		return;
	}
	if (col != want_col)
		fail("'%s': refused at byte %zu, want %zu (%s)", field, col,
		    want_col, err);
	if (strstr(err, want) == NULL)
		fail("'%s': message '%s' lacks '%s'", field, err, want);
	if (t.word || t.nword || t.out_ext || t.param_used)
		fail("'%s': a refused template left memory set", field);
}

static void
test_words(void)
{
	good("blur -s {sigma} {in} {out}", "blur|-s|1.5|/s/in.png|/s/out.png",
	    SR_TP_OUT, "png");
	good("  blur   {in}  {out.tif}  ", "blur|/s/in.png|/s/out.png",
	    SR_TP_OUT_EXT, "tif");
	good("sh -c \"a {{x}} | b > c\" sh {in} {out/}",
	    "sh|-c|a {x} | b > c|sh|/s/in.png|/s/out.png", SR_TP_OUT_DIR, NULL);
	good("prog \"\" x", "prog||x", 0, NULL);
	good("sh -c 'a \"$1\" | b > \"$2\"' sh {in} {out}",
	    "sh|-c|a \"$1\" | b > \"$2\"|sh|/s/in.png|/s/out.png", SR_TP_OUT, "png");
	good("x \"it's\" '' 'a{{b}}'\"c d\"", "x|it's||a{b}c d", 0, NULL);
	good("prog --in={in} \"--t={tile} {ref}\"",
	    "prog|--in=/s/in.png|--t=TCGA-1 /r/TCGA-1.png", 0, NULL);
	good("p{{q}} {threads} {metrics} {scratch} {method}-{min_size}",
	    "p{q}|2|/s/metrics.tsv|/s/tmp|otsu-30", 0, NULL);
	good("a\"b c\"d {out} {out}", "ab cd|/s/out.png|/s/out.png", SR_TP_OUT,
	    "png");
	good("py {out.npy}", "py|/s/out.png", SR_TP_OUT_EXT, "npy");
	good("/usr/bin/env python3 x.py", "/usr/bin/env|python3|x.py", 0, NULL);
}

static void
test_uses(void)
{
	sr_template t;
	char err[256];
	size_t col;

	if (sr_template_parse("x {in} {method} {out}", params, 3, &t, &col, err,
	    sizeof err) != 0) {
		fail("uses: refused: %s", err);
		return;
	}
	if (t.uses != (1u << SR_TP_IN | 1u << SR_TP_PARAM | 1u << SR_TP_OUT))
		fail("uses: bits %#x", t.uses);
	if (t.param_used[0] || !t.param_used[1] || t.param_used[2])
		fail("uses: parameters %d %d %d", t.param_used[0], t.param_used[1],
		    t.param_used[2]);
	sr_template_free(&t);
}

static void
test_refusals(void)
{
	bad("blur {sigma2} {in}", 6, "{sigma2}: not a placeholder nor a parameter of the task (its params: sigma, method, min_size)");
	bad("{in} x", 1, "the program (the first word) cannot hold a placeholder");
	bad("pre{in} x", 4, "the program");
	bad("blur \"abc {in}", 6, "a quote without its closing quote");
	bad("blur 'abc\" {in}", 6, "a quote without its closing quote");
	bad("blur }", 6, "a lone '}'");
	bad("blur x}y", 7, "a lone '}'");
	bad("blur {in", 6, "'{' without its '}'");
	bad("blur {}", 6, "an empty placeholder");
	bad("blur {out.}", 6, "{out.}: an extension is letters and digits");
	bad("blur {out.t-f}", 6, "an extension");
	bad("blur {out} {out.tif}", 12, "a second output form");
	bad("blur {out/} {out}", 13, "a second output form");
	bad("blur {out.tif} {out.tiff}", 16, "a second output form");
	bad("", 1, "an empty command");
	bad("    ", 1, "an empty command");
	bad("x {IN}", 3, "{IN}: not a placeholder");
	bad("x {in }", 3, "{in }: not a placeholder");
}

/* No parameters: the message says so. */
static void
test_no_params(void)
{
	sr_template t;
	char err[256];
	size_t col;

	if (sr_template_parse("x {sigma}", NULL, 0, &t, &col, err, sizeof err) == 0)
		fail("no params: accepted {sigma}");
	else if (strstr(err, "(it has none)") == NULL)
		fail("no params: message '%s'", err);
}

/* Values are never parsed: a shell's syntax stays inside one word. */
static void
test_hostile_values(void)
{
	static const char *const hostile[] = { "$(touch PWNED)", ";rm -rf x",
	    "a b", "\"q\"", "{in}", "`id`", "" };
	sr_tvalues v = values;
	sr_template t;
	char err[256], **argv;
	size_t col, i;

	if (sr_template_parse("cmd {method} x{method}y", params, 3, &t, &col, err,
	    sizeof err) != 0) {
		fail("hostile: refused: %s", err);
		return;
	}
	for (i = 0; i < sizeof hostile / sizeof hostile[0]; i++) {
		char want[64];
		v.param = (const char *const[]){ "1", hostile[i], "2" };
		argv = sr_template_render(&t, &v);
		snprintf(want, sizeof want, "x%sy", hostile[i]);
		if (!argv[0] || !argv[1] || !argv[2] || argv[3] ||
		    strcmp(argv[1], hostile[i]) != 0 || strcmp(argv[2], want) != 0)
			fail("hostile '%s': not one word each", hostile[i]);
		free(argv);
	}
	sr_template_free(&t);
}

int
main(void)
{
	test_words();
	test_uses();
	test_refusals();
	test_no_params();
	test_hostile_values();
	return failures ? 1 : 0;
}
