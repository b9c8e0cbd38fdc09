#!/usr/bin/env bats
# sa-campaign evaluate and the validation step of tune campaigns
# (validate): parameter sets side by side on real MoNuSeg tiles with
# ground truth, every figure checked against compare-dice run by hand.
load common
bats_require_minimum_version 1.5.0
load campaign

# three: list3, the three MoNuSeg tiles that examples/tune holds out
three() {
	printf '%s\n' "$MONUSEG"/TCGA-B0-5698-01Z-00-DX1.png \
	    "$MONUSEG"/TCGA-G9-6362-01Z-00-DX1.png "$MONUSEG"/TCGA-NH-A8F7-01A-01-TS1.png > list3
}

# best.tsv: the nuclei space with other defaults (a tuned set's shape)
best() {
	awk -F'\t' -v OFS='\t' '$1 == "G1" { $4 = 35 } $1 == "T2" { $4 = 2.5 }
	    $1 == "minSize" { $4 = 26 } { print }' "$SPACE" > best.tsv
}

# p3 A B C: the two-sided exact Wilcoxon p-value of three differences of
# distinct magnitudes: from W+, the sum of the positive ones' ranks
p3() {
	printf '%s\n' "$@" | awk '{ d[NR] = $1; a[NR] = $1 < 0 ? -$1 : $1 }
	    END { for (i = 1; i <= 3; i++) { r = 1
	        for (j = 1; j <= 3; j++) if (a[j] < a[i]) r++
	        if (d[i] > 0) w += r }
	      split("0.25 0.5 0.75 1 0.75 0.5 0.25", p, " "); print p[w + 1] }'
}

@test "evaluate: the defaults against a best.tsv on three tiles, every metric equal to compare-dice by hand, each mean's Wilcoxon p, the n note" {
	three
	best
	campaign e.campaign goal=tune method=random samples=4 -trajectories tiles=list3 \
	    reference="$MONUSEG" output=e-out
	run -0 --separate-stderr sa-campaign evaluate e.campaign defaults best.tsv
	# stdout: evaluation.tsv, as written
	assert_equal "$output" "$(cat e-out/evaluate/evaluation.tsv)"
	assert_equal "$(sed -n 2p e-out/evaluate/evaluation.tsv)" \
	    "$(printf 'tile\tmetric\tdefaults\tbest\tdiff_best\tp_best\tn')"
	grep -qx '#sets=defaults,best baseline=defaults tiles=3 paired=3 test=wilcoxon two-sided min_p=0.25' \
	    e-out/evaluate/evaluation.tsv
	[[ $stderr == *"note: with 3 tile(s) a two-sided Wilcoxon signed-rank test cannot give p below 0.25: 6 tiles at least can show p < 0.05"* ]]
	# every tile and metric: compare-dice on the set's mask, to the digit
	local run set t tile m c v
	for run in 0 1; do
		set=$([ $run = 0 ] && echo defaults || echo best)
		for t in B0-5698-01Z-00-DX1 G9-6362-01Z-00-DX1 NH-A8F7-01A-01-TS1; do
			tile=TCGA-$t
			compare-dice -o cd.tsv e-out/evaluate/masks/$run/$tile.tif "$MONUSEG/$tile.mask.png"
			for m in dice jaccard object_dice aji; do
				c=$(head -n 4 cd.tsv | tail -n 1 | tr '\t' '\n' | grep -nx "$m" | cut -d: -f1)
				v=$(tail -n 1 cd.tsv | cut -f "$c")
				run -0 awk -F'\t' -v t="$tile" -v m="$m" -v s="$set" 'NR == 2 {
				    for (i = 1; i <= NF; i++) col[$i] = i }
				    $1 == t && $2 == m { print $col[s] }' e-out/evaluate/evaluation.tsv
				assert_output "$v"
			done
		done
	done
	# each metric's mean row: the p-value of its three differences
	for m in dice jaccard object_dice aji; do
		run -0 p3 $(awk -F'\t' -v m="$m" '$2 == m && $1 != "mean" { print $5 }' e-out/evaluate/evaluation.tsv)
		assert_equal "$(awk -F'\t' -v m="$m" '$1 == "mean" && $2 == m { print $6 " " $7 }' e-out/evaluate/evaluation.tsv)" "$output 3"
		[[ $stderr == *"$m over 3 tile(s): defaults "*", best "*"; best - defaults "*" (p $output)"* ]]
	done
	# the defaults' masks are the space's defaults': seg-run by hand
	sa-sample --reference -o d.tsv "$SPACE"
	wf-compact -q -o i.tsv "$TOP/share/workflows/nuclei.wf" d.tsv
	reuse-merge -a none -o b.tsv "$TOP/share/workflows/nuclei.wf" i.tsv
	seg-run -q --workflow "$TOP/share/workflows/nuclei.wf" --instances i.tsv --buckets b.tsv \
	    --bucket 0 --tiles list3 --ref "$MONUSEG" --ref-suffix .mask.png -o r.tsv --timings t.tsv
	assert_equal "$(awk -F'\t' '$1 == 0' r.tsv | cut -f1-8)" "$(awk -F'\t' '$1 == 0' e-out/evaluate/results.tsv | cut -f1-8)"
	no_temp_files e-out
}

