#!/usr/bin/env bats
# wf-compact: stage-level reuse, checked against brute-force recounts of
# the design, and refusal of bad workflows and designs.
load common

bats_require_minimum_version 1.5.0

WF=$TOP/share/workflows/nuclei.wf
REUSE=$TOP/test/data/reuse
T3=$REUSE/t3.wf
INSTANCES_HEADER=$'stage\tinstance\tupstream\truns\tB\tG\tR\tT1\tT2\tMorphRecon\tFillHoles\tG1\tminSize\tmaxSize\tG2\tminSizePl\tWatershed\tminSizeSeg\tmaxSizeSeg'

# --- helpers ---------------------------------------------------------------

# mkwf FILE ROW...: a workflow with the standard header and these rows
mkwf() {
	local f=$1
	shift
	printf 'stage\ttask\tparams\tcost\n' > "$f"
	printf '%s\n' "$@" >> "$f"
}

# stage_counts_by_brute_force WF DESIGN: "stage count" per stage, in order,
# counting the distinct tuples of the parameter values of the stage and of
# every stage before it (an instance is its chain of upstreams)
stage_counts_by_brute_force() {
	awk -F'\t' -v CONVFMT=%.17g '
	FNR == 1 { f++ }
	/^#/ { next }
	f == 1 && !wh { for (i = 1; i <= NF; i++) wc[$i] = i; wh = 1; next }
	f == 1 { s = $wc["stage"]
		if (!(s in seen)) { seen[s] = 1; order[++ns] = s }
		if ($wc["params"] != "-") sp[s] = sp[s] "," $wc["params"]
		next }
	f == 2 && !dh { for (i = 1; i <= NF; i++) dc[$i] = i; dh = 1; next }
	f == 2 { key = ""
		for (k = 1; k <= ns; k++) {
			n = split(substr(sp[order[k]], 2), p, ",")
			key = key "|"
			for (j = 1; j <= n; j++)
				key = key SUBSEP ($dc[p[j]] + 0)
			if (!((k, key) in inst)) { inst[k, key] = 1; count[k]++ }
		} }
	END { for (k = 1; k <= ns; k++) print order[k], count[k] + 0 }' "$1" "$2"
}

# stage_counts INSTANCES: "stage count" per stage, as wf-compact wrote them
stage_counts() {
	body "$1" | tail -n +2 | cut -f1 | uniq -c | awk '{ print $2, $1 }'
}

# check_instances WF DESIGN INSTANCES: each stage's instances are numbered
# from 0, their runs (increasing) partition the design's runs, the upstream
# holds every run of the instance, the values of the stage's parameters are
# those of each run in the design (as numbers), the other fields are empty,
# and no two instances of a stage have the same upstream and values
check_instances() {
	run awk -F'\t' -v CONVFMT=%.17g '
	function bad(msg) { print "instances line " FNR ": " msg; err = 1 }
	FNR == 1 { f++ }
	/^#/ { next }
	f == 1 && !wh { for (i = 1; i <= NF; i++) wc[$i] = i; wh = 1; next }
	f == 1 { s = $wc["stage"]
		if (!(s in sno)) { sno[s] = ++ns; order[ns] = s }
		n = split($wc["params"] == "-" ? "" : $wc["params"], p, ",")
		for (j = 1; j <= n; j++) {
			used[s, p[j]] = 1
			if (!(p[j] in pseen)) { pseen[p[j]] = 1; pname[++np] = p[j] }
		}
		next }
	f == 2 && !dh { for (i = 1; i <= NF; i++) dc[$i] = i; dh = 1; next }
	f == 2 { nrun++; for (i = 2; i <= NF; i++) dv[$1, i] = $i + 0; next }
	f == 3 && !ih { hdr = "stage\tinstance\tupstream\truns"
		for (j = 1; j <= np; j++) hdr = hdr "\t" pname[j]
		if ($0 != hdr) bad("header " $0 ", expected " hdr)
		for (i = 1; i <= NF; i++) ic[$i] = i; ih = 1; next }
	f == 3 { k = sno[$1]
		if (k == 0) { bad("unknown stage " $1); next }
		if (k < cur) bad("stage " $1 " out of order")
		cur = k
		if ($2 != ninst[k]++) bad("instance " $2 ", expected " ninst[k] - 1)
		if (k == 1 && $3 != "-") bad("upstream " $3 " in the first stage")
		n = split($4, r, ",")
		key = $3
		for (j = 1; j <= np; j++) {
			x = $ic[pname[j]]
			if (!((order[k], pname[j]) in used)) {
				if (x != "") bad(pname[j] " = \"" x "\" in stage " $1)
				continue
			}
			key = key SUBSEP (x + 0)
			for (i = 1; i <= n; i++)
				if (dv[r[i], dc[pname[j]]] != x + 0)
					bad("run " r[i] ": " pname[j] " " x ", design " \
					    dv[r[i], dc[pname[j]]])
		}
		if ((k, key) in dup) bad("same upstream and values as instance " dup[k, key])
		dup[k, key] = $2
		for (i = 1; i <= n; i++) {
			if (i > 1 && r[i] <= r[i - 1]) bad("runs not increasing")
			if ((k, r[i]) in owner) bad("run " r[i] " in two instances")
			owner[k, r[i]] = $2
			if (k > 1 && owner[k - 1, r[i]] != $3)
				bad("run " r[i] " is in instance " owner[k - 1, r[i]] \
				    " upstream, not " $3)
		} }
	END { for (k = 1; k <= ns; k++) for (i = 0; i < nrun; i++)
		if (!((k, i) in owner)) { print "run " i " in no instance of " order[k]; err = 1 }
	      exit err }' "$1" "$2" "$3"
	assert_success
}

