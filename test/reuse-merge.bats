#!/usr/bin/env bats
# reuse-merge: the worked examples, the invariants of every algorithm
# against brute-force recounts, every option, and refusal of bad input.
load common

bats_require_minimum_version 1.5.0

WF=$TOP/share/workflows/nuclei.wf
REUSE=$TOP/test/data/reuse
T3=$REUSE/t3.wf
STATS_KEYS="runs instances tasks_noreuse tasks_stage tasks_merged buckets reuse_stage_pct reuse_task_pct reuse_total_pct max_bucket_tasks max_bucket_cost seconds"

# --- helpers ---------------------------------------------------------------

# compact WF DESIGN OUT: the instances of a design
compact() {
	wf-compact -q -o "$3" "$1" "$2"
}

# ex N: instances.tsv of worked example N (ex1..ex4) as iN.tsv
ex() {
	compact "$T3" "$REUSE/ex$1.tsv" "i$1.tsv"
}

# moat: instances of a nuclei MOAT design (160 runs) as moat.tsv
moat() {
	sa-sample -m moat -r 10 "$SPACE" > moat-d.tsv
	compact "$WF" moat-d.tsv moat.tsv
}

# vbd: instances of the VBD design of the fine space with the
# non-influential parameters fixed (3000 runs) as vbd.tsv
vbd() {
	sa-sample -m vbd -n 300 --fix B=220 --fix G=220 --fix R=220 --fix T1=5 \
	    --fix FillHoles=4 --fix minSizeSeg=21 --fix maxSizeSeg=1000 \
	    "$FINE" > vbd-d.tsv
	compact "$WF" vbd-d.tsv vbd.tsv
}

# stat FILE KEY: a value of the #stats line
stat() {
	sed -n '/^#stats /{s/^#stats //;p;q;}' "$1" | tr ' ' '\n' | sed -n "s/^$2=//p"
}

# meta FILE KEY: a value of the #algorithm= metadata line
meta() {
	sed -n '/^#algorithm=/{s/^#//;p;q;}' "$1" | tr ' ' '\n' | sed -n "s/^$2=//p"
}

# rows FILE: the bucket rows (no comments, no header)
rows() {
	body "$1" | tail -n +2
}

# sets FILE: the instances column, one bucket a line
sets() {
	rows "$1" | cut -f2
}

# check_buckets WF INSTANCES BUCKETS: the invariants of any plan, against
# a brute-force recount: buckets numbered 0.., none empty, every instance
# of the merged stage and every run in exactly one bucket, the runs column
# the union of the bucket's instances' runs (increasing), the tasks column
# the number of distinct task prefixes (upstream and values of tasks 1..t)
# of the bucket's instances, the cost column their task count (cost=tasks)
# or summed task weights (cost=weights), and a #stats line with exactly
# the documented keys whose totals agree with the rows
check_buckets() {
	run awk -F'\t' -v CONVFMT=%.17g -v KEYS="$STATS_KEYS" '
	function bad(msg) { print msg; err = 1 }
	function near(a, b, tol) { return a - b <= tol && b - a <= tol }
	FNR == 1 { f++ }
	f == 1 && /^#/ { next }
	f == 1 && !wh { for (i = 1; i <= NF; i++) wc[$i] = i; wh = 1; next }
	f == 1 { s = $wc["stage"]; nt[s]++; tpar[s, nt[s]] = $wc["params"]
		tw[s, nt[s]] = $wc["cost"]; next }
	f == 2 && /^#algorithm=/ { n = split(substr($0, 2), w, " ")
		for (i = 1; i <= n; i++) { split(w[i], kv, "="); meta[kv[1]] = kv[2] }
		stage = meta["stage"]; m = nt[stage]; next }
	f == 2 && /^#stats / { nstats++; n = split(substr($0, 8), w, " ")
		keys = ""
		for (i = 1; i <= n; i++) { split(w[i], kv, "="); st[kv[1]] = kv[2]
			keys = keys (i > 1 ? " " : "") kv[1] }
		if (keys != KEYS) bad("#stats keys: " keys)
		next }
	f == 2 && /^#/ { next }
	f == 2 && !bh { if ($0 != "bucket\tinstances\truns\ttasks\tcost")
			bad("header: " $0)
		bh = 1; next }
	f == 2 { b = nb++ + 0
		if ($1 != b) bad("bucket " $1 " in row " b)
		binst[b] = $2; bruns[b] = $3; btasks[b] = $4; bcost[b] = $5
		next }
	f == 3 && /^#/ { next }
	f == 3 && !ih { for (i = 1; i <= NF; i++) ic[$i] = i; ih = 1; next }
	f == 3 && $1 == stage { id = $2; ninst++; iruns[id] = $3 "|" $4
		key = $3
		for (t = 1; t <= m; t++) {
			n = tpar[stage, t] == "-" ? 0 : split(tpar[stage, t], p, ",")
			key = key "|"
			for (j = 1; j <= n; j++)
				key = key SUBSEP ($ic[p[j]] + 0)
			pk[id, t] = key
		}
		n = split($4, r, ",")
		for (j = 1; j <= n; j++) { rowner[r[j]] = id; nrun++ } }
	END {
		if (nstats != 1) bad(nstats + 0 " #stats lines")
		if (m == 0) bad("stage " stage " not in the workflow")
		for (b = 0; b < nb; b++) {
			k = split(binst[b], in_, ",")
			if (binst[b] == "" || k == 0) bad("bucket " b " is empty")
			tasks = 0; cost = 0; want = 0
			for (i = 1; i <= k; i++) {
				id = in_[i]
				if (!((id, 1) in pk)) { bad("bucket " b ": no instance " id); continue }
				if (id in where) bad("instance " id " in buckets " where[id] " and " b)
				where[id] = b
				split(iruns[id], ur, "|")
				want += split(ur[2], r, ",")
				for (t = 1; t <= m; t++)
					if (!((b, t, pk[id, t]) in seen)) {
						seen[b, t, pk[id, t]] = 1
						tasks++
						cost += tw[stage, t]
					}
			}
			if (tasks != btasks[b]) bad("bucket " b ": tasks " btasks[b] ", brute force " tasks)
			if (meta["cost"] == "tasks" && bcost[b] != tasks)
				bad("bucket " b ": cost " bcost[b] ", tasks " tasks)
			if (meta["cost"] == "weights" && !near(bcost[b], cost, 1e-9 * cost))
				bad("bucket " b ": cost " bcost[b] ", weights " cost)
			n = split(bruns[b], r, ",")
			if (n != want) bad("bucket " b ": " n " runs, its instances have " want)
			for (j = 1; j <= n; j++) {
				if (j > 1 && r[j] <= r[j - 1]) bad("bucket " b ": runs not increasing")
				if (r[j] in rb) bad("run " r[j] " in buckets " rb[r[j]] " and " b)
				rb[r[j]] = b
				if (!(r[j] in rowner) || where[rowner[r[j]]] != b)
					bad("bucket " b ": run " r[j] " is not of its instances")
			}
			merged += btasks[b]
			if (btasks[b] > maxt) maxt = btasks[b]
			if (bcost[b] > maxc) maxc = bcost[b]
		}
		for (id = 0; id < ninst; id++)
			if (!(id in where)) bad("instance " id " in no bucket")
		for (r0 in rowner) if (!(r0 in rb)) bad("run " r0 " in no bucket")
		if (st["runs"] != nrun) bad("runs=" st["runs"] ", rows have " nrun)
		if (st["instances"] != ninst) bad("instances=" st["instances"] ", " ninst)
		if (st["tasks_noreuse"] != nrun * m) bad("tasks_noreuse=" st["tasks_noreuse"])
		if (st["tasks_stage"] != ninst * m) bad("tasks_stage=" st["tasks_stage"])
		if (st["tasks_merged"] != merged) bad("tasks_merged=" st["tasks_merged"] ", rows sum to " merged)
		if (st["buckets"] != nb) bad("buckets=" st["buckets"] ", " nb " rows")
		if (st["max_bucket_tasks"] != maxt) bad("max_bucket_tasks=" st["max_bucket_tasks"])
		if (!near(st["max_bucket_cost"], maxc, 1e-9 * maxc)) bad("max_bucket_cost=" st["max_bucket_cost"])
		if (!near(st["reuse_stage_pct"], 100 * (1 - ninst / nrun), 0.0051))
			bad("reuse_stage_pct=" st["reuse_stage_pct"])
		if (!near(st["reuse_task_pct"], 100 * (1 - merged / (ninst * m)), 0.0051))
			bad("reuse_task_pct=" st["reuse_task_pct"])
		if (!near(st["reuse_total_pct"], 100 * (1 - merged / (nrun * m)), 0.0051))
			bad("reuse_total_pct=" st["reuse_total_pct"])
		if (st["seconds"] !~ /^[0-9]+\.[0-9]+$/) bad("seconds=" st["seconds"])
		exit err
	}' "$1" "$3" "$2"
	assert_success
}

