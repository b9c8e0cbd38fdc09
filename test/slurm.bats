#!/usr/bin/env bats
# Job arrays through a real single-node Slurm cluster (munged, slurmctld,
# slurmd of Debian's slurm-wlm), started by test/slurm-cluster as root for
# this file and stopped by PID at its end. Skipped only when not root.
load common
load campaign

# (Bats 1.8 cannot skip from setup_file: setup skips each test instead.)
setup_file() {
	[ "$(id -u)" -eq 0 ] || return 0
	local env try
	# a few tries: a daemon can lose a race for its port on a busy host
	for try in 1 2 3; do
		rm -rf "$BATS_FILE_TMPDIR/slurm"
		env=$("$TOP/test/slurm-cluster" start "$BATS_FILE_TMPDIR/slurm") &&
		    break
		env=
		sleep 1
	done
	[ -n "$env" ] || return 1
	eval "$env"
	export SLURM_CONF
}

teardown_file() {
	if [ -d "$BATS_FILE_TMPDIR/slurm" ]; then
		"$TOP/test/slurm-cluster" stop "$BATS_FILE_TMPDIR/slurm"
	fi
}

# A test that lowered the cluster's MaxArraySize (array_size) sets it
# back, whatever its end.
teardown() {
	[ -z "${lowered:-}" ] ||
	    "$TOP/test/slurm-cluster" array-size "$BATS_FILE_TMPDIR/slurm" 10001
}

setup() {
	if [ "$(id -u)" -ne 0 ]; then
		skip "not root: the real Slurm cluster needs root"
	fi
	cd "$BATS_TEST_TMPDIR" || return 1
}

# wait_gone JOBID...: wait (at most 60 s) until no job or array task of
# JOBID... is pending or running
wait_gone() {
	local ids i
	ids=$(IFS=,; echo "$*")
	for ((i = 0; i < 600; i++)); do
		[ -z "$(squeue -h -j "$ids" 2>/dev/null)" ] && return 0
		sleep 0.1
	done
	echo "jobs $ids still queued after 60 s:" >&2
	squeue -t all >&2
	return 1
}

# states JOBID: "INDEX STATE" of every task of array JOBID, by index
states() {
	squeue -h -t all -j "$1" -o '%K %T' | sort -n
}

@test "sbatch: an array of 6 tasks runs each index exactly once" {
	cat > task.sh <<'EOF'
#!/bin/bash
echo "$SLURM_ARRAY_JOB_ID" >> "out.$SLURM_ARRAY_TASK_ID"
EOF
	run sbatch --array=0-5 --cpus-per-task=1 --mem=100M --parsable task.sh
	assert_success
	assert_output --regexp '^[0-9]+$'
	id=$output
	wait_gone "$id"
	run ls out.*
	assert_output "$(printf 'out.%s\n' 0 1 2 3 4 5)"
	for i in 0 1 2 3 4 5; do
		assert_equal "$(cat "out.$i")" "$id"
	done
	run states "$id"
	assert_output "$(printf '%s COMPLETED\n' 0 1 2 3 4 5)"
}