# check_compact WF DESIGN: wf-compact's instances pass check_instances and
# their counts per stage (file and summary) equal the brute-force ones
check_compact() {
	local wf=$1 d=$2
	run --separate-stderr wf-compact -o i.tsv "$wf" "$d"
	assert_success
	check_instances "$wf" "$d" i.tsv
	assert_equal "$(stage_counts i.tsv)" "$(stage_counts_by_brute_force "$wf" "$d")"
	local counts
	counts=$(stage_counts i.tsv | awk '{ printf "%s%s %s -> %s", (NR > 1 ? ", " : ""), $1, n, $2 }' \
	    n="$(body "$d" | tail -n +2 | wc -l)")
	[[ $stderr == *": $counts" ]] || fail "summary '$stderr' does not end in ': $counts'"
}

# refuse CODE MESSAGE ARGS...: see refuse_run in common.bash
refuse() {
	refuse_run wf-compact "$@"
}

# --- the nuclei workflow ----------------------------------------------------

@test "nuclei MOAT: instances per stage equal a brute-force count, values and runs check out" {
	sa-sample -m moat -r 10 "$SPACE" > d.tsv
	check_compact "$WF" d.tsv
	assert_equal "$(stage_counts i.tsv)" "$(printf 'normalize 1\nsegment 160\ncompare 160')"
}

@test "nuclei VBD with fixed parameters: duplicate runs share instances, counts equal brute force" {
	sa-sample -m vbd -n 16 --fix G1=40 --fix T2=4 --fix maxSize=1000 "$SPACE" > d.tsv
	check_compact "$WF" d.tsv
	sa-sample -m vbd -n 40 --fix B=220 --fix G=220 --fix R=220 --fix T1=5 \
	    --fix FillHoles=4 --fix minSizeSeg=21 --fix maxSizeSeg=1000 "$FINE" > f.tsv
	check_compact "$WF" f.tsv
	# the enums' AB_j often equal A: fewer segment instances than runs
	local seg
	seg=$(stage_counts i.tsv | awk '$1 == "segment" { print $2 }')
	assert [ "$seg" -lt 400 ]
}

@test "nuclei: the normalize stage has one instance serving every run, in order" {
	sa-sample -m vbd -n 8 "$SPACE" > d.tsv
	wf-compact -q "$WF" d.tsv > i.tsv
	run awk -F'\t' '$1 == "normalize"' i.tsv
	assert_equal "${#lines[@]}" 1
	assert_equal "$(cut -f1-4 <<< "$output")" \
	    "$(printf 'normalize\t0\t-\t%s' "$(seq -s, 0 135)")"
	# every parameter field of normalize is empty
	assert_equal "$(cut -f5- <<< "$output" | tr -d '\t')" ""
}

