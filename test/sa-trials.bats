#!/usr/bin/env bats
# sa-trials: the sets of a design ranked by their results (trials(5)),
# the best set as a space, the search drawn; every option; bad input.
load common
bats_require_minimum_version 1.5.0

RH='run\ttile\tstatus\tdice\tjaccard\tobject_dice\taji\tobjects\tseconds\n'

# sets: s.tsv (G1, minSize; a third parameter T1 not varied), design.tsv
# (a grid of 4 sets over G1 and minSize) and results.tsv on tiles a, b:
# set 2 cancelled after tile a
sets() {
	printf 'name\ttype\tvalues\tdefault\nG1\tint\t20,40\t45\nminSize\tint\t10,20\t10\nT1\treal\t2.5:0.5:7.5\t5\n' > s.tsv
	sa-sample -m grid --fix T1=5 -o design.tsv s.tsv
	{
		printf "$RH"
		printf '0\ta\tok\t0.61\t0.44\t0.52\t0.41\t120\t2.5\n0\tb\tok\t0.57\t0.40\t0.49\t0.38\t95\t2.1\n'
		printf '1\ta\tok\t0.66\t0.49\t0.58\t0.46\t131\t2.4\n1\tb\tok\t0.63\t0.46\t0.55\t0.44\t104\t2.0\n'
		printf '2\ta\tok\t0.42\t0.27\t0.30\t0.22\t60\t2.2\n2\tb\tcancelled\t\t\t\t\t0\t0\n'
		printf '3\ta\tok\t0.65\t0.48\t0.57\t0.45\t128\t2.6\n3\tb\tok\t0.62\t0.45\t0.54\t0.43\t101\t2.2\n'
	} > results.tsv
}

# rows FILE [COLUMNS]: the table of FILE without comments, cut to COLUMNS
rows() {
	body "$1" | cut -f "${2:-1-}"
}

@test "trials: one row per set, complete first by mean, cancelled with the rule, the parameters; stdout is the same" {
	sets
	run sa-trials --rule 'median:warmup=1,startup=2' -o trials.tsv design.tsv results.tsv
	assert_success
	assert_output ''
	assert_equal "$(sed -n 1p trials.tsv)" '#sa-trials 0.1.0'
	assert_equal "$(sed -n 2p trials.tsv)" '#command line: sa-trials --rule median:warmup=1,startup=2 -o trials.tsv design.tsv results.tsv'
	assert_equal "$(sed -n 3p trials.tsv)" '#metric=dice tiles=2 sets=4 complete=3 cancelled=1 failed=0 best=1'
	assert_equal "$(rows trials.tsv)" "$(printf '%s\n' \
	    'run	status	tiles	mean	median	sd	seconds	cancelled_at	rule	G1	minSize	T1' \
	    '1	complete	2	0.645	0.645	0.021213203435596444	4.4			20	20	5' \
	    '3	complete	2	0.635	0.635	0.021213203435596444	4.8			40	20	5' \
	    '0	complete	2	0.59	0.59	0.028284271247461926	4.6			20	10	5' \
	    '2	cancelled	1	0.42	0.42		2.2	1	median:warmup=1,startup=2	40	10	5')"
	run sa-trials --rule 'median:warmup=1,startup=2' design.tsv results.tsv
	assert_success
	assert_equal "$(grep -v '^#' <<< "$output")" "$(rows trials.tsv)"
	# without --rule the rule column is empty
	sa-trials -o t2.tsv design.tsv results.tsv
	assert_equal "$(rows t2.tsv 9 | sort -u | paste -sd,)" ',rule'
	no_temp_files
}