@test "sbatch: an afterok job runs after the array; a failed task cancels it" {
	cat > task.sh <<'EOF'
#!/bin/bash
touch "done.$SLURM_ARRAY_JOB_ID.$SLURM_ARRAY_TASK_ID"
[ "$SLURM_ARRAY_TASK_ID" != "${FAIL:-}" ]
EOF
	cat > after.sh <<'EOF'
#!/bin/bash
ls done.* > after.$SLURM_JOB_ID
EOF
	run sbatch --array=1,4,7 --parsable task.sh
	assert_success
	ok=$output
	run sbatch --dependency="afterok:$ok" --kill-on-invalid-dep=yes \
	    --parsable after.sh
	assert_success
	after=$output
	FAIL=4 run sbatch --array=1,4,7 --parsable task.sh
	assert_success
	bad=$output
	run sbatch --dependency="afterok:$bad" --kill-on-invalid-dep=yes \
	    --parsable after.sh
	assert_success
	never=$output
	wait_gone "$ok" "$after" "$bad" "$never"

	# the dependent job saw every task of its array done
	run grep -c "^done\.$ok\." "after.$after"
	assert_output 3
	run states "$ok"
	assert_output "$(printf '%s COMPLETED\n' 1 4 7)"
	# a failed task: FAILED with its exit code, and the afterok job
	# cancelled without running
	run states "$bad"
	assert_output "$(printf '1 COMPLETED\n4 FAILED\n7 COMPLETED')"
	run scontrol -o show job "$bad"
	assert_output --regexp 'ArrayTaskId=4 .* JobState=FAILED .* ExitCode=1:0'
	assert [ ! -e "after.$never" ]
	run squeue -h -t all -j "$never" -o '%T %r'
	assert_output 'CANCELLED DependencyNeverSatisfied'
}

@test "qsub (slurm-wlm-torque): -t on the command line and #PBS -J in the script" {
	cat > t.pbs <<'EOF'
#!/bin/bash
#PBS -N sr-t
touch "t.${PBS_ARRAYID:-$SLURM_ARRAY_TASK_ID}"
EOF
	cat > j.pbs <<'EOF'
#!/bin/bash
#PBS -N sr-j
#PBS -l nodes=1:ppn=1
#PBS -l walltime=00:05:00
#PBS -J 0-2
touch "j.${PBS_ARRAY_INDEX:-$SLURM_ARRAY_TASK_ID}"
EOF
	run qsub -t 0-4 t.pbs
	assert_success
	assert_output --regexp '^[0-9]+$'
	t=$output
	run qsub j.pbs
	assert_success
	assert_output --regexp '^[0-9]+$'
	j=$output
	wait_gone "$t" "$j"
	run ls t.[0-9] j.[0-9]
	assert_output "$(printf '%s\n' j.0 j.1 j.2 t.0 t.1 t.2 t.3 t.4)"
	run squeue -h -t all -j "$j" -o '%j %l %T'
	assert_output "$(printf 'sr-j 5:00 COMPLETED\n%.0s' 1 2 3)"
}

# wait_campaign OUT: wait (at most 120 s) until the campaign's jobs are gone
wait_campaign() {
	local ids
	ids=$(awk '{ print $2 }' "$1/logs/jobs" | paste -sd' ' -)
	# shellcheck disable=SC2086
	wait_gone $ids || { squeue -t all >&2; return 1; }
}

@test "a campaign through sbatch job arrays gives the local engine's indices" {
	tiles 160
	campaign local.campaign
	campaign slurm.campaign engine=slurm array_limit=3 partition=debug time=10
	sa-campaign -q run local.campaign
	run sa-campaign run slurm.campaign
	assert_success
	assert_output --regexp 'reference: [0-9]+'
	assert_output --regexp 'buckets: +[0-9]+ \(8 of 8 array tasks: 0-7%3\)'
	assert_output --regexp 'merge: +[0-9]+'
	# one array job of 8 tasks, at most 3 at once, memory and CPUs set
	arr=$(awk '$1 == "buckets" { print $2 }' slurm-out/logs/jobs)
	run scontrol -o show job "$arr"
	assert_output --partial 'ArrayTaskThrottle=3'
	assert_output --partial 'NumCPUs=1'
	wait_campaign slurm-out
	assert_equal "$(body slurm-out/indices.tsv)" "$(body local-out/indices.tsv)"
	run sa-campaign status slurm.campaign
	assert_output --partial "done=8 running=0 pending=0 failed=0 waiting=0"
	# the merge job wrote the report; the array tasks timed their
	# attempts, at most 3 at once (array_limit)
	assert_output --partial "report: $PWD/slurm-out/report.html"
	assert_equal "$(awk '$4 == 0' slurm-out/logs/finished | wc -l)" 8
	c=$(sa-report --concurrency slurm-out)
	[ "$c" -ge 1 ] && [ "$c" -le 3 ] || fail "concurrency $c"
	# each bucket ran once
	assert_equal "$(cut -d' ' -f1 slurm-out/logs/attempts | sort -n | uniq -c | awk '$1 != 1' | wc -l)" 0
}

