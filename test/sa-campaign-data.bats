#!/usr/bin/env bats
# sa-campaign-data: the batched tune campaign's files for sa-campaign:
# rows, best, compose, ledger; a grown plan (grow-part, grow-plan), groups; the tiles (tiles, tiles-kind, tiles-count,
# tiles-names, tiles-chunk, slides); the plan and search (stats, model,
# estimate, status); their bad input.
load common
bats_require_minimum_version 1.5.0

# batches: out/batch-1 and out/batch-2, each a design of 2 sets (runs 0
# and 1), its results and its ledger (batch 2's run 1 written "1.0")
batches() {
	local j
	for j in 1 2; do
		mkdir -p out/batch-$j
		printf '#sa-sample 0.1.0\n#method=random n=2 k=1 params=G1 seed=%s\nrun\tG1\n0\t2%s\n1\t3%s\n' \
		    $j $j $j > out/batch-$j/design.tsv
		printf '#seg-run\nrun\ttile\tdice\n0\ta\t0.%s\n1\ta\t0.%s5\n' $j $j > out/batch-$j/results.tsv
		printf '#seg-run 0.1.0: ledger(5)\n#metric=dice rule=none runs=2 tiles=1\nkind\trun\ttile\tvalue\tseconds\tdetail\n' > out/batch-$j/ledger.tsv
		printf 'result\t0\ta\t0.%s\t1.5\tstatus=ok\nresult\t1.0\ta\t0.%s5\t2\tstatus=ok\n' $j $j >> out/batch-$j/ledger.tsv
	done
}

# bats test_tags=fast
@test "rows: the data rows of a table, comments and header not counted" {
	printf '#a\nrun\tG1\n#b\n0\t1\n1\t2\n2\t3\n' > d.tsv
	run sa-campaign-data rows d.tsv
	assert_success
	assert_output 3
	printf '#a\nrun\tG1\n' > e.tsv
	run sa-campaign-data rows e.tsv
	assert_output 0
}

# bats test_tags=fast
@test "best: the text of the #best lines" {
	printf '#sa-trials 0.1.0\n#best run=1 metric=dice mean=0.5 tiles=3\nname\ttype\n' > best.tsv
	run sa-campaign-data best best.tsv
	assert_success
	assert_output 'run=1 metric=dice mean=0.5 tiles=3'
	printf 'name\ttype\n' > none.tsv
	run sa-campaign-data best none.tsv
	assert_success
	assert_output ''
}

@test "compose: the batches' designs and results joined, runs renumbered, the #batches line" {
	batches
	run sa-campaign-data compose out 2 3
	assert_success
	assert_output ''
	assert_equal "$(cat out/design.tsv)" "$(printf '%s\n' '#sa-sample 0.1.0' \
	    '#method=random n=4 k=1 params=G1 seed=1' '#batches=2 of 3 sizes=2,2' \
	    'run	G1' '0	21' '1	31' '2	22' '3	32')"
	assert_equal "$(cat out/results.tsv)" "$(printf '%s\n' '#seg-run' \
	    'run	tile	dice' '0	a	0.1' '1	a	0.15' '2	a	0.2' '3	a	0.25')"
	run sa-campaign-data compose out 1 3
	assert_success
	assert_equal "$(sed -n 3p out/design.tsv)" '#batches=1 of 3 sizes=2'
	assert_equal "$(tail -n 1 out/results.tsv)" '1	a	0.15'
}

@test "ledger: the batches' ledgers as one, runs renumbered, a batch column" {
	batches
	sa-campaign-data compose out 2 2
	run sa-campaign-data ledger out 2 2
	assert_success
	assert_output ''
	assert_equal "$(cat out/ledger.tsv)" "$(printf '%s\n' \
	    '#sa-campaign 0.1.0: ledger(5) of batches 1 to 2 of 2, runs renumbered, with their batch' \
	    '#metric=dice rule=none runs=4 tiles=1' \
	    'kind	run	tile	value	seconds	detail	batch' \
	    'result	0	a	0.1	1.5	status=ok	1' 'result	1	a	0.15	2	status=ok	1' \
	    'result	2	a	0.2	1.5	status=ok	2' 'result	3	a	0.25	2	status=ok	2')"
	rm out/batch-2/ledger.tsv
	run sa-campaign-data ledger out 2 2
	assert_success
	assert_equal "$(wc -l < out/ledger.tsv)" 5
}