@test "a batched campaign's design (#batches=K of N sizes=...): the batch column after rule; bad sizes refused" {
	sets
	sed '/^#method=/a #batches=2 of 3 sizes=3,1' design.tsv > b.tsv
	sa-trials --rule median -o trials.tsv b.tsv results.tsv
	assert_equal "$(rows trials.tsv 1,9-11)" "$(printf '%s\n' 'run	rule	batch	G1' \
	    '1		1	20' '3		2	40' '0		1	20' '2	median	1	40')"
	# the same table as without batches, the batch column aside
	sa-trials --rule median -o plain.tsv design.tsv results.tsv
	assert_equal "$(rows trials.tsv 1-9,11-)" "$(rows plain.tsv)"
	for bad in 'sizes=3,2:do not sum to the design'"'"'s 4 runs' \
	    'sizes=1,18446744073709551615:do not sum' 'sizes=4:expected 2 sizes' \
	    'sizes=3,0:expected 2 sizes of at least 1' 'sizes=3,x:expected 2 sizes' \
	    'sizes=2,1,1:expected 2 sizes' 'sizes=:expected 2 sizes'; do
		sed "/^#method=/a #batches=2 of 3 ${bad%%:*}" design.tsv > bad.tsv
		run sa-trials -o t.tsv bad.tsv results.tsv
		assert_failure 1
		assert_output --partial "bad.tsv: metadata sizes"
		assert_output --partial "${bad#*:}"
		assert [ ! -e t.tsv ]
	done
	sed '/^#method=/a #batches=2 of 3' design.tsv > bad.tsv
	run sa-trials -o t.tsv bad.tsv results.tsv
	assert_failure 1
	assert_output --partial "bad.tsv: metadata batches= and sizes= go together"
}

# bats test_tags=fast
@test "trials: the order of the rows does not matter, and numbers are read as numbers" {
	sets
	sa-trials -o a.tsv design.tsv results.tsv
	{ printf "$RH"; body results.tsv | tail -n +2 | sort -r | sed 's/\t0\.66\t/\t0.6600\t/'; } > shuffled.tsv
	sa-trials -o b.tsv design.tsv shuffled.tsv
	assert_equal "$(rows b.tsv)" "$(rows a.tsv)"
}

@test "statuses: an error, a missing tile, no rows, an empty value are failed; a set cancelled after its last tile is complete" {
	sets
	{
		printf "$RH"
		# 0: an error on b; 1: no row on b; 2: nothing; 3: an empty value
		printf '0\ta\tok\t0.9\t0.8\t0.8\t0.7\t100\t1\n0\tb\terror\t\t\t\t\t0\t0.5\n'
		printf '1\ta\tok\t0.3\t0.2\t0.2\t0.1\t10\t1\n'
		printf '3\ta\tok\t0.7\t0.5\t0.5\t0.4\t90\t1\n3\tb\tok\t\t\t\t\t90\t1\n'
		# a tile c only run 3 has
		printf '3\tc\tok\t0.5\t0.4\t0.4\t0.3\t80\t1\n'
	} > r.tsv
	sa-trials -o t.tsv design.tsv r.tsv
	assert_equal "$(sed -n 3p t.tsv)" '#metric=dice tiles=3 sets=4 complete=0 cancelled=0 failed=4'
	assert_equal "$(rows t.tsv 1-8 | tail -n +2)" "$(printf '%s\n' \
	    '0	failed	1	0.9	0.9		1.5	' \
	    '3	failed	2	0.6	0.6	0.14142135623730948	3	' \
	    '1	failed	1	0.3	0.3		1	' \
	    '2	failed	0				0	')"
	# results without rows (found by fuzzing): every set failed
	printf '#seg-run 0.1.0\n'"$RH" > r.tsv
	sa-trials -o t.tsv design.tsv r.tsv
	assert_equal "$(sed -n 3p t.tsv)" '#metric=dice tiles=0 sets=4 complete=0 cancelled=0 failed=4'
	assert_equal "$(rows t.tsv 1-3 | tail -n +2 | paste -sd' ')" \
	    "$(printf '0\tfailed\t0 1\tfailed\t0 2\tfailed\t0 3\tfailed\t0')"
	# a set whose rule cancelled it after its last tile lost nothing
	{ printf "$RH"; printf '%s\ta\tok\t0.5\t0.4\t0.4\t0.3\t80\t1\n' 0 1 2 3; } > r.tsv
	sa-trials -o t.tsv design.tsv r.tsv
	assert_equal "$(rows t.tsv 1-3 | tail -n +2 | paste -sd' ')" \
	    "$(printf '0\tcomplete\t1 1\tcomplete\t1 2\tcomplete\t1 3\tcomplete\t1')"
}