@test "a workflow of commands through sbatch job arrays: the local engine's indices, each task node's command once per tile, threads_per_path as the task's CPUs, an enum's words as arguments" {
	tiles 96
	export PATH="$TOP/test/data/commands:$PATH" COUNT_FILE=$BATS_TEST_TMPDIR/count
	printf 'name\ttype\tvalues\tdefault\nsigma\treal\t0.5..3\t1\nk\tenum\tone,two,;rm\tone\n' > s.tsv
	# blur copies the normalized tile; thr writes a's mask for two, b's else
	{
		printf 'stage\ttask\tparams\tcost\trun\tmetrics\n'
		printf 'normalize\tnormalize\t-\t0.2\t-\t-\n'
		printf 'seg\tblur\tsigma\t1\t%s\t-\n' "count blur sh -c 'cp \$1 \$2' sh {in} {out} {sigma}"
		printf 'seg\tthr\tk\t1\t%s\t-\n' "count thr sh -c 'm=b; [ \"\$1\" != two ] || m=a; cp $BATS_TEST_TMPDIR/tiles/\$m.mask.png \$2' sh {k} {out}"
		printf 'compare\tcompare\t-\t0.01\t-\t-\n'
	} > w.wf
	campaign local.campaign space=s.tsv workflow=w.wf trajectories=3 metric=objects plot=no
	campaign slurm.campaign space=s.tsv workflow=w.wf trajectories=3 metric=objects plot=no \
	    engine=slurm threads_per_path=2 task_timeout=60 partition=debug time=10
	sa-campaign -q run local.campaign
	: > count
	run sa-campaign run slurm.campaign
	assert_success
	arr=$(awk '$1 == "buckets" { print $2 }' slurm-out/logs/jobs)
	run scontrol -o show job "$arr"
	assert_output --partial 'NumCPUs=2'
	wait_campaign slurm-out
	assert_equal "$(body slurm-out/indices.tsv)" "$(body local-out/indices.tsv)"
	# the reference step's 2 task nodes and the plan's merged ones, on 2 tiles
	tasks=$(grep -o ' tasks_merged=[0-9]*' slurm-out/buckets.tsv | cut -d= -f2)
	assert_equal "$(wc -l < count)" $(((tasks + 2) * 2))
	assert_equal "$(body slurm-out/results.tsv | awk -F'\t' 'NR > 1 && $3 != "ok"' | wc -l)" 0
	# k's word decides the mask (two: a's): a non-zero mu* for k
	body slurm-out/indices.tsv | awk -F'\t' '$1 == "k" && $3 > 0 { k = 1 } END { exit !k }'
}

@test "cancelled array tasks: resubmitting runs only the unfinished buckets, same indices" {
	tiles 400
	campaign local.campaign bucket_size=2
	campaign slurm.campaign engine=slurm bucket_size=2
	sa-campaign -q run local.campaign
	sa-campaign -q run slurm.campaign
	arr=$(awk '$1 == "buckets" { print $2 }' slurm-out/logs/jobs)
	# cancel the array once a few buckets are done: the rest never finish
	for k in $(seq 600); do
		[ "$(ls slurm-out/results | wc -l)" -lt 2 ] || break
		sleep 0.1
	done
	scancel "$arr"
	wait_campaign slurm-out
	nb=$(body slurm-out/buckets.tsv | awk 'NR > 1' | wc -l)
	done=$(ls slurm-out/results | wc -l)
	assert [ "$done" -lt "$nb" ]
	assert [ ! -e slurm-out/indices.tsv ]
	run find slurm-out -name '.*.tmp.*'
	assert_output ''
	run sa-campaign status slurm.campaign
	assert_output --partial "buckets=$nb chunks=1 tasks=$nb done=$done "
	# resubmit: only the unfinished buckets
	run sa-campaign run slurm.campaign
	assert_success
	assert_output --partial "reference: done"
	assert_output --partial "($((nb - done)) of $nb array tasks: "
	wait_campaign slurm-out
	assert_equal "$(body slurm-out/indices.tsv)" "$(body local-out/indices.tsv)"
	# no bucket ran twice to completion
	assert_equal "$(ls slurm-out/results | wc -l)" "$nb"
}

