#!/usr/bin/env bats
# Campaigns with failed runs (issue 31): a workflow command that fails for
# about 5 % of the parameter sets, unrelated to its output; MOAT and VBD
# campaigns of it against the same campaigns without failures: the indices
# within the complete campaign's intervals, the missing runs counted in
# indices.tsv and listed in the report; max_missing refuses a larger share.
load common
load campaign

bats_require_minimum_version 1.5.0

setup() {
	cd "$BATS_TEST_TMPDIR" || return 1
	export PATH="$TOP/test/data/commands:$PATH"
	tiles 96
	echo a.png > tiles/one
	# the Ishigami function of x1, x2, x3 as the metric y of a command
	# that fails for a share of the sets (test/data/commands/ishigami)
	for share in 0 0.05; do
		{
			printf 'stage\ttask\tparams\tcost\trun\tmetrics\n'
			printf 'normalize\tnormalize\t-\t0.2\t-\t-\n'
			printf 'f\tf\tx1,x2,x3\t1\t%s\ty\n' \
			    "ishigami $share {x1} {x2} {x3} {out} {metrics} $PWD/tiles/a.mask.png"
		} > "w$share.wf"
	done
}

# pair NAME KEY=VALUE...: campaigns NAME-full (no failures) and NAME-fail
# (about 5 % of the sets fail) of the Ishigami command, run
pair() {
	local name=$1 w
	shift
	for w in full fail; do
		campaign "$name-$w.campaign" space="$TOP/share/spaces/ishigami.tsv" \
		    workflow="w$([ $w = full ] && echo 0 || echo 0.05).wf" tiles=tiles/one \
		    metric=y -reference -reference_suffix plot=no bucket_size=64 "$@"
		run -0 sa-campaign -q run "$name-$w.campaign"
	done
}

# within FULL FAIL INDEX: FAIL's INDEX of each parameter is within FULL's
# interval of it (INDEX_conf)
within() {
	paste <(body "$1" | tail -n +2 | cut -f 1) <(column_of "$1" "$3") <(column_of "$1" "$3_conf") \
	    <(column_of "$2" "$3") | awk -F'\t' -v i="$3" '
	    { d = $4 - $2; if (d < 0) d = -d
	      if (!(d <= $3)) { printf "%s of %s: %s, outside %s +- %s\n", i, $1, $4, $2, $3; bad = 1 } }
	    END { exit bad }' || fail "$3 outside the complete campaign's intervals"
}

# column_of FILE NAME: the values of column NAME of an indices table
column_of() {
	body "$1" | awk -F'\t' -v name="$2" 'NR == 1 { for (i = 1; i <= NF; i++)
	    if ($i == name) c = i; next } { print $c }'
}

# meta FILE KEY: KEY= of the metadata line
meta() {
	sed -n '/^#method=/{s/^#//;p;q;}' "$1" | tr ' ' '\n' | sed -n "s/^$2=//p"
}

@test "VBD, 5 % of runs failed: the blocks that hold one dropped and counted, S1 and ST within the complete campaign's intervals, the missing runs in the report" {
	pair v method=vbd samples=128 -trajectories
	full=v-full-out/indices.tsv failed=v-fail-out/indices.tsv
	assert_equal "$(meta "$full" dropped)" 0
	# the runs that failed: rows with status error in results.tsv
	n=$(body v-fail-out/results.tsv | awk -F'\t' '$3 == "error"' | wc -l)
	[ "$n" -ge 19 ] && [ "$n" -le 45 ] || fail "$n of 640 runs failed, not about 5 %"
	blocks=$(meta "$failed" blocks) dropped=$(meta "$failed" dropped)
	assert_equal "$((blocks + dropped))" 128
	[ "$dropped" -gt 0 ] && [ "$dropped" -le "$n" ] || fail "dropped $dropped blocks for $n runs"
	within "$full" "$failed" S1
	within "$full" "$failed" ST
	grep -q "Missing runs: $n of 640 sets have no result" v-fail-out/report.html
	run -1 grep -q 'Missing runs' v-full-out/report.html
}

@test "MOAT, 5 % of runs failed: the effects that touch one dropped and counted per parameter, mu* within the complete campaign's intervals" {
	pair m method=moat trajectories=40
	full=m-full-out/indices.tsv failed=m-fail-out/indices.tsv
	n=$(body m-fail-out/results.tsv | awk -F'\t' '$3 == "error"' | wc -l)
	[ "$n" -ge 3 ] && [ "$n" -le 16 ] || fail "$n of 160 runs failed, not about 5 %"
	assert_equal "$(column_of "$full" effects | sort -u)" 40
	dropped=$(meta "$failed" dropped)
	assert_equal "$(column_of "$failed" effects | awk '{ s += $1 } END { print 120 - s }')" "$dropped"
	# a run is in one or two effects of its trajectory
	[ "$dropped" -ge "$n" ] && [ "$dropped" -le $((2 * n)) ] || fail "dropped $dropped effects for $n runs"
	within "$full" "$failed" mu_star
	grep -q "Missing runs: $n of 160 sets have no result" m-fail-out/report.html
}

@test "max_missing: more runs missing than the share refuses the indices at the merge, naming the share; the default 0.1 lets 5 % through" {
	campaign x.campaign space="$TOP/share/spaces/ishigami.tsv" workflow=w0.05.wf \
	    tiles=tiles/one metric=y -reference -reference_suffix plot=no report=no \
	    method=moat trajectories=40 max_missing=0.01
	run -1 sa-campaign -q run x.campaign
	assert_output --regexp "results.tsv: [0-9]+ of 160 runs \([0-9.]+ %\) have no y result, more than --max-missing 0.01 allows"
	assert [ ! -e x-out/indices.tsv ]
	# the share raised, the merge alone runs again and succeeds
	sed -i '/^max_missing/d' x.campaign
	run -0 sa-campaign run x.campaign
	refute_output --partial 'bucket'
	assert [ -s x-out/indices.tsv ]
	campaign y.campaign max_missing=1.5
	run -1 sa-campaign plan y.campaign
	assert_output --partial "max_missing: '1.5'"
}
