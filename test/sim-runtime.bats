#!/usr/bin/env bats
# sim-runtime: exact makespans of hand-made timings (equal tasks, one
# long task, two plans of the same timings, start-up overhead, dispatch
# delay, lines per array task, #read lines), cost models, cancellation on
# hand-made results, every option, and refusal of bad input.
load common

bats_require_minimum_version 1.5.0

T3=$TOP/test/data/reuse/t3.wf

# --- helpers ---------------------------------------------------------------

# header: the header line of a timings file
header() {
	printf 'bucket\ttile\tdepth\ttask\tinstances\tseconds\tbytes\n'
}

# row FIELDS...: one tab-separated row
row() {
	local IFS=$'\t'
	printf '%s\n' "$*"
}

# equal N SECONDS [LONG]: timings of N buckets of one row each; bucket
# LONG (if given) takes 10 seconds
equal() {
	local i s
	header
	for ((i = 0; i < $1; i++)); do
		s=$2
		[ "$i" != "${3:-}" ] || s=10
		row "$i" a 1 t1 "$i" "$s" 0
	done
}

# val COLUMN [N]: the field COLUMN (by header name) of data row N (from 1)
# of $output
val() {
	printf '%s\n' "$output" | awk -F'\t' -v c="$1" -v n="${2:-1}" '
	    /^#/ { next } !h { for (i = 1; i <= NF; i++) if ($i == c) k = i
	    h = 1; next } ++r == n { print $k }'
}

# meta KEY: a value from the comment lines of $output
meta() {
	printf '%s\n' "$output" | grep '^#' | tr ' ' '\n' | sed -n "s/^#*$1=//p" |
	    head -n 1
}

# ex2: the five runs of reuse-merge's worked example 2 (t3.wf: t1(p1),
# t2(p2), t3(p3)) as i.tsv; the plan none as none.tsv, Smart-Cut with
# buckets of 2 ({0,1}, {3,4}, {2}) as sca.tsv; timings of the plan none
# on tile a: t1 4 s, t2 2 s, t3 of instance k k+1 s
ex2() {
	wf-compact -q -o i.tsv "$T3" "$TOP/test/data/reuse/ex2.tsv"
	reuse-merge -a none -o none.tsv "$T3" i.tsv
	reuse-merge -a sca -b 2 -o sca.tsv "$T3" i.tsv
	{
		header
		for k in 0 1 2 3 4; do
			row "$k" a 1 t1 "$k" 4 0
			row "$k" a 2 t2 "$k" 2 0
			row "$k" a 3 t3 "$k" $((k + 1)) 0
		done
	} > t.tsv
}

# sets R TILES: a design of R runs differing in p1 only (R instances of
# t3.wf, each its own path) as i.tsv, the plan none as none.tsv, and
# timings of it on tiles a0..a(TILES-1): 1 s per tile (t1), 3 s for the
# last run
sets() {
	local r k
	{
		printf 'run\tp1\tp2\tp3\n'
		for ((r = 0; r < $1; r++)); do
			printf '%d\t%d\t1\t1\n' "$r" $((r + 1))
		done
	} > d.tsv
	wf-compact -q -o i.tsv "$T3" d.tsv
	reuse-merge -a none -o none.tsv "$T3" i.tsv
	{
		header
		for ((r = 0; r < $1; r++)); do
			for ((k = 0; k < $2; k++)); do
				row "$r" "a$k" 1 t1 "$r" $((r == $1 - 1 ? 3 : 1)) 0
				row "$r" "a$k" 2 t2 "$r" 0 0
				row "$r" "a$k" 3 t3 "$r" 0 0
			done
		done
	} > t.tsv
}

# results R TILES V...: results of R runs on tiles a0..: run r's dice V_r
results() {
	local r k n=$1 tiles=$2
	shift 2
	local v=("$@")
	{
		printf 'run\ttile\tstatus\tdice\n'
		for ((r = 0; r < n; r++)); do
			for ((k = 0; k < tiles; k++)); do
				printf '%d\ta%d\tok\t%s\n' "$r" "$k" "${v[$r]}"
			done
		done
	} > res.tsv
}

# --- help, version, output -------------------------------------------------

# bats test_tags=fast
@test "--help prints the usage with the defaults; --version" {
	run sim-runtime --help
	assert_success
	assert_line --index 0 --partial 'Usage: sim-runtime [options]'
	assert_output --partial 'stable[:acc=A,time=T,window=W], median[:warmup=N,'
	assert_output --partial 'startup=N], wilcoxon[:warmup=N,p=P] or none'
	assert_output --partial '[stable:acc=0.05,time=2,window=5]'
	assert_output --partial 'random seed [1]'
	run sim-runtime --version
	assert_success
	assert_output 'sim-runtime (sareuse) 0.1.0'
}

# bats test_tags=fast
@test "the report: provenance, metadata, header, one row per plan and slot count" {
	equal 10 1 > t.tsv
	run sim-runtime -n 3 t.tsv
	assert_success
	assert_line --index 0 '#sim-runtime 0.1.0'
	assert_line --index 1 '#command line: sim-runtime -n 3 t.tsv'
	assert_line --index 2 '#costs=timings tiles=1 rows=10 read_lines=0'
	assert_line --index 3 '#overhead=0 delay=0 lines=1 order=file'
	assert_line --index 4 '#plan=baseline buckets=10 array_tasks=10 work=10'
	assert_line --index 5 "$(printf 'plan\tslots\tbuckets\twork\tmakespan\tutilisation\tefficiency\tnode_hours\twork_hms\tmakespan_hms')"
	assert_line --index 6 "$(printf 'baseline\t3\t10\t10\t4\t0.8333\t0.8333\t0.003333\t0:00:10\t0:00:04')"
	assert_equal "${#lines[@]}" 7
}

@test "-o writes atomically; - is stdin and stdout" {
	equal 10 1 > t.tsv
	run sim-runtime -n 3 -o r.tsv t.tsv
	assert_success
	assert_output ''
	run body r.tsv
	assert_line --index 1 --partial "$(printf 'baseline\t3\t10\t10\t4\t')"
	run sim-runtime -n 3 -o - - < t.tsv
	assert_success
	assert_equal "$(val makespan)" 4
	no_temp_files
}

# --- exact makespans ---------------------------------------------------------

@test "10 equal tasks of 1 s on 3 slots: 4 s" {
	equal 10 1 > t.tsv
	run sim-runtime -n 3 t.tsv
	assert_success
	assert_equal "$(val makespan)" 4
	assert_equal "$(val work)" 10
	# 10 s of work on 3 x 4 slot-seconds
	assert_equal "$(val efficiency)" 0.8333
	run sim-runtime -n 10 t.tsv
	assert_equal "$(val makespan)" 1
	run sim-runtime -n 1000 t.tsv
	assert_equal "$(val makespan)" 1
	assert_equal "$(val utilisation)" 0.01
}

@test "one long task dominating: 10 s of 19; in file order 13 s when it comes last" {
	equal 10 1 0 > first.tsv
	run sim-runtime -n 3 first.tsv
	assert_equal "$(val makespan)" 10
	equal 10 1 9 > last.tsv
	run sim-runtime -n 3 last.tsv
	assert_equal "$(val makespan)" 13
	run sim-runtime -n 3 --order longest-first last.tsv
	assert_success
	assert_equal "$(val makespan)" 10
	assert_output --partial 'order=longest-first'
	run sim-runtime -n 3 --order file last.tsv
	assert_equal "$(val makespan)" 13
}

# bats test_tags=fast
@test "a bucket's rows are summed, whatever their order and tiles" {
	{
		header
		row 1 a 1 t1 0 2 0
		row 0 a 1 t1 0 1 0
		row 0 b 1 t1 0 1.5 0
		row 1 b 1 t1 0 0.5 0
		row 2 a 1 t1 0 4 0
	} > t.tsv
	run sim-runtime -n 1 t.tsv
	assert_equal "$(val makespan)" 9
	assert_equal "$(val buckets)" 3
	run sim-runtime -n 2 t.tsv	# 2.5 | 2.5, then 4 on slot 0
	assert_equal "$(val makespan)" 6.5
	assert_output --partial '#costs=timings tiles=2 rows=5'
}

@test "a row repeating an earlier row's bucket, tile, task and instances is refused naming file:line (issue 25)" {
	{
		header
		row 0 a 1 t1 0,1 1 0
		row 0 b 1 t1 0,1 1 0
		row 1 a 1 t1 0,1 1 0
		row 0 a 1 t1 0,1 2 0
	} > t.tsv
	refuse_run sim-runtime 1 "sim-runtime: t.tsv:5: bucket 0, tile a, task t1, instances 0,1 repeat line 2" t.tsv
	# the bucket is compared as a number, and stdin is named
	run sim-runtime - < <(header; row 3 a 1 t1 0 1 0; row 03 a 1 t1 0 1 0)
	assert_failure 1
	assert_output "sim-runtime: <stdin>:3: bucket 3, tile a, task t1, instances 0 repeat line 2"
}

