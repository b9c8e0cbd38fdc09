/* makespan.h - a campaign's makespan as measured (the bucket step's
 * records in OUT/logs/finished) and as predicted (sim-runtime's report). */
#ifndef SR_MAKESPAN_H
#define SR_MAKESPAN_H

#include <stddef.h>

/* One attempt at a bucket, a line "I START END EXIT" of logs/finished:
 * the bucket, its start and end in seconds since the epoch, and the exit
 * status of its seg-run (0: the bucket has its results). */
typedef struct {
	long bucket;
	double start, end;
	long status;
} sr_attempt;

/* The buckets' last successful attempts taken together. */
typedef struct {
	size_t buckets;		/* buckets with a successful attempt */
	double first, last;	/* the earliest start, the latest end */
	double makespan;	/* last - first: the measured makespan */
	double busy;		/* the sum of their durations */
	size_t concurrency;	/* the most of them running at once */
} sr_measured;

/* Reads the attempts of path (logs/finished), in file order, into a
 * newly allocated array (*n of them): none, NULL, when path does not
 * exist. A line that is not "I START END EXIT" (a bucket number, two
 * times of at least 0, an exit status: a record cut by a kill) is
 * skipped, with one warning for the file (when warn) naming the first
 * such line: these records time the buckets, they never decide what is
 * done. An end before its start (a clock stepped back) counts as the
 * start. */
sr_attempt *sr_attempts_read(const char *path, size_t *n, int warn);

/* One attempt at a task as it started, a line "I HOST PID TIME" of
 * logs/attempts: the task, the host and process id of its sa-campaign,
 * and the time in seconds since the epoch. */
typedef struct {
	long task;
	char host[256];
	long pid;
	long long time;
} sr_task_start;

/* Reads path (logs/attempts) as sr_attempts_read reads logs/finished:
 * in file order, malformed lines skipped with one warning (when warn). */
sr_task_start *sr_task_starts_read(const char *path, size_t *n, int warn);

/* The span of the last successful attempt of every bucket among a[0..n)
 * (the last in array order, as the file appends them): first start,
 * last end, their difference, the sum of the durations, and the most
 * attempts that overlap (an attempt ending when another starts does not
 * overlap it). All 0 when no attempt succeeded. */
void sr_measured_of(const sr_attempt *a, size_t n, sr_measured *m);

/* The columns of sim-runtime's report read here (sim/report.h writes
 * them; this layer may not include sim's headers). */
#define SR_PREDICTED_MAKESPAN	"makespan"
#define SR_PREDICTED_SLOTS	"slots"
#define SR_PREDICTED_WORK	"work"
#define SR_PREDICTED_PLAN	"plan"
#define SR_PREDICTED_BASELINE	"baseline"	/* the plan of the timings' own buckets */

/* The prediction of sim-runtime's report (sim-runtime(1)): the row of
 * the baseline plan (its plan column), else the first row. */
typedef struct {
	double makespan;	/* seconds */
	double slots;		/* NaN without a slots column */
	double work;		/* NaN without a work column */
} sr_predicted;

/* Reads the report at path: its columns found by name in the header
 * (makespan required; slots, work and plan when there, others ignored);
 * a duration is seconds or h:mm:ss. Dies naming file, line and column
 * on a missing makespan column, no row, or a value that is neither. */
void sr_predicted_read(const char *path, sr_predicted *p);

/* Parses s as seconds ("64.6") or [h:]mm:ss[.frac] ("1:04:05"): 0, or
 * -1 when it is neither or negative. */
int sr_duration_parse(const char *s, double *out);

#endif