@test "--metric: each score column, objects, and any other metric column; one the results lack is a data error" {
	sets
	local m want
	for m in dice:1,3,0,2 jaccard:1,3,0,2 object_dice:1,3,0,2 aji:1,3,0,2 objects:1,3,0,2; do
		sa-trials --metric "${m%%:*}" -o t.tsv design.tsv results.tsv
		assert_equal "$(rows t.tsv 1 | tail -n +2 | paste -sd,)" "${m#*:}"
		grep -q "^#metric=${m%%:*} " t.tsv
	done
	assert_equal "$(rows t.tsv 4 | sed -n 2p)" 117.5
	run sa-trials --metric f1 design.tsv results.tsv
	assert_failure 1
	assert_output "sa-trials: results.tsv: no column f1"
	# a command's metric (workflow(5)): a column after seconds
	awk -F'\t' -v OFS='\t' '/^#/ { print; next } !h++ { print $0, "f1"; next } { print $0, 10 - $1 }' \
	    results.tsv > r2.tsv
	sa-trials --metric f1 -o t.tsv design.tsv r2.tsv
	grep -q '^#metric=f1 ' t.tsv
	# 10 - run: set 0 first; set 2, cancelled on b, last
	assert_equal "$(rows t.tsv 1 | tail -n +2 | paste -sd,)" 0,1,3,2
}

# bats test_tags=fast
@test "--best: the best complete set as a space, from the design's #space lines or --space; a design of it alone" {
	sets
	sa-trials --best best.tsv -o t.tsv design.tsv results.tsv
	assert_equal "$(grep '^#best' best.tsv)" '#best run=1 metric=dice mean=0.645 tiles=2'
	assert_equal "$(body best.tsv)" "$(printf '%s\n' 'name	type	values	default' \
	    'G1	int	20,40	20' 'minSize	int	10,20	20' 'T1	real	2.5:0.5:7.5	5')"
	run sa-sample --reference best.tsv
	assert_success
	assert_equal "$(grep -v '^#' <<< "$output" | tail -1)" "$(printf '0\t20\t20\t5')"
	# --space: parameters the design lacks keep their defaults; values
	# and the other columns (notes) as written
	printf 'name\ttype\tvalues\tdefault\tnote\nG1\tint\t20,40\t45\tx\nextra\treal\t0..1\t0.5\ty\nminSize\tint\t10,20\t10\tz\nT1\treal\t2.5:0.5:7.5\t5.0\tw\n' > big.tsv
	sa-trials --space big.tsv --best best2.tsv -o t.tsv design.tsv results.tsv
	assert_equal "$(body best2.tsv)" "$(printf '%s\n' 'name	type	values	default	note' \
	    'G1	int	20,40	20	x' 'extra	real	0..1	0.5	y' 'minSize	int	10,20	20	z' 'T1	real	2.5:0.5:7.5	5	w')"
	# the best set is the first complete one, not a cancelled one
	sed -i 's/^2\ta\tok\t0.42/2\ta\tok\t0.99/' results.tsv
	sa-trials --best best3.tsv -o t.tsv design.tsv results.tsv
	grep -q '^#best run=1 ' best3.tsv
	assert_equal "$(rows t.tsv 1,2 | tail -1)" "$(printf '2\tcancelled')"
}