@test "start-up overhead and dispatch delay" {
	equal 4 1 > t.tsv
	# a slot runs 0.5 + 1, waits 0.25, runs 0.5 + 1
	run sim-runtime -n 2 --overhead 0.5 --delay 0.25 t.tsv
	assert_success
	assert_equal "$(val makespan)" 3.25
	assert_equal "$(val work)" 4
	assert_equal "$(val utilisation)" 0.9231	# 6 / 6.5
	assert_equal "$(val efficiency)" 0.6154	# 4 / 6.5
	assert_output --partial '#overhead=0.5 delay=0.25 lines=1'
	# one slot: 4 x 1.5 + 3 x 0.25
	run sim-runtime --overhead 0.5 --delay 0.25 t.tsv
	assert_equal "$(val makespan)" 6.75
}

@test "--lines M: M consecutive buckets per array task, one start-up each" {
	equal 10 1 > t.tsv
	run sim-runtime -n 3 --lines 2 t.tsv
	assert_success
	assert_equal "$(val makespan)" 4	# 5 tasks of 2 s on 3 slots
	assert_output --partial 'array_tasks=5'
	assert_output --partial 'lines=2'
	run sim-runtime -n 3 --lines 2 --overhead 1 t.tsv
	assert_equal "$(val makespan)" 6
	run sim-runtime -n 3 --lines 4 t.tsv	# 4, 4, 2
	assert_equal "$(val makespan)" 4
	assert_output --partial 'array_tasks=3'
	run sim-runtime -n 3 --lines 20 t.tsv
	assert_equal "$(val makespan)" 10
	# longest first orders the array tasks: 2+10 | 2+2, 2+2
	equal 6 2 4 > l.tsv
	run sim-runtime -n 2 --lines 2 --order longest-first l.tsv
	assert_equal "$(val makespan)" 12
}

@test "two plans of the same timings: each bucket costs its distinct task nodes" {
	ex2
	run sim-runtime -n 2 --workflow "$T3" --instances i.tsv t.tsv none.tsv sca.tsv
	assert_success
	# none: 7, 8, 9, 10, 11 s; sca: {0,1} 4+2+1+2, {3,4} 4+2+4+5, {2} 4+2+3
	assert_equal "$(val plan 1)" none.tsv
	assert_equal "$(val work 1)" 45
	assert_equal "$(val makespan 1)" 27	# 7+9+11 | 8+10
	assert_equal "$(val plan 2)" sca.tsv
	assert_equal "$(val buckets 2)" 3
	assert_equal "$(val work 2)" 33
	assert_equal "$(val makespan 2)" 18	# 9+9 | 15
	assert_output --partial '#plan=none.tsv buckets=5 array_tasks=5 stage=s tasks=15 nodes=10 unmeasured=0 work=45'
	assert_output --partial '#plan=sca.tsv buckets=3 array_tasks=3 stage=s tasks=11 nodes=10 unmeasured=0 work=33'
	run sim-runtime -n 3 --workflow "$T3" --instances i.tsv t.tsv sca.tsv
	assert_equal "$(val makespan)" 15
	# the timings' own plan, costed by their rows, is the plan none
	run sim-runtime -n 2 --workflow "$T3" --instances i.tsv t.tsv
	assert_equal "$(val plan)" baseline
	assert_equal "$(val makespan)" 27
	assert_output --partial '#plan=baseline buckets=5 array_tasks=5 stage=s tasks=15 nodes=10 unmeasured=0 work=45'
}

# bats test_tags=fast
@test "a node never measured costs its task's mean on each tile, and is counted" {
	ex2
	# only instances 0 and 3 measured: t1 4 s, t2 2 s, t3 1 and 4 s
	awk -F'\t' 'NR == 1 || $1 == 0 || $1 == 3' t.tsv > part.tsv
	run sim-runtime --workflow "$T3" --instances i.tsv part.tsv sca.tsv
	assert_success
	# unmeasured: t2 of p1=1,p2=2; t3 of instances 1, 2 and 4 (2.5 s each)
	assert_output --partial 'nodes=10 unmeasured=4'
	# {0,1} 4+2+1+2.5, {3,4} 4+2+4+2.5, {2} 4+2+2.5
	assert_equal "$(val work)" 30.5
}

@test "a directory of per-bucket timings: #read and #prefault lines add decoding to each bucket" {
	mkdir tm
	for b in 0 1 2; do
		{
			echo '#seg-run 0.1.0'
			echo "#bucket=$b tiles=2"
			echo '#read tile=x y seconds=0.25'
			echo '#prefault tile=x y seconds=0.25'
			echo "#read tile=z seconds=$b"
			header
			row "$b" 'x y' 1 t1 0 1 0
			row "$b" z 1 t1 0 1 0
		} > "tm/0000$b.tsv"
	done
	echo junk > tm/notes.txt
	run sim-runtime tm
	assert_success
	# buckets 2.5, 3.5, 4.5
	assert_equal "$(val work)" 10.5
	assert_output --partial '#costs=timings tiles=2 rows=6 read_lines=6'
	run sim-runtime -n 3 tm
	assert_equal "$(val makespan)" 4.5
	# another plan decodes each tile once per bucket: x y 0.5, z the mean 1
	ex2
	mkdir tn
	for k in 0 1 2 3 4; do	# comments after the header count too
		{
			header
			echo "#bucket=$k tiles=1"
			echo "#read tile=a seconds=$k"
			awk -F'\t' -v k=$k '$1 == k' t.tsv
		} > "tn/$k.tsv"
	done
	run sim-runtime --workflow "$T3" --instances i.tsv tn sca.tsv
	assert_success
	assert_equal "$(val work)" 39	# 33 + 3 buckets x mean 2
	run sim-runtime tn
	assert_equal "$(val work)" 55	# 45 + 0+1+2+3+4
	# a #prefault line adds to its tile's #read: mean 2 + 1 per bucket
	mkdir tp
	for k in 0 1 2 3 4; do
		{ sed -n '/^#read/p' tn/$k.tsv; echo '#prefault tile=a seconds=1'; } > c
		{ header; echo "#bucket=$k tiles=1"; cat c; awk -F'\t' -v k=$k '$1 == k' t.tsv; } > tp/$k.tsv
	done
	run sim-runtime --workflow "$T3" --instances i.tsv tp sca.tsv
	assert_success
	assert_equal "$(val work)" 42	# 33 + 3 buckets x 3
	assert_output --partial 'read_lines=5'
}

@test "--skip-stage: the stage's rows and nodes are left out" {
	printf 'stage\ttask\tparams\tcost\nprep\tnorm\t-\t1\ns\tt1\tp1\t1\ns\tt2\tp2\t1\n' > w.wf
	printf 'run\tp1\tp2\n0\t1\t1\n1\t1\t2\n' > d.tsv
	wf-compact -q -o i.tsv w.wf d.tsv
	reuse-merge -a none -o none.tsv w.wf i.tsv
	reuse-merge -a naive -b 2 -o one.tsv w.wf i.tsv
	{
		header
		row 0 a 1 norm 0 5 0
		row 0 a 1 t1 0 1 0
		row 0 a 2 t2 0 1 0
		row 1 a 1 norm 0 5 0
		row 1 a 1 t1 1 1 0
		row 1 a 2 t2 1 2 0
	} > t.tsv
	run sim-runtime --workflow w.wf --instances i.tsv t.tsv none.tsv one.tsv
	assert_success
	assert_equal "$(val work 1)" 15
	assert_equal "$(val work 2)" 9	# norm once, t1 once, t2 twice
	run sim-runtime --workflow w.wf --instances i.tsv --skip-stage prep t.tsv none.tsv one.tsv
	assert_equal "$(val work 1)" 5
	assert_equal "$(val work 2)" 4
	run sim-runtime --workflow w.wf --instances i.tsv --skip-stage prep t.tsv
	assert_equal "$(val work)" 5
	# a stage without any timing must be skipped
	grep -v norm t.tsv > nonorm.tsv
	run sim-runtime --workflow w.wf --instances i.tsv nonorm.tsv one.tsv
	assert_failure 1
	assert_output --partial 'no timings of task norm (stage prep); give --skip-stage prep'
	run sim-runtime --workflow w.wf --instances i.tsv --skip-stage prep nonorm.tsv one.tsv
	assert_success
	run sim-runtime --workflow w.wf --instances i.tsv --skip-stage nope t.tsv
	assert_failure 2
	assert_output --partial '--skip-stage nope: no such stage in w.wf'
}

# --- slots, nodes, sweeps, plots ------------------------------------------------

