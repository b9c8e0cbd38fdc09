/* morph.c - grey-scale reconstruction (Vincent's fast hybrid algorithm),
 * regional minima and h-minima (see morph.h; hole filling and bwselect
 * moved to runs.c; erosion and dilation by rows are in morph_rows.c).
 *
 * Every function works on copies of its images inside a frame, so that
 * no hot loop tests bounds: row y, column x of the image is framed pixel
 * (y + 1) * W + x + 1, where the stride W leaves one column on the left
 * and at least one on the right, and rounds the row up to whole chunks
 * of CHUNK pixels for the SIMD scans. In a reconstruction the frame holds
 * the type's minimum in marker and mask alike: it feeds nothing, never
 * changes and is never queued.
 *
 * The raster and anti-raster scans carry a value along each row, which
 * serialises them; with SSE2 they take 16 uint8_t or 4 float pixels at a
 * time instead: a pixel's update, m = min(max(t, left), mask) with t its
 * value from the other neighbours, is the clamp of left to [t, mask],
 * clamps compose into clamps, and a prefix scan of log2(lanes) steps
 * composes them across the vector. The SSE2 code (also the regional
 * minima's first pass) and the portable code compute the same images
 * (floats equal, though the sign of a zero may differ); build with
 * -DSR_MORPH_NO_SIMD to use the portable code on x86 too. Reconstruction
 * is written once for uint8_t and float through two macros.
 *
 * The queue phase is Vincent's FIFO; the anti-raster scan queues pixels
 * and the queue phase relaxes neighbours without branches (an index is
 * always stored, the queue's length advances only when it should).
 *
 * Reference: L. Vincent, Morphological grayscale reconstruction in image
 * analysis: applications and efficient algorithms, IEEE Trans. Image
 * Processing 2(2), 1993 (the fast hybrid algorithm, section V.D).
 */
#include "image/morph.h"
#include "core/err.h"
#include "image/bits.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#if defined(__SSE2__) && !defined(SR_MORPH_NO_SIMD)
#define SR_MORPH_SIMD 1
#include <emmintrin.h>
#endif

#define MAX(a, b)	((a) > (b) ? (a) : (b))
#define MIN(a, b)	((a) < (b) ? (a) : (b))
#define CHUNK		16	/* pixels per SIMD step; rows round up to it */

/* The stride of a framed image w pixels wide. */
static size_t
stride(size_t w)
{
	return (w + CHUNK - 1) / CHUNK * CHUNK + 2;
}

/* Framed indices are uint32_t: refuses images whose frame does not fit. */
static void
check_size(size_t w, size_t h)
{
	if (w > UINT32_MAX - 2 * CHUNK || h > UINT32_MAX - 2 ||
	    h + 2 > UINT32_MAX / stride(w))
		sr_die(SR_EXIT_DATA, "morphology: image of %zu x %zu pixels "
		    "is too large", w, h);
}

/* A FIFO of framed pixel indices: a ring buffer whose capacity, a power
 * of two, doubles when it is full. */
typedef struct {
	uint32_t *v;
	size_t cap, head, n;
} fifo;

/* Starts small: growing by doubling costs little. */
static void
fifo_init(fifo *q)
{
	q->cap = 256;
	q->v = sr_reallocarray(NULL, q->cap, sizeof *q->v);
	q->head = q->n = 0;
}

/* Doubles the ring: its part [0, head), which may hold the wrapped tail,
 * moves behind the old end, so the queue stays in order from head. */
static void
fifo_grow(fifo *q)
{
	q->v = sr_reallocarray(q->v, q->cap, 2 * sizeof *q->v);
	memcpy(q->v + q->cap, q->v, q->head * sizeof *q->v);
	q->cap *= 2;
}

/* Makes room for k more entries. */
static void
fifo_reserve(fifo *q, size_t k)
{
	while (q->cap - q->n < k)
		fifo_grow(q);
}

static inline void
fifo_push(fifo *q, size_t p)
{
	if (q->n == q->cap)
		fifo_grow(q);
	q->v[(q->head + q->n++) & (q->cap - 1)] = (uint32_t)p;
}

static inline size_t
fifo_pop(fifo *q)
{
	size_t p = q->v[q->head];

	q->head = (q->head + 1) & (q->cap - 1);
	q->n--;
	return p;
}

/* Defines, for pixel type T (suffix sfx): frame_sfx, which allocates a
 * framed image, and the portable rows of the two scans and the queue
 * phase of reconstruction by dilation (the rows unused where SIMD rows
 * replace them). A row function gets m and mk at the row's first pixel,
 * whose framed index is p. */