# max_size FILE: the most instances in a bucket
max_size() {
	sets "$1" | awk -F, 'NF > m { m = NF } END { print m + 0 }'
}

# prefixes_by_brute_force WF DESIGN STAGE: distinct task prefixes of the
# stage over the design's runs: (values of every earlier stage's
# parameters, values of tasks 1..t) for t = 1..m
prefixes_by_brute_force() {
	awk -F'\t' -v CONVFMT=%.17g -v stage="$3" '
	FNR == 1 { f++ }
	/^#/ { next }
	f == 1 && !wh { for (i = 1; i <= NF; i++) wc[$i] = i; wh = 1; next }
	f == 1 { ps = $wc["params"] == "-" ? "" : $wc["params"]
		if ($wc["stage"] == stage) { done = 1; task[++m] = ps }
		else if (!done) up = up "," ps
		next }
	f == 2 && !dh { for (i = 1; i <= NF; i++) dc[$i] = i; dh = 1
		nu = split(substr(up, 2), u, ","); next }
	f == 2 { key = ""
		for (j = 1; j <= nu; j++) if (u[j] != "") key = key SUBSEP ($dc[u[j]] + 0)
		for (t = 1; t <= m; t++) {
			n = split(task[t], p, ",")
			key = key "|"
			for (j = 1; j <= n; j++) key = key SUBSEP ($dc[p[j]] + 0)
			if (!((t, key) in seen)) { seen[t, key] = 1; count++ }
		} }
	END { print count + 0 }' "$1" "$2"
}

# refuse CODE MESSAGE ARGS...: see refuse_run in common.bash
refuse() {
	refuse_run reuse-merge "$@"
}

# --- the worked examples ----------------------------------------------------

@test "example 1: rtma -b 3 gives {a,b,c} 5 tasks, {d,e,f} 7, {g,h,i} 8; 20 of 27" {
	ex 1
	reuse-merge -a rtma -b 3 "$T3" i1.tsv > b.tsv
	assert_equal "$(rows b.tsv)" "$(printf '0\t0,1,2\t0,1,2\t5\t5\n1\t3,4,5\t3,4,5\t7\t7\n2\t6,7,8\t6,7,8\t8\t8')"
	assert_equal "$(stat b.tsv tasks_merged)" 20
	assert_equal "$(stat b.tsv tasks_stage)" 27
	assert_equal "$(stat b.tsv tasks_noreuse)" 27
	assert_equal "$(stat b.tsv reuse_task_pct)" 25.93
	check_buckets "$T3" i1.tsv b.tsv
}

@test "example 2: sca -b 2 gives {a,b}, {d,e}, {c}; 11 of 15" {
	ex 2
	reuse-merge -a sca -b 2 "$T3" i2.tsv > b.tsv
	assert_equal "$(rows b.tsv)" "$(printf '0\t0,1\t0,1\t4\t4\n1\t3,4\t3,4\t4\t4\n2\t2\t2\t3\t3')"
	assert_equal "$(stat b.tsv tasks_merged)" 11
	assert_equal "$(stat b.tsv tasks_stage)" 15
	check_buckets "$T3" i2.tsv b.tsv
}

@test "example 3: trtma -B 2 balances Full-Merge's 9 and 3 into 7 and 6 by moving one of a..d" {
	ex 3
	reuse-merge -a trtma -B 2 "$T3" i3.tsv > b.tsv
	check_buckets "$T3" i3.tsv b.tsv
	assert_equal "$(rows b.tsv | cut -f4 | tr '\n' ' ')" "7 6 "
	# e (instance 4) went with exactly one of a..d
	assert_equal "$(sets b.tsv | grep -E '(^|,)4(,|$)' | tr , '\n' | wc -l)" 2
	assert_equal "$(stat b.tsv tasks_merged)" 13
	assert_equal "$(stat b.tsv max_bucket_tasks)" 7
}