# bats test_tags=fast
@test "batch-seed: batch 1 the campaign's seed, later ones a hash of (seed, batch): campaigns of seeds 11 and 12 share no set; an output planned with seed + K - 1 keeps it" {
	run -0 sa-campaign-data batch-seed out 1 11
	assert_output 11
	run -0 sa-campaign-data batch-seed out 2 11
	assert_output 4454736
	# three batches of 6 sets of the nuclei space for each seed: no set
	# in common (with seed + K - 1, seed 12's batch 1 was seed 11's 2)
	for seed in 11 12; do
		for k in 1 2 3; do
			sa-sample -m random -n 6 -s "$(sa-campaign-data batch-seed out $k $seed)" \
			    -o d$seed-$k.tsv "$SPACE"
			body d$seed-$k.tsv | tail -n +2 | cut -f 2- >> sets$seed
		done
	done
	assert_equal "$(sort -u sets11 | wc -l)" 18
	assert_equal "$(comm -12 <(sort -u sets11) <(sort -u sets12))" ""
	# an output whose batch 1 was planned with the old rule
	mkdir -p old/batch-1 new/batch-1
	echo 'batch 1 of 3' > old/batch-1/inputs
	echo 'batch 1 of 3 seed=11' > new/batch-1/inputs
	run -0 sa-campaign-data batch-seed old 3 11
	assert_output 13
	run -0 sa-campaign-data batch-seed new 3 11
	refute_output 13
	run sa-campaign-data batch-seed out 0 11
	assert_failure 2
	run sa-campaign-data batch-seed out 1 4294967295
	assert_failure 2
}

@test "bad input: a missing file, a malformed row, a changed header: exit 1 naming file and line, nothing written" {
	run sa-campaign-data rows missing.tsv
	assert_failure 1
	assert_output --partial 'missing.tsv'
	run sa-campaign-data best missing.tsv
	assert_failure 1
	printf 'run\tG1\n0\t1\n1\n' > bad.tsv
	run sa-campaign-data rows bad.tsv
	assert_failure 1
	assert_output --partial 'bad.tsv:3'
	batches
	printf '0\t2\n' >> out/batch-2/design.tsv
	printf 'x\t2\n' >> out/batch-2/results.tsv
	run sa-campaign-data compose out 2 2
	assert_failure 1
	assert_output --partial "out/batch-2/results.tsv:5: column 1: 'x'"
	run ls -A out
	assert_output "$(printf 'batch-1\nbatch-2')"
	batches
	sed -i 's/^run\tG1$/run\tG2/' out/batch-2/design.tsv
	run sa-campaign-data compose out 2 2
	assert_failure 1
	assert_output --partial 'out/batch-2/design.tsv:3: columns differ from batch 1'
	run sa-campaign-data ledger out 2 2
	assert_failure 1
	assert_output --partial 'out/design.tsv'
	batches
	sa-campaign-data compose out 2 2
	printf 'result\tx\ta\t1\t1\tstatus=ok\n' >> out/batch-2/ledger.tsv
	run sa-campaign-data ledger out 2 2
	assert_failure 1
	assert_output --partial 'out/batch-2/ledger.tsv:6'
	run test -e out/ledger.tsv
	assert_failure
}

@test "usage: --help, --version, an unknown verb, wrong operands, K over N" {
	run sa-campaign-data --help
	assert_success
	assert_output --partial 'Usage: sa-campaign-data rows'
	run sa-campaign-data rows --help
	assert_success
	run sa-campaign-data --version
	assert_success
	assert_output --partial '0.1.0'
	run sa-campaign-data
	assert_failure 2
	run sa-campaign-data frob x
	assert_failure 2
	assert_output --partial "unknown verb 'frob'"
	run sa-campaign-data rows
	assert_failure 2
	run sa-campaign-data compose out 3 2
	assert_failure 2
	run sa-campaign-data rows -x f
	assert_failure 2
}

