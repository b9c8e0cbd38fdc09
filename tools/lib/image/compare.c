/* compare.c - pixel and object overlap of a segmentation and a reference.
 *
 * Objects are numbered densely in place (sr_objects_number), then one
 * pass over the pixels counts each object's area and the pixels shared by
 * every overlapping pair of objects (a hash table keyed by the pair, fed
 * with runs of equal pairs along the rows); every object-level measure is
 * then computed from those counts alone. */
#include "image/compare.h"
#include "image/opencv.h"
#include "core/err.h"
#include "core/hash.h"

#include <stdlib.h>
#include <string.h>

void
sr_compare_pixels(const uint32_t *mask, const uint32_t *ref, size_t n,
    double *dice, double *jaccard)
{
	size_t inter = 0, a = 0, b = 0, i;

	for (i = 0; i < n; i++) {
		int m = mask && mask[i] > 0, r = ref[i] > 0;
		a += m;
		b += r;
		inter += m & r;
	}
	if (a + b == 0) {
		*dice = *jaccard = 1;
		return;
	}
	*dice = 2.0 * (double)inter / (double)(a + b);
	*jaccard = (double)inter / (double)(a + b - inter);
}

/* ---- numbering the objects --------------------------------------------- */

/* Adds the distinct non-zero values of px to t (runs of one value are
 * looked up once). */
static void
collect_values(const uint32_t *px, size_t n, sr_imap *t)
{
	uint32_t last = 0;
	size_t i;

	for (i = 0; i < n; i++)
		if (px[i] != 0 && px[i] != last) {
			last = px[i];
			*sr_imap_at(t, last, NULL) = 1;
		}
}

/* Replaces every value of px by its rank among the distinct values of t. */
static void
number_values(uint32_t *px, size_t n, sr_imap *t)
{
	uint64_t *v = sr_imap_sorted_keys(t);
	uint32_t last = 0, id = 0;
	size_t i;

	for (i = 0; i < t->count; i++)
		*sr_imap_find(t, v[i]) = i + 1;
	free(v);
	for (i = 0; i < n; i++)
		if (px[i] != 0) {
			if (px[i] != last) {
				last = px[i];
				id = (uint32_t)*sr_imap_find(t, last);
			}
			px[i] = id;
		}
}

/* Replaces px by the 8-connected components of its pixels > 0, numbered
 * in raster order of their first pixel (OpenCV's block-based labelling
 * numbers them otherwise). */
static int
number_components(uint32_t *px, size_t w, size_t h, size_t *n, char *errbuf)
{
	uint8_t *bin = sr_malloc(w * h);
	uint32_t *order, next = 0;
	size_t i;

	for (i = 0; i < w * h; i++)
		bin[i] = px[i] != 0;
	/* int32 and uint32 may alias; the labels are never negative */
	if (sr_opencv_label(bin, (int32_t *)px, w, h, 8, n, errbuf) < 0) {
		free(bin);
		return -1;
	}
	free(bin);
	order = sr_calloc(*n + 1, sizeof *order);
	for (i = 0; i < w * h; i++)
		if (px[i] != 0) {
			if (order[px[i]] == 0)
				order[px[i]] = ++next;
			px[i] = order[px[i]];
		}
	free(order);
	return 0;
}

int
sr_objects_number(uint32_t *px, size_t w, size_t h,
    enum sr_objects_reading how, size_t *n, int *binary, char *errbuf)
{
	sr_imap t;
	int bin = how == SR_OBJECTS_BINARY;

	if (!bin) {
		sr_imap_init(&t);
		collect_values(px, w * h, &t);
		bin = how == SR_OBJECTS_AUTO && t.count <= 1;
		if (!bin) {
			number_values(px, w * h, &t);
			*n = t.count;
		}
		sr_imap_free(&t);
	}
	if (binary)
		*binary = bin;
	return bin ? number_components(px, w, h, n, errbuf) : 0;
}

/* ---- overlaps ------------------------------------------------------------ */

/* The table key of a pair: ref high, so that keys sort by ref, mask. */
static uint64_t
pair_key(uint32_t mask, uint32_t ref)
{
	return (uint64_t)ref << 32 | mask;
}