#define RECON_ROWS_DEFINE(sfx, T)					\
/* A framed image, frame set to v, inside left unset. */		\
static T *								\
frame_##sfx(size_t w, size_t h, T v)					\
{									\
	size_t W = stride(w), x, y;					\
	T *a = sr_reallocarray(NULL, h + 2, W * sizeof *a);		\
									\
	for (x = 0; x < W; x++)						\
		a[x] = a[(h + 1) * W + x] = v;				\
	for (y = 1; y <= h; y++) {					\
		a[y * W] = v;						\
		for (x = w + 1; x < W; x++)				\
			a[y * W + x] = v;				\
	}								\
	return a;							\
}									\
									\
/* Raster row: each pixel takes the largest of itself and its causal	\
 * half-neighbourhood (left, and the row above), clipped by mask; the	\
 * left neighbour is carried in prev, the one dependency. */		\
static void __attribute__((unused))					\
raster_row_portable_##sfx(T *m, const T *mk, size_t w, size_t W,	\
    int conn)								\
{									\
	ptrdiff_t x, up = -(ptrdiff_t)W;				\
	T v, prev = m[-1];						\
									\
	for (x = 0; x < (ptrdiff_t)w; x++) {				\
		v = MAX(m[x], m[x + up]);				\
		if (conn == 8) {					\
			v = MAX(v, m[x + up - 1]);			\
			v = MAX(v, m[x + up + 1]);			\
		}							\
		v = MAX(v, prev);					\
		prev = m[x] = MIN(v, mk[x]);				\
	}								\
}									\
									\
/* Whether pixel q, final in this scan, is below v and could still	\
 * rise: then v could propagate into it (no branches). */		\
static inline size_t							\
can_rise_##sfx(const T *m, const T *mk, ptrdiff_t q, T v)		\
{									\
	return (size_t)((m[q] < v) & (m[q] < mk[q]));			\
}									\
									\
/* Anti-raster row: the same with the anti-causal half (right, row	\
 * below), from right to left; appends to slot[n...] each pixel that	\
 * could still raise one of those neighbours and returns the new n.	\
 * slot needs room for w more: an index is always stored, and n only	\
 * advances when it should. */						\
static size_t __attribute__((unused))					\
antiraster_row_portable_##sfx(T *m, const T *mk, size_t w, size_t W,	\
    int conn, size_t p, uint32_t *slot, size_t n)			\
{									\
	ptrdiff_t x, dn = (ptrdiff_t)W;					\
	size_t rise;							\
	T v, right = m[w];						\
									\
	for (x = (ptrdiff_t)w - 1; x >= 0; x--) {			\
		v = MAX(m[x], m[x + dn]);				\
		if (conn == 8) {					\
			v = MAX(v, m[x + dn - 1]);			\
			v = MAX(v, m[x + dn + 1]);			\
		}							\
		v = MAX(v, right);					\
		m[x] = v = MIN(v, mk[x]);				\
		rise = (size_t)((right < v) & (right < mk[x + 1])) |	\
		    can_rise_##sfx(m, mk, x + dn, v);			\
		if (conn == 8)						\
			rise |= can_rise_##sfx(m, mk, x + dn - 1, v) |	\
			    can_rise_##sfx(m, mk, x + dn + 1, v);	\
		slot[n] = (uint32_t)(p + (size_t)x);			\
		n += rise;						\
		right = v;						\
	}								\
	return n;							\
}									\
									\
/* Raises framed pixel r towards v if it can; stores r in *slot and	\
 * returns 1 if it rose (then it must be queued), 0 if not, without	\
 * branching: m[r] < v && m[r] < mk[r] is m[r] < min(v, mk[r]). */	\
static inline size_t							\
relax_##sfx(T *m, const T *mk, size_t r, T v, uint32_t *slot)		\
{									\
	T to = MIN(v, mk[r]), old = m[r];				\
									\
	m[r] = MAX(old, to);						\
	*slot = (uint32_t)r;						\
	return (size_t)(old < to);					\
}									\
									\
/* Queue phase: propagates from the queued pixels until stable. The	\
 * ring is kept in locals (a store to a uint8_t image could alias it)	\
 * with room for a pixel's 8 neighbours before each pop. */		\
