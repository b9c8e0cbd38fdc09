/* compare_table_test.c - tests of image/compare_table: the operand pair,
 * a pair that cannot be read, and the table's header and rows.
 *
 * Exit 0 when every check passes; otherwise print "FAIL: ..." lines and
 * exit 1.
 */
#include "core/err.h"
#include "image/compare_table.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures;

/* Records a failure unless cond holds. */
static void
check(const char *what, int cond)
{
	if (!cond) {
		printf("FAIL: %s\n", what);
		failures++;
	}
}

int
main(void)
{
	char err[SR_PAIR_ERRLEN], *text = NULL;
	sr_comparison c;
	sr_pairs *ps;
	size_t len = 0;
	FILE *fp;

	sr_init("compare_table_test");
	check("a tab in a path is refused", sr_pairs_operands("a\tb.png",
	    "r.png", err, sizeof err) == NULL && strcmp(err, "'a\tb.png': a "
	    "path with a tab or a line break cannot be written to the output")
	    == 0);
	check("a line break too", sr_pairs_operands("m.png", "r\n.png", err,
	    sizeof err) == NULL);
	ps = sr_pairs_operands("no/such/m.png", "r.png", err, sizeof err);
	if (ps == NULL) {
		check(err, 0);
		return 1;
	}
	check("one pair, no other columns", ps->n == 1 && ps->list == NULL &&
	    strcmp(ps->pair[0].other, "") == 0 && ps->pair[0].line == 0);
	check("an unreadable mask fails, without a line prefix",
	    sr_pair_compare(ps, 0, SR_OBJECTS_AUTO, 0.5, 0, &c, err,
	    sizeof err) < 0 && strncmp(err, "no/such/m.png", 13) == 0);
	memset(&c, 0, sizeof c);
	c.dice = 0.5;
	c.jaccard = 1.0 / 3;
	c.obj = (sr_object_scores){ 0.75, 0.25, 3, 4, 2, 1, 2 };
	fp = open_memstream(&text, &len);
	sr_compare_table_head(fp, ps);
	sr_compare_table_row(fp, &ps->pair[0], &c);
	fclose(fp);
	check("header and row", strcmp(text, "mask\tref\tdice\tjaccard\t"
	    "object_dice\taji\tobjects_mask\tobjects_ref\ttp\tfp\tfn\n"
	    "no/such/m.png\tr.png\t0.5\t0.3333333333333333\t0.75\t0.25\t3\t4\t2"
	    "\t1\t2\n") == 0);
	if (failures)
		printf("%s", text);
	free(text);
	sr_pairs_free(ps);
	if (failures)
		printf("%d failures\n", failures);
	return failures != 0;
}