@test "a tile that cannot be read: nothing submitted, on Slurm and PBS, also with mem set" {
	tiles 160
	printf 'not an image\n' > tiles/b.png
	campaign slurm.campaign engine=slurm mem=2G
	run sa-campaign run slurm.campaign
	assert_failure 1
	assert_output --partial 'tiles/b.png: not a TIFF or PNG file'
	assert_output --partial 'slurm-out/tiles.list: a tile cannot be read or is too large for a job'
	assert [ ! -s slurm-out/logs/jobs ]
	campaign pbs.campaign engine=pbs pbs=torque
	run sa-campaign run pbs.campaign
	assert_failure 1
	assert_output --partial 'nothing submitted'
	assert [ ! -s pbs-out/logs/jobs ]
	assert_equal "$(squeue -h -o %i | wc -l)" 0
}

@test "cancel: the campaign's queued and running jobs are cancelled; run again resubmits what is left, same indices" {
	tiles 160
	campaign local.campaign
	campaign slurm.campaign engine=slurm
	sa-campaign -q run local.campaign
	sa-campaign -q run slurm.campaign
	ids=$(awk '{ print $2 }' slurm-out/logs/jobs | paste -sd' ')
	run sa-campaign cancel slurm.campaign
	assert_success
	assert_output --regexp '^cancelled: jobs [][0-9_ ,%-]+$'
	# shellcheck disable=SC2086
	wait_gone $ids
	run sa-campaign cancel slurm.campaign
	assert_output "nothing to cancel: no run or job of $PWD/slurm-out is active"
	run sa-campaign status slurm.campaign
	assert_line --index 0 --regexp 'running=0 pending=0'
	sa-campaign -q run slurm.campaign
	wait_campaign slurm-out
	assert_equal "$(body slurm-out/indices.tsv)" "$(body local-out/indices.tsv)"
}

@test "a failed reference job: status names it with the end of its log, and the jobs that never ran after it (issue 15, item 1)" {
	tiles 160
	# masks that are no images: the plan finds them, the reference job
	# fails reading them
	echo 'not an image' > tiles/a.bad.png
	echo 'not an image' > tiles/b.bad.png
	campaign c.campaign engine=slurm reference_suffix=.bad.png
	run sa-campaign run c.campaign
	assert_success
	wait_campaign c-out
	run sa-campaign status c.campaign
	assert_success
	assert_line --index 0 'buckets=8 chunks=1 tasks=8 done=0 running=0 pending=0 failed=0 waiting=8'
	ref=$(awk '$1 == "reference" { print $2 }' c-out/logs/jobs)
	assert_line "failed: the reference job $ref (exit 1); the end of $PWD/c-out/logs/reference-$ref.log:"
	assert_output --partial 'a.bad.png'
	arr=$(awk '$1 == "buckets" { print $2 }' c-out/logs/jobs)
	mrg=$(awk '$1 == "merge" { print $2 }' c-out/logs/jobs)
	# what Slurm says of the jobs that never ran (scontrol: no accounting)
	assert_line "failed: the bucket array $arr never ran (tasks 0-7): a job it depends on failed (Slurm: CANCELLED, DependencyNeverSatisfied)"
	assert_line "failed: the merge job $mrg never ran: a job it depends on failed (Slurm: CANCELLED, DependencyNeverSatisfied)"
	# a good campaign's jobs leave no such line
	campaign g.campaign engine=slurm
	sa-campaign -q run g.campaign
	wait_campaign g-out
	run sa-campaign status g.campaign
	refute_output --partial 'failed:'
	grep -qx 'sa-campaign job: exit 0' g-out/logs/merge-*.log
}

