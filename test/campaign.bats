#!/usr/bin/env bats
# sa-campaign: campaigns end to end with the local engine (GNU parallel),
# plans with and without reuse, the merge, outputs and names, tune
# campaigns. (campaign-resume.bats: stops, resumption and the lock;
# campaign-plan.bats: plans and bad campaign files; campaign-slides.bats:
# slides and tile tables.)
load common

load campaign
bats_require_minimum_version 1.5.0

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
	echo '# a note' >> w.wf
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
	# the report says what it saved: the task nodes of the plan (the
	# same in both), those run (the merged stage's rows of timings.tsv)
	for o in none median; do
		plan=$(($(sed -n 's/^#stats .* tasks_merged=\([0-9]*\) .*/\1/p' "$o-out/buckets.tsv") * 2))
		ran=$(grep -c -P '\tSeg[0-6]\t' "$o-out/timings.tsv")
		sed -n '/<section id="reuse">/,/<\/section>/p' "$o-out/report.html" > "$o.saved"
		grep -q "<td>merged into buckets (reuse-merge): the plan</td><td class=\"b\">.*</td><td class=\"n\">$plan</td>" "$o.saved" ||
		    fail "$o: the plan's $plan task nodes not in the report"
		grep -q "<td>run: the plan less what cancellation and stopped paths left out</td><td class=\"b\">.*</td><td class=\"n\">$ran</td>" "$o.saved" ||
		    fail "$o: the $ran task nodes run not in the report"
		eval "ran_$o=$ran"
	done
	assert [ "$ran_median" -lt "$ran_none" ]
	grep -q 'the nodes of the sets cancelled once they could no longer be the best' median.saved
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

@test "method = efast: samples runs a varied parameter on its search curves, the indices sa-indices -m efast gives on the campaign's design and results; too few samples and goal = tune refused when planning" {
	tiles 96
	campaign e.campaign method=efast samples=65 vary=G1,G2 -trajectories
	run -0 sa-campaign -q run e.campaign
	grep -q '^#method=efast n=65 k=2 params=G1,G2 M=4 seed=3$' e-out/design.tsv
	assert_equal "$(body e-out/design.tsv | awk 'NR > 1' | wc -l)" 130
	grep -q '^#method=efast metric=dice aggregate=mean runs=130 ' e-out/indices.tsv
	assert_equal "$(body e-out/indices.tsv | head -n 1)" $'param\tS1\tS1_conf\tST\tST_conf'
	sa-indices -m efast --metric dice -s 3 -o hand.tsv e-out/design.tsv e-out/results.tsv
	assert_equal "$(body e-out/indices.tsv)" "$(body hand.tsv)"
	[ "$(head -c 4 e-out/indices.png | tail -c 3)" = PNG ]
	grep -q '<td>G1</td>' e-out/report.html
	# 4 M^2 = 64 runs a parameter are too few: the campaign's line named
	campaign f.campaign method=efast samples=64 -trajectories
	run -1 sa-campaign plan f.campaign
	assert_output --partial "f.campaign:"
	assert_output --partial "samples: efast: a parameter's block needs more than 4 M^2 = 64 runs (M = 4)"
	assert [ ! -e f-out/design.tsv ]
	campaign t.campaign method=efast samples=65 goal=tune -trajectories
	run -1 sa-campaign plan t.campaign
	assert_output --partial "efast is a design for sensitivity indices, refused with goal = tune"
}