@test "header: stage instance upstream runs, then the parameters in order of first use" {
	sa-sample -m moat -r 2 "$SPACE" > d.tsv
	wf-compact -q "$WF" d.tsv > i.tsv
	assert_equal "$(body i.tsv | head -n 1)" "$INSTANCES_HEADER"
	grep -qx '#runs=32 stages=3 instances=65' i.tsv
	head -n 1 i.tsv | grep -Eqx '#wf-compact [0-9]+\.[0-9]+.*'
	grep -q '^#command line: wf-compact -q ' i.tsv
}

@test "unused parameter fields are empty: compare rows have no values, segment rows all" {
	sa-sample -m lhs -n 30 "$SPACE" > d.tsv
	wf-compact -q "$WF" d.tsv > i.tsv
	run awk -F'\t' '$1 == "compare" { for (i = 5; i <= NF; i++) if ($i != "") bad++ }
	    $1 == "segment" { for (i = 5; i <= NF; i++) if ($i == "") bad++ }
	    END { exit bad > 0 }' i.tsv
	assert_success
	assert_equal "$(awk -F'\t' '$1 == "compare"' i.tsv | wc -l)" 30
}

@test "fixing parameters (sa-sample --fix) increases stage reuse" {
	local fix=() p
	for p in G=220 R=220 T1=5 T2=4 G1=80 G2=20 minSize=10 maxSize=1000 \
	    minSizePl=30 minSizeSeg=20 maxSizeSeg=1000; do
		fix+=(--fix "$p")
	done
	sa-sample -m mc -n 200 "$SPACE" > all.tsv
	sa-sample -m mc -n 200 "${fix[@]}" "$SPACE" > fixed.tsv
	run --separate-stderr wf-compact -o a.tsv "$WF" all.tsv
	local before=$stderr
	run --separate-stderr wf-compact -o f.tsv "$WF" fixed.tsv
	local after=$stderr
	local na nf
	na=$(stage_counts a.tsv | awk '$1 == "segment" { print $2 }')
	nf=$(stage_counts f.tsv | awk '$1 == "segment" { print $2 }')
	# 4 values of B x 2 x 2 x 2 enums: at most 32 segment instances
	assert [ "$nf" -le 32 ]
	assert [ "$nf" -lt "$na" ]
	check_instances "$WF" fixed.tsv f.tsv
	# the summary's reduction grows too
	local pa pf
	pa=$(sed -n 's/.*(\([0-9.]*\)% fewer).*/\1/p' <<< "$before")
	pf=$(sed -n 's/.*(\([0-9.]*\)% fewer).*/\1/p' <<< "$after")
	assert [ "$(awk -v a="$pa" -v f="$pf" 'BEGIN { print (f > a) }')" = 1 ]
}

# --- the worked three-task stage ----------------------------------------------

# bats test_tags=fast
@test "t3: each distinct run is its own instance, runs in the instance's row" {
	wf-compact -q "$T3" "$REUSE/ex1.tsv" > i.tsv
	assert_equal "$(body i.tsv)" "$(printf 'stage\tinstance\tupstream\truns\tp1\tp2\tp3
s\t0\t-\t0\t1\t1\t1
s\t1\t-\t1\t1\t1\t2
s\t2\t-\t2\t1\t1\t3
s\t3\t-\t3\t1\t2\t1
s\t4\t-\t4\t1\t3\t1
s\t5\t-\t5\t1\t4\t1
s\t6\t-\t6\t1\t5\t1
s\t7\t-\t7\t2\t1\t1
s\t8\t-\t8\t2\t2\t1')"
}

