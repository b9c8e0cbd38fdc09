/* compare.h - a segmentation against a reference mask (seg-run, and
 * compare-dice): foreground is every pixel > 0 of either image; objects
 * are the connected components of a binary mask or the distinct values
 * of a label image. */
#ifndef SR_COMPARE_H
#define SR_COMPARE_H

#include <stddef.h>
#include <stdint.h>

/* Pixel Dice 2|A∩B|/(|A|+|B|) and Jaccard |A∩B|/|A∪B| of the foregrounds
 * of mask (NULL: empty) and ref, n pixels each; both 1 when both are
 * empty. */
void sr_compare_pixels(const uint32_t *mask, const uint32_t *ref, size_t n,
    double *dice, double *jaccard);

/* How an image's pixels become objects. */
enum sr_objects_reading {
	SR_OBJECTS_AUTO,	/* binary if its values > 0 are all equal */
	SR_OBJECTS_BINARY,	/* the 8-connected components of pixels > 0 */
	SR_OBJECTS_LABELS	/* each distinct non-zero value one object */
};

/* Numbers the objects of the w x h image px in place: px becomes 0 on
 * the background and 1..*n on the objects. Binary reading: components
 * in raster order of their first pixel; label reading: the distinct
 * values in increasing order (an object need not be connected). *binary
 * (if not NULL) tells which reading was used. Returns 0, or -1 with a
 * message in errbuf (SR_ERRLEN bytes) when the labelling fails (out of
 * memory in OpenCV, an image too large for it). */
int sr_objects_number(uint32_t *px, size_t w, size_t h,
    enum sr_objects_reading how, size_t *n, int *binary, char *errbuf);

/* Pixels shared by an object of the mask and one of the reference. */
typedef struct {
	uint32_t mask, ref;	/* object numbers, from 1 */
	size_t count;
} sr_overlap_pair;

/* The overlaps of two numbered images (sr_objects_number). */
typedef struct {
	size_t nmask, nref;		/* objects */
	size_t *area_mask, *area_ref;	/* [1..n]: each object's pixels */
	sr_overlap_pair *pair;		/* overlapping pairs, by ref, mask */
	size_t npair;
} sr_overlap;

/* Counts, in one pass over the n pixels of mask and ref (numbered 0 and
 * 1..nmask, 0 and 1..nref), each object's area and the pixels of every
 * pair of objects that overlap. Free with sr_overlap_free. */
sr_overlap *sr_overlap_count(const uint32_t *mask, size_t nmask,
    const uint32_t *ref, size_t nref, size_t n);
void sr_overlap_free(sr_overlap *o);

/* The object-level measures of a mask against a reference. */
typedef struct {
	double object_dice;	/* Sirinukunwattana et al. (GlaS 2017) */
	double aji;		/* Aggregated Jaccard Index (Kumar et al.) */
	size_t objects_mask, objects_ref;
	size_t tp, fp, fn;	/* matches, unmatched mask and ref objects */
} sr_object_scores;

/* The object-level measures of o; pairs of IoU >= iou (in (0, 1]) are
 * matched one to one, greedily by decreasing IoU (ties: the lower
 * reference, then mask object). object_dice and aji are 1 when both
 * images have no object, 0 when one has none. */
void sr_overlap_scores(const sr_overlap *o, double iou, sr_object_scores *s);

/* Every measure of compare-dice for one pair of images. */
typedef struct {
	double dice, jaccard;	/* pixels (sr_compare_pixels) */
	sr_object_scores obj;
	int binary_mask, binary_ref;	/* the reading each image got */
} sr_comparison;

/* Compares mask with ref, w x h each: pixel Dice and Jaccard, then the
 * objects of each image read as how says, and their scores at iou. Both
 * images are overwritten with their object numbers. Returns 0, or -1
 * with a message naming the image (mask_name, ref_name) in errbuf. */
int sr_compare_images(uint32_t *mask, uint32_t *ref, size_t w, size_t h,
    const char *mask_name, const char *ref_name, enum sr_objects_reading how,
    double iou, sr_comparison *c, char *errbuf);

#endif