@test "example 4: trtma -B 2 folds Full-Merge's 8, 3, 3 into 8 and 6 ({e,f})" {
	ex 4
	reuse-merge -a trtma -B 2 "$T3" i4.tsv > b.tsv
	assert_equal "$(rows b.tsv)" "$(printf '0\t0,1,2,3\t0,1,2,3\t8\t8\n1\t4,5\t4,5\t6\t6')"
	assert_equal "$(stat b.tsv tasks_merged)" 14
	check_buckets "$T3" i4.tsv b.tsv
}

# --- one bucket holding everything ---------------------------------------------

@test "naive -b BIG: tasks_merged is the number of distinct task prefixes (brute force on the design)" {
	local e
	for e in 1 2 3 4; do
		ex "$e"
		reuse-merge -a naive -b 1000000 "$T3" "i$e.tsv" > b.tsv
		assert_equal "$(stat b.tsv buckets)" 1
		assert_equal "$(stat b.tsv tasks_merged)" \
		    "$(prefixes_by_brute_force "$T3" "$REUSE/ex$e.tsv" s)"
	done
	# ex4: t1 1,2,3; t2 (1,1) (1,2) (1,3) (2,1) (3,1); t3 six
	assert_equal "$(stat b.tsv tasks_merged)" 14
	moat
	reuse-merge -a naive -b 1000000 "$WF" moat.tsv > b.tsv
	assert_equal "$(stat b.tsv tasks_merged)" \
	    "$(prefixes_by_brute_force "$WF" moat-d.tsv segment)"
	check_buckets "$WF" moat.tsv b.tsv
	vbd
	reuse-merge -a naive -b 1000000 "$WF" vbd.tsv > b.tsv
	assert_equal "$(stat b.tsv tasks_merged)" \
	    "$(prefixes_by_brute_force "$WF" vbd-d.tsv segment)"
	check_buckets "$WF" vbd.tsv b.tsv
}

@test "one bucket by any algorithm (rtma, sca -b BIG, trtma -B 1) executes the same distinct prefixes" {
	local e want
	for e in 1 2 3 4; do
		ex "$e"
		want=$(prefixes_by_brute_force "$T3" "$REUSE/ex$e.tsv" s)
		reuse-merge -a rtma -b 100 "$T3" "i$e.tsv" > r.tsv
		reuse-merge -a sca -b 100 "$T3" "i$e.tsv" > s.tsv
		reuse-merge -a trtma -B 1 "$T3" "i$e.tsv" > t.tsv
		assert_equal "$(stat r.tsv tasks_merged) $(stat s.tsv tasks_merged) $(stat t.tsv tasks_merged)" \
		    "$want $want $want"
	done
	moat
	want=$(prefixes_by_brute_force "$WF" moat-d.tsv segment)
	reuse-merge -a trtma -B 1 "$WF" moat.tsv > t.tsv
	assert_equal "$(stat t.tsv buckets) $(stat t.tsv tasks_merged)" "1 $want"
	reuse-merge -a sca -b 1000 "$WF" moat.tsv > s.tsv
	assert_equal "$(stat s.tsv buckets) $(stat s.tsv tasks_merged)" "1 $want"
}

@test "instances compare values as numbers: 1, 1.0 and 1e0 share a task, as do -0 and 0" {
	printf 'stage\tinstance\tupstream\truns\tp1\tp2\tp3\ns\t0\t-\t0\t1\t1\t1\ns\t1\t-\t1\t1.0\t1e0\t2\ns\t2\t-\t2\t-0\t1\t2\ns\t3\t-\t3\t0\t1.00\t3\n' > i.tsv
	reuse-merge -a naive -b 10 "$T3" i.tsv > b.tsv
	assert_equal "$(stat b.tsv tasks_merged)" 8
	check_buckets "$T3" i.tsv b.tsv
	reuse-merge -a naive -b 10 --tree 0 "$T3" i.tsv > t.tsv
	assert_equal "$(body t.tsv | awk -F'\t' '$1 < 3 { print $2, $3, $4 }' | tr '\n' ' ')" \
	    "t1 0,1 p1=1 t2 0,1 p2=1 t1 2,3 p1=0 t2 2,3 p2=1 "
}

@test "naive -b BIG on another stage (--stage compare) counts that stage's prefixes" {
	sa-sample -m vbd -n 20 --fix FillHoles=4 --fix MorphRecon=8 --fix Watershed=8 "$SPACE" > d.tsv
	compact "$WF" d.tsv i.tsv
	reuse-merge -a naive -b 1000000000 --stage compare "$WF" i.tsv > b.tsv
	assert_equal "$(stat b.tsv tasks_merged)" "$(prefixes_by_brute_force "$WF" d.tsv compare)"
	check_buckets "$WF" i.tsv b.tsv
}

# --- invariants of every algorithm ---------------------------------------------

@test "every algorithm on a nuclei MOAT design: a valid plan, buckets within -b or -B" {
	moat
	local a b
	for a in none naive sca rtma; do
		for b in 1 3 8; do
			if [ "$a" = none ]; then
				reuse-merge -a none "$WF" moat.tsv > b.tsv
				b=1
			else
				reuse-merge -a "$a" -b "$b" "$WF" moat.tsv > b.tsv
			fi
			check_buckets "$WF" moat.tsv b.tsv
			assert [ "$(max_size b.tsv)" -le "$b" ]
		done
	done
	reuse-merge -a rtma -b 5 --double-prune "$WF" moat.tsv > b.tsv
	check_buckets "$WF" moat.tsv b.tsv
	assert [ "$(max_size b.tsv)" -le 5 ]
	for b in 1 2 7 40 500; do
		reuse-merge -a trtma -B "$b" "$WF" moat.tsv > b.tsv
		check_buckets "$WF" moat.tsv b.tsv
		assert [ "$(stat b.tsv buckets)" -le "$b" ]
	done
}

@test "every algorithm on the fine VBD design (stage-level duplicates): a valid plan, within bounds" {
	vbd
	local a
	reuse-merge -a none "$WF" vbd.tsv > b.tsv
	check_buckets "$WF" vbd.tsv b.tsv
	assert [ "$(max_size b.tsv)" -le 1 ]
	for a in naive rtma; do
		reuse-merge -a "$a" -b 16 "$WF" vbd.tsv > b.tsv
		check_buckets "$WF" vbd.tsv b.tsv
		assert [ "$(max_size b.tsv)" -le 16 ]
	done
	reuse-merge -a rtma -b 16 --double-prune "$WF" vbd.tsv > b.tsv
	check_buckets "$WF" vbd.tsv b.tsv
	assert [ "$(max_size b.tsv)" -le 16 ]
	reuse-merge -a trtma -B 24 "$WF" vbd.tsv > b.tsv
	check_buckets "$WF" vbd.tsv b.tsv
	assert [ "$(stat b.tsv buckets)" -le 24 ]
	assert [ "$(stat b.tsv reuse_stage_pct)" != 0.00 ]
}