static void								\
propagate_##sfx(T *m, const T *mk, size_t W, int conn, fifo *q)	\
{									\
	uint32_t *v = q->v;						\
	size_t head = q->head, n = q->n, wrap = q->cap - 1, p;		\
	T val;								\
									\
	while (n > 0) {							\
		if (wrap + 1 - n < 8) {					\
			q->head = head;					\
			q->n = n;					\
			fifo_grow(q);					\
			v = q->v;					\
			wrap = q->cap - 1;				\
		}							\
		p = v[head];						\
		head = (head + 1) & wrap;				\
		n--;							\
		val = m[p];						\
		n += relax_##sfx(m, mk, p - W, val, &v[(head + n) & wrap]); \
		n += relax_##sfx(m, mk, p - 1, val, &v[(head + n) & wrap]); \
		n += relax_##sfx(m, mk, p + 1, val, &v[(head + n) & wrap]); \
		n += relax_##sfx(m, mk, p + W, val, &v[(head + n) & wrap]); \
		if (conn == 4)						\
			continue;					\
		n += relax_##sfx(m, mk, p - W - 1, val,			\
		    &v[(head + n) & wrap]);				\
		n += relax_##sfx(m, mk, p - W + 1, val,			\
		    &v[(head + n) & wrap]);				\
		n += relax_##sfx(m, mk, p + W - 1, val,			\
		    &v[(head + n) & wrap]);				\
		n += relax_##sfx(m, mk, p + W + 1, val,			\
		    &v[(head + n) & wrap]);				\
	}								\
	q->head = q->n = 0;						\
}

/* Defines recon_framed_sfx: reconstruction by dilation of framed m
 * under framed mk, in place (frames equal, the type's minimum), with the
 * row functions raster_row_sfx and antiraster_row_sfx.
 *
 * The queue phase pops pixels in an order that wanders over the image (a
 * cache miss or more a pop), the scans stream it with SIMD: when the
 * anti-raster scan queues more than 1/QUEUE_SCAN_FRACTION of the pixels,
 * another pair of scans is cheaper than the queue phase would be (on
 * Seg1's reconstruction of a 4096 x 4096 tile: 700,000 queued, 6.4
 * million pops after one pair of scans; 34,000 queued, 0.5 million pops
 * after three), so the queue is dropped and the scans repeat, at most
 * MAX_SCAN_PAIRS times. Any image between the marker and its
 * reconstruction has the same reconstruction, so the hybrid algorithm
 * run from the last pair of scans gives the same image. */
#define QUEUE_SCAN_FRACTION	256
#define MAX_SCAN_PAIRS		4
#define RECON_DEFINE(sfx, T)						\
static void								\
recon_framed_##sfx(T *m, const T *mk, size_t w, size_t h, int conn)	\
{									\
	size_t W = stride(w), y, p;					\
	int pairs = 0;							\
	fifo q;								\
									\
	conn = conn == 4 ? 4 : 8;					\
	fifo_init(&q);		/* nothing is popped before the queue	\
				 * phase: the ring starts at 0 */	\
	do {								\
		q.n = 0;						\
		for (y = 1; y <= h; y++)				\
			raster_row_##sfx(m + y * W + 1, mk + y * W + 1,	\
			    w, W, conn);				\
		for (y = h; y >= 1; y--) {				\
			p = y * W + 1;					\
			fifo_reserve(&q, W);				\
			q.n = antiraster_row_##sfx(m + p, mk + p, w, W,	\
			    conn, p, q.v, q.n);				\
		}							\
	} while (++pairs < MAX_SCAN_PAIRS &&				\
	    q.n > w * h / QUEUE_SCAN_FRACTION);				\
	propagate_##sfx(m, mk, W, conn, &q);				\
	free(q.v);							\
}

RECON_ROWS_DEFINE(u8, uint8_t)
RECON_ROWS_DEFINE(f32, float)

#ifdef SR_MORPH_SIMD
#define LOADU(p)	_mm_loadu_si128((const __m128i *)(const void *)(p))
#define STOREU(p, v)	_mm_storeu_si128((__m128i *)(void *)(p), (v))

/* Composes each lane's clamp [*a, *b] after the clamp [as, bs] of the
 * lane s before it in scan order: lanes 0..k of a forward scan, k..15 of
 * a backward one, end up composed. */
static inline void
compose_u8(__m128i *a, __m128i *b, __m128i as, __m128i bs)
{
	__m128i na = _mm_min_epu8(_mm_max_epu8(as, *a), *b);

	*b = _mm_min_epu8(_mm_max_epu8(bs, *a), *b);
	*a = na;
}

/* Forward prefix scan (left to right); lanes shifted in get the
 * identity clamp [0, 255]. */
static inline void
scan_forward_u8(__m128i *a, __m128i *b)
{
	const __m128i ff = _mm_set1_epi8(-1);

	compose_u8(a, b, _mm_slli_si128(*a, 1),
	    _mm_or_si128(_mm_slli_si128(*b, 1), _mm_srli_si128(ff, 15)));
	compose_u8(a, b, _mm_slli_si128(*a, 2),
	    _mm_or_si128(_mm_slli_si128(*b, 2), _mm_srli_si128(ff, 14)));
	compose_u8(a, b, _mm_slli_si128(*a, 4),
	    _mm_or_si128(_mm_slli_si128(*b, 4), _mm_srli_si128(ff, 12)));
	compose_u8(a, b, _mm_slli_si128(*a, 8),
	    _mm_or_si128(_mm_slli_si128(*b, 8), _mm_srli_si128(ff, 8)));
}