# table FILE: a tile table of tiles t1 to t3, t1 and t3 on slide s1.svs
# (relative), t2 on /x/s2.svs, with a comment line
table() {
	printf '%s\n' '#slide s1' 'tile	slide	level	x	y	width	height	tissue' \
	    't1	s1.svs	0	0	0	4096	4096	1' 't2	/x/s2.svs	0	0	0	2048	2048	1' \
	    't3	s1.svs	0	4096	0	4096	4096	0.5' > "$1"
}

# bats test_tags=fast
@test "tiles: a tiles list trimmed, its paths absolute, comments and blank lines dropped" {
	mkdir -p t/sub
	printf '# tiles\n  a.png \n\nsub/b.tif\r\n/abs/c.png\n\t# more\n' > t/list
	run sa-campaign-data tiles t/list
	assert_success
	assert_output "$(printf '%s\n' "$PWD/t/a.png" "$PWD/t/sub/b.tif" /abs/c.png)"
	(cd t/sub && sa-campaign-data tiles ../list > ../out)
	assert_equal "$(head -n 1 t/out)" "$PWD/t/a.png"
	# a list of slides: never a table
	run sa-campaign-data tiles --what slide t/list
	assert_success
	assert_line -n 2 /abs/c.png
}

# bats test_tags=fast
@test "tiles: a name with a tab or none before its extension: refused naming the line, nothing printed" {
	printf 'a.png\nb\tc.png\n' > list
	run --separate-stderr sa-campaign-data tiles list
	assert_failure 1
	assert_equal "$stderr" "sa-campaign-data: list:2: a tab in a tile's name: rename the tile"
	assert_output ''
	printf 'a.png\n.png\n' > list
	run --separate-stderr sa-campaign-data tiles list
	assert_failure 1
	assert_equal "$stderr" "sa-campaign-data: list:2: '.png': a tile needs a name before its extension"
	assert_output ''
	printf 'a.svs\ndir/\n' > list
	run -1 sa-campaign-data tiles --what slide list
	assert_output "sa-campaign-data: list:2: '': a slide needs a name before its extension"
	run -1 sa-campaign-data tiles missing.list
	assert_output --partial 'missing.list'
}

# bats test_tags=fast
@test "tiles: a tile table checked, its slides absolute, comments and header kept" {
	mkdir t
	table t/table.tsv
	run sa-campaign-data tiles t/table.tsv
	assert_success
	assert_output "$(printf '%s\n' '#slide s1' 'tile	slide	level	x	y	width	height	tissue' \
	    "t1	$PWD/t/s1.svs	0	0	0	4096	4096	1" 't2	/x/s2.svs	0	0	0	2048	2048	1' \
	    "t3	$PWD/t/s1.svs	0	4096	0	4096	4096	0.5")"
	printf 't4\ts1.svs\t0\t0\t0\t0\t10\t1\n' >> t/table.tsv
	run --separate-stderr sa-campaign-data tiles t/table.tsv
	assert_failure 1
	assert_output ''
	assert_equal "${stderr%%: column*}" 'sa-campaign-data: t/table.tsv:6'
}