@test "every algorithm on the worked examples: a valid plan, within bounds" {
	local e a b
	for e in 1 2 3 4; do
		ex "$e"
		for a in naive sca rtma; do
			for b in 1 2 4; do
				reuse-merge -a "$a" -b "$b" "$T3" "i$e.tsv" > b.tsv
				check_buckets "$T3" "i$e.tsv" b.tsv
				assert [ "$(max_size b.tsv)" -le "$b" ]
			done
		done
		for b in 1 2 3 9; do
			reuse-merge -a trtma -B "$b" "$T3" "i$e.tsv" > b.tsv
			check_buckets "$T3" "i$e.tsv" b.tsv
			assert [ "$(stat b.tsv buckets)" -le "$b" ]
		done
	done
}

@test "none: one instance per bucket, in order, no task-level reuse" {
	moat
	reuse-merge -a none "$WF" moat.tsv > b.tsv
	assert_equal "$(sets b.tsv)" "$(seq 0 159)"
	assert_equal "$(rows b.tsv | cut -f4 | sort -u)" 7
	assert_equal "$(stat b.tsv tasks_merged)" "$(stat b.tsv tasks_stage)"
	assert_equal "$(stat b.tsv reuse_task_pct)" 0.00
	assert_equal "$(meta b.tsv algorithm)" none
	assert_equal "$(meta b.tsv b)" ""
}

# bats test_tags=fast
@test "naive -b N: consecutive groups of N instances, the last one shorter" {
	ex 1
	reuse-merge -a naive -b 4 "$T3" i1.tsv > b.tsv
	assert_equal "$(sets b.tsv)" "$(printf '0,1,2,3\n4,5,6,7\n8')"
	assert_equal "$(meta b.tsv b)" 4
}

@test "-b defaults to 8 for naive, sca and rtma" {
	moat
	local a
	for a in naive sca rtma; do
		reuse-merge -a "$a" "$WF" moat.tsv > b.tsv
		assert_equal "$(meta b.tsv b)" 8
		assert [ "$(max_size b.tsv)" -le 8 ]
	done
	reuse-merge -a naive "$WF" moat.tsv > b.tsv
	assert_equal "$(stat b.tsv buckets)" 20
}

@test "rtma --double-prune: at least the reuse of plain rtma on the fine VBD design" {
	vbd
	local b plain dp
	for b in 4 8 16 32; do
		reuse-merge -a rtma -b "$b" "$WF" vbd.tsv > p.tsv
		reuse-merge -a rtma -b "$b" --double-prune "$WF" vbd.tsv > d.tsv
		plain=$(stat p.tsv tasks_merged)
		dp=$(stat d.tsv tasks_merged)
		assert [ "$dp" -le "$plain" ]
		assert [ "$(max_size d.tsv)" -le "$b" ]
		assert_equal "$(meta d.tsv double_prune)" 1
		assert_equal "$(meta p.tsv double_prune)" ""
	done
	check_buckets "$WF" vbd.tsv d.tsv
}

@test "trtma: -B defaults to 3 x --nodes x --cores; without -B or --cores a usage error" {
	moat
	refuse 2 "trtma needs -B, or --cores" -a trtma "$WF" moat.tsv
	refuse 2 "trtma needs -B, or --cores" -a trtma --nodes 2 "$WF" moat.tsv
	reuse-merge -a trtma --nodes 2 --cores 3 "$WF" moat.tsv > b.tsv
	assert_equal "$(meta b.tsv B)" 18
	assert_equal "$(stat b.tsv buckets)" 18
	check_buckets "$WF" moat.tsv b.tsv
	reuse-merge -a trtma --cores 5 "$WF" moat.tsv > b.tsv
	assert_equal "$(meta b.tsv B)" 15
	# -B wins over the default
	reuse-merge -a trtma -B 4 --nodes 2 --cores 3 "$WF" moat.tsv > b.tsv
	assert_equal "$(meta b.tsv B)" 4
	assert_equal "$(meta b.tsv bucket_task_cap)" 0
}

@test "trtma --max-bucket-tasks N: no bucket executes more than N tasks" {
	moat
	local cap
	for cap in 200 100 60 40; do
		reuse-merge -a trtma -B 4 --max-bucket-tasks "$cap" "$WF" moat.tsv > b.tsv
		check_buckets "$WF" moat.tsv b.tsv
		assert [ "$(stat b.tsv max_bucket_tasks)" -le "$cap" ]
		assert_equal "$(meta b.tsv bucket_task_cap)" "$cap"
	done
	# ex4 -B 2: Full-Merge 8, 3, 3; a cap of 8 lets 3 + 3 fold, 5 does not
	ex 4
	reuse-merge -a trtma -B 2 --max-bucket-tasks 8 "$T3" i4.tsv > b.tsv
	check_buckets "$T3" i4.tsv b.tsv
	assert_equal "$(rows b.tsv | cut -f4 | tr '\n' ' ')" "8 6 "
}

# capped WF INSTANCES CAP ARGS...: trtma with --max-bucket-tasks CAP either
# keeps every bucket within CAP or refuses with a message
capped() {
	local wf=$1 inst=$2 cap=$3
	shift 3
	run --separate-stderr reuse-merge -a trtma --max-bucket-tasks "$cap" "$@" "$wf" "$inst"
	if [ "$status" -eq 0 ]; then
		printf '%s\n' "$output" > b.tsv
		check_buckets "$wf" "$inst" b.tsv
		assert [ "$(stat b.tsv max_bucket_tasks)" -le "$cap" ]
	else
		assert [ -n "$stderr" ]
	fi
}

@test "trtma --max-bucket-tasks below a Full-Merge group is respected (or refused), never exceeded silently" {
	# ex4 -B 2: Full-Merge gives a group of 8 tasks; one instance has 3
	ex 4
	capped "$T3" i4.tsv 7 -B 2
	# nuclei MOAT -B 4: Full-Merge groups of ~30 tasks; one instance has 7
	moat
	capped "$WF" moat.tsv 10 -B 4
}