@test "evaluate: the default sets, run=N of the campaign's design, names made unique, --tiles, done once" {
	tiles 96
	campaign t.campaign goal=tune method=random samples=4 -trajectories cancel=none \
	    plot=no report=no output=t-out
	# before the campaign ran: the defaults alone
	run -0 --separate-stderr sa-campaign -q evaluate t.campaign
	assert_equal "$(sed -n 2p t-out/evaluate/evaluation.tsv)" "$(printf 'tile\tmetric\tdefaults\tn')"
	[ -z "$stderr" ]
	sa-campaign -q run t.campaign
	run -0 sa-campaign -q evaluate t.campaign
	grep -q '^#sets=defaults,best ' t-out/evaluate/evaluation.tsv
	# run=N: the design's run N, as its buckets ran it on these tiles
	run -0 sa-campaign -q evaluate t.campaign run=2 run=2 defaults
	grep -q '^#sets=run2,run2-2,defaults baseline=run2 ' t-out/evaluate/evaluation.tsv
	grep -qx '#method=sets n=3 k=0 params=- sets=run2,run2-2,defaults runs=2,2,-' t-out/evaluate/design.tsv
	assert_equal "$(awk -F'\t' '$1 == 0 { print $2, $4 }' t-out/evaluate/results.tsv)" \
	    "$(awk -F'\t' '$1 == 2 { print $2, $4 }' t-out/results.tsv)"
	# the same sets and tiles again: nothing run again
	touch -d '2000-01-01' t-out/evaluate/results.tsv
	run -0 sa-campaign -q evaluate t.campaign run=2 run=2 defaults
	[ "$(stat -c %Y t-out/evaluate/results.tsv)" = "$(date -d 2000-01-01 +%s)" ]
	# --tiles: other tiles, evaluated anew
	echo tiles/a.png > one.list
	run -0 sa-campaign -q --tiles one.list evaluate t.campaign defaults
	grep -q ' tiles=1 paired=1 ' t-out/evaluate/evaluation.tsv
	run -2 sa-campaign --tiles one.list run t.campaign
	assert_output --partial "--tiles: only with evaluate"
}

@test "evaluate: bad sets and campaigns refused before anything runs, one line each" {
	tiles 96
	campaign t.campaign goal=tune method=random samples=4 -trajectories output=t-out
	run -1 sa-campaign evaluate t.campaign nosuch.tsv
	assert_output "sa-campaign: set 'nosuch.tsv': no such file (a set is defaults, run=N or a space file such as best.tsv)"
	run -1 sa-campaign evaluate t.campaign run=1
	assert_output "sa-campaign: set run1: 'run=1': no design to take the run from"
	grep -v '^G2' "$SPACE" > short.tsv
	run -1 sa-campaign evaluate t.campaign short.tsv
	assert_output "sa-campaign: short.tsv: no parameter 'G2' (every parameter of the campaign's space needs a default)"
	awk -F'\t' -v OFS='\t' '$1 == "G1" { $3 = "5:5:500"; $4 = 500 } { print }' "$SPACE" > off.tsv
	run -1 sa-campaign evaluate t.campaign off.tsv
	assert_output "sa-campaign: set off (off.tsv): 500 is off the domain of G1 in $SPACE"
	[ ! -e t-out/evaluate ]
	campaign d.campaign reference=defaults -reference_suffix output=d-out
	run -1 sa-campaign evaluate d.campaign
	assert_output "sa-campaign: d.campaign: no ground truth to evaluate against: reference = defaults; set reference = DIR"
	sa-campaign -q run t.campaign
	run -1 sa-campaign evaluate t.campaign run=99
	assert_output "sa-campaign: set run99: 'run=99': $PWD/t-out/design.tsv has runs 0 to 3"
}