/* Backward prefix scan (right to left). */
static inline void
scan_backward_u8(__m128i *a, __m128i *b)
{
	const __m128i ff = _mm_set1_epi8(-1);

	compose_u8(a, b, _mm_srli_si128(*a, 1),
	    _mm_or_si128(_mm_srli_si128(*b, 1), _mm_slli_si128(ff, 15)));
	compose_u8(a, b, _mm_srli_si128(*a, 2),
	    _mm_or_si128(_mm_srli_si128(*b, 2), _mm_slli_si128(ff, 14)));
	compose_u8(a, b, _mm_srli_si128(*a, 4),
	    _mm_or_si128(_mm_srli_si128(*b, 4), _mm_slli_si128(ff, 12)));
	compose_u8(a, b, _mm_srli_si128(*a, 8),
	    _mm_or_si128(_mm_srli_si128(*b, 8), _mm_slli_si128(ff, 8)));
}

/* Lane 15 of v in every lane. */
static inline __m128i
broadcast_last_u8(__m128i v)
{
	v = _mm_unpackhi_epi8(v, v);
	v = _mm_shufflehi_epi16(v, 0xff);
	return _mm_shuffle_epi32(v, 0xff);
}

/* Lane 0 of v in every lane. */
static inline __m128i
broadcast_first_u8(__m128i v)
{
	v = _mm_unpacklo_epi8(v, v);
	v = _mm_shufflelo_epi16(v, 0);
	return _mm_shuffle_epi32(v, 0);
}

/* Lanes where x >= min(v, mask): there x cannot rise towards v. */
static inline __m128i
cannot_rise_u8(__m128i x, __m128i v, __m128i mask)
{
	__m128i t = _mm_min_epu8(v, mask);

	return _mm_cmpeq_epi8(_mm_max_epu8(x, t), x);
}

/* raster_row_portable_u8, CHUNK pixels at a time (the row's frame
 * columns included: they stay at 0). */
static void
raster_row_sse2_u8(uint8_t *m, const uint8_t *mk, size_t w, size_t W,
    int conn)
{
	size_t c, nc = (w + CHUNK - 1) / CHUNK;
	__m128i a, b, r, carry = _mm_set1_epi8((char)m[-1]);

	for (c = 0; c < nc; c++, m += CHUNK, mk += CHUNK) {
		b = LOADU(mk);
		a = _mm_max_epu8(LOADU(m), LOADU(m - W));
		if (conn == 8)
			a = _mm_max_epu8(a, _mm_max_epu8(LOADU(m - W - 1),
			    LOADU(m - W + 1)));
		a = _mm_min_epu8(a, b);
		scan_forward_u8(&a, &b);
		r = _mm_min_epu8(_mm_max_epu8(carry, a), b);
		STOREU(m, r);
		carry = broadcast_last_u8(r);
	}
}

/* antiraster_row_portable_u8, CHUNK pixels at a time, last chunk first;
 * stores only the indices it queues. */
static size_t
antiraster_row_sse2_u8(uint8_t *m, const uint8_t *mk, size_t w, size_t W,
    int conn, size_t p, uint32_t *slot, size_t n)
{
	size_t c, nc = (w + CHUNK - 1) / CHUNK;
	unsigned bits;
	__m128i a, b, r, dn, dl = _mm_setzero_si128(), dr = dl, stay,
	    carry = _mm_set1_epi8((char)m[nc * CHUNK]);

	m += (nc - 1) * CHUNK;
	mk += (nc - 1) * CHUNK;
	p += (nc - 1) * CHUNK;
	for (c = 0; c < nc; c++, m -= CHUNK, mk -= CHUNK, p -= CHUNK) {
		b = LOADU(mk);
		dn = LOADU(m + W);
		a = _mm_max_epu8(LOADU(m), dn);
		if (conn == 8) {
			dl = LOADU(m + W - 1);
			dr = LOADU(m + W + 1);
			a = _mm_max_epu8(a, _mm_max_epu8(dl, dr));
		}
		a = _mm_min_epu8(a, b);
		scan_backward_u8(&a, &b);
		r = _mm_min_epu8(_mm_max_epu8(carry, a), b);
		STOREU(m, r);
		stay = _mm_and_si128(cannot_rise_u8(_mm_or_si128(
		    _mm_srli_si128(r, 1), _mm_slli_si128(carry, 15)), r,
		    LOADU(mk + 1)), cannot_rise_u8(dn, r, LOADU(mk + W)));
		if (conn == 8)
			stay = _mm_and_si128(stay, _mm_and_si128(
			    cannot_rise_u8(dl, r, LOADU(mk + W - 1)),
			    cannot_rise_u8(dr, r, LOADU(mk + W + 1))));
		for (bits = ~(unsigned)_mm_movemask_epi8(stay) & 0xffff; bits;
		    bits &= bits - 1)
			slot[n++] = (uint32_t)(p + (size_t)__builtin_ctz(bits));
		carry = broadcast_first_u8(r);
	}
	return n;
}