@test "--stage picks the stage; the default is the one with most tasks" {
	moat
	reuse-merge -a rtma -b 4 "$WF" moat.tsv > def.tsv
	assert_equal "$(meta def.tsv stage)" segment
	reuse-merge -a rtma -b 4 --stage segment "$WF" moat.tsv > seg.tsv
	assert_equal "$(body seg.tsv)" "$(body def.tsv)"
	reuse-merge -a naive -b 4 --stage normalize "$WF" moat.tsv > n.tsv
	assert_equal "$(meta n.tsv stage)" normalize
	assert_equal "$(rows n.tsv)" "$(printf '0\t0\t%s\t1\t1' "$(seq -s, 0 159)")"
	assert_equal "$(stat n.tsv tasks_noreuse)" 160
	assert_equal "$(stat n.tsv tasks_stage)" 1
	check_buckets "$WF" moat.tsv n.tsv
	reuse-merge -a rtma -b 4 --stage compare "$WF" moat.tsv > c.tsv
	assert_equal "$(meta c.tsv stage)" compare
	assert_equal "$(stat c.tsv tasks_merged)" 160
	check_buckets "$WF" moat.tsv c.tsv
}

@test "--cost weights: the cost column sums the workflow's task costs over the bucket's nodes" {
	ex 1
	sed 's/\tt2\tp2\t1$/\tt2\tp2\t10/; s/\tt3\tp3\t1$/\tt3\tp3\t100/' "$T3" > w.wf
	grep -q $'t3\tp3\t100' w.wf
	reuse-merge -a rtma -b 3 --cost weights w.wf i1.tsv > b.tsv
	assert_equal "$(meta b.tsv cost)" weights
	# {a,b,c}: 1 t1 + 1 t2 + 3 t3; {d,e,f}: 1 + 3 + 3; {g,h,i}: 2 + 3 + 3
	assert_equal "$(rows b.tsv | cut -f4,5)" "$(printf '5\t311\n7\t331\n8\t332')"
	assert_equal "$(stat b.tsv max_bucket_cost)" 332
	assert_equal "$(stat b.tsv max_bucket_tasks)" 8
	check_buckets w.wf i1.tsv b.tsv
	# nuclei's fractional costs, against the brute-force sum
	moat
	reuse-merge -a trtma -B 5 --cost weights "$WF" moat.tsv > b.tsv
	check_buckets "$WF" moat.tsv b.tsv
	# unit costs by default: cost equals tasks
	reuse-merge -a rtma -b 3 w.wf i1.tsv > u.tsv
	assert_equal "$(meta u.tsv cost)" tasks
	assert_equal "$(rows u.tsv | cut -f4,5)" "$(printf '5\t5\n7\t7\n8\t8')"
}

# timings FILE: measured seconds for ex1's tree, 2 tiles (x, y); t1's node
# p1=1 has three rows (mean 3), t2's node (2,2) of instance 8 none
timings() {
	{
		printf 'bucket\ttile\tdepth\ttask\tinstances\tseconds\tbytes\n'
		printf '0\tx\t1\tt1\t0,1,2\t1\t0\n0\ty\t1\tt1\t0,1,2\t3\t0\n'
		printf '1\tx\t1\tt1\t3,4\t5\t0\n'
		printf '2\tx\t1\tt1\t7,8\t2\t0\n2\ty\t1\tt1\t7,8\t2\t0\n'
		local i t s
		for i in 0 3 4 5 6 7; do
			s=1
			[ "$i" = 3 ] && s=4
			for t in x y; do
				printf '%s\t%s\t2\tt2\t%s\t%s\t0\n' "$i" "$t" "$i" "$s"
			done
		done
		for i in 0 1 2 3 4 5 6 7 8; do
			for t in x y; do
				printf '%s\t%s\t3\tt3\t%s\t0.5\t0\n' "$i" "$t" "$i"
			done
		done
	} > "$1"
}

@test "--cost TIMINGS.tsv: node cost = mean seconds per row x tiles; unmeasured nodes get the task mean, with a warning" {
	ex 1
	timings tim.tsv
	run --separate-stderr reuse-merge -a none --cost tim.tsv -o b.tsv "$T3" i1.tsv
	assert_success
	assert_equal "$stderr" "reuse-merge: tim.tsv: 1 of 18 task nodes not measured: costed at their task's mean"
	assert_equal "$(meta b.tsv cost)" tim.tsv
	# t1: p1=1 (1+3+5)/3*2 = 6, p1=2 4; t2: (1,1) 2, (1,2) 8, others 2, (2,2)
	# unmeasured: t2 mean 18/12*2 = 3; t3: 0.5*2 = 1
	assert_equal "$(rows b.tsv | cut -f5 | tr '\n' ' ')" "9 9 9 15 9 9 9 7 8 "
	assert_equal "$(rows b.tsv | cut -f4 | sort -u)" 3
	assert_equal "$(stat b.tsv max_bucket_cost)" 15
	reuse-merge -a rtma -b 3 --cost tim.tsv -o r.tsv "$T3" i1.tsv 2> /dev/null
	# {a,b,c} 6+2+3; {d,e,f} 6+(8+2+2)+3; {g,h,i} (6+4)+(2+2+3)+3
	assert_equal "$(rows r.tsv | cut -f4,5)" "$(printf '5\t11\n7\t21\n8\t20')"
}

@test "--cost TIMINGS.tsv: fully measured, no warning; rows of unknown tasks skipped" {
	ex 1
	timings tim.tsv
	printf '2\tx\t2\tt2\t8\t3\t0\n2\ty\t2\tt2\t8\t3\t0\n9\tx\t1\tother\t0\t99\t0\n' >> tim.tsv
	run --separate-stderr reuse-merge -a none --cost tim.tsv "$T3" i1.tsv
	assert_success
	assert_equal "$stderr" ""
	printf '%s\n' "$output" > b.tsv
	assert_equal "$(rows b.tsv | cut -f5 | tr '\n' ' ')" "9 9 9 15 9 9 9 7 11 "
}

@test "--cost TIMINGS.tsv with negative seconds or a task never measured: exit 1" {
	ex 1
	timings tim.tsv
	sed -i '4s/\t5\t0$/\t-5\t0/' tim.tsv
	refuse 1 "tim.tsv:4: column seconds: negative seconds" -a none --cost tim.tsv "$T3" i1.tsv
	timings tim.tsv
	grep -v $'\tt3\t' tim.tsv > no3.tsv
	refuse 1 "no3.tsv: no timings of task t3" -a none --cost no3.tsv "$T3" i1.tsv
	timings tim.tsv
	sed -i '3s/\t0,1,2\t/\t42\t/' tim.tsv
	refuse 1 "tim.tsv:3: column instances" -a none --cost tim.tsv "$T3" i1.tsv
	sed 's/\tseconds\t/\tsecs\t/' tim.tsv > nosec.tsv
	refuse 1 "no column 'seconds'" -a none --cost nosec.tsv "$T3" i1.tsv
	refuse 1 "missing.tsv" -a none --cost missing.tsv "$T3" i1.tsv
}