@test "--nodes, --cores, --cpus-per-task: slots and node-hours" {
	equal 12 600 > t.tsv
	# 2 nodes x 4 cores / 2 cores a task = 4 slots: 3 rounds of 600 s
	run sim-runtime --nodes 2 --cores 4 --cpus-per-task 2 t.tsv
	assert_success
	assert_equal "$(val slots)" 4
	assert_equal "$(val makespan)" 1800
	assert_equal "$(val node_hours)" 1
	assert_output --partial 'cores=4 cpus_per_task=2'
	# 6 slots of 4-core nodes: 2 nodes, for 2 rounds of 600 s
	run sim-runtime -n 6 --cores 4 t.tsv
	assert_equal "$(val makespan)" 1200
	assert_equal "$(val node_hours)" 0.6667
	# without --cores a slot counts as a node
	run sim-runtime -n 6 t.tsv
	assert_equal "$(val node_hours)" 2
}

@test "--sweep: a row per slot count; '...' continues the list" {
	equal 10 1 > t.tsv
	run sim-runtime --sweep 1,2,4,...,64 t.tsv
	assert_success
	assert_equal "$(printf '%s\n' "$output" | grep -v '^#' | tail -n +2 | cut -f2 | paste -sd,)" 1,2,4,8,16,32,64
	assert_equal "$(printf '%s\n' "$output" | grep -v '^#' | tail -n +2 | cut -f5 | paste -sd,)" 10,5,3,2,1,1,1
	run sim-runtime --sweep 10,20,30,...,60 t.tsv
	assert_equal "$(printf '%s\n' "$output" | grep -v '^#' | tail -n +2 | cut -f2 | paste -sd,)" 10,20,30,40,50,60
	run sim-runtime --sweep 1,2,3,...,5 t.tsv
	assert_equal "$(printf '%s\n' "$output" | grep -v '^#' | tail -n +2 | cut -f2 | paste -sd,)" 1,2,3,4,5
	run sim-runtime --sweep 3 t.tsv
	assert_equal "$(val makespan)" 4
	# two plans: by plan, then slot count
	ex2
	run sim-runtime --sweep 1,2 --workflow "$T3" --instances i.tsv t.tsv none.tsv sca.tsv
	assert_equal "$(printf '%s\n' "$output" | grep -v '^#' | tail -n +2 | cut -f1,2,5 | tr '\t\n' ' ,')" 'none.tsv 1 45,none.tsv 2 27,sca.tsv 1 33,sca.tsv 2 18,'
}

@test "--plot: a PNG of makespan against slots, written atomically" {
	command -v gnuplot > /dev/null || skip "no gnuplot"
	ex2
	run sim-runtime --sweep 1,2,4 --plot m.png -o r.tsv --workflow "$T3" \
	    --instances i.tsv t.tsv none.tsv sca.tsv
	assert_success
	assert_output ''
	run od -An -c -N4 m.png
	assert_output --partial 'P   N   G'
	[ -s r.tsv ]
	no_temp_files
	# a failing run leaves no plot
	rm m.png
	run sim-runtime --sweep 1,2,4 --plot m.png --workflow "$T3" \
	    --instances i.tsv t.tsv missing.tsv
	assert_failure 1
	assert [ ! -e m.png ]
	no_temp_files
	run sim-runtime --plot - t.tsv
	assert_failure 2
	assert_output --partial '--plot needs a file name'
}

@test "--plot: a name with a quote and \$(touch PWNED) is plotted and runs nothing (issue 12, item 1)" {
	command -v gnuplot > /dev/null || skip "no gnuplot"
	ex2
	run sim-runtime --sweep 1,2,4 --plot "q'\$(touch PWNED).png" -o r.tsv \
	    --workflow "$T3" --instances i.tsv t.tsv none.tsv
	assert_success
	assert [ ! -e PWNED ]
	run od -An -c -N4 "q'\$(touch PWNED).png"
	assert_output --partial 'P   N   G'
	no_temp_files
}

# --- cost models -------------------------------------------------------------------

@test "--model: seconds per task, tiles, read and overhead rows" {
	ex2
	printf 'task\tseconds\tspread\nt1\t4\t0\nt2\t2\t0\nt3\t1\t0\n' > m.tsv
	run sim-runtime -n 2 --model m.tsv --workflow "$T3" --instances i.tsv none.tsv sca.tsv
	assert_success
	assert_output --partial '#costs=model tiles=1 seed=1'
	assert_equal "$(val work 1)" 35	# 5 x 7
	assert_equal "$(val makespan 1)" 21
	assert_equal "$(val work 2)" 23	# 8 + 8 + 7
	run sim-runtime -n 2 --tiles 3 --model m.tsv --workflow "$T3" --instances i.tsv sca.tsv
	assert_equal "$(val work)" 69
	assert_output --partial 'tiles=3'
	printf 'read\t0.5\t0\noverhead\t10\t0\n' >> m.tsv
	run sim-runtime -n 2 --tiles 2 --model m.tsv --workflow "$T3" --instances i.tsv sca.tsv
	assert_equal "$(val work)" 49	# 46 + 3 buckets x 2 tiles x 0.5
	assert_equal "$(val makespan)" 52	# (10 + 17) + (10 + 15) | 10 + 17
	assert_output --partial '#overhead=10 '
	run sim-runtime -n 2 --overhead 0 --tiles 2 --model m.tsv --workflow "$T3" --instances i.tsv sca.tsv
	assert_equal "$(val makespan)" 32
}

@test "--tiles-per-task T: a bucket as array tasks on chunks of T tiles (the last smaller), its seconds split by tiles, a start-up each" {
	ex2
	printf 'task\tseconds\tspread\nt1\t4\t0\nt2\t2\t0\nt3\t1\t0\n' > m.tsv
	# buckets of 8, 8 and 7 s a tile on 3 tiles: tasks 16, 8 | 16, 8 | 14, 7
	run sim-runtime -n 2 --tiles 3 --tiles-per-task 2 --model m.tsv \
	    --workflow "$T3" --instances i.tsv sca.tsv
	assert_success
	assert_equal "$(val work)" 69
	assert_equal "$(val makespan)" 38	# 16 + 8 + 14 | 8 + 16 + 7
	assert_output --partial 'array_tasks=6'
	assert_output --partial 'tiles_per_task=2'
	run sim-runtime -n 2 --overhead 1 --tiles 3 --tiles-per-task 2 \
	    --model m.tsv --workflow "$T3" --instances i.tsv sca.tsv
	assert_equal "$(val makespan)" 41	# 17 + 9 + 15 | 9 + 17 + 8
	# as many tiles a task as there are: a bucket a task
	run sim-runtime -n 2 --tiles 3 --tiles-per-task 3 --model m.tsv \
	    --workflow "$T3" --instances i.tsv sca.tsv
	assert_equal "$(val makespan)" 45	# 24 + 21 | 24
	assert_output --partial 'array_tasks=3'
	run sim-runtime --tiles-per-task 2 --lines 2 --tiles 3 --model m.tsv \
	    --workflow "$T3" --instances i.tsv sca.tsv
	assert_failure 2
	assert_output --partial "--tiles-per-task excludes --lines and --cancel"
	run sim-runtime --tiles-per-task 0 t.tsv
	assert_failure 2
}

@test "--model with a spread: lognormal draws, reproducible by --seed" {
	ex2
	printf 'task\tseconds\tspread\nt1\t4\t0.5\nt2\t2\t0.5\nt3\t1\t0.5\n' > m.tsv
	args=(--tiles 200 --model m.tsv --workflow "$T3" --instances i.tsv none.tsv)
	run sim-runtime "${args[@]}"
	a=$(val work)
	run sim-runtime -s 1 "${args[@]}"
	assert_equal "$(val work)" "$a"
	run sim-runtime -s 2 "${args[@]}"
	assert [ "$(val work)" != "$a" ]
	assert_output --partial 'seed=2'
	# the mean of 200 tiles x 5 buckets x 7 s
	awk -v w="$a" 'BEGIN { exit !(w > 0.95 * 7000 && w < 1.05 * 7000) }'
}

@test "--model refuses a model without a task, an unknown task, a repeat, a bad spread" {
	ex2
	printf 'task\tseconds\tspread\nt1\t4\t0\nt2\t2\t0\n' > m.tsv
	refuse_run sim-runtime 1 'm.tsv: no row for task t3 (stage s)' \
	    --model m.tsv --workflow "$T3" --instances i.tsv none.tsv
	printf 't3\t1\t0\nt9\t1\t0\n' >> m.tsv
	refuse_run sim-runtime 1 "m.tsv:5: column task: 't9' is not a task of $T3 (nor read or overhead)" \
	    --model m.tsv --workflow "$T3" --instances i.tsv none.tsv
	printf 'task\tseconds\tspread\nt1\t4\t0\nt2\t2\t0\nt3\t1\t0\nt1\t1\t0\n' > m.tsv
	refuse_run sim-runtime 1 'm.tsv:5: column task: task t1 repeats line 2' \
	    --model m.tsv --workflow "$T3" --instances i.tsv none.tsv
	printf 'task\tseconds\tspread\nt1\t4\t-1\nt2\t2\t0\nt3\t1\t0\n' > m.tsv
	refuse_run sim-runtime 1 'm.tsv:2: column spread: a negative spread' \
	    --model m.tsv --workflow "$T3" --instances i.tsv none.tsv
	printf 'task\tseconds\tspread\nt1\t4\t0\nt2\t2\t0\nt3\t1\t0\nread\t1\t0.2\n' > m.tsv
	refuse_run sim-runtime 1 'm.tsv:5: column spread: the read row takes spread 0' \
	    --model m.tsv --workflow "$T3" --instances i.tsv none.tsv
}

