#!/usr/bin/env bats
# sa-campaign: campaigns end to end with the local engine (GNU parallel),
# plans with and without reuse, interruption and resumption, the merge,
# and bad campaign files.
load common

load campaign
bats_require_minimum_version 1.5.0

@test "run: a MOAT campaign end to end with the local engine" {
	tiles 160
	campaign c.campaign
	run sa-campaign run c.campaign
	assert_success
	assert_output --partial "indices: $PWD/c-out/indices.tsv"
	assert_output --partial "plot: $PWD/c-out/indices.png"
	for f in design.tsv instances.tsv buckets.tsv results.tsv timings.tsv \
	    indices.tsv indices.png ref/results.tsv norm/tiles.list logs/joblog; do
		[ -s "c-out/$f" ] || fail "no c-out/$f"
	done
	nb=$(body c-out/buckets.tsv | awk 'NR > 1' | wc -l)
	assert_equal "$(ls c-out/results | wc -l)" "$nb"
	# one row per run and tile, every run of the design
	assert_equal "$(body c-out/results.tsv | awk 'NR > 1' | wc -l)" 64
	assert_equal "$(body c-out/results.tsv | awk 'NR > 1 { print $1 }' | sort -un | wc -l)" 32
	assert_equal "$(body c-out/indices.tsv | awk 'NR > 1' | wc -l)" 15
	[ "$(head -c 4 c-out/indices.png | tail -c 3)" = PNG ]
	# every campaign ranks its sets: 32, all complete on the 2 tiles
	assert_output --partial "trials: $PWD/c-out/trials.tsv"
	assert_equal "$(body c-out/trials.tsv | awk -F'\t' 'NR > 1 && $2 == "complete" && $3 == 2' | wc -l)" 32
	grep -q '^#metric=dice tiles=2 sets=32 complete=32 ' c-out/trials.tsv
	assert [ ! -e c-out/best.tsv ] && assert [ ! -e c-out/tune.png ] && assert [ ! -e c-out/ledger.tsv ]
	run sa-campaign status c.campaign
	assert_success
	assert_output --partial "buckets=$nb chunks=1 tasks=$nb done=$nb running=0 pending=0 failed=0 waiting=0"
	assert_output --partial "trials: $PWD/c-out/trials.tsv"
	refute_output --partial "sets="
	# the reference run is compared with the ground truth
	assert_equal "$(body c-out/ref/results.tsv | awk 'NR > 1' | wc -l)" 2
	# run again: nothing to do, the same indices
	cp c-out/indices.tsv before.tsv
	run sa-campaign run c.campaign
	assert_success
	assert_equal "$(body c-out/indices.tsv)" "$(body before.tsv)"
}

@test "a white tile left unnormalized: results.tsv keeps its #unnormalized line, whatever the plan" {
	tiles 160
	sa-testimg solid 160 160 250 250 250 tiles/white.png
	sa-testimg blank 160 160 tiles/white.mask.png
	echo white.png >> tiles/list
	for plan in none rtma; do
		campaign $plan.campaign merge=$plan
		sa-campaign -q run $plan.campaign
		run grep -c '^#unnormalized ' $plan-out/results.tsv
		assert_output 1
		grep -q '^#unnormalized tile=white foreground=0' $plan-out/results.tsv
		# once, before the table
		assert_equal "$(sed -n '4p' $plan-out/results.tsv | cut -c1-13)" '#unnormalized'
	done
	assert_equal "$(body rtma-out/indices.tsv)" "$(body none-out/indices.tsv)"
}

@test "plans without reuse, with stage-level reuse, RTMA and TRTMA give identical indices" {
	tiles 160
	campaign rtma.campaign
	campaign none.campaign merge=none
	campaign stage.campaign merge=stage
	campaign trtma.campaign merge=trtma max_buckets=3
	for m in rtma none stage trtma; do
		sa-campaign -q run $m.campaign
	done
	for m in none stage trtma; do
		assert_equal "$(body $m-out/indices.tsv)" "$(body rtma-out/indices.tsv)"
		assert_equal "$(body $m-out/results.tsv | cut -f1-6 | sort)" \
		    "$(body rtma-out/results.tsv | cut -f1-6 | sort)"
	done
	# reuse happened: fewer task nodes executed with rtma than without
	assert [ "$(body rtma-out/timings.tsv | grep -c Seg)" -lt "$(body none-out/timings.tsv | grep -c Seg)" ]
	# stage-level reuse: the buckets read the normalized tiles
	assert_equal "$(body none-out/timings.tsv | awk -F'\t' '$4 == "normalize"' | wc -l)" 64
	grep -q 'normalize=none' stage-out/results/00000-0000.tsv
	grep -q 'normalize=reinhard' none-out/results/00000-0000.tsv
}

@test "reference = defaults: the default run's masks are the reference" {
	tiles 160
	campaign c.campaign reference=defaults
	sed -i '/^reference_suffix/d' c.campaign
	sa-campaign -q run c.campaign
	[ -s c-out/ref/masks/0/a.tif ]
	# the default run itself is in the design? then its Dice is 1
	assert_equal "$(body c-out/ref/results.tsv | head -1)" "$(printf 'run\ttile\tstatus\tobjects\tseconds')"
	body c-out/results.tsv | awk -F'\t' 'NR > 1 && ($4 < 0 || $4 > 1) { exit 1 }'
}

