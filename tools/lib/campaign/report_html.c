/* report_html.c - numbers, dates, cells and files of sa-report's page;
 * see report_html.h. */
#include "campaign/report_html.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "campaign/html.h"
#include "core/err.h"

const char *
sr_report_num(char *buf, double v, int sig)
{
	if (!isfinite(v))
		snprintf(buf, SR_REPORT_NUMLEN, "NaN");
	else
		snprintf(buf, SR_REPORT_NUMLEN, "%.*g", sig, v == 0 ? 0 : v);
	return buf;
}

const char *
sr_report_duration(char *buf, double s)
{
	long r;

	if (!isfinite(s))
		return sr_report_num(buf, s, 4);
	if (s < 60) {
		snprintf(buf, SR_REPORT_NUMLEN, "%.4g s", s);
		return buf;
	}
	r = lround(s);
	snprintf(buf, SR_REPORT_NUMLEN, "%ld:%02ld:%02ld (%.0f s)", r / 3600,
	    r / 60 % 60, r % 60, s);
	return buf;
}

const char *
sr_report_date(char *buf, double epoch)
{
	time_t t = (time_t)epoch;
	struct tm tm;

	if (!isfinite(epoch) || localtime_r(&t, &tm) == NULL ||
	    strftime(buf, SR_REPORT_NUMLEN, "%Y-%m-%d %H:%M:%S %Z", &tm) == 0)
		snprintf(buf, SR_REPORT_NUMLEN, "?");
	return buf;
}

char *
sr_report_path(const char *outdir, const char *name)
{
	size_t n = strlen(outdir);
	char *p = sr_malloc(n + strlen(name) + 2);

	sprintf(p, "%s%s%s", outdir, n && outdir[n - 1] == '/' ? "" : "/",
	    name);
	return p;
}

int
sr_report_has(const char *outdir, const char *name)
{
	char *p = sr_report_path(outdir, name);
	struct stat sb;
	int has = stat(p, &sb) == 0 && S_ISREG(sb.st_mode) && sb.st_size > 0;

	free(p);
	return has;
}

double
sr_report_mtime(const char *outdir, const char *name)
{
	char *p = sr_report_path(outdir, name);
	struct stat sb;
	double t = stat(p, &sb) == 0 ? (double)sb.st_mtime : -1;

	free(p);
	return t;
}

void
sr_report_cell(FILE *fp, const char *tag, const char *cls, const char *text)
{
	fprintf(fp, "<%s%s%s%s>", tag, cls ? " class=\"" : "", cls ? cls : "",
	    cls ? "\"" : "");
	sr_html_text(fp, text);
	fprintf(fp, "</%s>", tag);
}

void
sr_report_kv(FILE *fp, const char *key, const char *value)
{
	fputs("<tr>", fp);
	sr_report_cell(fp, "th", NULL, key);
	sr_report_cell(fp, "td", NULL, value);
	fputs("</tr>\n", fp);
}

void
sr_report_bar(FILE *fp, double f)
{
	if (!isfinite(f) || f < 0)
		f = 0;
	fprintf(fp, "<td class=\"b\"><span class=\"bar\" style=\"width:"
	    "%.0fpx\"></span></td>", SR_REPORT_BAR * (f > 1 ? 1 : f));
}