/* v shifted up by lanes (1 or 2) float lanes, OR fill: the lanes
 * shifted in are 0 bits, so fill sets them. */
static inline __m128
shift_up_f32(__m128 v, int lanes, __m128 fill)
{
	__m128i b = _mm_castps_si128(v);

	b = lanes == 1 ? _mm_slli_si128(b, 4) : _mm_slli_si128(b, 8);
	return _mm_or_ps(_mm_castsi128_ps(b), fill);
}

/* v shifted down by lanes (1 or 2) float lanes, OR fill. */
static inline __m128
shift_down_f32(__m128 v, int lanes, __m128 fill)
{
	__m128i b = _mm_castps_si128(v);

	b = lanes == 1 ? _mm_srli_si128(b, 4) : _mm_srli_si128(b, 8);
	return _mm_or_ps(_mm_castsi128_ps(b), fill);
}

/* compose_u8 for four floats. */
static inline void
compose_f32(__m128 *a, __m128 *b, __m128 as, __m128 bs)
{
	__m128 na = _mm_min_ps(_mm_max_ps(as, *a), *b);

	*b = _mm_min_ps(_mm_max_ps(bs, *a), *b);
	*a = na;
}

/* Lanes where x < min(v, mask): there x can rise towards v. */
static inline __m128
lanes_can_rise_f32(__m128 x, __m128 v, __m128 mask)
{
	return _mm_cmplt_ps(x, _mm_min_ps(v, mask));
}

/* raster_row_portable_f32, four pixels at a time; the identity clamp
 * is [-inf, +inf]. */
static void
raster_row_sse2_f32(float *m, const float *mk, size_t w, size_t W,
    int conn)
{
	const __m128 lo1 = _mm_setr_ps(-INFINITY, 0, 0, 0),
	    lo2 = _mm_setr_ps(-INFINITY, -INFINITY, 0, 0),
	    hi1 = _mm_setr_ps(INFINITY, 0, 0, 0),
	    hi2 = _mm_setr_ps(INFINITY, INFINITY, 0, 0);
	size_t x, nc = (w + CHUNK - 1) / CHUNK * CHUNK;
	__m128 a, b, r, carry = _mm_set1_ps(m[-1]);

	for (x = 0; x < nc; x += 4) {
		b = _mm_loadu_ps(mk + x);
		a = _mm_max_ps(_mm_loadu_ps(m + x), _mm_loadu_ps(m + x - W));
		if (conn == 8)
			a = _mm_max_ps(a, _mm_max_ps(
			    _mm_loadu_ps(m + x - W - 1),
			    _mm_loadu_ps(m + x - W + 1)));
		a = _mm_min_ps(a, b);
		compose_f32(&a, &b, shift_up_f32(a, 1, lo1),
		    shift_up_f32(b, 1, hi1));
		compose_f32(&a, &b, shift_up_f32(a, 2, lo2),
		    shift_up_f32(b, 2, hi2));
		r = _mm_min_ps(_mm_max_ps(carry, a), b);
		_mm_storeu_ps(m + x, r);
		carry = _mm_shuffle_ps(r, r, 0xff);
	}
}