@test "killed midway and resumed: the same indices, nothing half-written read" {
	tiles 400
	campaign c.campaign bucket_size=2
	campaign ref.campaign bucket_size=2
	sa-campaign -q run ref.campaign
	setsid sa-campaign -q run c.campaign > log 2>&1 &
	pid=$!
	# wait until some buckets are done, then kill the whole job
	for k in $(seq 100); do
		[ "$(ls c-out/results 2>/dev/null | wc -l)" -lt 2 ] || break
		sleep 0.1
	done
	kill -TERM -- -"$pid"
	wait "$pid" || true
	nb=$(body c-out/buckets.tsv | awk 'NR > 1' | wc -l)
	done=$(ls c-out/results | wc -l)
	assert [ "$done" -lt "$nb" ]
	run find c-out -name '.*.tmp.*'
	assert_output ''
	# merge refuses and names the missing buckets
	run sa-campaign merge c.campaign
	assert_failure 1
	assert_output --partial "array tasks without results:"
	assert [ ! -e c-out/indices.tsv ]
	# the killed buckets count as failed, none as running (once their
	# processes, killed too, are gone)
	killed=$(awk '{ print $1 }' c-out/logs/attempts | sort -u | wc -l)
	for k in $(seq 50); do
		sa-campaign status c.campaign | grep -q 'running=0' && break
		sleep 0.1
	done
	run sa-campaign status c.campaign
	assert_output --partial "done=$done running=0 pending=0 failed=$((killed - done)) waiting=$((nb - killed))"
	# resume
	sa-campaign -q run c.campaign
	assert_equal "$(body c-out/indices.tsv)" "$(body ref-out/indices.tsv)"
}

@test "status (local engine): a bucket in progress is running, a killed one failed" {
	tiles 400
	campaign c.campaign bucket_size=2
	sa-campaign -q plan c.campaign
	sa-campaign -q reference c.campaign
	setsid sa-campaign -q bucket c.campaign 3 > log 2>&1 &
	pid=$!
	for k in $(seq 100); do
		[ ! -s c-out/logs/attempts ] || break
		sleep 0.05
	done
	kill -STOP -- -"$pid"	# held, alive: running
	run sa-campaign status c.campaign
	assert_output --partial 'done=0 running=1 pending=0 failed=0 waiting=15'
	kill -KILL -- -"$pid"
	wait "$pid" || true
	run sa-campaign status c.campaign
	assert_output --partial 'done=0 running=0 pending=0 failed=1 waiting=15'
	# the attempt of another host is not looked for here: not running
	sed -i 's/^3 [^ ]* /3 elsewhere.example /' c-out/logs/attempts
	run sa-campaign status c.campaign
	assert_output --partial 'running=0 pending=0 failed=1'
	# done once it has results
	sa-campaign -q bucket c.campaign 3
	run sa-campaign status c.campaign
	assert_output --partial 'done=1 running=0 pending=0 failed=0 waiting=15'
}

@test "merge names the missing buckets; bucket runs one bucket" {
	tiles 160
	campaign c.campaign
	sa-campaign -q reference c.campaign
	sa-campaign -q bucket c.campaign 0
	sa-campaign -q bucket c.campaign 2
	nb=$(body c-out/buckets.tsv | awk 'NR > 1' | wc -l)
	run sa-campaign merge c.campaign
	assert_failure 1
	assert_output --partial "array tasks without results: 1,3-$((nb - 1)) (of 0-$((nb - 1)))"
	run sa-campaign bucket c.campaign "$nb"
	assert_failure 1
	assert_output --partial "bucket '$nb': the plan has array tasks (a bucket on a chunk of tiles) 0 to $((nb - 1))"
}

@test "--output puts the campaign elsewhere; another campaign's output is refused" {
	tiles 160
	campaign c.campaign
	sa-campaign -q -o elsewhere plan c.campaign
	[ -s elsewhere/buckets.tsv ]
	campaign d.campaign seed=4
	run sa-campaign -o elsewhere plan d.campaign
	assert_failure 1
	assert_output --partial "holds another campaign"
	# the same campaign file, but the space, the workflow or the tiles
	# list changed since the plan: refused, nothing rewritten
	cp "$SPACE" s.tsv
	cp "$TOP/share/workflows/nuclei.wf" w.wf
	campaign e.campaign space=s.tsv workflow=w.wf
	sa-campaign -q plan e.campaign
	cp -p e-out/design.tsv design.before
	echo '# a note' >> s.tsv
	run sa-campaign plan e.campaign
	assert_failure 1
	assert_output "sa-campaign: $PWD/s.tsv: changed since $PWD/e-out was planned with it: remove $PWD/e-out or set another output"
	cp "$SPACE" s.tsv
	sa-campaign -q plan e.campaign
	sed -i 's/^Seg0/Seg0/; $ s/$/ /' w.wf
	run sa-campaign plan e.campaign
	assert_failure 1
	assert_output --partial "w.wf: changed since $PWD/e-out was planned"
	cp "$TOP/share/workflows/nuclei.wf" w.wf
	echo b.png >> tiles/list
	run sa-campaign status e.campaign
	assert_failure 1
	assert_output --partial "tiles/list lists other tiles (or the same at other paths) than $PWD/e-out was planned with"
	cmp design.before e-out/design.tsv
	run find e-out -name '.*.tmp*'
	assert_output ''
}

@test "bad campaign files: exit 1 naming file and line, nothing run" {
	tiles 160
	campaign c.campaign
	printf 'foo = 1\n' >> c.campaign
	run sa-campaign plan c.campaign
	assert_failure 1
	assert_output "sa-campaign: c.campaign:11: unknown key 'foo'"
	assert [ ! -e c-out ]
	campaign c.campaign merge=fast
	run sa-campaign plan c.campaign
	assert_failure 1
	assert_output --partial "c.campaign:10: merge: 'fast' is not none, stage"
	campaign c.campaign trajectories=0
	run sa-campaign plan c.campaign
	assert_output --partial "trajectories: '0' is not a positive integer"
	campaign c.campaign
	printf 'seed = 5\n' >> c.campaign
	run sa-campaign plan c.campaign
	assert_output "sa-campaign: c.campaign:11: key 'seed' repeats line 5"
	campaign c.campaign
	printf 'just words\n' >> c.campaign
	run sa-campaign plan c.campaign
	assert_output "sa-campaign: c.campaign:11: not a 'key = value' line"
	campaign c.campaign space=nowhere.tsv
	run sa-campaign plan c.campaign
	assert_failure 1
	assert_output --partial "space: $PWD/nowhere.tsv: no such readable file"
	campaign c.campaign reference=nodir
	run sa-campaign plan c.campaign
	assert_output --partial "reference: $PWD/nodir: no such directory"
	campaign c.campaign merge=trtma
	run sa-campaign plan c.campaign
	assert_output --partial "merge = trtma needs max_buckets or cores"
	sed '/^method/d' c.campaign > m.campaign
	run sa-campaign plan m.campaign
	assert_output --partial "no 'method' key"
	run sa-campaign plan none.campaign
	assert_failure 1
	assert_output --partial "none.campaign: no such readable file"
	assert [ ! -e c-out ]
}

