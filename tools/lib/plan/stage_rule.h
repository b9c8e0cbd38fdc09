/* stage_rule.h - which stage of a workflow is the merged one: the stage
 * whose instances reuse-merge puts into buckets by default, and whose
 * instances a plan without #stage= metadata holds (buckets(5)). */
#ifndef SR_STAGE_RULE_H
#define SR_STAGE_RULE_H

#include <stddef.h>

#include "plan/workflow.h"

/* The stage of commands of a workflow of commands; else the stage with
 * the most tasks, the first of them on a tie. */
size_t sr_merge_stage(const sr_workflow *w);

#endif
