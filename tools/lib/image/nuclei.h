/* nuclei.h - the nuclei-segmentation workflow of nscale's segmentNuclei,
 * split into its 7 tasks (Seg0..Seg6), and the Reinhard colour
 * normalization that precedes it.
 *
 * A run is the chain normalize, Seg0, ..., Seg6 on one tile. Task t reads
 * the normalized tile and the outputs of tasks 0..t-1 of its own path
 * (never anything else), so a merged bucket can run a shared prefix once
 * and every branch below it from the same outputs: results cannot depend
 * on the bucket.
 *
 * Pure library code apart from allocation failures (which die through
 * sr_malloc): errors from OpenCV come back as -1 with errbuf set.
 */
#ifndef SR_NUCLEI_H
#define SR_NUCLEI_H

#include <stddef.h>
#include <stdint.h>

#include "image/image.h"

/* The 15 parameters, in this order (see seg-run(1) for their meaning). */
enum {
	SR_NP_B, SR_NP_G, SR_NP_R, SR_NP_T1, SR_NP_T2, SR_NP_G1, SR_NP_G2,
	SR_NP_MINSIZE, SR_NP_MAXSIZE, SR_NP_MINSIZEPL, SR_NP_MINSIZESEG,
	SR_NP_MAXSIZESEG, SR_NP_FILLHOLES, SR_NP_MORPHRECON, SR_NP_WATERSHED,
	SR_NUC_NPARAM
};
extern const char *const sr_nuc_param_name[SR_NUC_NPARAM];

#define SR_NUC_NTASK 7
extern const char *const sr_nuc_task_name[SR_NUC_NTASK];
/* The parameters task t reads: sr_nuc_task_param[t][0..n), -1 ended. */
extern const int sr_nuc_task_param[SR_NUC_NTASK][6];

/* Why value v is not a valid value of parameter p, or NULL if it is. */
const char *sr_nuc_param_check(int p, double v);

enum sr_nuc_status {
	SR_NUC_CONTINUE = -1,	/* the next task runs */
	SR_NUC_OK = 0,		/* a mask was made */
	SR_NUC_BACKGROUND,	/* >= 99 % background: skipped */
	SR_NUC_BACKGROUND_LIKELY, /* >= 90 % background: skipped */
	SR_NUC_NO_CANDIDATES	/* no object left */
};
/* Their names are the run statuses of the metrics format (sa/metrics.h),
 * the same values in the same order (checked where seg-run writes them). */

/* What one task made: only the buffers of that task are set. */
typedef struct {
	int status;		/* enum sr_nuc_status */
	uint64_t *rbc;		/* Seg0: red blood cells (bits, nuclei.c) */
	uint8_t *recon;		/* Seg1: reconstruction of the opened 255-R */
	uint8_t *diff;		/* Seg2: 255-R minus recon */
	uint64_t *bw1;		/* Seg2: diff's filled threshold (bits) */
	uint8_t *cand;		/* Seg3: candidate objects by size */
	uint64_t *open;		/* Seg4: candidates grown, RBC removed, opened
				 * (bits) */
	uint64_t *sep;		/* Seg5: separated by the watershed (bits) */
	uint32_t *labels;	/* Seg6: the final label image */
	size_t objects;		/* Seg3, Seg6: objects kept */
	size_t bytes;		/* bytes held by the buffers above */
} sr_nuc_out;

void sr_nuc_out_free(sr_nuc_out *o);

/* The deepest task that reads task t's buffers (through up[t]); Seg6's
 * labels are the result, read by no task (SR_NUC_NTASK). Once every task
 * of that depth below a node has run, the node's buffers can go. */
extern const int sr_nuc_last_reader[SR_NUC_NTASK];

/* Frees o's buffers, keeping its status and objects. */
void sr_nuc_out_drop(sr_nuc_out *o);

/* The deepest task that reads the buffers of task t that can go before
 * the others (sr_nuc_out_drop_early), -1 where there are none: Seg2's
 * bw1, read by Seg3 only, while its diff waits for Seg4. */
extern const int sr_nuc_early_reader[SR_NUC_NTASK];

/* Frees those buffers of o. */
void sr_nuc_out_drop_early(sr_nuc_out *o);

/* Runs task t (0..6) on the normalized tile with param (all 15 values),
 * up[k] the outputs of task k < t of the same path; fills *out. Bit k of
 * own set says that no other task will read up[k]'s buffers: the task
 * may free them once it has read them (their pointers then NULL; status
 * and objects stay), so that they do not add to its own peak. Returns 0,
 * or -1 with errbuf set. */
int sr_nuc_task(int t, const sr_rgb *tile, sr_nuc_out *const *up,
    unsigned own, const double *param, sr_nuc_out *out, char *errbuf);

/* ---- colour normalization ---------------------------------------------- */

/* nscale's target: lαβ mean and standard deviation of its template. */
extern const double sr_norm_target_mean[3], sr_norm_target_std[3];

/* Tiles with a smaller fraction of foreground are left as they are. */
#define SR_NORM_MIN_FOREGROUND 0.005

/* Mean and standard deviation of lαβ over the foreground pixels of img
 * (Fisher discriminant) whose lαβ is finite; *fg the foreground
 * fraction. Returns 0, or -1 if there is no such pixel. */
int sr_norm_stats(const sr_rgb *img, double mean[3], double sd[3], double *fg);

/* Reinhard's transfer of the foreground of img to mean and sd, in place;
 * background pixels keep their values. Returns 1 if normalized, 0 if left
 * as it is (foreground below SR_NORM_MIN_FOREGROUND, or no spread). */
int sr_normalize(sr_rgb *img, const double mean[3], const double sd[3],
    double *fg);
/* The same with the source moments given (smean, ssd: a slide's, so that
 * every tile of it is mapped alike, sr_tiling_moments) instead of the
 * tile's own; NULL: the tile's own. */
int sr_normalize_from(sr_rgb *img, const double *smean, const double *ssd,
    const double mean[3], const double sd[3], double *fg);

#endif