/* Fills o->pair from the table of pair counts, sorted by ref, mask. */
static void
pairs_from(sr_overlap *o, sr_imap *t)
{
	uint64_t *k = sr_imap_sorted_keys(t);
	size_t i;

	o->npair = t->count;
	o->pair = sr_calloc(t->count ? t->count : 1, sizeof *o->pair);
	for (i = 0; i < t->count; i++) {
		o->pair[i].ref = (uint32_t)(k[i] >> 32);
		o->pair[i].mask = (uint32_t)k[i];
		o->pair[i].count = *sr_imap_find(t, k[i]);
	}
	free(k);
}

sr_overlap *
sr_overlap_count(const uint32_t *mask, size_t nmask, const uint32_t *ref,
    size_t nref, size_t n)
{
	sr_overlap *o = sr_calloc(1, sizeof *o);
	uint32_t pm = 0, pr = 0;
	size_t i, run = 0;
	sr_imap t;

	o->nmask = nmask;
	o->nref = nref;
	o->area_mask = sr_calloc(nmask + 1, sizeof *o->area_mask);
	o->area_ref = sr_calloc(nref + 1, sizeof *o->area_ref);
	sr_imap_init(&t);
	for (i = 0; i < n; i++) {
		uint32_t m = mask[i], r = ref[i];
		o->area_mask[m]++;
		o->area_ref[r]++;
		if (m == 0 || r == 0)
			continue;
		if (m != pm || r != pr) {
			if (run)
				*sr_imap_at(&t, pair_key(pm, pr), NULL) += run;
			pm = m;
			pr = r;
			run = 0;
		}
		run++;
	}
	if (run)
		*sr_imap_at(&t, pair_key(pm, pr), NULL) += run;
	o->area_mask[0] = o->area_ref[0] = 0;
	pairs_from(o, &t);
	sr_imap_free(&t);
	return o;
}

void
sr_overlap_free(sr_overlap *o)
{
	if (o == NULL)
		return;
	free(o->area_mask);
	free(o->area_ref);
	free(o->pair);
	free(o);
}

/* ---- object-level measures ---------------------------------------------- */

/* |A ∪ B| of the pair p. */
static uint64_t
pair_union(const sr_overlap *o, const sr_overlap_pair *p)
{
	return (uint64_t)o->area_mask[p->mask] + o->area_ref[p->ref] - p->count;
}

/* Whether p has a larger IoU than q (exactly, without division). */
static int
iou_above(const sr_overlap *o, const sr_overlap_pair *p,
    const sr_overlap_pair *q)
{
	return (uint64_t)p->count * pair_union(o, q) >
	    (uint64_t)q->count * pair_union(o, p);
}

/* The area-weighted Dice of each object with the object of the other
 * image it overlaps most (ties: the lower number), 0 for none:
 * sum_i |X_i| / sum |X| * Dice(X_i, Y*(X_i)). by_ref: X the reference. */
static double
weighted_best_dice(const sr_overlap *o, int by_ref)
{
	size_t nx = by_ref ? o->nref : o->nmask, i, k, total = 0;
	const size_t *ax = by_ref ? o->area_ref : o->area_mask;
	const size_t *ay = by_ref ? o->area_mask : o->area_ref;
	size_t *best = sr_calloc(nx + 1, sizeof *best);	/* pair + 1 */
	double sum = 0;

	/* the pairs come by ref, then mask: the first of equal counts has
	 * the lower number of the other object */
	for (k = 0; k < o->npair; k++) {
		const sr_overlap_pair *p = &o->pair[k];
		size_t x = by_ref ? p->ref : p->mask;
		if (!best[x] || p->count > o->pair[best[x] - 1].count)
			best[x] = k + 1;
	}
	for (i = 1; i <= nx; i++)
		total += ax[i];
	for (i = 1; i <= nx; i++) {
		const sr_overlap_pair *p;
		if (!best[i])
			continue;
		p = &o->pair[best[i] - 1];
		sum += 2.0 * (double)ax[i] * (double)p->count /
		    (double)(ax[i] + ay[by_ref ? p->mask : p->ref]);
	}
	free(best);
	return sum / (double)total;	/* divided last: exactly 1 for equals */
}

/* Object-level Dice (Sirinukunwattana et al.): the mean of the weighted
 * best Dice of the reference objects and of the mask objects. */
static double
object_dice(const sr_overlap *o)
{
	if (o->nmask == 0 && o->nref == 0)
		return 1;
	if (o->nmask == 0 || o->nref == 0)
		return 0;
	return 0.5 * (weighted_best_dice(o, 1) + weighted_best_dice(o, 0));
}