@test "--tree I: bucket I's merged task tree, one row per node, depth first" {
	ex 1
	reuse-merge -a rtma -b 3 --tree 1 "$T3" i1.tsv > t.tsv
	grep -qx '#bucket=1 stage=s instances=3 tasks=7 cost=7' t.tsv
	assert_equal "$(body t.tsv)" "$(printf 'depth\ttask\tinstances\tparams\tshared\tcost
1\tt1\t3,4,5\tp1=1\t3\t1
2\tt2\t3\tp2=2\t1\t1
3\tt3\t3\tp3=1\t1\t1
2\tt2\t4\tp2=3\t1\t1
3\tt3\t4\tp3=1\t1\t1
2\tt2\t5\tp2=4\t1\t1
3\tt3\t5\tp3=1\t1\t1')"
	reuse-merge -a rtma -b 3 --tree 0 "$T3" i1.tsv > t.tsv
	assert_equal "$(body t.tsv | tail -n +2 | cut -f1-3,5 | tr '\n' ' ')" \
	    "$(printf '1\tt1\t0,1,2\t3 2\tt2\t0,1,2\t3 3\tt3\t0\t1 3\tt3\t1\t1 3\tt3\t2\t1 ')"
	# the tree agrees with the bucket's row
	moat
	reuse-merge -a trtma -B 5 --cost weights "$WF" moat.tsv > b.tsv
	reuse-merge -a trtma -B 5 --cost weights --tree 2 "$WF" moat.tsv > t.tsv
	local row
	row=$(rows b.tsv | sed -n 3p)
	assert_equal "$(body t.tsv | tail -n +2 | wc -l)" "$(cut -f4 <<< "$row")"
	grep -qx "#bucket=2 stage=segment instances=$(cut -f2 <<< "$row" | tr , '\n' | wc -l) tasks=$(cut -f4 <<< "$row") cost=$(cut -f5 <<< "$row")" t.tsv
	assert_equal "$(body t.tsv | awk -F'\t' '$1 == 7 { n++ } END { print n }')" \
	    "$(cut -f2 <<< "$row" | tr , '\n' | wc -l)"
}

@test "--tree beyond the last bucket: exit 1; a negative one: exit 2" {
	ex 1
	refuse 1 "--tree 3: the plan has buckets 0 to 2" -a rtma -b 3 --tree 3 "$T3" i1.tsv
	refuse 2 "--tree '-1'" -a rtma -b 3 --tree -1 "$T3" i1.tsv
	refuse 2 "--tree 'x'" -a rtma -b 3 --tree x "$T3" i1.tsv
}

@test "sca is refused on a big input without --force (exit 1, nothing written)" {
	sa-sample -m mc -n 20000 "$FINE" > d.tsv
	compact "$WF" d.tsv i.tsv
	refuse 1 "--force" -a sca "$WF" i.tsv
	assert_output --partial "sca on"
	assert_output --partial "instances"
}

# bats test_tags=fast
@test "--force changes nothing on a small input" {
	moat
	reuse-merge -a sca -b 4 "$WF" moat.tsv > a.tsv
	reuse-merge -a sca -b 4 --force "$WF" moat.tsv > f.tsv
	assert_equal "$(grep -v '^#command\|^#stats' f.tsv)" "$(grep -v '^#command\|^#stats' a.tsv)"
	assert_equal "$(stat f.tsv tasks_merged)" "$(stat a.tsv tasks_merged)"
}

@test "the same input gives the same plan (every algorithm)" {
	moat
	local a
	for a in naive sca rtma "trtma -B 8"; do
		reuse-merge -a $a "$WF" moat.tsv > 1.tsv
		reuse-merge -a $a "$WF" moat.tsv > 2.tsv
		assert_equal "$(rows 2.tsv)" "$(rows 1.tsv)"
	done
}

# --- output ---------------------------------------------------------------------

@test "provenance, metadata and one #stats line with exactly the documented keys" {
	ex 1
	reuse-merge -a rtma -b 3 "$T3" i1.tsv > b.tsv
	head -n 1 b.tsv | grep -Eqx '#reuse-merge [0-9]+\.[0-9]+.*'
	grep -q "^#command line: reuse-merge -a rtma -b 3 " b.tsv
	grep -qx '#algorithm=rtma stage=s cost=tasks b=3' b.tsv
	assert_equal "$(grep -c '^#stats ' b.tsv)" 1
	assert_equal "$(grep '^#stats ' b.tsv | sed 's/^#stats //; s/=[^ ]*//g')" "$STATS_KEYS"
	assert_equal "$(body b.tsv | head -n 1)" $'bucket\tinstances\truns\ttasks\tcost'
	reuse-merge -a trtma -B 2 "$T3" i1.tsv > t.tsv
	grep -qx '#algorithm=trtma stage=s cost=tasks B=2 bucket_task_cap=0' t.tsv
}

@test "the runs column lists the runs of stage-level duplicates" {
	printf 'run\tp1\tp2\tp3\n0\t1\t1\t1\n1\t1\t2\t1\n2\t1\t1\t1\n3\t1\t2\t1\n4\t2\t2\t2\n' > d.tsv
	compact "$T3" d.tsv i.tsv
	reuse-merge -a naive -b 2 "$T3" i.tsv > b.tsv
	assert_equal "$(rows b.tsv)" "$(printf '0\t0,1\t0,1,2,3\t5\t5\n1\t2\t4\t3\t3')"
	assert_equal "$(stat b.tsv runs)" 5
	assert_equal "$(stat b.tsv tasks_noreuse)" 15
	assert_equal "$(stat b.tsv tasks_stage)" 9
	assert_equal "$(stat b.tsv tasks_merged)" 8
	assert_equal "$(stat b.tsv reuse_stage_pct)" 40.00
	assert_equal "$(stat b.tsv reuse_task_pct)" 11.11
	assert_equal "$(stat b.tsv reuse_total_pct)" 46.67
	check_buckets "$T3" i.tsv b.tsv
}

