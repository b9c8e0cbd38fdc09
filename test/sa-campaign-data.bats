#!/usr/bin/env bats
# sa-campaign-data: the batched tune campaign's files for sa-campaign:
# rows, best, compose, ledger; their bad input.
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