@test "a campaign's jobs still queued: run again is refused" {
	tiles 400
	campaign slurm.campaign engine=slurm
	sa-campaign -q run slurm.campaign
	run sa-campaign run slurm.campaign
	assert_failure 1
	assert_output --partial "still queued or running"
	wait_campaign slurm-out
}

@test "the PBS scripts through slurm-wlm-torque's qsub: every bucket exactly once, same indices" {
	tiles 160
	campaign local.campaign
	campaign pbs.campaign engine=pbs pbs=pro walltime=00:10:00
	sa-campaign -q run local.campaign
	run sa-campaign run pbs.campaign
	assert_success
	wait_campaign pbs-out
	assert_equal "$(body pbs-out/indices.tsv)" "$(body local-out/indices.tsv)"
	assert_equal "$(cut -d' ' -f1 pbs-out/logs/attempts | sort -n | tr '\n' ' ')" "0 1 2 3 4 5 6 7 "
	# status counts this campaign's bucket jobs only, not another's held
	# in the queue (nor one named as all campaigns' once were)
	other=sa-b00000000	# not this output's (8 digits of a checksum)
	j1=$(sbatch --parsable --hold --job-name="$other" --wrap true)
	j2=$(sbatch --parsable --hold --job-name=sa-bucket --wrap true)
	run qstat
	assert_output --partial "$other"
	run sa-campaign status pbs.campaign
	assert_success
	assert_output --partial 'buckets=8 chunks=1 tasks=8 done=8 running=0 pending=0 failed=0 waiting=0'
	scancel "$j1" "$j2"
}

@test "hostile outputs: PBS through slurm-wlm-torque's qsub runs nothing from o-\$(touch PWNED); Slurm keeps a % in the output; jobs read jobs/settings" {
	tiles 160
	campaign local.campaign
	sa-campaign -q run local.campaign
	campaign pbs.campaign engine=pbs pbs=pro walltime=00:10:00
	run sa-campaign -o 'o-$(touch PWNED)' run pbs.campaign
	assert_success
	wait_campaign 'o-$(touch PWNED)'
	assert [ ! -e PWNED ] && assert [ ! -e 'o-$(touch PWNED)/PWNED' ]
	assert_equal "$(body 'o-$(touch PWNED)/indices.tsv')" "$(body local-out/indices.tsv)"
	campaign slurm.campaign engine=slurm
	local o='out%j %a $(touch PWNED2) "x'
	sa-campaign -q -o "$o" run slurm.campaign
	wait_campaign "$o"
	assert_equal "$(body "$o/indices.tsv")" "$(body local-out/indices.tsv)"
	[ -e "$o/logs/bucket-00000-0000.log" ] && [ ! -e PWNED2 ] && [ ! -e "$o/PWNED2" ]
	# the jobs' settings: the command and the campaign, a line each
	assert_equal "$(cat "$o/jobs/settings")" "$SR_BIN/sa-campaign
$PWD/slurm.campaign"
}

# attempts OUT I: how many attempts at bucket I OUT/logs/attempts records
attempts() {
	[ -e "$1/logs/attempts" ] || { echo 0; return; }
	awk -v i="$2" '$1 == i { n++ } END { print n + 0 }' "$1/logs/attempts"
}