# bats test_tags=fast
@test "tiles-kind, tiles-count, tiles-names, tiles-chunk: of a list and of a table" {
	printf '# c\na.png\ndir/b.x.tif\n\nc.png\n' > list
	table table.tsv
	run sa-campaign-data tiles-kind list
	assert_output list
	run sa-campaign-data tiles-kind table.tsv
	assert_output table
	run sa-campaign-data tiles-count list
	assert_output 3
	run sa-campaign-data tiles-count table.tsv
	assert_output 3
	head -n 2 table.tsv > empty.tsv
	run sa-campaign-data tiles-count empty.tsv
	assert_output 0
	run sa-campaign-data tiles-names list
	assert_output "$(printf 'a\nb.x\nc')"
	run sa-campaign-data tiles-names --suffix .tif list
	assert_output "$(printf 'a.tif\nb.x.tif\nc.tif')"
	run sa-campaign-data tiles-names table.tsv
	assert_output "$(printf 't1\nt2\nt3')"
	run sa-campaign-data tiles-chunk list 1 2
	assert_output c.png
	run sa-campaign-data tiles-chunk list 0 2
	assert_output "$(printf 'a.png\ndir/b.x.tif')"
	# a chunk keeps the table's #slide lines (the slides' colour moments)
	run sa-campaign-data tiles-chunk table.tsv 1 1
	assert_output "$(printf '#slide s1\ntile\tslide\tlevel\tx\ty\twidth\theight\ttissue\nt2\t/x/s2.svs\t0\t0\t0\t2048\t2048\t1')"
	run sa-campaign-data tiles-chunk list 5 2
	assert_success
	assert_output ''
	run -1 sa-campaign-data tiles-kind missing
	assert_output --partial 'missing'
	run -2 sa-campaign-data tiles-chunk list -1 2
	run -2 sa-campaign-data tiles-chunk list 0 0
	run -2 sa-campaign-data tiles-count --suffix .x list
	assert_output --partial 'no option --suffix'
	run -2 sa-campaign-data tiles --what tiles list
}

@test "slides: each slide's results, comments and header kept, the slides sorted; bad input writes nothing" {
	mkdir out
	table out/tiles.list
	printf '#seg-run\nrun\ttile\tdice\n0\tt1\t0.1\n0\tt2\t0.2\n#late\n0\tt3\t0.3\n1\tzz\t1\n' > out/results.tsv
	run sa-campaign-data slides out
	assert_success
	assert_output "$(printf 's1\ns2')"
	assert_equal "$(cat out/slides/s1/results.tsv)" "$(printf '#seg-run\nrun\ttile\tdice\n0\tt1\t0.1\n#late\n0\tt3\t0.3')"
	assert_equal "$(cat out/slides/s2/results.tsv)" "$(printf '#seg-run\nrun\ttile\tdice\n0\tt2\t0.2\n#late')"
	rm -r out/slides
	printf '#seg-run\nrun\tname\tdice\n' > out/results.tsv
	run -1 sa-campaign-data slides out
	assert_output 'sa-campaign-data: out/results.tsv:2: no column tile in the header'
	assert [ ! -e out/slides ]
}

# bats test_tags=fast
@test "stats: buckets.tsv's #stats and the stage instances of instances.tsv" {
	mkdir out
	printf '#algorithm=rtma stage=segment\n#stats runs=4 instances=3 tasks_merged=7\nbucket\tinstances\n' > out/buckets.tsv
	printf '#runs=4 stages=2 instances=6\nstage\tid\n' > out/instances.tsv
	run sa-campaign-data stats out
	assert_success
	assert_output 'runs=4 instances=3 tasks_merged=7 stage_instances=6'
	printf 'stage\tid\n' > out/instances.tsv
	run sa-campaign-data stats out
	assert_output 'runs=4 instances=3 tasks_merged=7'
	rm out/instances.tsv
	run -1 sa-campaign-data stats out
	assert_output --partial 'out/instances.tsv'
}

@test "model and estimate: the workflow's costs scaled to the tiles' pixels; sim-runtime's report as estimate lines" {
	mkdir out
	table out/tiles.list
	printf 'stage\ttask\tparams\tcost\nsegment\tSeg0\tG1\t0.3\nsegment\tSeg1\t-\t1.2\n' > w.wf
	run sa-campaign-data model out w.wf
	assert_success
	# mean pixels (4096^2 * 2 + 2048^2) / 3: a scale of 0.75
	assert_output "$(printf 'task\tseconds\tspread\nSeg0\t0.225\t0\nSeg1\t0.9\t0')"
	printf 'stage\ttask\n' > bad.wf
	run -1 sa-campaign-data model out bad.wf
	printf '#sim-runtime\nplan\tslots\tbuckets\twork\tmakespan\n#plan\nbuckets\t4\t10\t7200\t3725.6\n' > rep.tsv
	run sa-campaign-data estimate '4 at a time, local' 'from the costs' < rep.tsv
	assert_success
	assert_output 'estimate: the buckets take 1:02:06 (3726 s) on 4 slot(s) (4 at a time, local), 2 core-hours; from the costs'
	run sa-campaign-data estimate how src rep.tsv
	assert_output 'estimate: the buckets take 1:02:06 (3726 s) on 4 slot(s) (how), 2 core-hours; src'
	printf 'plan\tslots\tbuckets\twork\tmakespan\nb\t4\t10\tx\t1\n' > bad.tsv
	run --separate-stderr sa-campaign-data estimate how src bad.tsv
	assert_failure 1
	assert_output ''
	assert_equal "${stderr%%: column*}" 'sa-campaign-data: bad.tsv:2'
}

