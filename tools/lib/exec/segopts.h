/* segopts.h - seg-run's command line: its options, their checks and the
 * memory budget they set. seg-run.c keeps its help text and main. */
#ifndef SR_SEGOPTS_H
#define SR_SEGOPTS_H

#include <stdio.h>

#include "exec/outputs.h"
#include "exec/tune.h"

typedef struct {
	const char *workflow, *instances, *buckets, *tiles, *ref_suffix, *target;
	const char *max_memory;	/* --max-memory, else SR_MAX_MEMORY */
	sr_segout out;		/* results (-o), timings, masks, ... */
	sr_tuneopts tune;	/* --ledger (tune.ledger NULL: none), ... */
	unsigned long seed;	/* --tile-order shuffle:SEED (shuffle set) */
	/* A workflow of commands: */
	const char *scratch;	/* --scratch DIR (NULL: $TMPDIR, /tmp) */
	const char *command_logs;	/* --command-logs DIR, or NULL */
	size_t command_mem;	/* --command-mem: bytes per active path */
	double task_timeout;	/* --task-timeout seconds; 0: none */
	int threads_per_path;	/* --threads-per-path N [1] */
	long bucket;
	int force, quiet, estimate, tuneopt, shuffle, command_mem_set;
} sr_segopts;

/* Parses seg-run's arguments into o and checks them (a usage error exits
 * 2; -h prints usage's text and exits 0), then sets the images' memory
 * budget. */
void sr_segopts_parse(int argc, char **argv, sr_segopts *o,
    void (*usage)(FILE *));

#endif