@test "a stage's instance serves every run with its values; a stage without parameters once" {
	mkwf w.wf $'pre\tp\tq\t1' $'main\tm1\tp1\t1' $'main\tm2\tp2\t2' $'post\tx\t-\t1'
	printf 'run\tq\tp1\tp2\n0\t1\t1\t1\n1\t1\t1\t2\n2\t2\t1\t1\n3\t1\t1\t1\n4\t2\t1\t1\n' > d.tsv
	wf-compact -q w.wf d.tsv > i.tsv
	assert_equal "$(body i.tsv)" "$(printf 'stage\tinstance\tupstream\truns\tq\tp1\tp2
pre\t0\t-\t0,1,3\t1\t\t
pre\t1\t-\t2,4\t2\t\t
main\t0\t0\t0,3\t\t1\t1
main\t1\t0\t1\t\t1\t2
main\t2\t1\t2,4\t\t1\t1
post\t0\t0\t0,3\t\t\t
post\t1\t1\t1\t\t\t
post\t2\t2\t2,4\t\t\t')"
	check_compact w.wf d.tsv
}

@test "numbers are compared as numbers: 5, 5.0, 5e0 and 5.000 are one instance" {
	printf 'run\tp1\tp2\tp3\n0\t5\t1\t0\n1\t5.0\t1.0\t-0\n2\t5e0\t1\t0.0\n3\t5.000\t10e-1\t0\n' > d.tsv
	wf-compact -q "$T3" d.tsv > i.tsv
	assert_equal "$(body i.tsv | tail -n +2)" "$(printf 's\t0\t-\t0,1,2,3\t5\t1\t0')"
}

@test "an enum of words: instances compare words as words, carry the design's '#space' lines; reuse-merge reads them, its tree shows the words" {
	printf 'name\ttype\tvalues\tdefault\nm\tenum\totsu,;rm,$(>x)\totsu\nk\tint\t1:1:2\t1\n' > s.tsv
	sa-sample -m grid s.tsv > d.tsv
	mkwf w.wf $'a\tth\tm\t1' $'b\tcut\tk\t1'
	wf-compact -q -o i.tsv w.wf d.tsv
	assert_equal "$(grep -c '^#space' i.tsv)" 2
	# 3 words: 3 instances of a, each with its 2 of b
	assert_equal "$(body i.tsv | awk -F'\t' '$1 == "a" { print $5 }' | tr '\n' ' ')" 'otsu ;rm $(>x) '
	assert_equal "$(body i.tsv | awk -F'\t' '$1 == "b"' | wc -l)" 6
	reuse-merge -a rtma -b 6 -o b.tsv w.wf i.tsv
	run reuse-merge -a rtma -b 6 --tree 0 w.wf i.tsv
	assert_success
	assert_output --partial $'th\t2\tm=$(>x)\t'
	# a word the '#space' lines lack: file, line and column
	sed 's/^\(a\t1\t-\t[0-9,]*\t\);rm/\1sauvola/' i.tsv > bad.tsv
	run -1 reuse-merge -a rtma -o b2.tsv w.wf bad.tsv
	assert_output --partial "bad.tsv:8: column m: 'sauvola' is not one of the words otsu,;rm,\$(>x) of m"
}

@test "summary on stderr: runs, instances before and after, per stage; -q silences it" {
	sa-sample -m moat -r 10 "$SPACE" > d.tsv
	run --separate-stderr wf-compact "$WF" d.tsv
	assert_success
	assert_equal "$stderr" "wf-compact: 160 runs; stage instances 480 -> 321 (33.1% fewer): normalize 160 -> 1, segment 160 -> 160, compare 160 -> 160"
	local out=$output
	run --separate-stderr wf-compact -q "$WF" d.tsv
	assert_success
	assert_equal "$stderr" ""
	assert_equal "$(grep -v '^#command' <<< "$output")" "$(grep -v '^#command' <<< "$out")"
	run --separate-stderr wf-compact --quiet -o i.tsv "$WF" d.tsv
	assert_equal "$stderr" ""
	assert_output ""
}

# --- stdin, -o ----------------------------------------------------------------

@test "- reads the design or the workflow from stdin; both from stdin is a usage error" {
	sa-sample -m lhs -n 20 "$SPACE" > d.tsv
	wf-compact -q "$WF" d.tsv > file.tsv
	run --separate-stderr wf-compact -q "$WF" - < d.tsv
	assert_success
	assert_equal "$(grep -v '^#' <<< "$output")" "$(body file.tsv)"
	run --separate-stderr wf-compact -q - d.tsv < "$WF"
	assert_success
	assert_equal "$(grep -v '^#' <<< "$output")" "$(body file.tsv)"
	refuse 2 "only one of WORKFLOW.wf and DESIGN.tsv can be stdin" - - < d.tsv
}