# bats test_tags=fast
@test "status: the search from the ledgers, a result counted once, runs shifted by off=, the best set" {
	mkdir out
	printf 'a.png\nb.png\nc.png\n' > out/tiles.list
	{
		printf '#seg-run 0.1.0: ledger(5)\nkind\trun\ttile\tvalue\tseconds\tdetail\n'
		printf 'result\t0\t%s\t0.5\t1\t\n' a b c	# complete, 0.5
		printf 'result\t1\ta\t0.9\t1\t\ncancel\t1\t1\t0.9\t-\t\n'	# cancelled
		printf 'result\t2\t%s\t0.7\t1\t\n' a b c a	# complete, 0.7
		printf 'result\t3\ta\t-\t1\t\n'	# running
		printf 'result\t4\t%s\t0.7\t1\t\n' a b c	# complete, 0.7: run 2 wins
		printf 'cancel\t4\t3\t0.7\t-\t\n'	# after its last tile: complete
		printf 'result\t5\t%s\t-\t1\t\n' a b c	# complete, no value
		printf 'cancel\t6\t0\t-\t-\t\n'	# cancelled before any
	} > l.tsv
	run sa-campaign-data status out dice 9 off=0 l.tsv
	assert_success
	assert_output 'sets=9 complete=4 running=1 cancelled=2 waiting=2 best=2 dice=0.7000'
	run sa-campaign-data status out aji 20 off=0 l.tsv off=10 l.tsv
	assert_output 'sets=20 complete=8 running=2 cancelled=4 waiting=6 best=2 aji=0.7000'
	run sa-campaign-data status out dice 5
	assert_output 'sets=5 complete=0 running=0 cancelled=0 waiting=5 best=none'
	run sa-campaign-data status out dice 5 off=0 missing.tsv
	assert_output 'sets=5 complete=0 running=0 cancelled=0 waiting=5 best=none'
	printf 'result\tx\ta\t1\t1\t\n' >> l.tsv
	run --separate-stderr sa-campaign-data status out dice 9 off=0 l.tsv
	assert_failure 1
	assert_output ''
	assert_equal "${stderr%%: column*}" 'sa-campaign-data: l.tsv:21'
	run -2 sa-campaign-data status out dice 9 off=0
	run -2 sa-campaign-data status out dice 9 0 l.tsv
	run -2 sa-campaign-data status out dice x
}