@test "an engine whose commands are not installed is refused before anything runs" {
	tiles 160
	mkdir path
	for c in bash dirname basename cat grep tail wc mkdir cmp cp mv rm awk nproc sed \
	    sa-sample wf-compact reuse-merge seg-run sa-indices; do
		ln -s "$(command -v $c)" path/$c
	done
	for e in slurm pbs; do
		campaign c.campaign engine=$e
		PATH=$PWD/path run "$SR_BIN/sa-campaign" run c.campaign
		assert_failure 1
		assert_output --partial "engine $e: "
		assert_output --partial "not found: install"
		assert [ ! -e c-out ]
	done
	campaign c.campaign
	PATH=$PWD/path run "$SR_BIN/sa-campaign" run c.campaign
	assert_failure 1
	assert_output --partial "engine local: parallel not found: install GNU parallel"
}

# bats test_tags=fast
@test "usage: --help, --version, unknown commands and options" {
	run sa-campaign --help
	assert_success
	assert_output --partial 'Usage: sa-campaign'
	run sa-campaign --version
	assert_success
	assert_output --regexp '^sa-campaign \(sareuse\) [0-9.]+$'
	run sa-campaign frobnicate c.campaign
	assert_failure 2
	run sa-campaign --frobnicate run c.campaign
	assert_failure 2
	run sa-campaign run
	assert_failure 2
	run sa-campaign bucket c.campaign
	assert_failure 2
}

@test "the PBS array script run by hand with PBS_ARRAY_INDEX, then PBS_ARRAYID, processes that bucket" {
	tiles 160
	campaign c.campaign
	sa-campaign -q reference c.campaign
	mkdir c-out/jobs
	printf '%s\n%s\n' "$TOP/workflows/sa-campaign" "$PWD/c.campaign" > c-out/jobs/settings
	export PBS_O_WORKDIR=$PWD/c-out
	PBS_ARRAY_INDEX=3 "$TOP/slurm/pbs/sa-bucket.pbs"
	PBS_ARRAYID=5 "$TOP/slurm/pbs/sa-bucket.pbs"
	assert_equal "$(ls c-out/results)" "$(printf '00003-0000.tsv\n00005-0000.tsv')"
	assert_equal "$(cut -d' ' -f1 c-out/logs/attempts | tr '\n' ' ')" "3 5 "
	grep -q '^#bucket=3 ' c-out/results/00003-0000.tsv
	assert_equal "$(tail -n 1 c-out/logs/bucket-00005-0000.log)" "sa-campaign job: exit 0"
	# an array's offset (SA_TASK_OFFSET): array task 1 of the array from 6
	PBS_ARRAYID=1 SA_TASK_OFFSET=6 "$TOP/slurm/pbs/sa-bucket.pbs"
	[ -s c-out/results/00007-0000.tsv ]
	run env -u PBS_ARRAY_INDEX -u PBS_ARRAYID -u SLURM_ARRAY_TASK_ID "$TOP/slurm/pbs/sa-bucket.pbs"
	assert_failure 1
	assert_output --partial "not an array task"
}

@test "fix = B=2? is never globbed: refused as no value of B, even beside files B=22 and B=220" {
	tiles 160
	: > B=22
	: > B=220
	campaign c.campaign 'fix=B=2?'
	run sa-campaign plan c.campaign
	assert_failure 1
	assert_output "sa-campaign: c.campaign:11: fix: B=2?: '2?' is not a value of B (int 210:10:240, default 220)"
	campaign c.campaign 'fix=B=22?'
	run sa-campaign plan c.campaign
	assert_failure 1
	assert_output --partial "fix: B=22?: '22?' is not a value of B"
	campaign c.campaign 'fix=Q=1'
	run sa-campaign plan c.campaign
	assert_output "sa-campaign: c.campaign:11: fix: Q=1: no parameter Q in $SPACE"
	assert [ ! -e c-out ]
}

@test "a 10 MB line is refused at once, naming file and line" {
	campaign c.campaign
	head -c 10485760 /dev/zero | tr '\0' x >> c.campaign
	run timeout 5 sa-campaign plan c.campaign
	assert_failure 1
	assert_output "sa-campaign: c.campaign:11: a line longer than 65536 bytes"
}

@test "sourced, sa-campaign runs nothing and its functions work: bucket_name, ranges, unfinished, read_settings" {
	source "$SR_BIN/sa-campaign"
	assert_equal "$(bucket_name 7)" 00007
	assert_equal "$(bucket_name 123456)" 123456
	assert_equal "$(printf '%s\n' 0 1 2 3 7 9 10 | ranges)" 0-3,7,9-10
	assert_equal "$(echo 5 | ranges)" 5
	mkdir -p o/results
	: > o/results/00001.tsv	# empty: not done
	echo x > o/results/00002.tsv
	assert_equal "$(unfinished o 4 | tr '\n' ' ')" "0 1 3 "
	tiles 16
	campaign 'my campaign' 'fix=B=220,  G=230' 'sbatch_options=--comment="a  b" *'
	read_settings 'my campaign' ''
	assert_equal "${#sample_args[@]}" 12
	assert_equal "${sample_args[*]}" "-m moat -r 2 -p 4 -s 3 --fix B=220 --fix G=230"
	assert_equal "${merge_args[*]}" "-a rtma -b 4 --cost tasks"
	assert_equal "${conf[output]}" "$PWD/my campaign-out"
	assert_equal "${conf[reference_dir]}" "$PWD/tiles"
	assert_equal "${conf[sbatch_options]}" '--comment="a  b" *'
	assert_equal "${conf[indices_method]}" moat
	read_settings 'my campaign' elsewhere
	assert_equal "${conf[output]}" "$PWD/elsewhere"
	assert_equal "${#sample_args[@]}" 12
}