/* antiraster_row_portable_f32, four pixels at a time, last ones first. */
static size_t
antiraster_row_sse2_f32(float *m, const float *mk, size_t w, size_t W,
    int conn, size_t p, uint32_t *slot, size_t n)
{
	const __m128 lo1 = _mm_setr_ps(0, 0, 0, -INFINITY),
	    lo2 = _mm_setr_ps(0, 0, -INFINITY, -INFINITY),
	    hi1 = _mm_setr_ps(0, 0, 0, INFINITY),
	    hi2 = _mm_setr_ps(0, 0, INFINITY, INFINITY),
	    top = _mm_castsi128_ps(_mm_setr_epi32(0, 0, 0, -1));
	size_t x = (w + CHUNK - 1) / CHUNK * CHUNK;
	unsigned bits;
	__m128 a, b, r, dn, dl = _mm_setzero_ps(), dr = dl, rise,
	    carry = _mm_set1_ps(m[x]);

	while (x > 0) {
		x -= 4;
		b = _mm_loadu_ps(mk + x);
		dn = _mm_loadu_ps(m + x + W);
		a = _mm_max_ps(_mm_loadu_ps(m + x), dn);
		if (conn == 8) {
			dl = _mm_loadu_ps(m + x + W - 1);
			dr = _mm_loadu_ps(m + x + W + 1);
			a = _mm_max_ps(a, _mm_max_ps(dl, dr));
		}
		a = _mm_min_ps(a, b);
		compose_f32(&a, &b, shift_down_f32(a, 1, lo1),
		    shift_down_f32(b, 1, hi1));
		compose_f32(&a, &b, shift_down_f32(a, 2, lo2),
		    shift_down_f32(b, 2, hi2));
		r = _mm_min_ps(_mm_max_ps(carry, a), b);
		_mm_storeu_ps(m + x, r);
		rise = _mm_or_ps(lanes_can_rise_f32(shift_down_f32(r, 1,
		    _mm_and_ps(carry, top)), r, _mm_loadu_ps(mk + x + 1)),
		    lanes_can_rise_f32(dn, r, _mm_loadu_ps(mk + x + W)));
		if (conn == 8)
			rise = _mm_or_ps(rise, _mm_or_ps(
			    lanes_can_rise_f32(dl, r,
			    _mm_loadu_ps(mk + x + W - 1)),
			    lanes_can_rise_f32(dr, r,
			    _mm_loadu_ps(mk + x + W + 1))));
		for (bits = (unsigned)_mm_movemask_ps(rise); bits;
		    bits &= bits - 1)
			slot[n++] = (uint32_t)(p + x +
			    (size_t)__builtin_ctz(bits));
		carry = _mm_shuffle_ps(r, r, 0);
	}
	return n;
}

#define raster_row_u8		raster_row_sse2_u8
#define antiraster_row_u8	antiraster_row_sse2_u8
#define raster_row_f32		raster_row_sse2_f32
#define antiraster_row_f32	antiraster_row_sse2_f32
#else
#define raster_row_u8		raster_row_portable_u8
#define antiraster_row_u8	antiraster_row_portable_u8
#define raster_row_f32		raster_row_portable_f32
#define antiraster_row_f32	antiraster_row_portable_f32
#endif

RECON_DEFINE(u8, uint8_t)
RECON_DEFINE(f32, float)

void
sr_reconstruct_u8(uint8_t *marker, const uint8_t *mask, size_t w,
    size_t h, int conn)
{
	size_t W = stride(w), y;
	uint8_t *m, *mk;

	if (w == 0 || h == 0)
		return;
	check_size(w, h);
	m = frame_u8(w, h, 0);
	mk = frame_u8(w, h, 0);
	for (y = 0; y < h; y++) {
		memcpy(m + (y + 1) * W + 1, marker + y * w, w);
		memcpy(mk + (y + 1) * W + 1, mask + y * w, w);
	}
	recon_framed_u8(m, mk, w, h, conn);
	for (y = 0; y < h; y++)
		memcpy(marker + y * w, m + (y + 1) * W + 1, w);
	free(m);
	free(mk);
}

void
sr_reconstruct_f32(float *marker, const float *mask, size_t w, size_t h,
    int conn)
{
	size_t W = stride(w), y;
	float *m, *mk;

	if (w == 0 || h == 0)
		return;
	check_size(w, h);
	m = frame_f32(w, h, -INFINITY);
	mk = frame_f32(w, h, -INFINITY);
	for (y = 0; y < h; y++) {
		memcpy(m + (y + 1) * W + 1, marker + y * w, w * sizeof *m);
		memcpy(mk + (y + 1) * W + 1, mask + y * w, w * sizeof *m);
	}
	recon_framed_f32(m, mk, w, h, conn);
	for (y = 0; y < h; y++)
		memcpy(marker + y * w, m + (y + 1) * W + 1, w * sizeof *m);
	free(m);
	free(mk);
}

/* Sets, in the row at a (is: candidate flags), each pixel with a
 * strictly smaller neighbour to 0, the others to 255, and queues those
 * set to 0 that also have an equal neighbour: they disqualify their
 * plateau. */