@test "one array task killed three times with scancel --signal=KILL, the campaign resubmitted each time: the local engine's indices" {
	# two buckets of 16 runs on two 900x900 tiles: bucket 1 runs for
	# seconds, long enough to be killed while it runs
	tiles 900
	campaign local.campaign bucket_size=16 plot=no
	campaign slurm.campaign engine=slurm bucket_size=16 plot=no
	sa-campaign -q run local.campaign
	for round in 1 2 3; do
		# counted before the submission: the task may start at once
		before=$(attempts slurm-out 1)
		run sa-campaign run slurm.campaign
		assert_success
		[ "$round" = 1 ] || assert_output --regexp 'buckets: +[0-9]+ \(1 of 2 array tasks: 1\)'
		arr=$(awk '$1 == "buckets" { print $2 }' slurm-out/logs/jobs)
		# task 1 running, and its bucket started: then killed (at most
		# 120 s: the cluster shares two cores with the suite's other
		# lanes)
		for k in $(seq 2400); do
			squeue -h -r -j "$arr" -o '%K %T' | grep -qx '1 RUNNING' &&
			    [ "$(attempts slurm-out 1)" -gt "$before" ] && break
			sleep 0.05
		done
		[ "$(attempts slurm-out 1)" -gt "$before" ] ||
		    fail "round $round: task ${arr}_1 did not start in 120 s: $(squeue -h -t all -r -j "$arr" -o '%K %T %r')"
		scancel --signal=KILL "${arr}_1"
		echo "round $round: killed ${arr}_1" >&3
		# the merge is cancelled (its dependency can never be met)
		wait_campaign slurm-out
		[ ! -e slurm-out/results/00001-0000.tsv ] ||
		    fail "round $round: bucket 1 finished before the kill"
		# nothing of the task runs on (seg-run killed with it)
		run pgrep -f -- "$PWD/slurm-out"
		assert_failure
		[ -s slurm-out/results/00000-0000.tsv ]
		assert [ ! -e slurm-out/indices.tsv ]
		run states "$arr"
		refute_output --partial '1 COMPLETED'
		mrg=$(awk '$1 == "merge" { print $2 }' slurm-out/logs/jobs)
		run squeue -h -t all -j "$mrg" -o '%T'
		assert_output CANCELLED
		# status names the killed task as Slurm ended it, and counts it
		run sa-campaign status slurm.campaign
		assert_line --index 0 'buckets=2 chunks=1 tasks=2 done=1 running=0 pending=0 failed=1 waiting=0'
		assert_line --regexp "^failed: task 1 \\(bucket 1, chunk 0\\) \\(array task ${arr}_1, Slurm: CANCELLED, exit [0-9]+:[0-9]+\\); the end of $PWD/slurm-out/logs/bucket-00001-0000.log:\$"
		assert_output --partial "CANCELLED AT"	# slurmstepd's line, the end of the log
		assert_line "failed: the merge job $mrg never ran: a job it depends on failed (Slurm: CANCELLED, DependencyNeverSatisfied)"
	done
	# resubmitted a fourth time: bucket 1 alone, then the merge
	run sa-campaign run slurm.campaign
	assert_success
	assert_output --partial 'reference: done'
	assert_output --regexp 'buckets: +[0-9]+ \(1 of 2 array tasks: 1\)'
	wait_campaign slurm-out
	assert_equal "$(body slurm-out/indices.tsv)" "$(body local-out/indices.tsv)"
	assert_equal "$(attempts slurm-out 0) $(attempts slurm-out 1)" "1 4"
	run find slurm-out -name '.*.tmp*' -o -name '.lock*'
	assert_output ''
}