@test "workflows/sa-campaign of the source tree finds its helper, engines and the default workflow" {
	tiles 160
	campaign c.campaign
	sed -i '/^workflow/d' c.campaign
	run "$TOP/workflows/sa-campaign" -q plan c.campaign
	assert_success
	[ -s c-out/buckets.tsv ]
	grep -q "^workflow $(cksum < "$TOP/share/workflows/nuclei.wf")\$" c-out/inputs
}

@test "two live runs of one output: the second is refused (lock), whatever the campaign; a dead holder's lock is broken" {
	tiles 160
	campaign c.campaign
	campaign d.campaign seed=4
	setsid sa-campaign -q run c.campaign > log 2>&1 &
	pid=$!
	for k in $(seq 100); do [ -e c-out/.lock ] && break; sleep 0.05; done
	run sa-campaign run c.campaign
	assert_failure 1
	assert_output --partial "c-out/.lock: held by pid $pid on "
	assert_output --partial "another sa-campaign works on this output"
	run sa-campaign -o c-out plan d.campaign
	assert_failure 1
	assert_output --partial "held by pid $pid"
	wait "$pid"
	[ ! -e c-out/.lock ]
	# the other campaign, once the first is done: refused, never mixed
	run sa-campaign -o c-out run d.campaign
	assert_failure 1
	assert_output --partial "holds another campaign (planned with seed = 3, d.campaign has seed = 4)"
	# a lock left by a dead process of this host is stale
	sh -c 'echo "$(hostname) $$ 1" > c-out/.lock'
	sa-campaign -q run c.campaign
	[ ! -e c-out/.lock ]
}

@test "plans are transactional: a failed plan then an edited seed is planned afresh; analysis keys and comments stay free" {
	tiles 160
	echo 'not a workflow' > bad.wf
	campaign c.campaign workflow=bad.wf
	run sa-campaign plan c.campaign
	assert_failure 1
	[ ! -e c-out/design.tsv ] && [ ! -e c-out/inputs ]
	campaign c.campaign seed=9
	campaign ref.campaign seed=9
	sa-campaign -q plan ref.campaign
	sa-campaign -q plan c.campaign
	assert_equal "$(body c-out/design.tsv)" "$(body ref-out/design.tsv)"
	grep -qx 'seed = 9' c-out/inputs
	run find c-out -name '.*.tmp*'
	assert_output ''
	# a half-committed plan (killed while moving it in): planned again
	rm c-out/inputs
	echo junk > c-out/design.tsv
	sa-campaign -q plan c.campaign
	assert_equal "$(body c-out/design.tsv)" "$(body ref-out/design.tsv)"
	# analysis keys, engine keys and comments: accepted after a run
	sa-campaign -q run c.campaign
	printf '# a comment\nresamples = 50\nplot = no\nmetric = jaccard\njobs = 1\n' >> c.campaign
	run sa-campaign run c.campaign
	assert_success
	# a plan key: refused, nothing rewritten
	cp -p c-out/design.tsv design.before
	echo 'bucket_size = 2' >> c.campaign
	sed -i '/^bucket_size = 4/d' c.campaign
	run sa-campaign run c.campaign
	assert_failure 1
	assert_output --partial "holds another campaign (planned with bucket_size = 4, c.campaign has bucket_size = 2)"
	cmp design.before c-out/design.tsv
	# results without a complete plan: refused
	rm c-out/inputs
	run sa-campaign plan c.campaign
	assert_failure 1
	assert_output --partial "holds bucket results but no complete plan"
}

@test "plan prints a summary: runs, stage instances, buckets, task nodes with and without reuse, memory per array task" {
	tiles 160
	campaign c.campaign
	run --separate-stderr sa-campaign plan c.campaign
	assert_success
	assert_output ''
	assert_equal "$(sed -n 1p <<< "$stderr")" "sa-campaign: plan: 32 runs, 65 stage instances, $(body c-out/buckets.tsv | tail -n +2 | wc -l) buckets x 1 chunk(s) of up to 16 tiles (2 tile(s) in all) = $(body c-out/buckets.tsv | tail -n +2 | wc -l) array tasks (0-$(($(body c-out/buckets.tsv | tail -n +2 | wc -l) - 1))): $PWD/c-out/buckets.tsv"
	stats=$(sed -n 's/^#stats //p' c-out/buckets.tsv)
	grep -qF "task nodes: $(tr ' ' '\n' <<< "$stats" | sed -n 's/^tasks_noreuse=//p') without reuse" <<< "$stderr"
	assert_equal "$(sed -n 3p <<< "$stderr")" "sa-campaign: memory per array task: $(seg-run --estimate-memory --tiles c-out/tiles.list)M for 1 active path(s) on the largest tile"
	assert_equal "$(sed -n 4p <<< "$stderr" | sed 's/([0-9.]* s)/(S s)/; s/, [0-9.e-]* core-hours/, C core-hours/')" "sa-campaign: estimate: the buckets take 0:00:00 (S s) on 2 slot(s) (2 at a time, local), C core-hours; from the workflow's costs (seconds on a 4096x4096 tile, scaled to these tiles' pixels)"
	run --separate-stderr sa-campaign -q plan c.campaign
	assert_equal "$stderr" ''
	# the estimate from the workflow's costs: every run alone (merge =
	# none) on one slot: 32 runs x 2 tiles x the workflow's 1.778 s of
	# tasks x (160/4096)^2 of a 4096x4096 tile's pixels = 0.1736 s; core-hours from
	# sim-runtime's work to 4 significant digits, 0.1736 / 3600
	campaign n.campaign merge=none jobs=1
	run --separate-stderr sa-campaign plan n.campaign
	assert_success
	grep -qxF "sa-campaign: estimate: the buckets take 0:00:00 (0.1736 s) on 1 slot(s) (1 at a time, local), 4.822e-05 core-hours; from the workflow's costs (seconds on a 4096x4096 tile, scaled to these tiles' pixels)" <<< "$stderr"
	# Slurm: array_limit slots, else every array task at once
	campaign s.campaign engine=slurm array_limit=3
	run --separate-stderr sa-campaign plan s.campaign
	grep -q "^sa-campaign: estimate: .* on 3 slot(s) (array_limit, slurm), " <<< "$stderr"
	campaign s.campaign engine=slurm
	run --separate-stderr sa-campaign plan s.campaign
	grep -q "^sa-campaign: estimate: .* on $(body s-out/buckets.tsv | tail -n +2 | wc -l) slot(s) (every array task at once: no array_limit), " <<< "$stderr"
}