@test "method = rbd_fast and indices = pawn, delta or rbd_fast on a drawn design: the indices sa-indices gives on the campaign's design and results, the report's table follows the analysis; resamples warned of where unused; mismatches refused when planning" {
	tiles 96
	campaign r.campaign method=rbd_fast samples=42 vary=G1,G2 -trajectories
	run -0 sa-campaign -q run r.campaign
	grep -q '^#method=rbd_fast n=42 k=2 params=G1,G2 seed=3$' r-out/design.tsv
	assert_equal "$(body r-out/indices.tsv | head -n 1)" $'param\tS1\tS1_conf'
	sa-indices -m rbd_fast --metric dice -s 3 -o hand.tsv r-out/design.tsv r-out/results.tsv
	assert_equal "$(body r-out/indices.tsv)" "$(body hand.tsv)"
	# the same runs, other analyses: only the indices are computed again
	for a in pawn delta; do
		sed -i '/^indices/d' r.campaign
		echo "indices = $a" >> r.campaign
		run -0 sa-campaign run r.campaign
		refute_output --partial 'bucket'
		grep -q "^#method=$a metric=dice " r-out/indices.tsv
		sa-indices -m $a --metric dice -s 3 -o hand.tsv r-out/design.tsv r-out/results.tsv
		assert_equal "$(body r-out/indices.tsv)" "$(body hand.tsv)"
		# the report's table has the analysis' columns, ranked by its index
		grep -q "title=\"$a\">" r-out/report.html || fail "no $a column in the report"
		grep -q "sorted by $(case $a in pawn) echo PAWN ;; *) echo δ ;; esac), the largest first" r-out/report.html
	done
	# pawn has no bootstrap: resamples is warned of and not passed
	sed -i '/^indices/d' r.campaign
	printf '%s\n' 'indices = pawn' 'resamples = 50' >> r.campaign
	run -0 sa-campaign run r.campaign
	assert_output --partial "resamples: not used by indices = pawn (it concerns moat, vbd, efast, rbd_fast or delta)"
	# an analysis of its own design needs it; MOAT's runs are no sample
	campaign v.campaign method=lhs samples=40 indices=vbd -trajectories
	run -1 sa-campaign plan v.campaign
	assert_output --partial "indices: vbd analyzes its own design: give method = vbd (this campaign's is lhs)"
	campaign m.campaign indices=delta
	run -1 sa-campaign plan m.campaign
	assert_output --partial "indices: delta needs a sample of the space; a MOAT design's runs sit on a few levels"
	campaign t.campaign method=random samples=8 goal=tune indices=pawn -trajectories
	run -1 sa-campaign plan t.campaign
	assert_output --partial "indices: only for goal = sensitivity"
	campaign f.campaign method=rbd_fast samples=41 -trajectories
	run -1 sa-campaign plan f.campaign
	assert_output --partial "samples: rbd_fast: its analysis needs at least 42 runs"
}

@test "groups = tasks (vbd, moat): the parameters grouped by the workflow's task that reads them, indices per task; groups = stages; a space with its own group column; warned of with lhs" {
	tiles 96
	campaign g.campaign method=vbd samples=8 groups=tasks vary=G1,G2,minSize,maxSize,minSizeSeg -trajectories
	run -0 sa-campaign -q run g.campaign
	grep -q ' groups=Seg2:G1,Seg4:G2,Seg3:minSize+maxSize,Seg6:minSizeSeg ' g-out/design.tsv
	assert_equal "$(body g-out/indices.tsv | cut -f 1 | tr '\n' ' ')" "param Seg2 Seg4 Seg3 Seg6 "
	# 8 blocks of A, 4 groups, B
	assert_equal "$(body g-out/design.tsv | awk 'NR > 1' | wc -l)" 48
	sa-indices -m vbd --metric dice -s 3 -o hand.tsv g-out/design.tsv g-out/results.tsv 2> /dev/null
	assert_equal "$(body g-out/indices.tsv)" "$(body hand.tsv)"
	# every nuclei parameter is read in the segment stage: one group
	campaign s.campaign method=vbd samples=8 groups=stages vary=G1,G2 -trajectories
	run -0 sa-campaign plan s.campaign
	grep -q ' groups=segment:G1+G2 ' s-out/design.tsv
	# a space that groups its parameters itself: groups = no analyses them
	awk -F'\t' -v OFS='\t' '/^#/ { print; next } $1 == "name" { print $0, "group"; next }
	    { print $0, ($1 ~ /^G[12]$/ ? "gauss" : "-") }' "$SPACE" > own.tsv
	campaign o.campaign space=own.tsv method=vbd samples=8 vary=G1,G2,minSize -trajectories
	run -0 sa-campaign plan o.campaign
	grep -q ' groups=gauss:G1+G2,minSize:minSize ' o-out/design.tsv
	campaign p.campaign space=own.tsv method=vbd samples=8 groups=tasks -trajectories
	run -1 sa-campaign plan p.campaign
	assert_output --partial "own.tsv: a group column of its own: give groups = no"
	campaign m.campaign groups=tasks
	run -0 sa-campaign plan m.campaign
	grep -q '^#method=moat .* groups=' m-out/design.tsv
	campaign l.campaign method=lhs samples=8 groups=tasks -trajectories
	run -0 sa-campaign plan l.campaign
	assert_output --partial "groups: not used by method = lhs (it concerns vbd or moat)"
}