# --- cancellation --------------------------------------------------------------------

@test "--cancel acc: a poor set is cancelled once its mean has settled" {
	sets 4 10
	results 4 10 0.9 0.9 0.9 0.5
	base=(--workflow "$T3" --instances i.tsv --results res.tsv)
	# one slot: runs 0-2 first (30 values of 0.9); run 3's mean 0.5 is
	# below 0.9 - 0.05 once settled: after 2w-1 = 3 values (3 x 3 s)
	run sim-runtime "${base[@]}" --cancel acc=0.05,time=off,window=2 t.tsv
	assert_success
	assert_line --index 6 "$(printf 'plan\tslots\tbuckets\twork\tmakespan\tutilisation\tefficiency\tnode_hours\tcancelled\tbest_survived\twork_hms\tmakespan_hms')"
	assert_equal "$(val makespan)" 39
	assert_equal "$(val cancelled)" 1
	assert_equal "$(val best_survived)" yes
	assert_output --partial '#cancel metric=dice acc=0.05 time=off window=2 runs=4 best_run=0'
	# window 5: 9 values
	run sim-runtime "${base[@]}" --cancel acc=0.05,time=off,window=5 t.tsv
	assert_equal "$(val makespan)" 57
	# without cancellation
	run sim-runtime t.tsv
	assert_equal "$(val makespan)" 60
	run sim-runtime "${base[@]}" --cancel acc=off,time=off t.tsv
	assert_equal "$(val makespan)" 60
	assert_equal "$(val cancelled)" 0
	# four slots in step: at run 3's 3rd value (9 s) the global mean is
	# (27 x 0.9 + 3 x 0.5) / 30 = 0.86 > 0.5 + 0.05: cancelled
	run sim-runtime -n 4 "${base[@]}" --cancel acc=0.05,time=off,window=2 t.tsv
	assert_equal "$(val makespan)" 10
	assert_equal "$(val work)" 39
	run sim-runtime -n 4 t.tsv
	assert_equal "$(val makespan)" 30
}

@test "--cancel time: a slow set is cancelled; the best set may not survive" {
	sets 4 10
	results 4 10 0.8 0.8 0.8 0.95
	base=(-n 4 --workflow "$T3" --instances i.tsv --results res.tsv)
	# run 3 takes 3 s a tile against 1 s; at its 3rd value (9 s) the mean
	# time is (27 x 1 + 3 x 3) / 30 = 1.2, and 3 > 2 x 1.2
	run sim-runtime "${base[@]}" --cancel acc=off,time=2,window=2 t.tsv
	assert_success
	assert_equal "$(val makespan)" 10
	assert_equal "$(val work)" 39
	assert_equal "$(val cancelled)" 1
	assert_equal "$(val best_survived)" no
	run sim-runtime "${base[@]}" --cancel acc=off,time=3,window=2 t.tsv
	assert_equal "$(val makespan)" 30
	assert_equal "$(val best_survived)" yes
	# defaults: acc=0.05, time=2, window=5 (9 values: 27 s)
	run sim-runtime "${base[@]}" --cancel '' t.tsv
	assert_failure 2
	run sim-runtime "${base[@]}" --cancel window=5 t.tsv
	assert_equal "$(val makespan)" 27
}

@test "--cancel stable:...: the same report as the bare form; none cancels nothing" {
	sets 4 10
	results 4 10 0.9 0.9 0.9 0.5
	base=(--sweep 1,4 --workflow "$T3" --instances i.tsv --results res.tsv)
	sim-runtime -o bare.tsv "${base[@]}" --cancel acc=0.05,time=off,window=2 t.tsv
	sim-runtime -o named.tsv "${base[@]}" --cancel stable:acc=0.05,time=off,window=2 t.tsv
	assert_equal "$(grep -v '^#command' named.tsv)" "$(grep -v '^#command' bare.tsv)"
	run grep '^#cancel' named.tsv
	assert_output '#cancel metric=dice acc=0.05 time=off window=2 runs=4 best_run=0'
	# the defaults, by name or by one key at its default
	sim-runtime -o bare.tsv "${base[@]}" --cancel window=5 t.tsv
	sim-runtime -o named.tsv "${base[@]}" --cancel stable t.tsv
	assert_equal "$(grep -v '^#command' named.tsv)" "$(grep -v '^#command' bare.tsv)"
	run sim-runtime "${base[@]}" --cancel none t.tsv
	assert_success
	assert_line '#cancel metric=dice rule=none runs=4 best_run=0'
	assert_equal "$(val cancelled)" 0
	assert_equal "$(val makespan)" 60
	assert_equal "$(val makespan 2)" 30
}

@test "--cancel median: below the median of the others' means once warmed up and started" {
	sets 6 10
	results 6 10 0.9 0.8 0.85 0.7 0.95 0.5
	base=(--workflow "$T3" --instances i.tsv --results res.tsv)
	# one slot, runs in turn: run 3 (0.7) sees three other sets, fewer
	# than startup=5; run 5 (0.5, 3 s a tile) five, and is cancelled at
	# its 2nd value (warmup 2): 50 s + 2 x 3 s
	run sim-runtime "${base[@]}" --cancel median t.tsv
	assert_success
	assert_line '#cancel metric=dice rule=median:warmup=2,startup=5 runs=6 best_run=4'
	assert_equal "$(val makespan)" 56
	assert_equal "$(val cancelled)" 1
	assert_equal "$(val best_survived)" yes
	# startup 3: run 3 too (0.7 < median 0.85 of 0.9, 0.8, 0.85), after
	# 2 values; run 5 still counts it after 2 values: 30 + 2 + 10 + 6
	run sim-runtime "${base[@]}" --cancel median:startup=3 t.tsv
	assert_equal "$(val makespan)" 48
	assert_equal "$(val cancelled)" 2
	# warmup 3: one value more each
	run sim-runtime "${base[@]}" --cancel median:warmup=3,startup=3 t.tsv
	assert_equal "$(val makespan)" 52
	assert_output --partial 'rule=median:warmup=3,startup=3 '
	# startup 6: never six other sets
	run sim-runtime "${base[@]}" --cancel median:startup=6 t.tsv
	assert_equal "$(val cancelled)" 0
}

@test "--results LEDGER: a tuning campaign's ledger replays as its results do; repeats of a resumed bucket count once" {
	sets 6 10
	results 6 10 0.9 0.8 0.85 0.7 0.95 0.5
	{
		echo '#a ledger of the same values, a cancel line and a repeat'
		printf 'kind\trun\ttile\tvalue\tseconds\tdetail\n'
		awk -F'\t' -v OFS='\t' 'NR > 1 { print "result", $1, $2, $4, 1, "" }' res.tsv
		printf 'result\t0\ta0\t0.1\t1\t\n'
		printf 'cancel\t5\t2\t0.5\t-\tmedian\n'
	} > ledger.tsv
	base=(--workflow "$T3" --instances i.tsv)
	for rule in median median:startup=3 stable:window=2 wilcoxon none; do
		run sim-runtime "${base[@]}" --results res.tsv --cancel "$rule" t.tsv
		assert_success
		want=$(grep -v '^#command' <<< "$output")
		run sim-runtime "${base[@]}" --results ledger.tsv --cancel "$rule" t.tsv
		assert_success
		assert_equal "$(grep -v '^#command' <<< "$output")" "$want"
	done
	# a ledger row of a run beyond the instances
	printf 'result\t9\ta0\t0.5\t1\t\n' >> ledger.tsv
	run sim-runtime "${base[@]}" --results ledger.tsv --cancel median t.tsv
	assert_failure 1
	assert_output "sim-runtime: ledger.tsv: run 9 is not a run of the instances (0 to 5)"
}