# bats test_tags=fast
@test "sets, evaluate, validation, top, best-validation: a worked example, values checked by hand" {
	printf 'name\ttype\tvalues\tdefault\nG1\tint\t5:5:80\t15\nMR\tenum\t4,8\t8\n' > space.tsv
	printf 'name\ttype\tvalues\tdefault\nMR\tenum\t4,8\t4\nG1\tint\t5:5:80\t40\n' > best.tsv
	printf '#method=random n=2 k=2 params=G1,MR seed=1\nrun\tG1\tMR\n0\t20\t4\n1\t35\t8\n' > d.tsv
	run -0 sa-campaign-data sets space.tsv d.tsv defaults=defaults best=best.tsv r1=run=1
	assert_line --index 0 '#method=sets n=3 k=0 params=- sets=defaults,best,r1 runs=-,-,1'
	assert_equal "$(echo "$output" | grep -v '^#')" "$(printf 'run\tG1\tMR\n0\t15\t8\n1\t40\t4\n2\t35\t8')"
	echo "$output" > sets.tsv
	# results: 3 sets on 3 tiles; best - defaults: +0.125, +0.25, +0.25
	# (one sign: p = 0.25, the least of 3 pairs); r1 - defaults: -0.125,
	# +0.25, +0.25 (W+ = 5 of 6, the tied ranks 2.5: p = 2 P(W+ >= 5) =
	# 2 * 2/8 = 0.5); a failed tile row counts as no value
	printf 'run\ttile\tstatus\tdice\tseconds\n' > r.tsv
	printf '%s\n' '0	a	ok	0.5	1' '0	b	ok	0.25	1' '0	c	ok	0.125	1' \
	    '1	a	ok	0.625	1' '1	b	ok	0.5	1' '1	c	ok	0.375	1' \
	    '2	a	ok	0.375	1' '2	b	ok	0.5	1' '2	c	ok	0.375	1' >> r.tsv
	run -0 sa-campaign-data evaluate sets.tsv r.tsv ev.tsv
	assert_line --index 0 'dice over 3 tile(s): defaults 0.2917, best 0.5, r1 0.4167; best - defaults +0.2083 (p 0.25); r1 - defaults +0.125 (p 0.5)'
	assert_line --index 1 'note: with 3 tile(s) a two-sided Wilcoxon signed-rank test cannot give p below 0.25: 6 tiles at least can show p < 0.05'
	assert_equal "$(cat ev.tsv)" "$(printf '%s\n' '#sets=defaults,best,r1 baseline=defaults tiles=3 paired=3 test=wilcoxon two-sided min_p=0.25' \
	    'tile	metric	defaults	best	r1	diff_best	p_best	diff_r1	p_r1	n' \
	    'a	dice	0.5	0.625	0.375	0.125		-0.125		' \
	    'b	dice	0.25	0.5	0.5	0.25		0.25		' \
	    'c	dice	0.125	0.375	0.375	0.25		0.25		' \
	    'mean	dice	0.2916666666666667	0.5	0.4166666666666667	0.20833333333333331	0.25	0.125	0.5	3')"
	run -0 sa-campaign-data validation sets.tsv r.tsv
	assert_line --index 0 "$(printf 'set\trun\ttile\tstatus\tdice\tseconds')"
	assert_line --index 1 "$(printf 'defaults\t-\ta\tok\t0.5\t1')"
	assert_line --index 7 "$(printf 'r1\t1\ta\tok\t0.375\t1')"
	assert_equal "${#lines[@]}" 10
	# top: the complete sets of trials.tsv, in its order
	printf '#metric=dice tiles=1 sets=3\nrun\tstatus\ttiles\tmean\n2\tcomplete\t1\t0.9\n0\tcancelled\t1\t0.95\n1\tcomplete\t1\t0.5\n' > trials.tsv
	run -0 sa-campaign-data top trials.tsv 5
	assert_output "$(printf '2\n1')"
	run -0 sa-campaign-data top trials.tsv 1
	assert_output 2
	# best-validation: one #validation line before the header, replaced
	printf '#best run=1 metric=dice mean=0.7 tiles=2\nname\ttype\tvalues\tdefault\nG1\tint\t5:5:80\t40\n' > b.tsv
	sa-campaign-data best-validation b.tsv ev.tsv dice
	sa-campaign-data best-validation b.tsv ev.tsv dice
	assert_equal "$(sed -n 2p b.tsv)" '#validation metric=dice tiles=3 defaults=0.2916666666666667 best=0.5 r1=0.4166666666666667'
	assert_equal "$(grep -c '^#validation' b.tsv)" 1
	# a tile missing a set's value: paired over the others
	sed -i '/^2\tc\t/s/\tok\t0.375/\terror\t/' r.tsv
	run -0 sa-campaign-data evaluate sets.tsv r.tsv ev2.tsv
	assert_line --index 0 --partial 'dice over 2 tile(s):'
	grep -q ' tiles=3 paired=2 ' ev2.tsv
}

