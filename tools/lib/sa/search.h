/* search.h - searches that learn from results, one round at a time:
 * particle swarm optimization, simulated annealing and the tree-structured
 * Parzen estimator. A tune campaign in batches draws each batch (a round)
 * with sa-sample from the rounds before it and their scores.
 *
 * Every method is a pure function of the space, the seed and the history
 * (the sets of the rounds before, each round's sets in the order drawn,
 * and their scores, higher better): a round drawn again is the same
 * round, so a campaign resumes without state of its own. Each works in
 * the unit coordinates of the space's parameters (sr_param_unit_of: a
 * value's index over the values less one, or its place in a range) and
 * snaps a position to the nearest value (sr_param_at_level), so that
 * integer, enum and grid-valued parameters stay on their values; fixed
 * parameters keep their value. A failed set (no score) counts as the
 * worst. Random numbers come from mt19937 seeded per (seed, round, set,
 * use), so that a round's sets do not depend on how many there are.
 *
 *  - pso: the swarm is round 1's sets (drawn uniformly), each a particle
 *    with a velocity (half the way to another uniform point); each later
 *    round is the swarm's next generation: v = w v + c1 r1 (p - x) +
 *    c2 r2 (g - x), x = x + v, p the particle's best position, g the
 *    swarm's, r1 and r2 uniform per coordinate, |v| at most vmax, x held
 *    in the unit cube (a particle reaching a wall stops there).
 *    Constriction coefficients w = 0.7298, c1 = c2 = 1.49618 (Clerc and
 *    Kennedy 2002; Kennedy and Eberhart 1995).
 *  - anneal: round 1's sets start as many chains; each later round is one
 *    step of every chain: a neighbour of its state (each coordinate moved
 *    with probability 2/k, at least one, by a Gaussian step whose scale
 *    shrinks with the temperature, a discrete one at least to the next
 *    value), accepted by Metropolis' rule at the next round: always when
 *    it scores no worse, else with probability exp(dy / T). T starts at
 *    the median absolute difference of round 1's scores over ln 2 (a
 *    typical worsening accepted half the time) and is multiplied by the
 *    cooling factor each round; by default the factor that brings it to
 *    5 % of its start at the last round (Kirkpatrick et al. 1983). After
 *    each round's acceptances the chains' states are resampled with
 *    weights exp((y - max y) / T), population annealing's step (Hukushima
 *    and Iba 2003): with a few steps per chain, as a campaign's batches
 *    give, chains in poor regions continue from good states (on a known
 *    function, 6 rounds of 8 sets: without it the chains did worse than
 *    uniform draws, with it better; search_test).
 *  - tpe: round 1 is drawn uniformly (the startup); each later set is the
 *    best of n_ei candidates drawn from l(x) by l(x) / g(x), l and g
 *    Parzen estimators of the best gamma share of the sets so far
 *    (ceil(gamma n), at most 25) and of the rest (Optuna's defaults
 *    gamma 0.1, 24 candidates). Multivariate by default (Optuna's
 *    multivariate TPE, BOHB: Falkner et al. 2018): a mixture of a
 *    uniform prior and one product kernel per set, truncated Gaussians
 *    of bandwidth 0.2 n^(-1/(d+4)) and, for an enum, half on the set's
 *    value; a candidate draws one component and all its coordinates
 *    from it. Independent (Bergstra et al. 2011): per parameter,
 *    truncated Gaussians on the sets' coordinates, each as wide as its
 *    larger gap to a neighbour (within 1 / min(100, n + 1) and 1), and a
 *    prior N(0.5, 1); an enum a categorical estimator. A candidate equal
 *    to a set already drawn is passed over while another is left. */
#ifndef SR_SEARCH_H
#define SR_SEARCH_H

#include <stddef.h>

#include "sa/space.h"

enum sr_search_method { SR_SEARCH_PSO, SR_SEARCH_ANNEAL, SR_SEARCH_TPE };

typedef struct {
	size_t rounds;		/* the rounds in all (anneal's cooling) */
	double inertia, c1, c2;	/* pso: w, c1, c2 */
	double vmax;		/* pso: the largest velocity, unit
				 * coordinates (0.5) */
	double cooling;		/* anneal: the factor per round; <= 0: the
				 * one reaching 5 % at the last round */
	double step;		/* anneal: the step's scale at the start,
				 * unit coordinates (0.25) */
	double gamma;		/* tpe: the share of good sets (0.1) */
	size_t gamma_max;	/* tpe: at most this many (25) */
	size_t candidates;	/* tpe: candidates per set (24) */
	int multivariate;	/* tpe: joint estimators (1), or one per
				 * parameter (0) */
} sr_search_opts;

/* The defaults above, for a search of rounds rounds. */
void sr_search_opts_init(sr_search_opts *o, size_t rounds);

/* "pso", "anneal", "tpe": 0 and the method, or -1. */
int sr_search_parse(const char *name, enum sr_search_method *m);

/* The sets of the rounds before, with their scores. */
typedef struct {
	size_t n;
	const double *x;	/* n * s->n values, every parameter */
	const double *y;	/* n scores, higher better; NaN: failed */
	const size_t *round;	/* n rounds, from 1, not decreasing; within
				 * a round, the sets in the order drawn */
} sr_search_history;

/* Draws round `round` (from 1) of q sets into out (q * s->n values):
 * NULL, or why not (static text): a history whose rounds are not 1 to
 * round - 1, or, for pso and anneal, a round before with fewer sets than
 * round 1 (a later round with more draws its extra sets uniformly). */
const char *sr_search_round(enum sr_search_method m, const sr_search_opts *o,
    const sr_space *s, const sr_search_history *h, size_t round, size_t q,
    unsigned long seed, double *out);

/* Projects the q sets of out (q * s->n values of s) onto the values of
 * within, a pruned copy of s (sr_search_project): NULL, or the name of a
 * parameter of s that within lacks. */
const char *sr_search_within(const sr_space *s, const sr_space *within,
    size_t q, double *out);

/* Frees a history whose arrays were allocated (sr_trials_search_history). */
void sr_search_history_free(sr_search_history *h);

/* v, a value of p, as the nearest value of q, the same parameter in a
 * pruned copy of p's space: itself when it is one of q's values (q's
 * default may not be); else, for a word enum, the word nearest by its
 * place in p; else the nearest number (a range's bound). */
double sr_search_project(const sr_param *p, const sr_param *q, double v);

#endif