@test "a tune campaign with validate: the defaults and the best validate_top sets on the held-out tiles, validation.tsv, best.tsv's #validation line, the report" {
	tiles 96
	mkdir val
	sa-testimg crop "$MONUSEG/TCGA-B0-5698-01Z-00-DX1.png" 200 200 96 96 val/c.png
	sa-testimg crop --mask "$MONUSEG/TCGA-B0-5698-01Z-00-DX1.mask.png" 200 200 96 96 val/c.mask.png
	sa-testimg crop "$MONUSEG/TCGA-NH-A8F7-01A-01-TS1.png" 300 300 96 96 val/d.png
	sa-testimg crop --mask "$MONUSEG/TCGA-NH-A8F7-01A-01-TS1.mask.png" 300 300 96 96 val/d.mask.png
	printf 'c.png\nd.png\n' > val/list
	campaign t.campaign goal=tune method=random samples=6 -trajectories cancel=none \
	    plot=no validate=val/list validate_reference=val validate_top=2 output=t-out
	run -0 sa-campaign run t.campaign
	assert_line "sa-campaign: validate: 3 set(s), defaults best1 best2, on the 2 tile(s) of $PWD/val/list, against $PWD/val"
	assert_line "sa-campaign: validation: $PWD/t-out/validation.tsv"
	# the header: set, then results.tsv's own
	assert_equal "$(grep -v '^#' t-out/validation.tsv | head -n 1)" "set	$(grep -v '^#' t-out/results.tsv | head -n 1)"
	# the best two complete sets of trials.tsv, by their runs
	local b1 b2
	b1=$(body t-out/trials.tsv | awk -F'\t' 'NR == 2 { print $1 }')
	b2=$(body t-out/trials.tsv | awk -F'\t' 'NR == 3 { print $1 }')
	assert_equal "$(body t-out/validation.tsv | tail -n +2 | cut -f1-3)" "$(printf 'defaults\t-\tc\ndefaults\t-\td\nbest1\t%s\tc\nbest1\t%s\td\nbest2\t%s\tc\nbest2\t%s\td' "$b1" "$b1" "$b2" "$b2")"
	# a best set scores on the validation tiles as a run of its design
	run -0 sa-campaign -q --tiles val/list evaluate t.campaign run=$b1
	assert_equal "$(awk -F'\t' '$1 == "best1" { print $3, $5 }' t-out/validation.tsv)" \
	    "$(awk -F'\t' '$1 == 0 { print $2, $4 }' t-out/evaluate/results.tsv)"
	# best.tsv: training (#best) and validation means side by side
	run -0 grep -c '^#validation metric=dice tiles=2 defaults=[0-9.]* best1=[0-9.]* best2=[0-9.]*$' t-out/best.tsv
	assert_output 1
	grep -q '^#best run='"$b1"' ' t-out/best.tsv
	# the report: training and validation of the defaults and the best
	grep -q 'Validation on 2 held-out tiles' t-out/report.html
	# validate again: done already, nothing run; best.tsv keeps one line
	touch -d '2000-01-01' t-out/validate/results.tsv
	run -0 sa-campaign -q validate t.campaign
	[ "$(stat -c %Y t-out/validate/results.tsv)" = "$(date -d 2000-01-01 +%s)" ]
	run -0 grep -c '^#validation ' t-out/best.tsv
	assert_output 1
	# without validate: a merge leaves no validation of other settings
	sed -i '/^validate/d' t.campaign
	sa-campaign -q merge t.campaign
	[ ! -e t-out/validation.tsv ] && [ ! -e t-out/validate ]
	run -1 sa-campaign validate t.campaign
	assert_output "sa-campaign: t.campaign: validate: no validate key: nothing to validate on"
	no_temp_files t-out
}

@test "validate: its keys checked, refused in other campaigns, naming file and line" {
	tiles 96
	campaign s.campaign validate=tiles/list
	run -1 sa-campaign plan s.campaign
	assert_output --partial "s.campaign:$(grep -n '^validate' s.campaign | cut -d: -f1): validate"
	campaign t.campaign goal=tune method=random samples=4 -trajectories validate=nosuch.list
	run -1 sa-campaign plan t.campaign
	assert_output "sa-campaign: t.campaign:$(grep -n '^validate' t.campaign | cut -d: -f1): validate: $PWD/nosuch.list: no such readable file or directory"
	campaign t.campaign goal=tune method=random samples=4 -trajectories validate=tiles/list \
	    reference=defaults -reference_suffix
	run -1 sa-campaign plan t.campaign
	assert_output "sa-campaign: t.campaign:$(grep -n '^validate' t.campaign | cut -d: -f1): validate: no ground truth for the validation tiles: set validate_reference = DIR (reference is defaults)"
	campaign t.campaign goal=tune method=random samples=4 -trajectories validate=tiles/list \
	    validate_reference=nosuch
	run -1 sa-campaign plan t.campaign
	assert_output "sa-campaign: t.campaign:$(grep -n '^validate_reference' t.campaign | cut -d: -f1): validate_reference: $PWD/nosuch: no such directory"
	campaign t.campaign goal=tune method=random samples=4 -trajectories validate_top=0
	run -1 sa-campaign plan t.campaign
	assert_output --partial "validate_top"
}