@test "an enum of words: trials.tsv and best.tsv hold the words, with the design's '#space' lines; --space in another order of the words" {
	printf 'name\ttype\tvalues\tdefault\nmethod\tenum\totsu,li,;rm\tli\nG1\tint\t20,40\t45\n' > s.tsv
	sa-sample -m grid -o design.tsv s.tsv
	{
		printf "$RH"
		for r in 0 1 2 3 4 5; do
			printf '%s\ta\tok\t0.%s\t0.4\t0.5\t0.4\t100\t1\n' $r $((50 + (r * 7) % 6))
		done
	} > results.tsv
	sa-trials --best best.tsv --plot p.png -o t.tsv design.tsv results.tsv
	assert_equal "$(grep -c '^#space' t.tsv)" 2
	# the plot's panel of method: the words as its tick labels, through
	# an argument, never gnuplot's script (see the test of the panels' axes)
	file p.png | grep -q 'PNG image data'
	# the best set: run 5, ;rm and 40 (0.55)
	assert_equal "$(rows t.tsv 1,4,10,11 | sed -n 2p)" "$(printf '5\t0.55\t;rm\t40')"
	assert_equal "$(body best.tsv | grep '^method')" "$(printf 'method\tenum\totsu,li,;rm\t;rm')"
	run sa-sample --reference best.tsv
	assert_equal "$(body <(echo "$output") | tail -1)" "$(printf '0\t;rm\t40')"
	printf 'name\ttype\tvalues\tdefault\nmethod\tenum\t;rm,otsu,li\tli\nG1\tint\t20,40\t45\n' > s2.tsv
	sa-trials --space s2.tsv --best best2.tsv -o t.tsv design.tsv results.tsv
	assert_equal "$(body best2.tsv | grep '^method')" "$(printf 'method\tenum\t;rm,otsu,li\t;rm')"
	printf 'name\ttype\tvalues\tdefault\nmethod\tenum\totsu,li\tli\nG1\tint\t20,40\t45\n' > s3.tsv
	run -1 sa-trials --space s3.tsv --best best3.tsv -o t.tsv design.tsv results.tsv
	assert_output --partial "s3.tsv: the best set's method=;rm is not a value of method (enum otsu,li, default li)"
	[ ! -e best3.tsv ]
}

@test "--best refused: no complete set, a design column not in the space, a value off its domain; nothing written" {
	sets
	printf "${RH}0\ta\tok\t0.5\t0.4\t0.4\t0.3\t80\t1\n0\tb\tcancelled\t\t\t\t\t0\t0\n" > r.tsv
	refuse_run sa-trials 1 "sa-trials: design.tsv: no set is complete (1 cancelled, 3 failed): no best set" \
	    --best b.tsv design.tsv r.tsv
	assert [ ! -e b.tsv ]
	printf 'name\ttype\tvalues\tdefault\nG1\tint\t20,40\t45\nT1\treal\t2.5:0.5:7.5\t5\n' > small.tsv
	refuse_run sa-trials 1 "sa-trials: small.tsv: no parameter minSize, a column of design.tsv" \
	    --space small.tsv --best b.tsv design.tsv results.tsv
	printf 'name\ttype\tvalues\tdefault\nG1\tenum\t40,60\t40\nminSize\tint\t10,20\t10\nT1\treal\t2.5:0.5:7.5\t5\n' > other.tsv
	refuse_run sa-trials 1 "sa-trials: other.tsv: the best set's G1=20 is not a value of G1 (enum 40,60, default 40)" \
	    --space other.tsv --best b.tsv design.tsv results.tsv
	assert [ ! -e b.tsv ]
	# a design without #space lines needs --space
	grep -v '^#space' design.tsv > bare.tsv
	run sa-trials --best b.tsv bare.tsv results.tsv
	assert_failure 1
	assert_output "sa-trials: bare.tsv: no #space lines: give the space of --best with --space"
	sa-trials --space s.tsv --best b.tsv -o t.tsv bare.tsv results.tsv
	[ -s b.tsv ] && [ -s t.tsv ]
}