@test "--cancel wilcoxon: worse than the best set by the signed-rank test, p below the threshold" {
	sets 4 10
	results 4 10 0.9 0.9 0.9 0.5
	base=(--workflow "$T3" --instances i.tsv --results res.tsv)
	# run 3's k values all 0.4 below the best's (run 0): p = 1/2^k, below
	# 0.1 at k = 4 (4 x 3 s after 30 s)
	run sim-runtime "${base[@]}" --cancel wilcoxon t.tsv
	assert_success
	assert_line '#cancel metric=dice rule=wilcoxon:warmup=2,p=0.1 runs=4 best_run=0'
	assert_equal "$(val makespan)" 42
	assert_equal "$(val cancelled)" 1
	run sim-runtime "${base[@]}" --cancel wilcoxon:p=0.2 t.tsv
	assert_equal "$(val makespan)" 39
	run sim-runtime "${base[@]}" --cancel wilcoxon:warmup=6,p=0.2 t.tsv
	assert_equal "$(val makespan)" 48
	assert_output --partial 'rule=wilcoxon:warmup=6,p=0.2 '
	# four slots in step: run 3 is decided once the others have the tile
	run sim-runtime -n 4 "${base[@]}" --cancel wilcoxon t.tsv
	assert_equal "$(val makespan)" 12
	assert_equal "$(val work)" 42
	# every set alike: none below the best's mean, nothing cancelled
	results 4 10 0.9 0.9 0.9 0.9
	run sim-runtime "${base[@]}" --cancel wilcoxon:warmup=1,p=0.99 t.tsv
	assert_equal "$(val cancelled)" 0
}

@test "--cancel refuses an unknown rule or key, and values out of range" {
	sets 2 2
	results 2 2 0.9 0.5
	base=(--workflow "$T3" --instances i.tsv --results res.tsv)
	while IFS='|' read -r rule msg; do
		refuse_run sim-runtime 2 "$msg" "${base[@]}" --cancel "$rule" t.tsv
		assert_output --partial "Try 'sim-runtime --help'"
	done <<'EOF'
fast|--cancel 'fast': unknown rule 'fast' (none, stable, median, wilcoxon; or acc=A,time=T,window=W)
fast:p=0.1|unknown rule 'fast'
|--cancel '': unknown rule ''
median:p=0.1|--cancel 'median:p=0.1': unknown key 'p' of rule median (warmup, startup)
wilcoxon:startup=2|unknown key 'startup' of rule wilcoxon (warmup, p)
stable:warmup=2|unknown key 'warmup' of rule stable (acc, time, window)
bad=1|unknown key 'bad' of rule stable (acc, time, window)
none:acc=1|--cancel 'none:acc=1': rule none takes no keys
median:|rule median takes a comma list of KEY=VALUE (warmup, startup)
wilcoxon:p|'p' is not KEY=VALUE
wilcoxon:p=0|--cancel p '0': a number in (0, 1)
wilcoxon:p=1|--cancel p '1': a number in (0, 1)
wilcoxon:p=-0.5|--cancel p '-0.5': a number in (0, 1)
wilcoxon:warmup=0|--cancel warmup '0': a whole number from 1 to 1e9
median:warmup=0|--cancel warmup '0': a whole number from 1 to 1e9
median:startup=0|--cancel startup '0': a whole number from 1 to 1e9
median:startup=x|--cancel startup 'x': a whole number from 1 to 1e9
stable:window=0|--cancel window '0': a whole number from 1 to 1e9
stable:time=0|time '0': a number >= 0 (time: > 0) or off
EOF
}

@test "--cancel in a merged bucket: the nodes of the cancelled run are skipped" {
	# runs 0, 1 share t1 (2 s a tile); t2 1 s each; run 2 alone 1 s
	printf 'run\tp1\tp2\tp3\n0\t1\t1\t1\n1\t1\t2\t1\n2\t2\t1\t1\n' > d.tsv
	wf-compact -q -o i.tsv "$T3" d.tsv
	reuse-merge -a naive -b 2 -o b.tsv "$T3" i.tsv
	{
		header
		for k in 0 1 2 3 4 5; do
			row 0 a$k 1 t1 0,1 2 0
			row 0 a$k 2 t2 0 1 0
			row 0 a$k 3 t3 0 0 0
			row 0 a$k 2 t2 1 1 0
			row 0 a$k 3 t3 1 0 0
			row 1 a$k 1 t1 2 1 0
			row 1 a$k 2 t2 2 0 0
			row 1 a$k 3 t3 2 0 0
		done
	} > t.tsv
	{
		printf 'run\ttile\tdice\n'
		for k in 0 1 2 3 4 5; do
			printf '0\ta%d\t0.2\n1\ta%d\t0.9\n2\ta%d\t0.9\n' $k $k $k
		done
	} > res.tsv
	# bucket 0: 4 s a tile for both runs, 3 s once run 0 is cancelled
	# after its 2nd value (window 1: then the mean of all is 0.2, 0.9,
	# 0.2 = 0.43; after its 1st it was 0.2, its own); bucket 1: 6 x 1 s
	run sim-runtime --workflow "$T3" --instances i.tsv --results res.tsv \
	    --cancel acc=0.05,time=off,window=1 t.tsv b.tsv
	assert_success
	assert_equal "$(val makespan)" $((2 * 4 + 4 * 3 + 6))
	assert_equal "$(val cancelled)" 1
	run sim-runtime --workflow "$T3" --instances i.tsv t.tsv b.tsv
	assert_equal "$(val makespan)" 30
}

@test "--results: statuses, missing values, --metric" {
	sets 2 3
	printf 'run\ttile\tstatus\tdice\tobjects\n0\ta0\tok\t0.5\t3\n0\ta1\terror\t\t0\n1\ta0\tbackground\t1\t0\n' > res.tsv
	run sim-runtime --workflow "$T3" --instances i.tsv --results res.tsv --cancel window=1 t.tsv
	assert_success
	assert_output --partial 'best_run=1'
	run sim-runtime --workflow "$T3" --instances i.tsv --results res.tsv --metric objects --cancel window=1 t.tsv
	assert_success
	assert_output --partial 'metric=objects'
	assert_output --partial 'best_run=0'
	printf 'run\ttile\tstatus\tdice\n0\ta0\tbad\t0.5\n' > bad.tsv
	refuse_run sim-runtime 1 "bad.tsv:2: column status: 'bad' is not ok" \
	    --workflow "$T3" --instances i.tsv --results bad.tsv --cancel window=1 t.tsv
	printf 'run\ttile\tdice\n0\ta0\tNaN\n' > bad.tsv
	refuse_run sim-runtime 1 "bad.tsv:2: column dice: 'NaN' is" \
	    --workflow "$T3" --instances i.tsv --results bad.tsv --cancel window=1 t.tsv
	printf 'run\ttile\tdice\n0\tzz\t0.5\n' > bad.tsv
	refuse_run sim-runtime 1 "bad.tsv:2: column tile: 'zz' is not a tile of the timings" \
	    --workflow "$T3" --instances i.tsv --results bad.tsv --cancel window=1 t.tsv
	printf 'run\ttile\tdice\n7\ta0\t0.5\n' > bad.tsv
	refuse_run sim-runtime 1 "bad.tsv:2: column run: 7 is not a run of the instances (0 to 1)" \
	    --workflow "$T3" --instances i.tsv --results bad.tsv --cancel window=1 t.tsv
	printf 'run\ttile\tdice\n0\ta0\t0.5\n1\ta0\t0.5\n0\ta0\t0.6\n' > bad.tsv
	refuse_run sim-runtime 1 "bad.tsv:4: run 0 on tile a0 repeats line 2" \
	    --workflow "$T3" --instances i.tsv --results bad.tsv --cancel window=1 t.tsv
	printf 'run\ttile\tdice\n0\ta0\t\n' > bad.tsv
	refuse_run sim-runtime 1 "bad.tsv: no values of dice" \
	    --workflow "$T3" --instances i.tsv --results bad.tsv --cancel window=1 t.tsv
	# a header without rows (no row array to sort: found by fuzz-results)
	printf 'run\ttile\tdice\n' > bad.tsv
	refuse_run sim-runtime 1 "bad.tsv: no values of dice" \
	    --workflow "$T3" --instances i.tsv --results bad.tsv --cancel window=1 t.tsv
	refuse_run sim-runtime 1 "res.tsv: no column 'jaccard' in the header" \
	    --workflow "$T3" --instances i.tsv --results res.tsv --metric jaccard --cancel window=1 t.tsv
}

@test "--model with --results: the tiles are the results'" {
	sets 4 10
	results 4 10 0.9 0.9 0.9 0.5
	printf 'task\tseconds\tspread\nt1\t1\t0\nt2\t0\t0\nt3\t0\t0\n' > m.tsv
	run sim-runtime --model m.tsv --workflow "$T3" --instances i.tsv \
	    --results res.tsv --cancel acc=0.05,time=off,window=2 none.tsv
	assert_success
	assert_output --partial '#costs=model tiles=10'
	assert_equal "$(val makespan)" 33
	assert_equal "$(val cancelled)" 1
}

# --- bad input ------------------------------------------------------------------------

# --- fitted models -------------------------------------------------------------------