@test "- reads the instances or the workflow from stdin" {
	ex 1
	reuse-merge -a rtma -b 3 "$T3" i1.tsv > file.tsv
	run --separate-stderr reuse-merge -a rtma -b 3 "$T3" - < i1.tsv
	assert_success
	assert_equal "$(grep -v '^#command\|^#stats' <<< "$output")" \
	    "$(grep -v '^#command\|^#stats' file.tsv)"
	run --separate-stderr reuse-merge -a rtma -b 3 - i1.tsv < "$T3"
	assert_success
	assert_equal "$(grep -v '^#command\|^#stats' <<< "$output")" \
	    "$(grep -v '^#command\|^#stats' file.tsv)"
	refuse 2 "only one of WORKFLOW.wf, INSTANCES.tsv and --cost can be stdin" -a rtma - - < i1.tsv
}

@test "-o FILE writes what stdout gets, atomically, replacing an old file" {
	ex 1
	reuse-merge -a trtma -B 2 "$T3" i1.tsv > stdout.tsv
	printf 'old\n' > file.tsv
	run --separate-stderr reuse-merge -a trtma -B 2 -o file.tsv "$T3" i1.tsv
	assert_success
	assert_output ''
	assert_equal "$(grep -v '^#command\|^#stats' file.tsv)" \
	    "$(grep -v '^#command\|^#stats' stdout.tsv)"
	no_temp_files
	reuse-merge -a rtma -b 3 --tree 0 --output tree.tsv "$T3" i1.tsv
	grep -q '^#bucket=0 ' tree.tsv
	run reuse-merge -a rtma -o nodir/b.tsv "$T3" i1.tsv
	assert_failure 1
	assert_output --partial "nodir/b.tsv"
}

# --- help, version, usage errors -------------------------------------------------

@test "-h and --help print usage with the defaults on stdout, exit 0" {
	local h
	for h in -h --help; do
		run --separate-stderr reuse-merge "$h"
		assert_success
		assert_equal "$stderr" ""
		assert_output --partial "Usage: reuse-merge -a ALGO"
		assert_output --partial "[8]"
		assert_output --partial "[3 x nodes x cores]"
		assert_output --partial "--cores N            trtma: cores per node (no default)"
		local o
		for o in --algorithm --bucket-size --max-buckets --stage --double-prune \
		    --cost --max-bucket-tasks --tree --nodes --cores --force --output \
		    --version; do
			assert_output --partial -- "$o"
		done
	done
}

# bats test_tags=fast
@test "--version prints the version on stdout, exit 0" {
	run --separate-stderr reuse-merge --version
	assert_success
	assert_equal "$stderr" ""
	assert_output --regexp '^reuse-merge \(sareuse\) [0-9]+\.[0-9]+'
}

@test "-b 0, -B 0 and other senseless counts are usage errors (exit 2)" {
	ex 1
	refuse 2 "-b '0'" -a rtma -b 0 "$T3" i1.tsv
	refuse 2 "-b '-3'" -a naive -b -3 "$T3" i1.tsv
	refuse 2 "-b 'x'" -a sca -b x "$T3" i1.tsv
	refuse 2 "-b '2.5'" -a sca -b 2.5 "$T3" i1.tsv
	refuse 2 "-B '0'" -a trtma -B 0 "$T3" i1.tsv
	refuse 2 "--nodes '0'" -a trtma --nodes 0 "$T3" i1.tsv
	refuse 2 "--cores '0'" -a trtma --cores 0 "$T3" i1.tsv
	refuse 2 "--max-bucket-tasks '0'" -a trtma --max-bucket-tasks 0 "$T3" i1.tsv
}

@test "unknown or missing algorithm: usage error (exit 2)" {
	ex 1
	refuse 2 "-a 'bogus': not none, naive, sca, rtma or trtma" -a bogus "$T3" i1.tsv
	assert_output --partial "--help"
	refuse 2 "no algorithm given" "$T3" i1.tsv
}

@test "options of another algorithm are usage errors (exit 2)" {
	ex 1
	local a
	for a in none naive sca trtma; do
		refuse 2 "--double-prune goes with -a rtma" -a "$a" --double-prune "$T3" i1.tsv
	done
	refuse 2 "--max-bucket-tasks goes with -a trtma" -a rtma --max-bucket-tasks 5 "$T3" i1.tsv
	refuse 2 "-B goes with -a trtma" -a rtma -B 5 "$T3" i1.tsv
}

@test "--stage naming no stage of the workflow: usage error (exit 2)" {
	ex 1
	refuse 2 "--stage bogus: no such stage" -a rtma --stage bogus "$T3" i1.tsv
}

@test "wrong argument counts and unknown options are usage errors (exit 2)" {
	ex 1
	refuse 2 "expected WORKFLOW.wf and INSTANCES.tsv, got 1" -a rtma "$T3"
	refuse 2 "got 3" -a rtma "$T3" i1.tsv i1.tsv
	refuse 2 "--help" -a rtma --bogus "$T3" i1.tsv
	run reuse-merge -a
	assert_failure 2
}

# --- instances that do not match the workflow --------------------------------------

# two stages: pre (q) then s (t1..t3 of t3.wf); instances of a small design
two_stage() {
	printf 'stage\ttask\tparams\tcost\npre\tp\tq\t1\ns\tt1\tp1\t1\ns\tt2\tp2\t1\ns\tt3\tp3\t1\n' > w.wf
	printf 'run\tq\tp1\tp2\tp3\n0\t1\t1\t1\t1\n1\t1\t1\t1\t2\n2\t2\t1\t1\t1\n3\t1\t1\t1\t1\n' > d.tsv
	compact w.wf d.tsv g.tsv
	body g.tsv > good.tsv
}

@test "two stages: the upstream is part of the first task's prefix" {
	two_stage
	assert_equal "$(cut -f1-4 good.tsv | tail -n +2)" "$(printf 'pre\t0\t-\t0,1,3\npre\t1\t-\t2\ns\t0\t0\t0,3\ns\t1\t0\t1\ns\t2\t1\t2')"
	reuse-merge -a naive -b 10 w.wf good.tsv > b.tsv
	# t1 of instances 0 and 1 shared; instance 2 (other upstream) shares nothing
	assert_equal "$(stat b.tsv tasks_merged)" 7
	assert_equal "$(stat b.tsv tasks_merged)" "$(prefixes_by_brute_force w.wf d.tsv s)"
	check_buckets w.wf good.tsv b.tsv
}

@test "instances naming a stage not in the workflow: exit 1 naming file:line" {
	two_stage
	sed '3s/^pre/bogus/' good.tsv > bad.tsv
	refuse 1 "bad.tsv:3: column stage: no stage bogus" -a rtma w.wf bad.tsv
}