@test "--plot: a PNG of the search beside the trials; gnuplot missing or nothing to draw: exit 1, no file at all" {
	command -v gnuplot > /dev/null || skip "no gnuplot"
	sets
	sa-trials --plot tune.png --best best.tsv -o t.tsv design.tsv results.tsv
	[ "$(head -c 4 tune.png | tail -c 3)" = PNG ]
	[ -s t.tsv ] && [ -s best.tsv ]
	# gnuplot missing (not under valgrind: its wrapper needs PATH too)
	if [ "${VALGRIND:-}" != 1 ]; then
		mkdir nognuplot
		ln -s "$SR_BIN/sa-trials" nognuplot/sa-trials
		run --separate-stderr env PATH="$PWD/nognuplot" "$PWD/nognuplot/sa-trials" --plot p.png --best b.tsv -o n.tsv design.tsv results.tsv
		assert_failure 1
		assert_equal "$stderr" "sa-trials: p.png: cannot run gnuplot: No such file or directory; is gnuplot installed?"
		assert [ ! -e p.png ] && assert [ ! -e n.tsv ] && assert [ ! -e b.tsv ]
	fi
	printf "${RH}0\ta\terror\t\t\t\t\t0\t1\n" > r.tsv
	refuse_run sa-trials 1 "sa-trials: p.png: nothing to plot: no point has a value" --plot p.png design.tsv r.tsv
	assert [ ! -e p.png ]
	no_temp_files
}

# spy DIR: DIR/gnuplot, first in PATH, keeps the script, the data and the
# arguments of the last plot (DIR/script.gp, data.tsv, args), then runs
# the real gnuplot
spy() {
	local real
	real=$(command -v gnuplot)
	mkdir -p "$1"
	printf '#!/bin/sh\ncp "$2" "%s/script.gp"\ncp "$3" "%s/data.tsv"\nprintf "%%s\\n" "$@" > "%s/args"\nexec "%s" "$@"\n' \
	    "$PWD/$1" "$PWD/$1" "$PWD/$1" "$real" > "$1/gnuplot"
	chmod +x "$1/gnuplot"
}

@test "--plot: an enum's panel has its values as categories, a grid of few values its ticks, a long grid a continuous axis; cancelled sets drawn apart" {
	command -v gnuplot > /dev/null || skip "no gnuplot"
	printf 'name\ttype\tvalues\tdefault\nMorphRecon\tenum\t8,4\t8\nB\tint\t210:10:240\t220\nG1\tint\t5:5:80\t80\nmethod\tenum\totsu,li\tli\n' > s.tsv
	sa-sample -m random -n 12 -s 3 -o design.tsv s.tsv
	{
		printf "$RH"
		for r in $(seq 0 11); do
			printf '%s\ta\tok\t0.%s\t0.4\t0.4\t0.3\t80\t1\n' $r $((40 + r))
			if [ $((r % 3)) = 0 ]; then
				printf '%s\tb\tcancelled\t\t\t\t\t0\t0\n' $r
			else
				printf '%s\tb\tok\t0.%s\t0.4\t0.4\t0.3\t80\t1\n' $r $((40 + r))
			fi
		done
	} > results.tsv
	spy spy
	PATH="$PWD/spy:$PATH" run --separate-stderr sa-trials --plot p.png -o t.tsv design.tsv results.tsv
	assert_success
	assert_equal "$stderr" ''
	[ "$(head -c 4 p.png | tail -c 3)" = PNG ]
	# the tick labels in one argument (ARG8), in panel order: the enum's
	# values ascending, B's grid, the words; never in the script
	assert_equal "$(sed -n 10p spy/args | tr '\037' ,)" '4,8,210,220,230,240,otsu,li'
	run grep -c 'otsu' spy/script.gp
	assert_output 0
	# the panels' axes: categories 0 and 1, B on its values, G1 (16
	# values) continuous, the words' codes
	run grep -E '^set (xrange|xtics)' spy/script.gp
	assert_equal "$output" "$(printf '%s\n' 'set xrange [-0.5:1.5]' \
	    'set xtics (L[1] 0, L[2] 1) norotate center' \
	    'set xrange [205:245]' \
	    'set xtics (L[3] 210, L[4] 220, L[5] 230, L[6] 240) norotate center' \
	    'set xrange [*:*]' 'set xtics autofreq rotate by 40 right' \
	    'set xrange [-0.5:1.5]' 'set xtics (L[7] 0, L[8] 1) norotate center')"
	# an enum's points at its categories: MorphRecon's column of the data
	# (x0 is column 3) is 0 for 4, 1 for 8
	assert_equal "$(awk -F '\t' 'NF > 4 { print $4 }' spy/data.tsv | sort -u | paste -sd,)" '0,1'
	assert_equal "$(body design.tsv | tail -n +2 | cut -f 2 | sort -u | paste -sd,)" '4,8'
	# the cancelled sets: their own point type, explained in the key
	grep -q 'array PT\[6\] = \[7, 8,' spy/script.gp
	grep -q 'pt PT\[2\] ps PS\[2\] lc rgb PAL\[2\] title G\[2\]' spy/script.gp
	assert_equal "$(sed -n 8p spy/args | tr '\037' '|')" 'complete|cancelled: mean of the tiles run|failed: mean of the tiles with a value'
}