# bats test_tags=fast
@test "sets, evaluate, validation, tiles-check: bad input refused naming file and line, nothing written" {
	printf 'name\ttype\tvalues\tdefault\nG1\tint\t5:5:80\t15\n' > space.tsv
	printf '#method=random n=1 k=1 params=G1 seed=1\nrun\tG1\n0\t20\n' > d.tsv
	run -2 sa-campaign-data sets space.tsv d.tsv 'a b=defaults'
	assert_output --partial "set name 'a b': letters, digits, '_', '-' and '.' (64 at most)"
	run -2 sa-campaign-data sets space.tsv d.tsv a=defaults a=run=0
	assert_output --partial "set name 'a' given twice"
	run -2 sa-campaign-data sets space.tsv d.tsv defaults
	assert_output --partial "sets: 'defaults': expected NAME=SET"
	run -1 sa-campaign-data sets space.tsv d.tsv r=run=x
	assert_output "sa-campaign-data: set r: 'run=x': d.tsv has runs 0 to 0"
	run -2 sa-campaign-data sets space.tsv - r=run=0
	assert_output --partial "set r: 'run=0': no design to take the run from"
	sa-campaign-data sets space.tsv d.tsv a=defaults b=run=0 > sets.tsv
	printf 'run\ttile\tdice\n0\ta\t0.5\n2\ta\t0.5\n' > r.tsv
	run -1 sa-campaign-data evaluate sets.tsv r.tsv ev.tsv
	assert_output "sa-campaign-data: r.tsv:3: column run: run 2: the sets are runs 0 to 1"
	[ ! -e ev.tsv ]
	printf 'run\ttile\tdice\n0\ta\t0.5\n0\ta\t0.5\n' > r.tsv
	run -1 sa-campaign-data evaluate sets.tsv r.tsv ev.tsv
	assert_output "sa-campaign-data: r.tsv:3: column tile: run 0 on tile a again"
	[ ! -e ev.tsv ]
	run -1 sa-campaign-data evaluate d.tsv r.tsv ev.tsv
	assert_output "sa-campaign-data: d.tsv: no sets= in its comments: not a sets design (sa-campaign evaluate)"
	printf 'run\ttile\tdice\n5\ta\t0.5\n' > r.tsv
	run -1 sa-campaign-data validation sets.tsv r.tsv
	assert_output "sa-campaign-data: r.tsv:2: column run: run 5: the sets are runs 0 to 1"
	# tiles-check: an unreadable tile, a missing reference
	sa-testimg solid 8 8 200 120 160 a.png
	printf 'a.png\nb.png\n' > list
	run -1 sa-campaign-data tiles-check list
	assert_output "$(printf '%s\n' 'sa-campaign-data: list:2: b.png: no such readable tile: No such file or directory' \
	    'sa-campaign-data: list: 1 of 2 tile(s) cannot be run (above): nothing planned')"
	echo a.png > list
	run -0 sa-campaign-data tiles-check list
	run -1 sa-campaign-data tiles-check list refs .mask.png
	assert_output --partial 'list:1: tile a: no reference mask refs/a.mask.png'
}

