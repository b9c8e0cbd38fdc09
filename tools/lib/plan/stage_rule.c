/* stage_rule.c - the merged stage (stage_rule.h). */
#include "plan/stage_rule.h"

size_t
sr_merge_stage(const sr_workflow *w)
{
	size_t s, best = 0;

	if (w->commands)
		return w->command_stage;
	for (s = 1; s < w->nstage; s++)
		if (w->stage[s].ntask > w->stage[best].ntask)
			best = s;
	return best;
}