static void __attribute__((unused))
minima_seed_row_portable(const float *a, uint8_t *is, size_t w, size_t W,
    int conn, size_t p, fifo *q)
{
	ptrdiff_t x, dn = (ptrdiff_t)W;
	int lt, eq;
	float v;

	for (x = 0; x < (ptrdiff_t)w; x++) {
		v = a[x];
		lt = (a[x - 1] < v) | (a[x + 1] < v) | (a[x - dn] < v) |
		    (a[x + dn] < v);
		eq = (a[x - 1] == v) | (a[x + 1] == v) | (a[x - dn] == v) |
		    (a[x + dn] == v);
		if (conn == 8) {
			lt |= (a[x - dn - 1] < v) | (a[x - dn + 1] < v) |
			    (a[x + dn - 1] < v) | (a[x + dn + 1] < v);
			eq |= (a[x - dn - 1] == v) | (a[x - dn + 1] == v) |
			    (a[x + dn - 1] == v) | (a[x + dn + 1] == v);
		}
		is[x] = lt ? 0 : 255;
		if (lt & eq)
			fifo_push(q, p + (size_t)x);
	}
}

#ifdef SR_MORPH_SIMD
/* Lanes of the four pixels at a with a smaller neighbour at offset d
 * added to *lt, with an equal one to *eq. */
static inline void
minima_compare(const float *a, ptrdiff_t d, __m128 v, __m128 *lt,
    __m128 *eq)
{
	__m128 nb = _mm_loadu_ps(a + d);

	*lt = _mm_or_ps(*lt, _mm_cmplt_ps(nb, v));
	*eq = _mm_or_ps(*eq, _mm_cmpeq_ps(nb, v));
}

/* minima_seed_row_portable, CHUNK pixels at a time (lanes beyond the
 * row masked off). */
static void
minima_seed_row_sse2(const float *a, uint8_t *is, size_t w, size_t W,
    int conn, size_t p, fifo *q)
{
	ptrdiff_t dn = (ptrdiff_t)W;
	size_t x, k, nk;
	unsigned ltbits, both, e;
	__m128 v, lt, eq;

	for (x = 0; x < w; x += CHUNK) {
		ltbits = both = 0;
		for (k = 0; k < CHUNK; k += 4) {
			v = _mm_loadu_ps(a + x + k);
			lt = eq = _mm_setzero_ps();
			minima_compare(a + x + k, -1, v, &lt, &eq);
			minima_compare(a + x + k, 1, v, &lt, &eq);
			minima_compare(a + x + k, -dn, v, &lt, &eq);
			minima_compare(a + x + k, dn, v, &lt, &eq);
			if (conn == 8) {
				minima_compare(a + x + k, -dn - 1, v, &lt, &eq);
				minima_compare(a + x + k, -dn + 1, v, &lt, &eq);
				minima_compare(a + x + k, dn - 1, v, &lt, &eq);
				minima_compare(a + x + k, dn + 1, v, &lt, &eq);
			}
			e = (unsigned)_mm_movemask_ps(lt);
			ltbits |= e << k;
			both |= (e & (unsigned)_mm_movemask_ps(eq)) << k;
		}
		nk = MIN(CHUNK, w - x);
		for (k = 0; k < nk; k++)
			is[x + k] = ltbits >> k & 1 ? 0 : 255;
		for (both &= (1u << nk) - 1; both; both &= both - 1)
			fifo_push(q, p + x + (size_t)__builtin_ctz(both));
	}
}

#define minima_seed_row		minima_seed_row_sse2
#else
#define minima_seed_row		minima_seed_row_portable
#endif

/* Spreads disqualification over plateaus from the queued pixels. */
static void
minima_spread(const float *a, uint8_t *is, size_t W, int conn, fifo *q)
{
	ptrdiff_t off[8] = { -1, 1, -(ptrdiff_t)W, (ptrdiff_t)W,
	    -(ptrdiff_t)W - 1, -(ptrdiff_t)W + 1, (ptrdiff_t)W - 1,
	    (ptrdiff_t)W + 1 };
	size_t p, r;
	int k, nn = conn == 4 ? 4 : 8;

	while (q->n > 0) {
		p = fifo_pop(q);
		for (k = 0; k < nn; k++) {
			r = p + (size_t)off[k];
			if (is[r] && a[r] == a[p]) {
				is[r] = 0;
				fifo_push(q, r);
			}
		}
	}
}

/* A plateau is a regional minimum unless one of its pixels has a
 * strictly smaller neighbour; the frame (+inf, flagged 0) is never
 * smaller and never entered. */
void
sr_regional_minima_f32(const float *img, uint8_t *out, size_t w, size_t h,
    int conn)
{
	size_t W = stride(w), y, p;
	float *a;
	uint8_t *is;
	fifo q;

	if (w == 0 || h == 0)
		return;
	check_size(w, h);
	conn = conn == 4 ? 4 : 8;
	a = frame_f32(w, h, INFINITY);
	is = frame_u8(w, h, 0);
	for (y = 0; y < h; y++)
		memcpy(a + (y + 1) * W + 1, img + y * w, w * sizeof *a);
	fifo_init(&q);
	for (y = 1; y <= h; y++) {
		p = y * W + 1;
		minima_seed_row(a + p, is + p, w, W, conn, p, &q);
	}
	minima_spread(a, is, W, conn, &q);
	for (y = 0; y < h; y++)
		memcpy(out + y * w, is + (y + 1) * W + 1, w);
	free(q.v);
	free(is);
	free(a);
}