@test "--plot: gnuplot's warnings on a plot it drew are not shown; its messages when it fails are, before the error" {
	command -v gnuplot > /dev/null || skip "no gnuplot"
	sets
	# one set with a value: gnuplot warned "empty y range" for each panel
	printf "${RH}0\ta\tok\t0.6\t0.4\t0.4\t0.3\t80\t1\n" > r1.tsv
	for r in 1 2 3; do printf "$r\ta\terror\t\t\t\t\t0\t0\n"; done >> r1.tsv
	run --separate-stderr sa-trials --plot p.png -o t.tsv design.tsv r1.tsv
	assert_success
	assert_equal "$stderr" ''
	[ "$(head -c 4 p.png | tail -c 3)" = PNG ]
	# a failing gnuplot: what it said, then why the tool stops
	mkdir fake
	printf '#!/bin/sh\necho "line 3: no such thing" >&2\nexit 3\n' > fake/gnuplot
	chmod +x fake/gnuplot
	PATH="$PWD/fake:$PATH" run --separate-stderr sa-trials --plot q.png design.tsv results.tsv
	assert_failure 1
	assert_equal "$stderr" "$(printf '%s\n' 'line 3: no such thing' \
	    'sa-trials: q.png: gnuplot failed (exit 3); is gnuplot installed?')"
	assert [ ! -e q.png ]
	no_temp_files
}