@test "a tune campaign through sbatch and qsub (slurm-wlm-torque) job arrays: the local engine's trials and best set, the validation job's validation.tsv; median's ledger and trials agree" {
	tiles 160
	local e
	for e in local slurm pbs; do
		campaign $e.campaign goal=tune method=random samples=8 seed=5 \
		    bucket_size=2 cancel=none engine=$e validate=tiles/list validate_top=2
		sed -i '/^trajectories/d' $e.campaign
	done
	sed -i '$a walltime = 00:10:00' pbs.campaign
	sa-campaign -q run local.campaign
	for e in slurm pbs; do
		run sa-campaign run $e.campaign
		assert_success
		wait_campaign $e-out
		for f in ledger.tsv trials.tsv best.tsv tune.png; do
			[ -s "$e-out/$f" ] || fail "no $e-out/$f"
		done
		# trials without their seconds, best.tsv without its provenance
		assert_equal "$(body $e-out/trials.tsv | cut -f 1-6,8-)" "$(body local-out/trials.tsv | cut -f 1-6,8-)"
		assert_equal "$(body $e-out/best.tsv)" "$(body local-out/best.tsv)"
		assert_equal "$(grep '^#best' $e-out/best.tsv)" "$(grep '^#best' local-out/best.tsv)"
		assert_equal "$(awk -F'\t' '$1 == "result"' $e-out/ledger.tsv | wc -l)" 16
		# the validation job, submitted by the merge job: the local
		# engine's validation (without the seconds) and report
		grep -q '^validate [0-9]' $e-out/logs/jobs
		wait_campaign $e-out
		assert_equal "$(cut -f 1-9 $e-out/validation.tsv)" "$(cut -f 1-9 local-out/validation.tsv)"
		assert_equal "$(grep '^#validation' $e-out/best.tsv)" "$(grep '^#validation' local-out/best.tsv)"
		grep -q 'Validation on 2 held-out tiles' $e-out/report.html
	done
	# median on Slurm: each cancelled set has its cancel line, at the
	# tiles trials.tsv says
	campaign median.campaign goal=tune method=random samples=8 seed=5 \
	    bucket_size=2 cancel=median cancel_warmup=1 cancel_startup=2 engine=slurm
	sed -i '/^trajectories/d' median.campaign
	sa-campaign -q run median.campaign
	wait_campaign median-out
	[ -s median-out/best.tsv ] || fail "no median-out/best.tsv"
	assert_equal "$(body median-out/trials.tsv | awk -F'\t' '$2 == "cancelled" { print $1 "\t" $8 }' | sort)" \
	    "$(awk -F'\t' '$1 == "cancel" { print $2 "\t" $3 }' median-out/ledger.tsv | sort)"
	run sa-campaign status median.campaign
	assert_success
	assert_output --regexp "sets=8 complete=[0-9]+ running=0 cancelled=[0-9]+ waiting=0 best=[0-9]+ dice=0\.[0-9]{4}"
}