@test "instances out of the workflow's stage order: exit 1 naming file:line" {
	two_stage
	{ head -n 1 good.tsv; tail -n +4 good.tsv; sed -n 2,3p good.tsv; } > bad.tsv
	refuse 1 "bad.tsv:2: column stage: stage s out of the workflow's order" -a rtma w.wf bad.tsv
}

# bats test_tags=fast
@test "instance ids out of sequence: exit 1 naming file:line" {
	two_stage
	sed '5s/^s\t1\t/s\t7\t/' good.tsv > bad.tsv
	refuse 1 "bad.tsv:5: column instance: instance 7 out of sequence, expected 1" -a rtma w.wf bad.tsv
}

@test "upstream missing, empty, or not an instance of the previous stage: exit 1 naming file:line" {
	two_stage
	sed '6s/^s\t2\t1\t/s\t2\t5\t/' good.tsv > bad.tsv
	refuse 1 "bad.tsv:6: column upstream: '5' is not an instance of stage pre" -a rtma w.wf bad.tsv
	sed '6s/^s\t2\t1\t/s\t2\t\t/' good.tsv > bad.tsv
	refuse 1 "bad.tsv:6: column upstream" -a rtma w.wf bad.tsv
	sed '6s/^s\t2\t1\t/s\t2\t-\t/' good.tsv > bad.tsv
	refuse 1 "bad.tsv:6: column upstream" -a rtma w.wf bad.tsv
	sed '2s/^pre\t0\t-\t/pre\t0\t0\t/' good.tsv > bad.tsv
	refuse 1 "bad.tsv:2: column upstream: the first stage has no upstream" -a rtma w.wf bad.tsv
}

@test "a run in two instances of a stage: exit 1 naming file:line" {
	two_stage
	sed '5s/^s\t1\t0\t1\t/s\t1\t0\t1,3\t/' good.tsv > bad.tsv
	refuse 1 "run 3 is in instances 0 and 1 of stage s" -a rtma w.wf bad.tsv
	assert_output --regexp "bad\.tsv:[0-9]+:"
}

@test "a run in no instance of a stage: exit 1 naming the file, run and stage" {
	two_stage
	sed '4s/^s\t0\t0\t0,3\t/s\t0\t0\t0\t/' good.tsv > bad.tsv
	refuse 1 "bad.tsv: run 3 is in no instance of stage s" -a rtma w.wf bad.tsv
}

@test "an upstream that does not hold the instance's runs: exit 1 naming file:line" {
	two_stage
	sed '5s/^s\t1\t0\t/s\t1\t1\t/' good.tsv > bad.tsv
	refuse 1 "bad.tsv:5: column upstream: run 1 is in instance 0 of stage pre, not in this upstream 1" -a rtma w.wf bad.tsv
	assert_output --regexp "bad\.tsv:[0-9]+:"
}

@test "a value in an unused parameter's column, or none in a used one: exit 1 naming file:line" {
	two_stage
	awk -F'\t' -v OFS='\t' 'NR == 2 { $6 = 1 } { print }' good.tsv > bad.tsv
	refuse 1 "bad.tsv:2: column p1: stage pre has no parameter p1: the field must be empty" -a rtma w.wf bad.tsv
	awk -F'\t' -v OFS='\t' 'NR == 5 { $5 = 2 } { print }' good.tsv > bad.tsv
	refuse 1 "bad.tsv:5: column q: stage s has no parameter q" -a rtma w.wf bad.tsv
	awk -F'\t' -v OFS='\t' 'NR == 5 { $7 = "" } { print }' good.tsv > bad.tsv
	refuse 1 "bad.tsv:5: column p2: '' is empty" -a rtma w.wf bad.tsv
	awk -F'\t' -v OFS='\t' 'NR == 5 { $7 = "NaN" } { print }' good.tsv > bad.tsv
	refuse 1 "bad.tsv:5: column p2" -a rtma w.wf bad.tsv
}

@test "a missing parameter column: exit 1 naming file:line and the parameter" {
	two_stage
	cut -f1-7 good.tsv > bad.tsv
	refuse 1 "no column p3" -a rtma w.wf bad.tsv
	assert_output --regexp "(bad\.tsv|w\.wf):[0-9]+:"
}

@test "malformed instances (short row, bad runs list, missing column, empty): exit 1" {
	two_stage
	sed '5s/\t[^\t]*$//' good.tsv > bad.tsv
	refuse 1 "bad.tsv:5: 7 fields, expected 8" -a rtma w.wf bad.tsv
	sed '5s/^s\t1\t0\t1\t/s\t1\t0\t1,,2\t/' good.tsv > bad.tsv
	refuse 1 "bad.tsv:5: column runs" -a rtma w.wf bad.tsv
	sed '5s/^s\t1\t0\t1\t/s\t1\t0\tx\t/' good.tsv > bad.tsv
	refuse 1 "bad.tsv:5: column runs" -a rtma w.wf bad.tsv
	cut -f1,2,4- good.tsv > bad.tsv
	refuse 1 "no column 'upstream'" -a rtma w.wf bad.tsv
	head -n 3 good.tsv > bad.tsv
	refuse 1 "bad.tsv: no instances of stage s" -a rtma w.wf bad.tsv
	: > bad.tsv
	refuse 1 "bad.tsv: empty file" -a rtma w.wf bad.tsv
}

@test "instances of another workflow: exit 1" {
	moat
	refuse 1 "moat.tsv" -a rtma "$T3" moat.tsv
}

# --- science: the published reuse of the nuclei workflow --------------------

@test "VBD of the 8 influential nuclei parameters (2000 runs, LHS): maximum task reuse 33-37 %, double prune >= 95 % of it at b=8" {
	sa-sample -m vbd -n 200 --base lhs --fix B=220 --fix G=220 --fix R=220 \
	    --fix T1=5 --fix FillHoles=4 --fix minSizeSeg=21 --fix maxSizeSeg=1000 \
	    -o v.tsv "$FINE"
	wf-compact -q "$WF" v.tsv > i.tsv
	reuse-merge -a naive -b 1000000 "$WF" i.tsv > all.tsv
	reuse-merge -a rtma -b 8 --double-prune "$WF" i.tsv > dp.tsv
	reuse-merge -a rtma -b 8 "$WF" i.tsv > r.tsv
	max=$(stat all.tsv reuse_task_pct)
	dp=$(stat dp.tsv reuse_task_pct)
	r=$(stat r.tsv reuse_task_pct)
	run awk -v m="$max" -v d="$dp" -v r="$r" 'BEGIN {
		exit !(m >= 33 && m <= 37 && d >= 0.95 * m && r >= 0.75 * m && r <= d) }'
	assert_success
}