# two: w.wf, a prep stage (norm) and a stage s (t1(p1), t2(p2)); a small
# design of 2 runs (i1.tsv: p1 = 1, p2 = 1 or 2) with timings of its plan
# none on tile a (t1.tsv: norm 5 s, t1 1 s, t2 2 s); a larger design of 6
# runs (i6.tsv: p1 = 1..3, p2 = 1..2) with its plan none (none6.tsv) and
# all in one bucket (one6.tsv)
two() {
	printf 'stage\ttask\tparams\tcost\nprep\tnorm\t-\t1\ns\tt1\tp1\t1\ns\tt2\tp2\t1\n' > w.wf
	printf 'run\tp1\tp2\n0\t1\t1\n1\t1\t2\n' > d1.tsv
	printf 'run\tp1\tp2\n0\t1\t1\n1\t1\t2\n2\t2\t1\n3\t2\t2\n4\t3\t1\n5\t3\t2\n' > d6.tsv
	wf-compact -q -o i1.tsv w.wf d1.tsv
	wf-compact -q -o i6.tsv w.wf d6.tsv
	reuse-merge -a none -o none6.tsv w.wf i6.tsv
	reuse-merge -a naive -b 6 -o one6.tsv w.wf i6.tsv
	{
		header
		row 0 a 1 norm 0 5 0
		row 0 a 1 t1 0 1 0
		row 0 a 2 t2 0 2 0
		row 1 a 1 norm 0 5 0
		row 1 a 1 t1 1 1 0
		row 1 a 2 t2 1 2 0
	} > t1.tsv
}

@test "--fit: the timings of a small design cost the plans of a larger one" {
	two
	run sim-runtime -n 2 --fit --workflow w.wf --instances i6.tsv t1.tsv none6.tsv one6.tsv
	assert_success
	assert_line --index 2 '#costs=fitted timings=t1.tsv tasks=3 rows=6 read_lines=0 tiles=1 seed=1'
	assert_line --index 3 '#fit task=norm stage=prep seconds=5 spread=0 n=2 from=timings'
	assert_line --index 4 '#fit task=t1 stage=s seconds=1 spread=0 n=2 from=timings'
	assert_line --index 5 '#fit task=t2 stage=s seconds=2 spread=0 n=2 from=timings'
	assert_line --index 6 '#overhead=0 delay=0 lines=1 order=file'
	# none: 6 buckets of 5 + 1 + 2 s, 3 rounds on 2 slots
	assert_equal "$(val work 1)" 48
	assert_equal "$(val makespan 1)" 24
	assert_equal "$(val makespan_hms 1)" 0:00:24
	# one bucket: norm once, t1 on 3 nodes, t2 on 6
	assert_equal "$(val work 2)" 20
	assert_equal "$(val makespan 2)" 20
	assert_output --partial '#plan=one6.tsv buckets=1 array_tasks=1 stage=s tasks=9 nodes=10 unmeasured=0 work=20'
	# what the same model by hand gives
	printf 'task\tseconds\tspread\nnorm\t5\t0\nt1\t1\t0\nt2\t2\t0\n' > m.tsv
	want=$(grep -v '^#' <<< "$output")
	run sim-runtime -n 2 --model m.tsv --workflow w.wf --instances i6.tsv none6.tsv one6.tsv
	assert_equal "$(grep -v '^#' <<< "$output")" "$want"
	# --skip-stage: the buckets do not normalize
	run sim-runtime -n 2 --fit --skip-stage prep --workflow w.wf --instances i6.tsv t1.tsv none6.tsv
	assert_equal "$(val work)" 18
	assert_output --partial 'tasks=2 rows=4 '
	refute_output --partial 'task=norm'
	# the timings of the larger design are refused for the instances of
	# the smaller, with the way out
	reuse-merge -a none -o none1.tsv w.wf i1.tsv
	{ header; for r in 0 1 2 3 4 5; do row $r a 1 norm 0 5 0; row $r a 1 t1 $r 1 0; row $r a 2 t2 $r 2 0; done; } > t6.tsv
	refuse_run sim-runtime 1 "t6.tsv:9: column instances: instance '2' is not one of the stage's 2: timings of another instances.tsv? (--fit predicts another design's plans from them)" \
	    --workflow w.wf --instances i1.tsv t6.tsv none1.tsv
	run sim-runtime --fit --workflow w.wf --instances i1.tsv t6.tsv none1.tsv
	assert_success
	assert_equal "$(val work)" 16
}

@test "--fit: spreads, the timings' tiles, #read lines, --tiles and --seed; a directory of timings" {
	two
	mkdir tm
	for b in 0 1 2 3; do
		{
			echo "#bucket=$b tiles=2"
			echo '#read tile=a seconds=0.5'
			echo '#prefault tile=a seconds=0.5'
			echo '#read tile=b seconds=1'
			header
			for k in a b; do
				row $b $k 1 norm 0 5 0
				row $b $k 1 t1 $b $((b + 1)) 0
				row $b $k 2 t2 $b 2 0
			done
		} > tm/$b.tsv
	done
	run sim-runtime --fit --workflow w.wf --instances i6.tsv tm none6.tsv
	assert_success
	# t1: 1, 2, 3, 4 twice: mean 2.5, sample sd sqrt(10/7)
	assert_line '#costs=fitted timings=tm tasks=3 rows=24 read_lines=8 tiles=2 seed=1'
	assert_line '#fit task=t1 stage=s seconds=2.5 spread=0.4781 n=8 from=timings'
	assert_line '#fit task=read seconds=1 spread=0 n=8 from=timings'
	a=$(val work)
	run sim-runtime -s 2 --fit --workflow w.wf --instances i6.tsv tm none6.tsv
	assert [ "$(val work)" != "$a" ]
	assert_output --partial 'seed=2'
	# read 1 s a bucket and tile; t1 drawn: 400 tiles x 6 x (5 + 2.5 + 2 + 1)
	run sim-runtime --tiles 400 --fit --workflow w.wf --instances i6.tsv tm none6.tsv
	assert_output --partial ' tiles=400 '
	awk -v w="$(val work)" 'BEGIN { exit !(w > 0.97 * 25200 && w < 1.03 * 25200) }'
}

@test "--write-model: the fitted model, which --model reads to the same report" {
	two
	# t1 on tiles a, b, c: 1.1 and 0.9, 2.2 and 1.8, 3.3 and 2.7
	{
		header
		for k in a:1.1:0.9 b:2.2:1.8 c:3.3:2.7; do
			IFS=: read -r tile s0 s1 <<< "$k"
			row 0 "$tile" 1 norm 0 5 0
			row 0 "$tile" 1 t1 0 "$s0" 0
			row 0 "$tile" 2 t2 0 2 0
			row 1 "$tile" 1 norm 0 5 0
			row 1 "$tile" 1 t1 1 "$s1" 0
			row 1 "$tile" 2 t2 1 3 0
		done
	} > tt.tsv
	run sim-runtime --sweep 1,2 --fit --write-model m.tsv -o fit.tsv --workflow w.wf \
	    --instances i6.tsv tt.tsv none6.tsv one6.tsv
	assert_success
	assert_output ''
	run cat m.tsv
	assert_line --index 0 '#sim-runtime 0.1.0'
	assert_line --index 2 '#costs=fitted timings=tt.tsv tasks=3 rows=18 read_lines=0 tiles=3 seed=1'
	assert_line --index 4 '#fit task=t1 stage=s seconds=2 spread=0.4626 n=6 from=timings'
	# a row for every tile (*), then one per tile
	assert_equal "$(grep -v '^#' m.tsv | cut -f 1,2 | paste -sd' ')" \
	    "$(printf 'task\ttile norm\t* norm\ta norm\tb norm\tc t1\t* t1\ta t1\tb t1\tc t2\t* t2\ta t2\tb t2\tc')"
	assert_equal "$(awk -F'\t' '$1 == "t1" { print $3 }' m.tsv | paste -sd' ')" '2 1 2 3'
	# t2: 2 and 3 three times each: spread sqrt(0.3) / 2.5, every digit
	awk -F'\t' '$1 == "t2" && $2 == "*" { d = $4 - sqrt(0.3) / 2.5
	    exit !($3 == 2.5 && d < 1e-16 && d > -1e-16 && length($4) > 15) }' m.tsv
	# on the model's tiles (a, b, c) --model gives the same report
	sim-runtime --sweep 1,2 --model m.tsv -o model.tsv --workflow w.wf \
	    --instances i6.tsv none6.tsv one6.tsv
	assert_equal "$(grep -v '^#' model.tsv)" "$(grep -v '^#' fit.tsv)"
	grep -q 'work_hms' fit.tsv
	grep -q '^#costs=model tiles=3 ' model.tsv
	no_temp_files
}