@test "plan's estimate from a campaign that ran (estimate_from): sim-runtime --fit on its timings, for the engine's slots" {
	tiles 160
	campaign small.campaign
	sa-campaign -q run small.campaign
	campaign big.campaign trajectories=4 seed=9 jobs=2 estimate_from=small-out
	run --separate-stderr sa-campaign plan big.campaign
	assert_success
	line=$(grep '^sa-campaign: estimate: ' <<< "$stderr")
	# what sim-runtime predicts from the small campaign's timings, the
	# reference step's normalization, for the big one's plan
	rep=$(sim-runtime --fit --ref-timings small-out/ref/timings.tsv \
	    --skip-stage normalize --workflow "$TOP/share/workflows/nuclei.wf" \
	    --instances big-out/instances.tsv -n 2 small-out/timings big-out/buckets.tsv)
	want=$(awk -F '\t' '/^#/ { next } !h++ { for (i = 1; i <= NF; i++) c[$i] = i; next }
	    { printf "%.4g s) on 2 slot(s) (2 at a time, local), %.4g core-hours; fitted to the timings of", $c["makespan"], $c["work"] / 3600 }' <<< "$rep")
	assert_equal "${line#*(}" "$want $PWD/small-out"
	# a campaign that did not run: the plan goes on without an estimate
	rm -r small-out/timings
	run --separate-stderr sa-campaign plan big.campaign
	assert_failure 1
	assert_equal "$stderr" "sa-campaign: big.campaign:12: estimate_from: $PWD/small-out: not the output of a campaign that ran (no timings/ and ref/timings.tsv)"
}

@test "analysis keys changed after the buckets ran (aggregate, resamples, plot): merge computes the indices again, no bucket runs again" {
	tiles 160
	campaign c.campaign plot=no
	sa-campaign -q run c.campaign
	n=$(wc -l < c-out/logs/attempts)
	cp c-out/indices.tsv mean.tsv
	sed -i 's/^plot = no$/plot = yes/' c.campaign
	printf '%s\n' 'aggregate = median' 'resamples = 50' >> c.campaign
	run sa-campaign -q merge c.campaign
	assert_success
	assert_equal "$(wc -l < c-out/logs/attempts)" "$n"
	sa-indices -m moat --aggregate median -r 50 -s 3 -o want.tsv c-out/design.tsv c-out/results.tsv
	assert_equal "$(body c-out/indices.tsv)" "$(body want.tsv)"
	[ "$(body c-out/indices.tsv)" != "$(body mean.tsv)" ] || fail "the median gave the mean's indices"
	[ -s c-out/indices.png ]
	# run does the same, and runs no bucket either
	sa-campaign -q run c.campaign
	assert_equal "$(wc -l < c-out/logs/attempts)" "$n"
	# aggregate is refused in a tune campaign (it ranks by the mean)
	campaign t.campaign goal=tune method=random samples=4 aggregate=sum
	run sa-campaign plan t.campaign
	assert_failure 1
	assert_output --partial "aggregate: only for goal = sensitivity"
}

@test "cancel: stops a local run (its buckets too, its lock removed); nothing to cancel then; run again resumes to the same indices" {
	tiles 500
	campaign ref.campaign bucket_size=4 plot=no trajectories=1
	campaign c.campaign bucket_size=4 plot=no trajectories=1 jobs=1
	sa-campaign -q run ref.campaign
	setsid sa-campaign -q run c.campaign > log 2>&1 &
	for _ in $(seq 100); do	# a bucket started
		[ -s c-out/logs/attempts ] && break
		sleep 0.1
	done
	run sa-campaign cancel c.campaign
	assert_success
	assert_output --regexp '^stopped: the local run \(pid [0-9]+, since '
	wait || true
	gone "$PWD/c-out" || fail "processes left"
	assert [ ! -e c-out/.lock ]
	run find c-out -name '.*.tmp*'
	assert_output ''
	run sa-campaign cancel c.campaign
	assert_success
	assert_output "nothing to cancel: no run or job of $PWD/c-out is active"
	sa-campaign -q run c.campaign
	assert_equal "$(body c-out/indices.tsv)" "$(body ref-out/indices.tsv)"
	run sa-campaign cancel c.campaign extra
	assert_failure 2
}

@test "kill -9 of the run's process group at 6 seeded moments, each resumed: same indices, no process, no temporary left" {
	# one bucket of the 16 runs on two 500x500 tiles: it runs for about
	# 0.6 s, so some kills find it running with more than 0.3 s to go
	tiles 500
	campaign ref.campaign bucket_size=16 plot=no trajectories=1
	campaign c.campaign bucket_size=16 plot=no trajectories=1
	sa-campaign -q run ref.campaign
	# (make check-stops: 50 random stops of sensitivity and tune
	# campaigns, pid and group, KILL, TERM and INT)
	n=6
	[ -z "${VALGRIND:-}" ] || n=3
	RANDOM=12	# the moments: seeded, printed
	for ((k = 0; k < n; k++)); do
		ms=$((RANDOM % 800))
		echo "kill $k at ${ms} ms" >&3
		rm -rf c-out
		setsid sa-campaign -q run c.campaign > log 2>&1 &
		pid=$!
		sleep "$(printf '0.%03d' "$ms")"
		kill -KILL -- -"$pid" 2> /dev/null || true
		wait "$pid" || true
		# the buckets' watchdogs poll every 0.1 s: after a second (ten
		# polls, on a loaded machine) nothing of the run may start,
		# finish or write any more
		sleep 1
		touch stop
		tried=$(cat c-out/logs/attempts 2> /dev/null | wc -l)
		gone "$PWD/c-out" || fail "kill $k at $ms ms: processes left"
		# killed before it made c-out (a loaded machine): nothing written
		if [ -e c-out ]; then
			run find c-out -newer stop ! -name '.*.tmp.*' ! -type d
			[ -z "$output" ] || fail "kill $k at $ms ms: written after the kill: $output"
		fi
		assert_equal "$(cat c-out/logs/attempts 2> /dev/null | wc -l)" "$tried"
		sa-campaign -q run c.campaign || fail "kill $k at $ms ms: the resume failed"
		assert_equal "$(body c-out/indices.tsv)" "$(body ref-out/indices.tsv)"
		run find c-out -name '.*.tmp*' -o -name '.lock*'
		assert_output ''
		gone "$PWD/c-out" || fail "kill $k at $ms ms: processes left after the resume"
	done
}

@test "campaign errors the tools would find are refused with the campaign's file and line, before anything is made" {
	tiles 160
	: > afile
	campaign c.campaign
	run sa-campaign -o afile plan c.campaign
	assert_failure 1
	assert_output "sa-campaign: c.campaign: output: $PWD/afile exists and is not a directory"
	run sa-campaign -o $'x\ny' plan c.campaign
	assert_failure 1
	assert_output "sa-campaign: c.campaign: output: a newline or tab in the path: no engine carries it; rename it"
	campaign c.campaign seed=9999999999999
	run sa-campaign plan c.campaign
	assert_output "sa-campaign: c.campaign:10: seed: seeds go from 0 to 4294967294"
	campaign c.campaign trajectories=1000000000
	run sa-campaign plan c.campaign
	assert_output "sa-campaign: c.campaign:10: trajectories: moat: 1.6e+10 runs is too many (limit 1e+09)"
	campaign c.campaign bucket_size=99999999999
	run sa-campaign plan c.campaign
	assert_output "sa-campaign: c.campaign:10: bucket_size: at most 1e9"
	# a grid counts the values of each parameter not fixed, as sa-sample
	# does (levels only for continuous ranges): the whole of nuclei.tsv
	# is refused with sa-sample's count, two parameters left are planned
	campaign c.campaign method=grid
	run sa-campaign plan c.campaign
	assert_output "sa-campaign: c.campaign: levels: grid: 2.14e+13 runs is too many (limit 1e+09)"
	run sa-sample -m grid "$SPACE"
	assert_output --partial "grid: 2.144e+13 runs is too many"
	campaign c.campaign method=grid \
	    fix=B=220,G=220,R=220,T1=5,T2=4,minSize=12,maxSize=1000,minSizePl=30,minSizeSeg=20,maxSizeSeg=1000,FillHoles=4,MorphRecon=8,Watershed=8
	sa-campaign -q plan c.campaign
	assert_equal "$(body c-out/design.tsv | tail -n +2 | wc -l)" 320	# G1 16 x G2 20
	rm -r c-out
	assert [ ! -e c-out ] && assert [ ! -e x ]
	# tiles the engines cannot name: refused with the list's line
	printf 'a.png\nb\tc.png\n' > tiles/list
	campaign c.campaign
	run sa-campaign plan c.campaign
	assert_output "sa-campaign: $PWD/tiles/list:2: a tab in a tile's name: rename the tile"
	printf 'a.png\n.png\n' > tiles/list
	run sa-campaign plan c.campaign
	assert_output "sa-campaign: $PWD/tiles/list:2: '.png': a tile needs a name before its extension"
	assert [ ! -e c-out/design.tsv ]
}

@test "hostile but legal names with the local engine: a space, a leading '-' (a directory, a campaign file), a quote in the output" {
	tiles 64
	mkdir 'my dir' -- '-x'
	campaign 'my dir/c.campaign' bucket_size=4 plot=no trajectories=1 tiles=../tiles/list reference=../tiles
	cp 'my dir/c.campaign' -- '-x/c.campaign'
	sa-campaign -q run 'my dir/c.campaign'
	[ -s 'my dir/c-out/indices.tsv' ]
	(cd -- -x && sa-campaign -q run -- c.campaign) || fail "a directory named -x"
	[ -s -x/c-out/indices.tsv ]
	run sa-campaign -q -o "q'out" run 'my dir/c.campaign'
	assert_success
	assert_equal "$(body "q'out/indices.tsv")" "$(body 'my dir/c-out/indices.tsv')"
	# a campaign file named -y.campaign: every internal command line
	# puts -- before its operands (the buckets' too)
	campaign ./-y.campaign bucket_size=4 plot=no trajectories=1
	run sa-campaign -q run -- -y.campaign
	assert_success
	assert_equal "$(body ./-y-out/indices.tsv)" "$(body 'my dir/c-out/indices.tsv')"
}

@test "a job's PATH without the sareuse tools: those beside sa-campaign are used (PBS jobs need no -V)" {
	tiles 160
	campaign c.campaign
	sa-campaign -q plan c.campaign
	PATH=/usr/bin:/bin run "$SR_BIN/sa-campaign" -q reference c.campaign
	assert_success
	PATH=/usr/bin:/bin run "$SR_BIN/sa-campaign" -q bucket c.campaign 0
	assert_success
	[ -s c-out/results/00000-0000.tsv ]
}

@test "bucket: seg-run exiting 3 (I/O or system failure) is tried again once, in place; exiting 3 twice, or 1, fails the bucket" {
	tiles 160
	campaign c.campaign
	sa-campaign -q reference c.campaign
	# a seg-run first on PATH that exits with the codes queued in
	# $PWD/codes, one per call, then runs the real one
	mkdir wrap
	cat > wrap/seg-run <<EOF
#!/bin/bash
echo call >> "$PWD/calls"
code=\$(head -n 1 "$PWD/codes" 2> /dev/null)
if [ -n "\$code" ]; then
	sed -i 1d "$PWD/codes"
	echo "seg-run: results.tsv: No space left on device" >&2
	exit "\$code"
fi
exec "$(command -v seg-run)" "\$@"
EOF
	chmod +x wrap/seg-run
	echo 3 > codes
	PATH=$PWD/wrap:$PATH run sa-campaign -q bucket c.campaign 0
	assert_success
	assert_output --partial "sa-campaign: task 0 (bucket 0, chunk 0): seg-run exited 3 (I/O or system failure): trying again once"
	[ -s c-out/results/00000-0000.tsv ]
	[ ! -e c-out/logs/failed/00000-0000 ]
	assert_equal "$(wc -l < calls)" 2
	assert_equal "$(awk '$1 == 0' c-out/logs/attempts | wc -l)" 1
	# twice 3: one retry only, then the bucket fails
	rm calls
	printf '3\n3\n' > codes
	PATH=$PWD/wrap:$PATH run sa-campaign -q bucket c.campaign 1
	assert_failure 1
	assert_output --partial "sa-campaign: task 1 (bucket 1, chunk 0) failed"
	assert_equal "$(wc -l < calls)" 2
	[ -e c-out/logs/failed/00001-0000 ] && [ ! -e c-out/results/00001-0000.tsv ]
	# 1, bad data: not tried again
	rm calls
	echo 1 > codes
	PATH=$PWD/wrap:$PATH run sa-campaign -q bucket c.campaign 1
	assert_failure 1
	refute_output --partial "trying again"
	assert_equal "$(wc -l < calls)" 1
	[ -e c-out/logs/failed/00001-0000 ]
	# status names the failed bucket (its log: a local run's bucket's)
	run sa-campaign status c.campaign
	assert_output --partial "failed: task 1 (bucket 1, chunk 0); the end of $PWD/c-out/logs/bucket-00001-0000.log:"
	echo 1 > codes
	PATH=$PWD/wrap:$PATH SA_CAMPAIGN_PARENT=$$ run sa-campaign -q bucket c.campaign 1
	assert_failure 1
	run sa-campaign status c.campaign
	assert_line "  seg-run: results.tsv: No space left on device"
	# the same bucket, nothing queued: done, its failure record removed
	PATH=$PWD/wrap:$PATH sa-campaign -q bucket c.campaign 1
	[ -s c-out/results/00001-0000.tsv ] && [ ! -e c-out/logs/failed/00001-0000 ]
	run sa-campaign status c.campaign
	assert_output --partial 'done=2 running=0 pending=0 failed=0'
}

@test "tuning keys through sa-campaign: refused with file and line in a sensitivity campaign, with another rule, and what tune needs; nothing made" {
	tiles 160
	campaign c.campaign cancel=median
	run sa-campaign plan c.campaign
	assert_failure 1
	assert_output "sa-campaign: c.campaign:11: cancel: only for goal = tune (this campaign's goal is sensitivity)"
	campaign c.campaign cancel_window=3
	run sa-campaign plan c.campaign
	assert_output "sa-campaign: c.campaign:11: cancel_window: only for goal = tune (this campaign's goal is sensitivity)"
	campaign c.campaign goal=tune method=random samples=8 cancel=median cancel_p=0.2
	run sa-campaign plan c.campaign
	assert_failure 1
	assert_output "sa-campaign: c.campaign:14: cancel_p: only for cancel = wilcoxon (this campaign's cancel is median)"
	campaign c.campaign goal=tune
	run sa-campaign plan c.campaign
	assert_output "sa-campaign: c.campaign:3: method: moat is a design for sensitivity indices, refused with goal = tune: use grid, random, lhs, sobol, halton, hammersley or mc"
	campaign c.campaign goal=tune method=random reference=defaults
	sed -i '/^reference_suffix/d' c.campaign
	run sa-campaign plan c.campaign
	assert_output "sa-campaign: c.campaign:10: reference: defaults is refused with goal = tune: tuning scores every set against ground-truth masks; give their directory"
	campaign c.campaign goal=tune method=random metric=objects
	run sa-campaign plan c.campaign
	assert_output "sa-campaign: c.campaign:12: metric: objects is a count, not a score, refused with goal = tune: use dice, jaccard, object_dice or aji"
	assert [ ! -e c-out ]
}

@test "a sensitivity campaign with tile_order = shuffle: its rows in the shuffled order, the same indices" {
	tiles 160
	campaign l.campaign plot=no
	campaign s.campaign plot=no tile_order=shuffle seed=3
	sa-campaign -q run l.campaign
	sa-campaign -q run s.campaign
	assert_equal "$(body s-out/indices.tsv)" "$(body l-out/indices.tsv)"
	assert_equal "$(body s-out/results.tsv | sort | cut -f 1-8)" "$(body l-out/results.tsv | sort | cut -f 1-8)"
	grep -q -- '--tile-order shuffle:3' s-out/results/00000-0000.tsv
}

@test "a planned sensitivity output refuses the campaign made a tune one, and the other way round, naming the goal" {
	tiles 160
	campaign s.campaign method=random samples=4
	sa-campaign -q -o out plan s.campaign
	campaign t.campaign method=random samples=4 goal=tune
	run sa-campaign -o out plan t.campaign
	assert_failure 1
	assert_output --partial "holds another campaign (planned without goal = tune, t.campaign has it)"
	campaign t.campaign method=random samples=4 goal=tune
	sa-campaign -q -o tout plan t.campaign
	grep -qx 'goal = tune' tout/inputs
	grep -qx 'cancel = stable' tout/inputs
	grep -qx 'metric = dice' tout/inputs
	# in a tune campaign the metric decides the runs (what is cancelled)
	campaign t2.campaign method=random samples=4 goal=tune metric=aji
	run sa-campaign -o tout plan t2.campaign
	assert_failure 1
	assert_output --partial "holds another campaign (planned with metric = dice, t2.campaign has metric = aji)"
	run sa-campaign -o tout plan s.campaign
	assert_failure 1
	assert_output --partial "holds another campaign (planned with goal = tune, s.campaign has no goal)"
}

# tune_campaign NAME CANCEL...: a tune campaign of 8 random sets, one
# bucket at a time (jobs = 1), on the
# two tiles against their ground truth, run to the end
tune_campaign() {
	local name=$1
	shift
	campaign "$name.campaign" goal=tune method=random samples=8 seed=5 \
	    bucket_size=2 jobs=1 "$@"
	sed -i '/^trajectories/d' "$name.campaign"
	sa-campaign -q run "$name.campaign"
}

@test "a tune campaign end to end, cancel = none and median: ledger, trials and best agree" {
	tiles 160
	tune_campaign none cancel=none
	tune_campaign median cancel=median cancel_warmup=1 cancel_startup=2
	for o in none median; do
		for f in ledger.tsv trials.tsv best.tsv tune.png results.tsv; do
			[ -s "$o-out/$f" ] || fail "no $o-out/$f"
		done
		assert [ ! -e "$o-out/indices.tsv" ]
		[ "$(head -c 4 "$o-out/tune.png" | tail -c 3)" = PNG ]
		# the best set: trials' first row, best.tsv's run, the design's values
		best=$(body "$o-out/trials.tsv" | awk -F'\t' 'NR == 2 && $2 == "complete" { print $1 }')
		[ -n "$best" ] || fail "$o: no complete set first"
		grep -q "^#best run=$best metric=dice " "$o-out/best.tsv"
		assert_equal "$(sa-sample --reference "$o-out/best.tsv" | grep -v '^#' | tail -1 | cut -f 2-)" \
		    "$(grep -v '^#' "$o-out/design.tsv" | awk -F'\t' -v r="$best" '$1 == r' | cut -f 2-)"
		# the ledger's results: one per run and tile with a value, their
		# means those of trials.tsv; its cancellations those of trials.tsv
		awk -F'\t' '$1 == "result" && !seen[$2 "\t" $3]++ { s[$2] += $4; n[$2]++ }
		    END { for (r in n) printf "%s\t%d\t%.12f\n", r, n[r], s[r] / n[r] }' \
		    "$o-out/ledger.tsv" | sort -n > ledger.means
		body "$o-out/trials.tsv" | awk -F'\t' 'NR > 1 && $3 > 0 { printf "%s\t%d\t%.12f\n", $1, $3, $4 }' |
		    sort -n > trials.means
		assert_equal "$(cat ledger.means)" "$(cat trials.means)"
		for r in $(body "$o-out/trials.tsv" | awk -F'\t' '$2 == "cancelled" { print $1 ":" $8 }'); do
			awk -F'\t' -v r="${r%:*}" -v k="${r#*:}" '$1 == "cancel" && $2 == r && $3 == k { f = 1 } END { exit !f }' \
			    "$o-out/ledger.tsv" || fail "$o: set ${r%:*} cancelled at ${r#*:} tiles: no such cancel row in the ledger"
			assert_equal "$(awk -F'\t' -v r="${r%:*}" '$1 == r && $3 == "cancelled"' <(body "$o-out/results.tsv") | wc -l)" \
			    "$((2 - ${r#*:}))"
		done
		run sa-campaign status "$o.campaign"
		assert_success
		assert_output --regexp "sets=8 complete=[0-9]+ running=0 cancelled=[0-9]+ waiting=0 best=$best dice=0\.[0-9]{4}"
		assert_output --partial "best: $PWD/$o-out/best.tsv"
	done
	# cancel = none cancels nothing; the same design in both
	grep -q ' complete=8 cancelled=0 failed=0 ' none-out/trials.tsv
	assert_equal "$(awk -F'\t' '$1 == "cancel"' none-out/ledger.tsv)" ''
	assert_equal "$(body median-out/design.tsv)" "$(body none-out/design.tsv)"
	# the sets complete in both: identical rows, seconds aside
	join -t $'\t' <(trials_rows none-out/trials.tsv) \
	    <(trials_rows median-out/trials.tsv | awk -F'\t' '$2 == "complete"' | cut -f 1) > both
	join -t $'\t' <(trials_rows median-out/trials.tsv) <(cut -f 1 both) > both.median
	assert [ -s both ]
	assert_equal "$(cat both.median)" "$(cat both)"
	# the rule did cancel, and saved work
	[ "$(awk -F'\t' '$1 == "cancel"' median-out/ledger.tsv | wc -l)" -ge 1 ] || fail "median cancelled nothing"
	[ "$(body median-out/timings.tsv | wc -l)" -lt "$(body none-out/timings.tsv | wc -l)" ] ||
	    fail "median ran as many task nodes as none"
}

@test "warnings of the campaign file pass through sa-campaign, even with -q; a local run's buckets do not repeat them" {
	tiles 160
	campaign c.campaign plot=no trajectories=1 partition=debug
	run --separate-stderr sa-campaign -q plan c.campaign
	assert_success
	assert_equal "$stderr" "sa-campaign: c.campaign:12: partition: not used by engine = local (it concerns slurm)"
	run --separate-stderr sa-campaign -q run c.campaign
	assert_success
	assert_equal "$stderr" "sa-campaign: c.campaign:12: partition: not used by engine = local (it concerns slurm)"
	assert [ -s c-out/indices.tsv ]
	# a valid campaign: nothing on stderr with -q
	campaign v.campaign plot=no trajectories=1
	run --separate-stderr sa-campaign -q plan v.campaign
	assert_success
	assert_equal "$stderr" ''
}

@test "run: a VBD campaign with second_order = yes writes indices-s2.tsv (k(k-1)/2 pairs) and indices-s2.png" {
	command -v gnuplot > /dev/null || skip "gnuplot is not installed"
	tiles 96
	# G1, G2 and maxSize vary: 4 samples of 2k + 2 = 8 runs each
	campaign v.campaign method=vbd samples=4 second_order=yes \
	    fix=B=220,G=220,R=220,T1=5.0,T2=4.0,minSize=10,minSizePl=30,minSizeSeg=20,maxSizeSeg=1000,FillHoles=4,MorphRecon=8,Watershed=8
	sed -i '/^trajectories = /d' v.campaign
	run sa-campaign run v.campaign
	assert_success
	for f in indices.tsv indices.png indices-s2.tsv indices-s2.png; do
		[ -s "v-out/$f" ] || fail "no v-out/$f"
	done
	[ "$(head -c 4 v-out/indices-s2.png | tail -c 3)" = PNG ]
	assert_equal "$(body v-out/indices.tsv | awk 'NR > 1' | wc -l)" 3
	assert_equal "$(body v-out/indices-s2.tsv | head -n 1 | cut -f1-3)" $'param_i\tparam_j\tS2'
	assert_equal "$(body v-out/indices-s2.tsv | awk 'NR > 1' | wc -l)" 3
	grep -q '^#method=vbd .* order=2' v-out/indices-s2.tsv
}