# bats test_tags=fast
@test "grow-part and grow-plan: the runs a grown design adds as a design of its own, and its plan after the planned one: runs, instances and buckets shifted, #stats summed; bad input" {
	sp=$TOP/share/spaces/ishigami.tsv wf=$TOP/share/workflows/nuclei.wf
	printf 'stage\ttask\tparams\tcost\trun\tmetrics\nnormalize\tnormalize\t-\t0.2\t-\t-\nf\tf\tx1,x2,x3\t1\tishigami 0 {x1} {x2} {x3} {out} {metrics} m.png\ty\n' > w.wf
	mkdir old part new
	sa-sample -m vbd --base halton -n 4 -o old/design.tsv "$sp"
	wf-compact -q -o old/instances.tsv w.wf old/design.tsv
	reuse-merge -a rtma -b 4 -o old/buckets.tsv w.wf old/instances.tsv
	sa-sample --extend old/design.tsv -n 6 -o grown.tsv
	run -0 sa-campaign-data grow-part grown.tsv
	printf '%s\n' "$output" > part/design.tsv
	grep -q '^#method=vbd n=2 k=3 params=x1,x2,x3 base=halton second_order=0 seed=1$' part/design.tsv
	# the 10 runs after the 20 planned, numbered from 0
	assert_equal "$(body part/design.tsv | tail -n +2 | cut -f 2-)" "$(body grown.tsv | tail -n +22 | cut -f 2-)"
	assert_equal "$(body part/design.tsv | tail -n +2 | cut -f 1 | paste -sd,)" 0,1,2,3,4,5,6,7,8,9
	wf-compact -q -o part/instances.tsv w.wf part/design.tsv
	reuse-merge -a rtma -b 4 -o part/buckets.tsv w.wf part/instances.tsv
	run -0 sa-campaign-data grow-plan w.wf old part 20 new
	# the planned rows as they were, then the part's shifted
	nb=$(body old/buckets.tsv | tail -n +2 | wc -l)
	assert_equal "$(body new/buckets.tsv | tail -n +2 | head -n "$nb")" "$(body old/buckets.tsv | tail -n +2)"
	assert_equal "$(body new/buckets.tsv | tail -n +$((nb + 2)) | cut -f 1 | head -n 1)" "$nb"
	assert_equal "$(body new/buckets.tsv | tail -n +2 | cut -f 3 | tr ',' '\n' | sort -n | paste -sd,)" "$(seq -s, 0 29)"
	grep -q '^#stats runs=30 instances=30 ' new/buckets.tsv
	grep -q '^#runs=30 stages=2 instances=32$' new/instances.tsv
	# f's instances 20..29 are the part's 0..9 with runs 20..29
	assert_equal "$(body new/instances.tsv | awk -F'\t' '$1 == "f" && $2 >= 20 { print $2 "=" $4 "<" $3 }' | head -n 2)" $'20=20<1\n21=21<1'
	# bad input
	run -1 sa-campaign-data grow-part old/design.tsv
	assert_output --partial "old/design.tsv: not a grown design (no grown_from= in its metadata)"
	mkdir new2
	run -1 sa-campaign-data grow-plan w.wf old part 21 new2
	assert_output --partial "old/instances.tsv: 20 runs, not the 21 planned"
	run -2 sa-campaign-data grow-plan w.wf old part x new2
	sed 's/^f\t/g\t/' part/instances.tsv > bad.tsv
	mkdir bad && cp bad.tsv bad/instances.tsv && cp part/buckets.tsv bad/
	run -1 sa-campaign-data grow-plan w.wf old bad 20 new2
	assert_output --partial "bad/instances.tsv:"
	assert_output --partial "a stage the plan has not"
}

# bats test_tags=fast
@test "groups: the space with a group column, each parameter's stage or task; a parameter no task reads alone; a space with its own group column refused; bad input" {
	printf 'stage\ttask\tparams\tcost\trun\tmetrics\nnormalize\tnormalize\t-\t0.2\t-\t-\nseg\tblur\tsigma\t1\tb {in} {out} {sigma}\t-\nseg\tthr\tk,c\t1\tt {in} {out} {k} {c}\t-\n' > w.wf
	printf 'name\ttype\tvalues\tdefault\tunit\nsigma\treal\t0.5..3\t1\tpx\nk\tint\t1:1:3\t2\t-\nc\treal\t0..1\t0.5\t-\nz\treal\t0..1\t0.5\t-\n' > s.tsv
	run -0 sa-campaign-data groups s.tsv w.wf tasks
	assert_output "$(printf 'name\ttype\tvalues\tdefault\tunit\tgroup\nsigma\treal\t0.5..3\t1\tpx\tblur\nk\tint\t1:1:3\t2\t-\tthr\nc\treal\t0..1\t0.5\t-\tthr\nz\treal\t0..1\t0.5\t-\t')"
	run -0 sa-campaign-data groups s.tsv w.wf stages
	assert_equal "$(printf '%s\n' "$output" | cut -f 6 | tr '\n' ' ')" "group seg seg seg  "
	sa-campaign-data groups s.tsv w.wf tasks > g.tsv
	run -1 sa-campaign-data groups g.tsv w.wf tasks
	assert_output "sa-campaign-data: g.tsv: a group column of its own: give groups = no to analyse its groups, or drop the column"
	run -2 sa-campaign-data groups s.tsv w.wf steps
	assert_output --partial "BY 'steps': not stages or tasks"
	run -1 sa-campaign-data groups missing.tsv w.wf tasks
	assert_output --partial "missing.tsv"
}