/* Aggregated Jaccard Index (Kumar et al.): each reference object with
 * the mask object of largest IoU (ties: the lower number); C sums their
 * intersections, U their unions (a reference object alone when nothing
 * overlaps it) and every mask object never chosen. */
static double
aji(const sr_overlap *o)
{
	size_t *best, k, i;
	unsigned char *used;
	uint64_t c = 0, u = 0;

	if (o->nmask == 0 && o->nref == 0)
		return 1;
	best = sr_calloc(o->nref + 1, sizeof *best);	/* pair + 1 */
	used = sr_calloc(o->nmask + 1, 1);
	for (k = 0; k < o->npair; k++) {
		const sr_overlap_pair *p = &o->pair[k];
		size_t *b = &best[p->ref];
		if (!*b || iou_above(o, p, &o->pair[*b - 1]))
			*b = k + 1;
	}
	for (i = 1; i <= o->nref; i++) {
		const sr_overlap_pair *p;
		if (best[i] == 0) {	/* nothing overlaps G_i */
			u += o->area_ref[i];
			continue;
		}
		p = &o->pair[best[i] - 1];
		c += p->count;
		u += pair_union(o, p);
		used[p->mask] = 1;
	}
	for (i = 1; i <= o->nmask; i++)
		if (!used[i])
			u += o->area_mask[i];
	free(best);
	free(used);
	return (double)c / (double)u;
}

/* A candidate match for the greedy matching. */
struct cand {
	uint64_t count, uni;
	uint32_t mask, ref;
};

static int
cmp_cand(const void *a, const void *b)
{
	const struct cand *x = a, *y = b;
	uint64_t l = x->count * y->uni, r = y->count * x->uni;

	if (l != r)
		return l > r ? -1 : 1;	/* larger IoU first */
	if (x->ref != y->ref)
		return x->ref < y->ref ? -1 : 1;
	return (x->mask > y->mask) - (x->mask < y->mask);
}

/* The number of one-to-one matches of pairs with IoU >= iou, greedily
 * by decreasing IoU. */
static size_t
match(const sr_overlap *o, double iou)
{
	struct cand *c = sr_calloc(o->npair, sizeof *c);
	unsigned char *mtaken = sr_calloc(o->nmask + 1, 1);
	unsigned char *rtaken = sr_calloc(o->nref + 1, 1);
	size_t k, n = 0, tp = 0;

	for (k = 0; k < o->npair; k++) {
		const sr_overlap_pair *p = &o->pair[k];
		uint64_t u = pair_union(o, p);
		if ((double)p->count / (double)u >= iou)
			c[n++] = (struct cand){ p->count, u, p->mask, p->ref };
	}
	qsort(c, n, sizeof *c, cmp_cand);
	for (k = 0; k < n; k++)
		if (!mtaken[c[k].mask] && !rtaken[c[k].ref]) {
			mtaken[c[k].mask] = rtaken[c[k].ref] = 1;
			tp++;
		}
	free(c);
	free(mtaken);
	free(rtaken);
	return tp;
}

void
sr_overlap_scores(const sr_overlap *o, double iou, sr_object_scores *s)
{
	s->objects_mask = o->nmask;
	s->objects_ref = o->nref;
	s->object_dice = object_dice(o);
	s->aji = aji(o);
	s->tp = match(o, iou);
	s->fp = o->nmask - s->tp;
	s->fn = o->nref - s->tp;
}

int
sr_compare_images(uint32_t *mask, uint32_t *ref, size_t w, size_t h,
    const char *mask_name, const char *ref_name, enum sr_objects_reading how,
    double iou, sr_comparison *c, char *errbuf)
{
	char why[SR_ERRLEN];
	size_t nm, nr;
	sr_overlap *o;

	sr_compare_pixels(mask, ref, w * h, &c->dice, &c->jaccard);
	if (sr_objects_number(mask, w, h, how, &nm, &c->binary_mask, why) < 0) {
		sr_seterr(errbuf, "%s: %s", mask_name, why);
		return -1;
	}
	if (sr_objects_number(ref, w, h, how, &nr, &c->binary_ref, why) < 0) {
		sr_seterr(errbuf, "%s: %s", ref_name, why);
		return -1;
	}
	o = sr_overlap_count(mask, nm, ref, nr, w * h);
	sr_overlap_scores(o, iou, &c->obj);
	sr_overlap_free(o);
	return 0;
}