@test "bad results: one line naming file, line and column; exit 1; no output" {
	sets
	printf 'bucket\ttile\tdepth\ttask\tinstances\tseconds\tbytes\n' > timings.tsv
	refuse_run sa-trials 1 "sa-trials: timings.tsv:1: not a header of seg-run's results (see metrics(5))" design.tsv timings.tsv
	printf "${RH}4\ta\tok\t0.5\t0.4\t0.4\t0.3\t80\t1\n" > r.tsv
	refuse_run sa-trials 1 "sa-trials: r.tsv:2: column run: run 4 is not in the design (runs 0 to 3)" design.tsv r.tsv
	printf "${RH}1\ta\tok\t0.5\t0.4\t0.4\t0.3\t80\t1\n0\tb\tok\t0.5\t0.4\t0.4\t0.3\t80\t1\n1\ta\tok\t0.6\t0.4\t0.4\t0.3\t80\t1\n" > r.tsv
	refuse_run sa-trials 1 "sa-trials: r.tsv:4: run 1 on tile a repeats line 2" design.tsv r.tsv
	printf "${RH}1\ta\tfine\t0.5\t0.4\t0.4\t0.3\t80\t1\n" > r.tsv
	refuse_run sa-trials 1 "sa-trials: r.tsv:2: column status: 'fine' is not ok, background, background_likely, no_candidates, error or cancelled" design.tsv r.tsv
	printf "${RH}1\ta\tok\tabc\t0.4\t0.4\t0.3\t80\t1\n" > r.tsv
	refuse_run sa-trials 1 "sa-trials: r.tsv:2: column dice: 'abc'" design.tsv r.tsv
	printf "${RH}1\ta\tok\t0.5\t0.4\t0.4\t0.3\t80\t-1\n" > r.tsv
	refuse_run sa-trials 1 "sa-trials: r.tsv:2: column seconds: '-1' is not a number of seconds" design.tsv r.tsv
	printf "${RH}1\ta\tok\t0.5\t0.4\n" > r.tsv
	refuse_run sa-trials 1 "sa-trials: r.tsv:2:" design.tsv r.tsv
	printf 'run\ttile\tstatus\tobjects\tseconds\n0\ta\tok\t3\t1\n' > noref.tsv
	refuse_run sa-trials 1 "sa-trials: noref.tsv: no column dice: the runs were compared with no reference masks" design.tsv noref.tsv
	sa-trials --metric objects -o t.tsv design.tsv noref.tsv
	refuse_run sa-trials 1 "missing.tsv" design.tsv missing.tsv
	refuse_run sa-trials 1 "sa-trials: results.tsv:" results.tsv results.tsv
}

@test "stdin: either input, not both; outputs naming inputs or one another are refused" {
	sets
	sa-trials -o a.tsv design.tsv results.tsv
	sa-trials -o b.tsv - results.tsv < design.tsv
	sa-trials -o c.tsv design.tsv - < results.tsv
	assert_equal "$(rows b.tsv)" "$(rows a.tsv)"
	assert_equal "$(rows c.tsv)" "$(rows a.tsv)"
	run sa-trials - - < design.tsv
	assert_failure 2
	assert_output --partial "only one of DESIGN.tsv and RESULTS.tsv can be stdin"
	run sa-trials -o results.tsv design.tsv results.tsv
	assert_failure 2
	run sa-trials --best design.tsv design.tsv results.tsv
	assert_failure 2
	run sa-trials --best x.tsv -o ./x.tsv design.tsv results.tsv
	assert_failure 2
	assert_output --partial "--best x.tsv: the trials are written there already"
	run sa-trials --best - design.tsv results.tsv
	assert_failure 2
	run sa-trials --plot x.png --best x.png -o t.tsv design.tsv results.tsv
	assert_failure 2
	assert_output --partial "--plot x.png: another output is written there"
	run sa-trials --space s.tsv --best - -o t.tsv design.tsv results.tsv
	assert_success
	assert_output --partial '#best run=1 '
	assert [ ! -e x.tsv ] && assert [ ! -e x.png ]
}

# bats test_tags=fast
@test "a write error of an output is an I/O failure: exit 3" {
	sets
	[ -w /dev/full ] || skip "no /dev/full"
	run sa-trials -o /dev/full design.tsv results.tsv
	assert_failure 3
}

# bats test_tags=fast
@test "usage: --help, --version, operands, options that go together" {
	run sa-trials --help
	assert_success
	assert_output --partial 'Usage: sa-trials'
	run sa-trials -h
	assert_success
	run sa-trials --version
	assert_success
	assert_output --regexp '^sa-trials \(sareuse\) [0-9.]+$'
	run sa-trials
	assert_failure 2
	assert_output --partial "expected DESIGN.tsv and RESULTS.tsv, got 0 arguments"
	run sa-trials a b c
	assert_failure 2
	run sa-trials --frobnicate a b
	assert_failure 2
	run sa-trials -o
	assert_failure 2
	run sa-trials --space s.tsv a b
	assert_failure 2
	assert_output --partial "--space goes with --best"
	run sa-trials --rule $'a\tb' a b
	assert_failure 2
	assert_output --partial "--rule: a tab or a newline would break the table"
}
