#!/usr/bin/env bats
# Campaigns whose samples grow (issue 31): the design grown by sa-sample
# --extend, only the runs it adds planned and run, in buckets numbered
# after the planned ones; the indices those of a fresh campaign of the
# larger size, with each index's change from the smaller; what cannot
# grow refused at the plan, the plan that ran left as it was.
load common
load campaign

bats_require_minimum_version 1.5.0

setup() {
	cd "$BATS_TEST_TMPDIR" || return 1
	export PATH="$TOP/test/data/commands:$PATH" COUNT_FILE=$BATS_TEST_TMPDIR/count
	tiles 96
	echo a.png > tiles/one
	# the Ishigami function of x1, x2, x3 as the metric y of a command
	# (test/data/commands/ishigami), each invocation counted
	{
		printf 'stage\ttask\tparams\tcost\trun\tmetrics\n'
		printf 'normalize\tnormalize\t-\t0.2\t-\t-\n'
		printf 'f\tf\tx1,x2,x3\t1\t%s\ty\n' \
		    "count f ishigami 0 {x1} {x2} {x3} {out} {metrics} $PWD/tiles/a.mask.png"
	} > w.wf
}

# ish FILE KEY=VALUE...: a VBD campaign of the Ishigami command
ish() {
	local f=$1
	shift
	campaign "$f" space="$TOP/share/spaces/ishigami.tsv" workflow=w.wf \
	    tiles=tiles/one metric=y -reference -reference_suffix plot=no \
	    method=vbd base=halton samples=64 bucket_size=16 -trajectories "$@"
}

@test "samples raised from 64 to 128: only the 320 new runs run, in buckets after the planned ones, whose results stay; the indices a fresh 128 campaign's, with the change of each from 64; twice" {
	ish g.campaign
	sa-campaign -q run g.campaign
	# 320 runs and the reference run
	assert_equal "$(wc -l < count)" 321
	nb=$(body g-out/buckets.tsv | awk 'NR > 1' | wc -l)
	sums=$(cd g-out/results && cat -- * | cksum)
	sed -i 's/^samples = 64$/samples = 128/' g.campaign
	: > count
	run -0 sa-campaign run g.campaign
	assert_output --partial "grown from samples = 64 to 128: buckets $nb to"
	# the command ran for the new runs alone
	assert_equal "$(wc -l < count)" 320
	assert_equal "$(cd g-out/results && cat -- $(seq -f '%05g-0000.tsv' 0 $((nb - 1))) | cksum)" "$sums"
	grep -qx 'grown 64 128' g-out/inputs
	grep -q ' n=128 .* grown_from=64 ' g-out/design.tsv
	# a fresh campaign of 128
	ish f.campaign samples=128
	sa-campaign -q run f.campaign
	assert_equal "$(body g-out/indices.tsv | cut -f 1-5)" "$(body f-out/indices.tsv)"
	assert_equal "$(body g-out/indices.tsv | head -n 1 | cut -f 6-)" $'S1_change\tST_change'
	grep -q '^#method=vbd .* grown_from=64 ' g-out/indices.tsv
	# the same runs, row for row
	assert_equal "$(body g-out/results.tsv | sort -n | cut -f 1,4)" "$(body f-out/results.tsv | sort -n | cut -f 1,4)"
	# run again: nothing to grow, nothing to run
	: > count
	run -0 sa-campaign run g.campaign
	refute_output --partial grown
	assert_equal "$(wc -l < count)" 0
	# and grown once more, from 128
	sed -i 's/^samples = 128$/samples = 192/' g.campaign
	sa-campaign -q run g.campaign
	assert_equal "$(wc -l < count)" 320
	grep -qx 'grown 128 192' g-out/inputs
	grep -q '^#method=vbd .* grown_from=128 ' g-out/indices.tsv
}

@test "what cannot grow is refused at the plan, the plan that ran left as it was: the sobol base past its skip, lhs, fewer samples, another key changed with samples" {
	ish s.campaign base=sobol samples=16
	sa-campaign -q run s.campaign
	cp s-out/inputs s.inputs
	cp s-out/design.tsv s.design
	sed -i 's/^samples = 16$/samples = 32/' s.campaign
	run -1 sa-campaign run s.campaign
	assert_output --partial "s-out/design.tsv: a vbd design on the sobol base of n = 16 skips 16 points of the sequence, one of n = 32 skips 32 (SALib's rule): it cannot grow past n = 16"
	cmp s-out/inputs s.inputs
	cmp s-out/design.tsv s.design
	assert_equal "$(ls -a s-out | grep -c grow)" 0
	campaign l.campaign space="$TOP/share/spaces/ishigami.tsv" workflow=w.wf \
	    tiles=tiles/one metric=y -reference -reference_suffix plot=no report=no \
	    method=lhs samples=8 -trajectories
	sa-campaign -q run l.campaign
	sed -i 's/^samples = 8$/samples = 16/' l.campaign
	run -1 sa-campaign run l.campaign
	assert_output --partial "cannot grow a Latin hypercube: its strata are 1/n wide"
	sed -i 's/^samples = 16$/samples = 4/' l.campaign
	run -1 sa-campaign run l.campaign
	assert_output --partial "holds another campaign (planned with samples = 8, l.campaign has samples = 4)"
	ish t.campaign
	sa-campaign -q run t.campaign
	sed -i 's/^samples = 64$/samples = 128/; s/^seed = 3$/seed = 4/' t.campaign
	run -1 sa-campaign run t.campaign
	assert_output --partial "holds another campaign"
}
