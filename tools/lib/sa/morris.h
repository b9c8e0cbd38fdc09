/* morris.h - Morris elementary effects (MOAT) and trajectory selection.
 *
 * Pure numerical code: no file I/O, no exits. Every function returns 0 on
 * success and -1 with a message in errbuf (size SR_ERRLEN) otherwise.
 * Bootstrap resampling uses GSL's mt19937 seeded with the given seed, so the
 * same inputs and seed give the same bytes.
 */
#ifndef SR_MORRIS_H
#define SR_MORRIS_H

#include <stddef.h>

#ifndef SR_ERRLEN
#define SR_ERRLEN 256
#endif

/* ---- MOAT: Morris elementary effects -----------------------------------
 * u: r*(k+1) rows of k unit-cube coordinates (after snapping), y: r*(k+1)
 * outputs, NaN where a run has none; consecutive rows of a trajectory
 * differ in exactly one column. EE = dy / du with du the signed actual
 * step; an effect that touches a run without an output is dropped, the
 * others kept (effects[i] counts parameter i's). sigma with ddof=1;
 * mu_star_conf is the z(conf)*sd bootstrap interval half-width of mu*. A
 * parameter without effects has NaN measures; -1 when none is left. With
 * groups (ngroup > 0, parameter j in group group_of[j]: trajectories of
 * ngroup + 1 points, a step moving a whole group) the measures are the
 * groups', as SALib's: the means of their parameters', sigma only for a
 * group of one (Campolongo, Cariboni and Saltelli 2007); out->k is then
 * ngroup. */
typedef struct {
	size_t k;
	double *mu, *mu_star, *sigma, *mu_star_conf;	/* k each */
	size_t *effects;	/* k: the elementary effects used */
} sr_morris_result;

int sr_morris_analyze(const double *u, const double *y, size_t r, size_t k,
    size_t ngroup, const size_t *group_of, size_t resamples, double conf,
    unsigned long seed, sr_morris_result *out, char *errbuf);
void sr_morris_result_free(sr_morris_result *res);

/* ---- Morris trajectory selection (sa-sample --optimize) -----------------
 * traj: r trajectories of pts points of k unit coordinates, row-major
 * (pts: k + 1, or, of trajectories of groups, the groups + 1, as SALib's
 * selection takes them).
 * Picks the `want` trajectories that maximize the Campolongo 2007 spread
 * sqrt(sum over pairs of d(m,l)^2), d the sum of Euclidean distances
 * between the points of two trajectories; brute force over all subsets
 * when there are at most `brute_limit` of them, else the local search of
 * Ruano et al. 2012 as SALib implements it. chosen receives `want`
 * trajectory indices in increasing order. */
int sr_morris_select(const double *traj, size_t r, size_t k, size_t pts,
    size_t want, double brute_limit, size_t *chosen, char *errbuf);

#endif