@test "a tune campaign in 3 batches with knowledge through sbatch: each merge job prunes and submits the next batch; the local engine's spaces and trials" {
	tiles 96
	local e
	# G1 and G2 varied, the rest held (so that few sets make a surrogate
	# that correlates); the knowledge base: a past search of the same
	# tiles, run locally
	awk -F '\t' -v OFS='\t' '/^#/ || $1 == "name" || $1 == "G1" || $1 == "G2" { print; next }
	    $2 == "enum" { $3 = $4; print; next } { $3 = $4 ":1:" $4; print }' "$SPACE" > g.tsv
	mkdir kb
	campaign kb/p1.campaign goal=tune space=$PWD/g.tsv method=random samples=20 \
	    seed=11 bucket_size=10 cancel=none plot=no report=no tiles=$PWD/tiles/list \
	    reference=$PWD/tiles output=p1
	sed -i '/^trajectories/d' kb/p1.campaign
	sa-campaign -q run kb/p1.campaign
	for e in local slurm; do
		campaign $e.campaign goal=tune space=g.tsv method=random samples=9 seed=5 \
		    bucket_size=3 cancel=none batches=3 knowledge=kb plot=no engine=$e
		sed -i '/^trajectories/d' $e.campaign
	done
	sa-campaign -q run local.campaign
	run sa-campaign run slurm.campaign
	assert_success
	assert_output --regexp 'reference: [0-9]+'
	local k i
	for k in 1 2 3; do	# each batch's jobs, submitted by the merge before
		for ((i = 0; i < 600; i++)); do
			[ -s slurm-out/batch-$k/logs/jobs ] && break
			sleep 0.1
		done
		wait_campaign slurm-out/batch-$k
	done
	assert_equal "$(body slurm-out/trials.tsv | cut -f 1-6,8-)" "$(body local-out/trials.tsv | cut -f 1-6,8-)"
	assert_equal "$(body slurm-out/best.tsv)" "$(body local-out/best.tsv)"
	# sa-prune in the merge jobs: the local engine's spaces and reports
	for k in 2 3; do
		assert_equal "$(body slurm-out/batch-$k/space.tsv)" "$(body local-out/batch-$k/space.tsv)"
		assert_equal "$(grep -E '^(past|chosen|paggr|parameter|outcome)' slurm-out/batch-$k/prune.tsv)" \
		    "$(grep -E '^(past|chosen|paggr|parameter|outcome)' local-out/batch-$k/prune.tsv)"
	done
	# (batch 2 prunes from batch 1's sets, the seed's own: p1 is chosen)
	grep -qP "^chosen\t$PWD/kb/p1\t" slurm-out/batch-2/prune.tsv
	# the ledger of all batches and the report of all batches, written
	# by the last merge job: the local engine's rows (their seconds
	# aside), every batch on the page
	assert_equal "$(body slurm-out/ledger.tsv | cut -f 1-4,6- | sort)" \
	    "$(body local-out/ledger.tsv | cut -f 1-4,6- | sort)"
	assert_equal "$(body slurm-out/ledger.tsv | awk -F'\t' 'NR > 1 { print $7 }' | sort | uniq -c | awk '{ print $1 }' | paste -sd' ')" "6 6 6"
	assert_equal "$(sed -n '/<section id="batches">/,/<\/section>/p' slurm-out/report.html | grep -c '^<tr><td')" 3
	run sa-campaign status slurm.campaign
	assert_success
	assert_line "batch=3 of 3: $PWD/slurm-out/batch-3"
	assert_output --regexp "sets=9 complete=9 running=0 cancelled=0 waiting=0 best=[0-9]+ dice=0\.[0-9]{4}"
}

@test "a slide campaign through Slurm with MaxArraySize (5) below its 16 array tasks: 4 arrays with offsets, the indices of the same campaign run locally" {
	slide
	campaign l.campaign slides=slides.list tile_size=260 tile_overlap=0 tiles_per_task=2 \
	    -tiles -reference -reference_suffix
	campaign s.campaign slides=slides.list tile_size=260 tile_overlap=0 tiles_per_task=2 \
	    engine=slurm array_limit=2 -tiles -reference -reference_suffix
	sa-campaign -q run l.campaign
	lowered=1
	"$TOP/test/slurm-cluster" array-size "$BATS_FILE_TMPDIR/slurm" 5
	run sa-campaign run s.campaign
	assert_success
	assert_output --regexp 'buckets: +[0-9]+,[0-9]+,[0-9]+,[0-9]+ \(16 of 16 array tasks: 0-15%2\)'
	# arrays of indices 0-4, each at offset 5k, each after the one before
	assert_equal "$(awk '$1 == "buckets" { print $3 }' s-out/logs/jobs | paste -sd' ')" "0 5 10 15"
	ids=($(awk '$1 == "buckets" { print $2 }' s-out/logs/jobs))
	run scontrol -o show job "${ids[1]}"
	assert_output --partial 'ArrayTaskThrottle=2'
	assert_output --partial "afterany:${ids[0]}"
	wait_campaign s-out
	assert_equal "$(body s-out/indices.tsv)" "$(body l-out/indices.tsv)"
	run sa-campaign status s.campaign
	assert_line "buckets=8 chunks=2 tasks=16 done=16 running=0 pending=0 failed=0 waiting=0"
	# every task ran once, logged under its bucket and chunk, exit marker last
	assert_equal "$(cut -d' ' -f1 s-out/logs/attempts | sort -n | paste -sd' ')" "$(seq 0 15 | paste -sd' ')"
	assert_equal "$(tail -n 1 s-out/logs/bucket-00007-0001.log)" "sa-campaign job: exit 0"
	assert_equal "$(ls s-out/results | wc -l)" 16
}