# bats test_tags=fast
@test "a bad design on stdin is named <stdin> with its line" {
	printf 'run\tp1\tp2\tp3\n0\t1\t1\t1\n1\t1\tx\t1\n' > d.tsv
	run wf-compact -q -o i.tsv "$T3" - < d.tsv
	assert_failure 1
	assert_output --partial "<stdin>:3:"
	assert [ ! -e i.tsv ]
	no_temp_files
}

@test "-o FILE writes what stdout gets, atomically, replacing an old file" {
	sa-sample -m moat -r 3 "$SPACE" > d.tsv
	wf-compact -q "$WF" d.tsv > stdout.tsv
	printf 'old\n' > file.tsv
	run --separate-stderr wf-compact -q -o file.tsv "$WF" d.tsv
	assert_success
	assert_output ''
	assert_equal "$(grep -v '^#command line' file.tsv)" \
	    "$(grep -v '^#command line' stdout.tsv)"
	grep -q '^#command line: wf-compact -q -o file.tsv' file.tsv
	no_temp_files
}

@test "-o on failure leaves nothing behind and an old file untouched" {
	printf 'run\tp1\tp2\n0\t1\t1\n' > d.tsv
	refuse 1 "is not a column of d.tsv" "$T3" d.tsv
	refuse 1 "nothere.tsv" "$T3" nothere.tsv
}

# bats test_tags=fast
@test "-o into a missing directory fails with exit 1 and a message" {
	run wf-compact -q -o nodir/i.tsv "$T3" "$REUSE/ex1.tsv"
	assert_failure 1
	assert_output --partial "nodir/i.tsv"
}

# --- help, version, usage -----------------------------------------------------

@test "-h and --help print usage on stdout, exit 0" {
	local h
	for h in -h --help; do
		run --separate-stderr wf-compact "$h"
		assert_success
		assert_equal "$stderr" ""
		assert_output --partial "Usage: wf-compact"
		assert_output --partial "--output"
		assert_output --partial "--quiet"
		assert_output --partial "--version"
	done
}

@test "--version prints the version on stdout, exit 0" {
	run --separate-stderr wf-compact --version
	assert_success
	assert_equal "$stderr" ""
	assert_output --regexp '^wf-compact \(sareuse\) [0-9]+\.[0-9]+'
}

@test "wrong argument counts and unknown options are usage errors (exit 2)" {
	refuse 2 "expected WORKFLOW.wf and DESIGN.tsv, got 1" "$T3"
	refuse 2 "got 3" "$T3" "$REUSE/ex1.tsv" "$REUSE/ex2.tsv"
	refuse 2 "--help" --bogus "$T3" "$REUSE/ex1.tsv"
	run wf-compact -o
	assert_failure 2
}

# --- bad workflows ------------------------------------------------------------

@test "workflow missing a column: exit 1 naming the column" {
	printf 'stage\ttask\tparams\ns\tt1\tp1\n' > w.wf
	refuse 1 "no column 'cost'" w.wf "$REUSE/ex1.tsv"
	assert_output --partial "w.wf"
	printf 'stage\ttask\tcost\ns\tt1\t1\n' > w.wf
	refuse 1 "no column 'params'" w.wf "$REUSE/ex1.tsv"
}

@test "workflow cost 0, negative, NaN, Inf or text: exit 1 naming file:line" {
	local c
	for c in 0 -1 -0.5 NaN nan inf abc ''; do
		mkwf w.wf $'s\tt1\tp1\t1' $'s\tt2\tp2\t'"$c" $'s\tt3\tp3\t1'
		refuse 1 "w.wf:3: column cost" w.wf "$REUSE/ex1.tsv"
	done
}