@test "--model: rows of a tile take it, the row for every tile (*) the others" {
	two
	printf 'task\ttile\tseconds\tspread\nnorm\t*\t0\t0\nt1\t*\t1\t0\nt1\tb\t10\t0\nt2\t*\t2\t0\nread\tb\t0.5\t0\n' > m.tsv
	# tiles b, the model's: 6 buckets x (10 + 2 + 0.5)
	run sim-runtime --model m.tsv --workflow w.wf --instances i6.tsv none6.tsv
	assert_success
	assert_output --partial '#costs=model tiles=1 '
	assert_equal "$(val work)" 75
	# --tiles 2: tiles 1 and 2, the rows for every tile
	run sim-runtime --tiles 2 --model m.tsv --workflow w.wf --instances i6.tsv none6.tsv
	assert_equal "$(val work)" 36
	# a task without a row for a tile
	printf 'task\ttile\tseconds\tspread\nnorm\t*\t0\t0\nt1\tb\t1\t0\nt2\t*\t2\t0\n' > m2.tsv
	refuse_run sim-runtime 1 "m2.tsv: no row for task t1 (stage s) on tile 1, nor one for every tile (*)" \
	    --tiles 1 --model m2.tsv --workflow w.wf --instances i6.tsv none6.tsv
	printf 'task\ttile\tseconds\tspread\nt1\tb\t1\t0\nt1\tb\t2\t0\n' > m3.tsv
	refuse_run sim-runtime 1 "m3.tsv:3: column task: task t1 on this tile repeats line 2" \
	    --model m3.tsv --workflow w.wf --instances i6.tsv none6.tsv
	printf 'task\ttile\tseconds\tspread\noverhead\tb\t1\t0\n' > m4.tsv
	refuse_run sim-runtime 1 "m4.tsv:2: column tile: the overhead row is for every tile (*)" \
	    --model m4.tsv --workflow w.wf --instances i6.tsv none6.tsv
	printf 'task\ttile\tseconds\tspread\nt1\t\t1\t0\n' > m5.tsv
	refuse_run sim-runtime 1 "m5.tsv:2: column tile: no tile: a tile's name, or * for every tile" \
	    --model m5.tsv --workflow w.wf --instances i6.tsv none6.tsv
}

@test "--ref-timings: the normalization of buckets run on tiles normalized once (#normalize=no)" {
	two
	sed -i '1i #normalize=no' t1.tsv
	sed -i 's/\tnorm\t0\t5\t/\tnorm\t0\t0.000001\t/' t1.tsv
	printf '#bucket=0 tiles=2\n#read tile=a seconds=9\n'"$(header)"'\n0\ta\t1\tnorm\t0\t3\t7\n0\ta\t1\tt1\t0\t50\t0\n0\tb\t1\tnorm\t0\t5\t7\n' > ref.tsv
	# the normalization rows are not measurements
	refuse_run sim-runtime 1 "t1.tsv: no timings of task norm (stage prep): its rows are of seg-run --no-normalize (#normalize=no), which measures no normalization; give the reference step's timings (--ref-timings), or --skip-stage prep if the buckets do not run it" \
	    --fit --workflow w.wf --instances i6.tsv t1.tsv none6.tsv
	# as sa-campaign's buckets run: normalization skipped
	run sim-runtime --fit --ref-timings ref.tsv --workflow w.wf --instances i6.tsv \
	    --skip-stage prep -n 2 t1.tsv none6.tsv
	assert_success
	assert_equal "$(val work)" 18
	# a plan whose buckets normalize: the reference step's seconds (4),
	# its other tasks and #read lines not taken
	run sim-runtime --fit --ref-timings ref.tsv --workflow w.wf --instances i6.tsv \
	    -n 2 t1.tsv none6.tsv
	assert_success
	assert_line '#costs=fitted timings=t1.tsv ref_timings=ref.tsv tasks=3 rows=6 read_lines=0 tiles=1 seed=1'
	assert_line '#fit task=norm stage=prep seconds=4 spread=0.3536 n=2 from=ref_timings'
	assert_line '#fit task=t1 stage=s seconds=1 spread=0 n=2 from=timings'
	# norm drawn around 4 s: 6 x 3 s + 6 draws
	w=$(val work)
	awk -v w="$w" 'BEGIN { exit !(w > 18 + 6 * 2 && w < 18 + 6 * 6) }'
	# repeatable, and a directory
	mkdir refs
	cp ref.tsv refs/0.tsv
	printf "$(header)\n0\ta\t1\tnorm\t0\t4\t7\n" > refs/1.tsv
	run sim-runtime --fit --ref-timings refs --ref-timings ref.tsv --workflow w.wf \
	    --instances i6.tsv t1.tsv none6.tsv
	assert_line '#fit task=norm stage=prep seconds=4 spread=0.25 n=5 from=ref_timings'
	assert_output --partial ' ref_timings=refs,ref.tsv '
	# the campaign's merged timings keep the line
	printf '#normalize=no\n' > t2.tsv
	header >> t2.tsv
	row 2 a 1 norm 0 0.000001 0 >> t2.tsv
	seg-merge -f timings -o merged.tsv t1.tsv t2.tsv
	run sim-runtime --fit --ref-timings ref.tsv --workflow w.wf --instances i6.tsv \
	    merged.tsv none6.tsv
	assert_success
	assert_line '#fit task=norm stage=prep seconds=4 spread=0.3536 n=2 from=ref_timings'
	# older timings of seg-run --no-normalize, without the line: taken,
	# with a warning
	sed -i '/^#normalize=no$/d' t1.tsv
	run sim-runtime --fit --ref-timings ref.tsv --workflow w.wf --instances i6.tsv t1.tsv none6.tsv
	assert_success
	assert_output --partial "sim-runtime: t1.tsv: task norm costs 1e-06 s, the reference step's 4 s: timings of seg-run --no-normalize without their #normalize=no line? They are taken as measurements; add the line to take the reference step's"
	assert_output --partial '#fit task=norm stage=prep seconds=1e-06 spread=0 n=2 from=timings'
	# timings that normalized measure it themselves
	two
	run sim-runtime --fit --ref-timings ref.tsv --workflow w.wf --instances i6.tsv t1.tsv none6.tsv
	assert_line '#fit task=norm stage=prep seconds=5 spread=0 n=2 from=timings'
}

@test "--fit refuses: reference timings of another workflow, a task without timings, bad rows, usage errors" {
	two
	printf "$(header)\n0\ta\t1\tSeg0\t0\t3\t7\n" > other.tsv
	refuse_run sim-runtime 1 "other.tsv:2: column task: 'Seg0' is not a task of w.wf" \
	    --fit --ref-timings other.tsv --workflow w.wf --instances i6.tsv t1.tsv none6.tsv
	refuse_run sim-runtime 1 "other.tsv:2: column task: 'Seg0' is not a task of w.wf" \
	    --fit --workflow w.wf --instances i6.tsv other.tsv none6.tsv
	grep -v t2 t1.tsv > no2.tsv
	cp no2.tsv ref2.tsv
	refuse_run sim-runtime 1 "no2.tsv: no timings of task t2 (stage s) nor in --ref-timings; give --skip-stage s if the buckets do not run it" \
	    --fit --ref-timings ref2.tsv --workflow w.wf --instances i6.tsv no2.tsv none6.tsv
	refuse_run sim-runtime 1 "no2.tsv: no timings of task t2 (stage s); give --skip-stage s" \
	    --fit --workflow w.wf --instances i6.tsv no2.tsv none6.tsv
	header > empty.tsv
	refuse_run sim-runtime 1 "empty.tsv: no timings: the file has no rows" \
	    --fit --workflow w.wf --instances i6.tsv empty.tsv none6.tsv
	sed 's/\t2\t0$/\t-2\t0/' t1.tsv > neg.tsv
	refuse_run sim-runtime 1 "neg.tsv:4: column seconds: negative seconds" \
	    --fit --workflow w.wf --instances i6.tsv neg.tsv none6.tsv
	refuse_run sim-runtime 1 "gone.tsv" \
	    --fit --ref-timings gone.tsv --workflow w.wf --instances i6.tsv t1.tsv none6.tsv
	base=(--workflow w.wf --instances i6.tsv)
	refuse_run sim-runtime 2 "--fit needs the plans BUCKETS.tsv to predict" --fit "${base[@]}" t1.tsv
	refuse_run sim-runtime 2 "--model, --fit, --results and --skip-stage need --workflow and --instances" --fit t1.tsv none6.tsv
	refuse_run sim-runtime 2 "--model and --fit exclude each other" --fit --model t1.tsv "${base[@]}" none6.tsv
	refuse_run sim-runtime 2 "--ref-timings and --write-model go with --fit" --ref-timings t1.tsv t1.tsv
	refuse_run sim-runtime 2 "--ref-timings and --write-model go with --fit" --write-model m.tsv t1.tsv
	refuse_run sim-runtime 2 "--write-model needs a file name" --fit --write-model - "${base[@]}" t1.tsv none6.tsv
	refuse_run sim-runtime 2 "r.tsv: named twice as an output" --fit --write-model r.tsv -o r.tsv "${base[@]}" t1.tsv none6.tsv
	refuse_run sim-runtime 2 "only one input can be stdin" --fit --ref-timings - "${base[@]}" - none6.tsv
	run sim-runtime --fit --write-model t1.tsv "${base[@]}" t1.tsv none6.tsv
	assert_failure 2
	assert_output --partial 't1.tsv'
	refuse_run sim-runtime 2 "--tiles and --seed go with --model or --fit" --tiles 3 t1.tsv
}