/* img = -R(-img - hval, -img), computed as written. */
void
sr_hmin_f32(float *img, size_t w, size_t h, float hval, int conn)
{
	size_t W = stride(w), x, y, p;
	float *m, *mk;

	if (w == 0 || h == 0)
		return;
	check_size(w, h);
	m = frame_f32(w, h, -INFINITY);
	mk = frame_f32(w, h, -INFINITY);
	for (y = 0; y < h; y++)
		for (x = 0; x < w; x++) {
			p = (y + 1) * W + 1 + x;
			mk[p] = -img[y * w + x];
			m[p] = mk[p] - hval;
		}
	recon_framed_f32(m, mk, w, h, conn);
	for (y = 0; y < h; y++)
		for (x = 0; x < w; x++)
			img[y * w + x] = -m[(y + 1) * W + 1 + x];
	free(m);
	free(mk);
}

/* ---- framed planes ------------------------------------------------------ */

size_t
sr_framed_stride(size_t w)
{
	return stride(w);
}

float *
sr_framed_f32(size_t w, size_t h)
{
	check_size(w, h);
	return sr_reallocarray(NULL, h + 2, stride(w) * sizeof(float));
}

/* Sets the frame of framed plane a to v. */
static void
set_frame_f32(float *a, size_t w, size_t h, float v)
{
	size_t W = stride(w), x, y;

	for (x = 0; x < W; x++)
		a[x] = a[(h + 1) * W + x] = v;
	for (y = 1; y <= h; y++) {
		a[y * W] = v;
		for (x = w + 1; x < W; x++)
			a[y * W + x] = v;
	}
}

/* The steps of sr_hmin_f32, sr_regional_minima_f32 and nuclei.c's
 * reconstruction test, with the same float operations in the same order
 * (so the same bits), on c and one more plane m: m = c - hval
 * reconstructed under c is -hmin(img); its negation's regional minima;
 * then c = m - 1 reconstructed under m, and the minima where m - 1 < c
 * dropped. m is -c exactly (negation is exact) while the minima are
 * found, so it is freed then and rebuilt, and the minima wait as bits
 * while both float planes are back: the peak is the two float planes,
 * not the two and an 8-bit plane (seg-run's peak with two active paths,
 * issue 17). */
uint8_t *
sr_hmin_local_minima_framed_f32(float *c, size_t w, size_t h, float hval,
    int hconn, int conn)
{
	size_t W = stride(w), N, x, y, p;
	float *m;
	uint8_t *out;
	uint64_t *flag;
	fifo q;

	if (w == 0 || h == 0)
		return frame_u8(w, h, 0);
	check_size(w, h);
	N = (h + 2) * W;
	conn = conn == 4 ? 4 : 8;
	m = frame_f32(w, h, -INFINITY);
	set_frame_f32(c, w, h, -INFINITY);
	for (y = 1; y <= h; y++)
		for (x = 1, p = y * W + 1; x <= w; x++, p++)
			m[p] = c[p] - hval;
	recon_framed_f32(m, c, w, h, hconn);
	set_frame_f32(c, w, h, INFINITY);
	for (y = 1; y <= h; y++)
		for (x = 1, p = y * W + 1; x <= w; x++, p++)
			c[p] = -m[p];
	free(m);
	out = frame_u8(w, h, 0);
	fifo_init(&q);
	for (y = 1; y <= h; y++) {
		p = y * W + 1;
		minima_seed_row(c + p, out + p, w, W, conn, p, &q);
	}
	minima_spread(c, out, W, conn, &q);
	free(q.v);
	flag = sr_bits_pack(out, N);
	free(out);
	m = frame_f32(w, h, -INFINITY);
	set_frame_f32(c, w, h, -INFINITY);
	for (y = 1; y <= h; y++)
		for (x = 1, p = y * W + 1; x <= w; x++, p++) {
			m[p] = -c[p];
			c[p] = m[p] - 1.0f;
		}
	recon_framed_f32(c, m, w, h, conn);
	for (y = 1; y <= h; y++)
		for (x = 1, p = y * W + 1; x <= w; x++, p++)
			if (m[p] - 1.0f < c[p])
				sr_bit_clear(flag, p);
	free(m);
	out = sr_malloc(N);
	sr_bits_unpack(flag, out, N);
	free(flag);
	return out;
}