@test "a task named twice in a workflow: exit 1 naming file:line" {
	mkwf w.wf $'s\tt1\tp1\t1' $'s\tt2\tp2\t1' $'s\tt1\tp3\t1'
	refuse 1 "w.wf:4: column task: task t1 named twice (stage s): task names are unique in a workflow" w.wf "$REUSE/ex1.tsv"
	# in two stages too: timings name tasks, not stages
	mkwf w.wf $'a\tt1\tp1\t1' $'b\tt1\tp2\t1'
	refuse 1 "w.wf:3: column task: task t1 named twice (stage a)" w.wf "$REUSE/ex1.tsv"
}

@test "a stage reappearing after another stage: exit 1 naming file:line" {
	mkwf w.wf $'a\tt1\tp1\t1' $'b\tt2\tp2\t1' $'a\tt3\tp3\t1'
	refuse 1 "w.wf:4: column stage: stage a appears again after stage b" w.wf "$REUSE/ex1.tsv"
}

@test "bad params lists (empty name, a name twice, a blank): exit 1 naming file:line" {
	mkwf w.wf $'s\tt1\tp1,\t1'
	refuse 1 "w.wf:2: column params" w.wf "$REUSE/ex1.tsv"
	mkwf w.wf $'s\tt1\tp1,p1\t1'
	refuse 1 "w.wf:2: column params: parameter p1 named twice" w.wf "$REUSE/ex1.tsv"
	mkwf w.wf $'s\tt1\tp 1\t1'
	refuse 1 "w.wf:2: column params" w.wf "$REUSE/ex1.tsv"
}

@test "a workflow with no tasks, or a row of the wrong width: exit 1" {
	mkwf w.wf
	refuse 1 "w.wf: no tasks" w.wf "$REUSE/ex1.tsv"
	mkwf w.wf $'s\tt1\tp1'
	refuse 1 "w.wf:2:" w.wf "$REUSE/ex1.tsv"
}

@test "a workflow parameter the design lacks: exit 1 naming workflow file:line" {
	printf 'run\tp1\tp2\n0\t1\t1\n' > d.tsv
	refuse 1 "t3.wf:5: column params: parameter p3 of task t3 is not a column of d.tsv" \
	    "$T3" d.tsv
}

@test "a design lacking a parameter of a later task names that task's line (G1 -> Seg2, line 9)" {
	sa-sample -m mc -n 5 "$SPACE" | grep -v '^#' | cut -f1-6,8- > d.tsv
	head -n 1 d.tsv | grep -qv G1
	refuse 1 "nuclei.wf:9: column params: parameter G1 of task Seg2" "$WF" d.tsv
}

# --- bad designs --------------------------------------------------------------

@test "malformed designs: exit 1 naming file:line" {
	printf 'run\tp1\tp2\tp3\n0\t1\t1\n' > d.tsv
	refuse 1 "d.tsv:2: 3 fields, expected 4" "$T3" d.tsv
	printf 'run\tp1\tp2\tp3\n0\t1\t1\tx\n' > d.tsv
	refuse 1 "d.tsv:2: column p3: 'x' is not a number" "$T3" d.tsv
	printf 'run\tp1\tp2\tp3\n0\t1\t1\tNaN\n' > d.tsv
	refuse 1 "d.tsv:2: column p3" "$T3" d.tsv
	printf 'run\tp1\tp2\tp3\n0\t1\t1\t1\n2\t1\t1\t1\n' > d.tsv
	refuse 1 "d.tsv:3: column run: run 2 out of sequence, expected 1" "$T3" d.tsv
	printf 'p1\tp2\tp3\trun\n1\t1\t1\t0\n' > d.tsv
	refuse 1 "the first column must be 'run'" "$T3" d.tsv
	printf 'run\tp1\tp2\tp3\n' > d.tsv
	refuse 1 "d.tsv: no runs" "$T3" d.tsv
	: > d.tsv
	refuse 1 "d.tsv: empty file" "$T3" d.tsv
}

# bats test_tags=fast
@test "a design value off the domain of its #space lines: exit 1 naming file:line" {
	sa-sample -m mc -n 4 "$SPACE" > d.tsv
	sed -i '/^3\t/s/^3\t[0-9]*/3\t215/' d.tsv
	run wf-compact -q "$WF" d.tsv
	assert_failure 1
	assert_output --regexp "d\.tsv:[0-9]+: column B: 215 is off the domain"
}