@test "bad timings: empty, negative or NaN seconds, bad numbers, rows of other instances" {
	header > empty.tsv
	refuse_run sim-runtime 1 'empty.tsv: no timings: the file has no rows' empty.tsv
	: > none.tsv
	refuse_run sim-runtime 1 'none.tsv: empty file, expected a header line' none.tsv
	{ header; row 0 a 1 t1 0 1 0; row 1 a 1 t1 0 -2 0; } > neg.tsv
	refuse_run sim-runtime 1 'neg.tsv:3: column seconds: negative seconds' neg.tsv
	{ header; row 0 a 1 t1 0 NaN 0; } > nan.tsv
	refuse_run sim-runtime 1 "nan.tsv:2: column seconds: 'NaN' is" nan.tsv
	{ header; row 0 a 1 t1 0 inf 0; } > inf.tsv
	refuse_run sim-runtime 1 "inf.tsv:2: column seconds: 'inf' is" inf.tsv
	{ header; row x a 1 t1 0 1 0; } > b.tsv
	refuse_run sim-runtime 1 "b.tsv:2: column bucket: 'x' is" b.tsv
	{ header; row -1 a 1 t1 0 1 0; } > b.tsv
	refuse_run sim-runtime 1 "b.tsv:2: column bucket: negative bucket number" b.tsv
	printf 'bucket\ttile\ttask\tinstances\n0\ta\tt1\t0\n' > nosec.tsv
	refuse_run sim-runtime 1 "nosec.tsv: no column 'seconds' in the header" nosec.tsv
	{ header; printf '0\ta\t1\tt1\t0\t1\n'; } > short.tsv
	refuse_run sim-runtime 1 'short.tsv:2: 6 fields, expected 7 (row too short)' short.tsv
	mkdir emptydir
	refuse_run sim-runtime 1 'emptydir: no *.tsv timings files in the directory' emptydir
	ex2
	sed -i 's/^3\ta\t2\tt2\t3/3\ta\t2\tt2\t9/' t.tsv
	refuse_run sim-runtime 1 "t.tsv:12: column instances: instance '9' is not one of the stage's 5: timings of another instances.tsv?" \
	    --workflow "$T3" --instances i.tsv t.tsv
	ex2
	sed -i 's/^0\ta\t1\tt1\t0/0\ta\t1\tt1\t0,3/' t.tsv
	refuse_run sim-runtime 1 't.tsv:2: column instances: instances 0,3 do not share this task' \
	    --workflow "$T3" --instances i.tsv t.tsv
	ex2
	sed -i 's/\tt2\t/\ttx\t/' t.tsv
	refuse_run sim-runtime 1 "t.tsv:3: column task: 'tx' is not a task of $T3" \
	    --workflow "$T3" --instances i.tsv t.tsv
	{ echo '#read tile=a seconds=1'; header; row 0 a 1 t1 0 1 0; } > r.tsv
	refuse_run sim-runtime 1 'r.tsv: #read tile=a seconds=1: before any #bucket= line' r.tsv
	{ echo '#bucket=0'; echo '#read tile=a seconds=-1'; header; row 0 a 1 t1 0 1 0; } > r.tsv
	refuse_run sim-runtime 1 "r.tsv: #read tile=a seconds=-1: '-1' is not a number of seconds" r.tsv
}

@test "a plan that does not fit the instances: exit 1 naming the line" {
	ex2
	reuse-merge -a none -o other.tsv "$T3" i.tsv
	sed -i 's/^4\t4\t4\t3\t3$/4\t7\t4\t3\t3/' other.tsv
	refuse_run sim-runtime 1 "other.tsv:10: column instances: '7' is not an instance of the stage (0 to 4)" \
	    --workflow "$T3" --instances i.tsv t.tsv other.tsv
	reuse-merge -a none -o other.tsv "$T3" i.tsv
	sed -i 's/^4\t4\t4\t3\t3$/4\t4\t4\t2\t3/' other.tsv
	refuse_run sim-runtime 1 'other.tsv:10: column tasks: 2, but the bucket'"'"'s instances share 3 tasks: a plan of another instances file?' \
	    --workflow "$T3" --instances i.tsv t.tsv other.tsv
	reuse-merge -a none -o other.tsv "$T3" i.tsv
	sed -i 's/^4\t4\t4\t3\t3$/4\t3\t4\t3\t3/' other.tsv
	refuse_run sim-runtime 1 'other.tsv:10: column instances: instance 3 is in bucket 3 too' \
	    --workflow "$T3" --instances i.tsv t.tsv other.tsv
	reuse-merge -a none -o other.tsv "$T3" i.tsv
	sed -i 's/^4\t4/5\t4/' other.tsv
	refuse_run sim-runtime 1 'other.tsv:10: column bucket: row 4 is bucket 5' \
	    --workflow "$T3" --instances i.tsv t.tsv other.tsv
	sed -i 's/stage=s/stage=nope/' other.tsv
	refuse_run sim-runtime 1 "other.tsv: a plan of stage nope, which $T3 does not have" \
	    --workflow "$T3" --instances i.tsv t.tsv other.tsv
	printf 'bucket\tinstances\truns\ttasks\tcost\n' > nob.tsv
	refuse_run sim-runtime 1 'nob.tsv: no buckets' \
	    --workflow "$T3" --instances i.tsv t.tsv nob.tsv
}

@test "usage errors exit 2: --slots 0, bad values, missing or conflicting options" {
	equal 3 1 > t.tsv
	ex2
	for args in "--slots 0" "-n -1" "-n x" "--sweep 0,1" "--sweep 4,2" \
	    "--sweep 1,...,4" "--sweep 1,2,..." "--sweep ," "--lines 0" \
	    "--overhead -1" "--overhead x" "--delay nan" "--order random" \
	    "--cores 4 --cpus-per-task 8" "--nodes 2" "--cpus-per-task 2" \
	    "-n 2 --sweep 1,2" "--nodes 1 --cores 2 -n 2" "--cancel acc=0.1" \
	    "--results t.tsv" "--metric dice" "--model t.tsv" "--tiles 3" \
	    "-s 3" "--workflow $T3" "--instances i.tsv" "--skip-stage s" \
	    "--cancel bad=1 --results t.tsv" "--cancel acc=-1 --results t.tsv" \
	    "--cancel time=0 --results t.tsv" "--cancel window=0 --results t.tsv" \
	    "--cancel acc --results t.tsv" "--bogus" "-n"; do
		# shellcheck disable=SC2086
		run sim-runtime $args t.tsv
		[ "$status" -eq 2 ] || fail "$args: exit $status: $output"
		assert_output --partial "Try 'sim-runtime --help'"
	done
	run sim-runtime --slots 0 t.tsv
	assert_output --partial "--slots '0': a whole number from 1 to 1e9"
	run sim-runtime
	assert_failure 2
	assert_output --partial 'no TIMINGS given'
	run sim-runtime t.tsv none.tsv
	assert_failure 2
	assert_output --partial 'BUCKETS.tsv needs --workflow and --instances'
	run sim-runtime --model m.tsv --workflow "$T3" --instances i.tsv
	assert_failure 2
	assert_output --partial 'no BUCKETS.tsv given'
	run sim-runtime --workflow "$T3" --instances - - < t.tsv
	assert_failure 2
	assert_output --partial 'only one input can be stdin'
	run sim-runtime --model m.tsv --tiles 2 --results r.tsv --cancel window=1 \
	    --workflow "$T3" --instances i.tsv none.tsv
	assert_failure 2
	assert_output --partial '--tiles and --results exclude each other'
	run sim-runtime -o r.tsv --plot r.tsv t.tsv
	assert_failure 2
	assert_output --partial 'named twice as an output'
}

@test "missing files: exit 1 naming them" {
	refuse_run sim-runtime 1 'nothere.tsv: No such file or directory' nothere.tsv
	ex2
	refuse_run sim-runtime 1 'nothere.tsv: No such file or directory' \
	    --workflow "$T3" --instances i.tsv t.tsv nothere.tsv
}

@test "10^5 buckets, longest first, on up to 10^3 slots: close to work / slots" {
	awk 'BEGIN { print "bucket\ttile\tdepth\ttask\tinstances\tseconds\tbytes"
	    srand(1); for (i = 0; i < 100000; i++) printf "%d\ta\t1\tt1\t0\t%.3f\t0\n", i, 1 + 9 * rand() }' > big.tsv
	run sim-runtime --sweep 1,10,100,1000 --order longest-first big.tsv
	assert_success
	# LPT on many slots: close to work / slots
	w=$(val work 4)
	m=$(val makespan 4)
	awk -v w="$w" -v m="$m" 'BEGIN { exit !(m >= w / 1000 && m < w / 1000 + 10) }'
	assert_equal "$(val makespan 1)" "$w"
}
