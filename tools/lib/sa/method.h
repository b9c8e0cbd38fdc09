/* method.h - the SA methods by name: one enum and one name table for
 * sa-sample, sa-indices, the design metadata and the campaign driver, and
 * the run count of a design. */
#ifndef SR_METHOD_H
#define SR_METHOD_H

#include <stddef.h>

/* The unit-cube samplers come first, in sr_unit_method's order (sampler.h),
 * so a method below SR_METHOD_RANDOM is also a VBD base. */
enum sr_method {
	SR_METHOD_MC, SR_METHOD_LHS, SR_METHOD_HALTON, SR_METHOD_HAMMERSLEY,
	SR_METHOD_SOBOL,	/* the unit-cube samplers (and VBD bases) */
	SR_METHOD_RANDOM,	/* random search without repetition */
	SR_METHOD_GRID,		/* full factorial */
	SR_METHOD_MOAT,		/* Morris screening */
	SR_METHOD_VBD,		/* Saltelli/Sobol blocks */
	SR_METHOD_CORR,		/* correlation measures (sa-indices only) */
	SR_METHOD_REFERENCE,	/* only the reference run (sa-sample --reference) */
	SR_METHOD_PSO,		/* searches that learn, a round at a time */
	SR_METHOD_ANNEAL,	/* (sa/search.h) */
	SR_METHOD_TPE,
	SR_METHOD_EFAST,	/* Fourier amplitudes (eFAST) */
	SR_METHOD_RBD_FAST,	/* random balance designs (RBD-FAST) */
	SR_METHOD_PAWN,		/* given-data analyses (sa-indices only) */
	SR_METHOD_DELTA,
	SR_NMETHOD
};

/* Which methods a tool offers: a bit per method. */
#define SR_METHOD_BIT(m) (1u << (m))
#define SR_METHODS_UNIT (SR_METHOD_BIT(SR_METHOD_MC) | \
	SR_METHOD_BIT(SR_METHOD_LHS) | SR_METHOD_BIT(SR_METHOD_HALTON) | \
	SR_METHOD_BIT(SR_METHOD_HAMMERSLEY) | SR_METHOD_BIT(SR_METHOD_SOBOL))
#define SR_METHODS_SEARCH (SR_METHOD_BIT(SR_METHOD_PSO) | \
	SR_METHOD_BIT(SR_METHOD_ANNEAL) | SR_METHOD_BIT(SR_METHOD_TPE))
#define SR_METHODS_SAMPLE (SR_METHODS_UNIT | SR_METHOD_BIT(SR_METHOD_RANDOM) | \
	SR_METHOD_BIT(SR_METHOD_GRID) | SR_METHOD_BIT(SR_METHOD_MOAT) | \
	SR_METHOD_BIT(SR_METHOD_VBD) | SR_METHODS_SEARCH | \
	SR_METHOD_BIT(SR_METHOD_EFAST) | SR_METHOD_BIT(SR_METHOD_RBD_FAST))
/* The analyses of any sample (given data): no design of their own asked. */
#define SR_METHODS_GIVEN (SR_METHOD_BIT(SR_METHOD_CORR) | \
	SR_METHOD_BIT(SR_METHOD_RBD_FAST) | SR_METHOD_BIT(SR_METHOD_PAWN) | \
	SR_METHOD_BIT(SR_METHOD_DELTA))
#define SR_METHODS_INDICES (SR_METHOD_BIT(SR_METHOD_MOAT) | \
	SR_METHOD_BIT(SR_METHOD_VBD) | SR_METHOD_BIT(SR_METHOD_EFAST) | \
	SR_METHODS_GIVEN)

/* "mc", "lhs", ..., "corr", "reference", "pso", "anneal", "tpe",
 * "efast", "rbd_fast", "pawn", "delta", as written in design(5)'s
 * method= and on command lines. */
extern const char *const sr_method_names[SR_NMETHOD];

/* The method called name, or -1. */
int sr_method_parse(const char *name);
/* The method's name. */
const char *sr_method_name(enum sr_method m);
/* Fills names[0..SR_NMETHOD) with the names of the methods in mask and
 * NULL elsewhere: a table for sr_opt_word and sr_word_list (core/opt.h),
 * indexed by the enum. Returns names. */
const char **sr_method_table(unsigned mask, const char *names[SR_NMETHOD]);
/* Whether m is a unit-cube sampler (mc, lhs, halton, hammersley, sobol). */
int sr_method_is_unit(enum sr_method m);
/* Whether m is a search that learns (pso, anneal, tpe). */
int sr_method_is_search(enum sr_method m);
/* Whether analysis m takes any sample (corr, rbd_fast, pawn, delta). */
int sr_method_is_given(enum sr_method m);

/* Rows of one VBD block: A, AB_1..AB_k, [BA_1..BA_k,] B. */
size_t sr_vbd_block_rows(size_t k, int second_order);

/* The runs of a design, the reference run not counted: vbd n blocks, moat
 * r trajectories of k + 1 points, efast n a parameter, reference none,
 * the others n (for grid:
 * n is the grid's size). A double, so that a count past any size_t still
 * compares. */
double sr_method_runs(enum sr_method m, size_t n, size_t k, size_t r,
    int second_order);

#endif
