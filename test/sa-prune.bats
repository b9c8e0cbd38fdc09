#!/usr/bin/env bats
# sa-prune: a space shrunk with the most similar past experiment's jobs
# (the JobPruner study); every option; no current results and low ncorr
# leave the space unchanged and say why; bad input.
load common
bats_require_minimum_version 1.5.0

# s.tsv: G1 (a grid of 16), minSize (a grid of 20), T1 (a range), W (an enum)
space() {
	printf 'name\ttype\tvalues\tdefault\nG1\tint\t5:5:80\t80\nminSize\tint\t2:2:40\t11\nT1\treal\t2.5..7.5\t5\nW\tenum\t4,8\t8\n' > s.tsv
}

# results C1 C2 DESIGN: seg-run's results of DESIGN on tiles t1 and t2, the
# dice a bump at G1 = C1, minSize = C2, higher with W = 8
results() {
	awk -F '\t' -v OFS='\t' -v c1="$1" -v c2="$2" '
		/^#/ { next }
		$1 == "run" { for (i = 2; i <= NF; i++) col[$i] = i
			print "run", "tile", "status", "dice", "jaccard", "object_dice",
			    "aji", "objects", "seconds"; next }
		{ d = 0.85 - 0.0004 * ($col["G1"] - c1)^2 - 0.001 * ($col["minSize"] - c2)^2
		  if ("W" in col && $col["W"] == 4) d -= 0.02
		  if (d < 0.05) d = 0.05
		  for (t = 1; t <= 2; t++) { v = d - 0.01 * t
			print $1, "t" t, "ok", v, v / (2 - v), v - 0.1, v - 0.2 + 0.002 * $col["G1"], 100, 1 } }' "$3"
}

# campaign DIR C1 C2 [SA-SAMPLE OPTIONS]: a campaign output in DIR:
# design.tsv (the grid of G1 and minSize, T1 and W fixed, by default),
# results.tsv and trials.tsv
campaign() {
	local dir=$1 c1=$2 c2=$3
	shift 3
	mkdir -p "$dir"
	[ $# -gt 0 ] || set -- -m grid --fix T1=5 --fix W=8
	sa-sample "$@" -o "$dir/design.tsv" s.tsv
	results "$c1" "$c2" "$dir/design.tsv" > "$dir/results.tsv"
	sa-trials -o "$dir/trials.tsv" "$dir/design.tsv" "$dir/results.tsv"
}

# knowledge: past campaigns k/p1 (near the current one's optimum), k/p2
# (far from it), k/p3 (inverted: its optimum is the current one's worst);
# the current campaign cur, 40 random sets of the whole space
knowledge() {
	space
	campaign k/p1 42 22
	campaign k/p2 75 5
	campaign k/p3 5 40
	campaign cur 40 20 -m random -n 40 -s 3
}

# field ITEM NAME FILE: the value column of a report's row
field() {
	awk -F '\t' -v i="$1" -v n="$2" '$1 == i && $2 == n { print $3 }' "$3"
}

@test "normal use: the most similar past campaign chosen, its poor values removed, the report; sa-sample accepts the new space" {
	knowledge
	run sa-prune --current cur --knowledge k --paggr 0.75 --report r.tsv -o new.tsv s.tsv
	assert_success
	assert_output ''
	assert_equal "$(sed -n 1p new.tsv)" '#sa-prune 0.1.0'
	assert_equal "$(sed -n 2p new.tsv)" '#command line: sa-prune --current cur --knowledge k --paggr 0.75 --report r.tsv -o new.tsv s.tsv'
	assert_equal "$(sed -n 3p new.tsv | cut -d ' ' -f 1-2)" '#pruned chosen=k/p1'
	# p1's best is 0.8334 (G1 40, minSize 22, the mean of 0.8434 and
	# 0.8234), the cut 0.62505: G1 within 22.9 of 42, minSize within 14.4
	# of 22; T1 and W untouched (one value tried: the others kept)
	assert_equal "$(body new.tsv)" "$(printf '%s\n' 'name	type	values	default' \
	    'G1	int	20:5:60	80' 'minSize	int	8:2:36	11' 'T1	real	2.5..7.5	5' \
	    'W	enum	4,8	8')"
	assert_equal "$(sed -n 3p r.tsv)" '#metric=dice k=5 points=current seed=1 min_ncorr=0.5 bins=10 paggr=0.75'
	assert_equal "$(sed -n 4p r.tsv)" 'item	name	value	detail'
	assert_equal "$(field current cur r.tsv)" 40
	assert_equal "$(awk -F '\t' '$1 == "past" { print $2 }' r.tsv | paste -sd ' ')" 'k/p1 k/p2 k/p3'
	# ncorr, the rank correlation of the current sets' own values with
	# each past surrogate's there (no past campaign ran them: T1 is
	# random): p1 correlates (0.97), p2 and p3 hardly (0.24, 0.08)
	awk -F '\t' '$1 == "past" { c[$2] = $3 } END { exit !(c["k/p1"] > 0.95 &&
	    c["k/p2"] < 0.3 && c["k/p3"] < 0.1) }' r.tsv
	assert_equal "$(awk -F '\t' '$1 == "past" { split($4, d, " "); print d[2] }' r.tsv | sort -u)" 'shared=0'
	assert_equal "$(field chosen k/p1 r.tsv)" "$(field past k/p1 r.tsv)"
	assert_equal "$(field paggr fixed r.tsv)" 0.75
	assert_equal "$(awk -F '\t' '$1 == "cut" { print $2, $3, $4 }' r.tsv)" 'k/p1 0.62505 max=0.8334 paggr=0.75'
	assert_equal "$(awk -F '\t' '$1 == "removed" && $2 == "G1" { print $3 }' r.tsv | paste -sd ,)" '5,10,15,65,70,75,80'
	assert_equal "$(awk -F '\t' '$1 == "removed" && $2 == "G1" && $3 == 65 { print $4 }' r.tsv)" 'best=0.6234'
	assert_equal "$(field parameter G1 r.tsv)" 0.5625
	assert_equal "$(awk -F '\t' '$1 == "parameter" && $2 == "G1" { print $4 }' r.tsv)" '5:5:80 -> 20:5:60'
	# 1 - (9/16) (15/20)
	assert_equal "$(field removed_fraction space r.tsv)" 0.578125
	assert_equal "$(field outcome pruned r.tsv)" 0.578125
	# the round trip: sa-sample draws from it, every value inside
	sa-sample -m grid -p 2 -o g.tsv new.tsv
	assert_equal "$(body g.tsv | tail -n +2 | wc -l)" $((9 * 15 * 2 * 2))
	sa-sample -m random -n 50 -o rnd.tsv new.tsv
	awk -F '\t' '!/^#/ && $1 != "run" && ($2 < 20 || $2 > 60 || $3 < 8 || $3 > 36) { exit 1 }' rnd.tsv
	# stdout without -o: the same space
	run sa-prune --current cur --knowledge k --paggr 0.75 s.tsv
	assert_success
	assert_equal "$(grep -v '^#' <<< "$output")" "$(body new.tsv)"
	no_temp_files
}

@test "the current experiment's best set so far stays in the space, whatever the past experiment says" {
	knowledge
	# p2's bump is far from the current one's: cut at 0.9 of its best, it
	# would remove G1 35 and minSize 16, the values of cur's best set
	sa-prune --current cur --past k/p2 --min-ncorr -1 --paggr 0.9 --report r.tsv -o new.tsv s.tsv
	best=$(awk -F '\t' '!/^#/ && $1 != "run" && $4 > m { m = $4; s = $10 " " $11 } END { print s }' cur/trials.tsv)
	assert_equal "$best" '35 16'
	assert_equal "$(awk -F '\t' '$1 == "kept" { print $2, $3, $4 }' r.tsv)" "$(printf '%s\n' \
	    "G1 35 best=0.194: the current experiment's best set has it, kept" \
	    "minSize 16 best=0.714: the current experiment's best set has it, kept")"
	assert_equal "$(body new.tsv | sed -n '2,3p')" "$(printf '%s\n' 'G1	int	35,65,70,75,80	80' 'minSize	int	2:2:16	11')"
}

@test "experiments: --past DIR and --past-files, trials.tsv or design.tsv and results.tsv; a directory read once; the current one's left out of the knowledge" {
	knowledge
	sa-prune --current cur --past k/p2 --past k/p1 --past k/p1/ --paggr 0.75 --report r.tsv -o a.tsv s.tsv
	assert_equal "$(awk -F '\t' '$1 == "past" { print $2 }' r.tsv | paste -sd ' ')" 'k/p2 k/p1'
	assert_equal "$(awk -F '\t' '$1 == "past" { print $4 }' r.tsv | sort -u)" 'jobs=320 shared=0 source=trials.tsv (its mean column)'
	# the files directly: the same ncorr and the same space
	sa-prune --current-files cur/design.tsv cur/results.tsv --past-files k/p1/design.tsv k/p1/results.tsv \
	    --paggr 0.75 --report r2.tsv -o b.tsv s.tsv
	assert_equal "$(body b.tsv)" "$(body a.tsv)"
	assert_equal "$(field past k/p1/design.tsv,k/p1/results.tsv r2.tsv)" "$(field past k/p1 r.tsv)"
	# without trials.tsv: design.tsv and results.tsv, the mean over tiles
	rm k/p1/trials.tsv
	sa-prune --current cur --past k/p1 --paggr 0.75 --report r3.tsv -o c.tsv s.tsv
	assert_equal "$(body c.tsv)" "$(body a.tsv)"
	assert_equal "$(field past k/p1 r3.tsv)" "$(field past k/p1 r.tsv)"
	assert_equal "$(awk -F '\t' '$1 == "past" { print $4 }' r3.tsv)" 'jobs=320 shared=0 source=design.tsv and results.tsv (the mean over the tiles)'
	# the current campaign inside the knowledge directory is not a past one;
	# entries that are not campaign outputs, or hidden, are skipped
	mv cur k/cur
	mkdir k/empty k/.hidden
	cp k/p2/trials.tsv k/.hidden/
	sa-prune --current k/cur --knowledge k --paggr 0.75 --report r4.tsv -o d.tsv s.tsv
	assert_equal "$(awk -F '\t' '$1 == "past" { print $2 }' r4.tsv | paste -sd ' ')" 'k/p1 k/p2 k/p3'
	assert_equal "$(body d.tsv)" "$(body a.tsv)"
}

@test "a past design without a parameter holds it at its default; columns the space lacks are left out and reported" {
	knowledge
	printf 'name\ttype\tvalues\tdefault\nG1\tint\t5:5:80\t80\nminSize\tint\t2:2:40\t11\nExtra\tint\t1,2\t1\n' > old.tsv
	mkdir old
	sa-sample -m grid -o old/design.tsv old.tsv
	results 42 22 old/design.tsv > old/results.tsv
	sa-prune --current cur --past old --paggr 0.75 --report r.tsv -o new.tsv s.tsv
	assert_equal "$(awk -F '\t' '$1 == "past" { print $4 }' r.tsv)" 'jobs=640 shared=0 source=design.tsv and results.tsv (the mean over the tiles) ignored=Extra'
	# W held at its default 8 there: 4 untried, kept; T1 at 5: one bin tried
	assert_equal "$(body new.tsv | cut -f 1,3 | tail -n 2)" "$(printf 'T1\t2.5..7.5\nW\t4,8')"
	# a column the space lacks in the current experiment is an error
	refuse_run sa-prune 1 "sa-prune: old/design.tsv: column Extra is not a parameter of the space" \
	    --current old --past k/p1 s.tsv
}

@test "no current results: nothing pruned, the space unchanged, the report says why" {
	knowledge
	mkdir fresh
	cp cur/design.tsv fresh/
	run sa-prune --current fresh --knowledge k --report r.tsv -o new.tsv s.tsv
	assert_success
	assert_output 'sa-prune: nothing pruned: no current results: fresh has no run with a value (no results yet: no trials.tsv or results.tsv)'
	assert_equal "$(body new.tsv)" "$(cat s.tsv)"
	assert_equal "$(sed -n 3p new.tsv)" '#unchanged: no current results: fresh has no run with a value (no results yet: no trials.tsv or results.tsv)'
	assert_equal "$(awk -F '\t' '$1 == "outcome" { print $2, $3 }' r.tsv)" 'unchanged 0'
	# every run failed
	awk -F '\t' -v OFS='\t' '$1 == "run" { print; next } { $3 = "error"; $4 = ""; print }' cur/results.tsv > fresh/results.tsv
	run sa-prune --current fresh --knowledge k -o new.tsv s.tsv
	assert_success
	assert_output --partial 'nothing pruned: no current results: fresh has no run with a value (design.tsv and results.tsv'
	# no current experiment at all, no past ones
	run sa-prune --knowledge k -o new.tsv s.tsv
	assert_output 'sa-prune: nothing pruned: no current experiment: nothing to compare the past experiments with'
	run sa-prune --current cur -o new.tsv s.tsv
	assert_output 'sa-prune: nothing pruned: no past experiments'
	assert_equal "$(body new.tsv)" "$(cat s.tsv)"
}

@test "--min-ncorr: the most similar past campaign below it: nothing pruned, the report says why" {
	knowledge
	run sa-prune --current cur --past k/p3 --report r.tsv -o new.tsv s.tsv
	assert_success
	assert_output 'sa-prune: nothing pruned: the most similar past experiment, k/p3, has ncorr 0.08443, below --min-ncorr 0.5'
	assert_equal "$(body new.tsv)" "$(cat s.tsv)"
	assert_equal "$(awk -F '\t' '$1 == "chosen"' r.tsv)" ''
	assert_equal "$(awk -F '\t' '$1 == "outcome" { print $2 }' r.tsv)" unchanged
	# -1 takes even it; 1 refuses even the best one
	run sa-prune --current cur --past k/p3 --min-ncorr -1 --paggr 0.75 -o new.tsv s.tsv
	assert_success
	assert_output ''
	run sa-prune --current cur --knowledge k --min-ncorr 1 -o new.tsv s.tsv
	assert_output --partial 'the most similar past experiment, k/p1, has ncorr 0.969, below --min-ncorr 1'
}

@test "-k, --points, -s: the surrogates and the common points" {
	knowledge
	sa-prune --current cur --knowledge k --paggr 0.75 --report k5.tsv s.tsv > /dev/null
	sa-prune --current cur --knowledge k --paggr 0.75 -k 1 --report k1.tsv s.tsv > /dev/null
	assert_not_equal "$(field past k/p1 k1.tsv)" "$(field past k/p1 k5.tsv)"
	assert_equal "$(sed -n 3p k1.tsv | cut -d ' ' -f 2)" 'k=1'
	sa-prune --current cur --knowledge k --paggr 0.75 --points 64 --report p.tsv s.tsv > /dev/null
	assert_equal "$(awk -F '\t' '$1 == "common_points" { print $2, $3 }' p.tsv)" 'sobol 64'
	sa-prune --current cur --knowledge k --paggr 0.75 --points 64 --report p2.tsv s.tsv > /dev/null
	assert_equal "$(body p2.tsv)" "$(body p.tsv)"
	sa-prune --current cur --knowledge k --paggr 0.75 --points 64 -s 9 --report p9.tsv s.tsv > /dev/null
	assert_not_equal "$(field past k/p1 p9.tsv)" "$(field past k/p1 p.tsv)"
}

# bats test_tags=fast
@test "--bins: a range cut into bins, shrunk to the hull of the survivors" {
	space
	# a past campaign over T1 alone: the dice falls away from T1 = 3
	printf 'name\ttype\tvalues\tdefault\nT1\treal\t2.5..7.5\t5\n' > t.tsv
	mkdir past cur
	sa-sample -m grid -p 21 -o past/design.tsv t.tsv
	sa-sample -m random -n 15 -s 4 -o cur/design.tsv t.tsv
	for d in past cur; do
		awk -F '\t' -v OFS='\t' '/^#/ { next } $1 == "run" { print "run", "dice"; next }
		    { print $1, 0.9 - 0.1 * ($2 - 3)^2 }' $d/design.tsv > $d/results.tsv
	done
	sa-prune --current cur --past past --paggr 0.5 --report r.tsv -o new.tsv t.tsv
	# best 0.9 at 3, cut 0.45: |T1 - 3| <= 2.12; 10 bins of 0.5: 2.5..5.5
	assert_equal "$(body new.tsv | tail -n 1)" 'T1	real	2.5..5.5	5'
	assert_equal "$(awk -F '\t' '$1 == "removed" { print $3 }' r.tsv | paste -sd ' ')" '5.5..6 6..6.5 6.5..7 7..7.5'
	sa-prune --current cur --past past --paggr 0.5 --bins 4 -o new4.tsv t.tsv
	# bins of 1.25: 2.5..3.75..5 stay, 5..6.25 holds 5.25 (0.39) and 5 (0.5)
	assert_equal "$(body new4.tsv | tail -n 1)" 'T1	real	2.5..6.25	5'
}

@test "--paggr auto: the variogram when the values are normal and stationary, capped by --paggr-max; --lags; else --paggr-fallback and why" {
	# one parameter, four jobs, z = 0 1 0 2: nugget 1/12, sill 11/12,
	# paggr 1 - 1/11 (prune_test works it by hand)
	printf 'name\ttype\tvalues\tdefault\nx\treal\t0..0.3\t0\n' > x.tsv
	mkdir past cur
	printf '#space\tx\treal\t0..0.3\t0\nrun\tx\n0\t0\n1\t0.1\n2\t0.2\n3\t0.3\n' > past/design.tsv
	printf 'run\tdice\n0\t0\n1\t1\n2\t0\n3\t2\n' > past/results.tsv
	cp past/design.tsv cur/
	printf 'run\tdice\n0\t0.1\n1\t1.1\n2\t0.2\n3\t1.9\n' > cur/results.tsv
	sa-prune --current cur --past past -k 1 --paggr-max 0.9 --report r.tsv -o new.tsv x.tsv
	assert_equal "$(awk -F '\t' '$1 == "paggr" { print $2, $3 }' r.tsv)" 'variogram 0.9'
	assert_equal "$(awk -F '\t' '$1 == "variogram" { printf "%s %.12f\n", $2, $3 }' r.tsv | paste -sd ' ')" \
	    'nugget 0.083333333333 sill 0.916666666667'
	assert_equal "$(awk -F '\t' '$1 == "lag"' r.tsv | wc -l)" 10
	assert_equal "$(awk -F '\t' '$1 == "test" { print $2 }' r.tsv | paste -sd ' ')" 'jarque_bera welch:x f:x'
	sa-prune --current cur --past past -k 1 --paggr-max 0.95 --lags 3 --report r2.tsv -o new.tsv x.tsv
	assert_equal "$(awk -F '\t' '$1 == "paggr" { print $2, substr($3, 1, 8) }' r2.tsv)" 'variogram 0.909090'
	assert_equal "$(awk -F '\t' '$1 == "lag"' r2.tsv | wc -l)" 3
	sa-prune --current cur --past past -k 1 --report r1.tsv -o new.tsv x.tsv
	assert_equal "$(awk -F '\t' '$1 == "paggr" { print $2, substr($3, 1, 8) }' r1.tsv)" 'variogram 0.909090'
	assert_equal "$(sed -n 3p r1.tsv)" '#metric=dice k=1 points=current seed=1 min_ncorr=0.5 bins=10 paggr=auto lags=10 paggr_max=0.97 paggr_top=0.1 paggr_min=0.6'
	# grid landscapes are not normal: the top share rule. p1's 320 jobs
	# (two rows of each grid point but for T1 and W, 0.8334 at best):
	# its best 10 % score the 0.9 quantile of the values, 0.787155 for
	# this landscape (computed below), so paggr 0.787155 / 0.8334
	knowledge
	sa-prune --current cur --knowledge k --report r4.tsv -o new4.tsv s.tsv
	q=$(awk -F '\t' 'NR > 1 && !/^#/ { print $4 }' k/p1/trials.tsv | sort -g |
	    awk '{ v[NR] = $1 } END { h = 0.9 * (NR - 1) + 1; i = int(h)
	        printf "%.6g", v[i] + (h - i) * (v[i + 1] - v[i]) }')
	assert_equal "$(awk -F '\t' '$1 == "paggr" { print $2 }' r4.tsv)" top
	assert_equal "$(awk -F '\t' '$1 == "paggr" { printf "%.6f", $3 }' r4.tsv)" \
	    "$(awk -v q="$q" 'BEGIN { printf "%.6f", q / 0.8334 }')"
	assert_equal "$(awk -F '\t' '$1 == "paggr" { print $4 }' r4.tsv | cut -d : -f 1)" 'jarque_bera'
	assert_equal "$(awk -F '\t' '$1 == "paggr" { sub(/^[^;]*; /, "", $4); print $4 }' r4.tsv)" \
	    "its best 10 % of jobs score $q or more, within --paggr-min and --paggr-max"
	assert_equal "$(sed -n 3p new4.tsv | grep -o 'paggr=[^ ]* (top)' | cut -c 1-6)" 'paggr='
	sa-prune --current cur --knowledge k --paggr-top 0.5 --report r5.tsv -o new5.tsv s.tsv
	awk -F '\t' 'FNR == 1 { f++ } $1 == "removed_fraction" { r[f] = $3 }
	    END { exit !(r[2] < r[1]) }' r4.tsv r5.tsv
	# the rule's floor: the best half of p1's jobs score below 0.8 of
	# its best, so --paggr-min 0.8 sets paggr; the default 0.6 yields
	# to a --paggr-max below it
	sa-prune --current cur --knowledge k --paggr-top 0.5 --paggr-min 0.8 --report r6.tsv -o new6.tsv s.tsv
	assert_equal "$(awk -F '\t' '$1 == "paggr" { print $2, $3 }' r6.tsv)" 'top 0.8'
	sa-prune --current cur --knowledge k --paggr-top 0.5 --paggr-max 0.5 --report r7.tsv -o new7.tsv s.tsv
	assert_equal "$(awk -F '\t' '$1 == "paggr" { print $2 }' r7.tsv)" top
	awk -F '\t' '$1 == "paggr" { exit !($3 <= 0.5) }' r7.tsv
	# or a fixed fallback
	sa-prune --current cur --knowledge k --paggr-fallback 0.5 --report r3.tsv -o new.tsv s.tsv
	assert_equal "$(awk -F '\t' '$1 == "paggr" { print $2, $3 }' r3.tsv)" 'fallback 0.5'
	assert_equal "$(awk -F '\t' '$1 == "paggr" { print $4 }' r3.tsv | cut -d : -f 1)" 'jarque_bera'
	assert_equal "$(awk -F '\t' '$1 == "cut" { print $4 }' r3.tsv)" 'max=0.8334 paggr=0.5'
}

@test "--metric: another score of the results; the trials.tsv of another metric falls back to the results" {
	knowledge
	sa-prune --current cur --knowledge k --metric aji --paggr 0.75 --report r.tsv -o new.tsv s.tsv
	assert_equal "$(sed -n 3p r.tsv | cut -d ' ' -f 1)" '#metric=aji'
	assert_equal "$(awk -F '\t' '$1 == "past" { print $4 }' r.tsv | sort -u)" 'jobs=320 shared=0 source=design.tsv and results.tsv (the mean over the tiles)'
	# the aji rises with G1: the cut keeps more of the high values
	assert_not_equal "$(body new.tsv)" "$(sa-prune --current cur --knowledge k --paggr 0.75 s.tsv | grep -v '^#')"
	rm k/p1/results.tsv
	refuse_run sa-prune 1 "sa-prune: k/p1/trials.tsv: ranks dice, not aji, and k/p1 has no design.tsv and results.tsv to read aji from" \
	    --current cur --knowledge k --metric aji s.tsv
	refuse_run sa-prune 1 "sa-prune: cur/results.tsv: no column 'nope' in the header" --current cur --past k/p2 --metric nope s.tsv
}

@test "an enum of words: a poor word pruned by its text, whatever its position in the space being pruned" {
	# with a note column, which the pruned spaces keep
	printf 'name\ttype\tvalues\tdefault\tnote\nG1\tint\t5:5:80\t80\ta\nminSize\tint\t2:2:40\t11\tb\nW\tenum\tfour,eight,six\teight\tc d\n' > s.tsv
	local d
	for d in k/p1 cur; do
		mkdir -p $d
		if [ $d = cur ]; then
			sa-sample -m random -n 40 -s 3 -o $d/design.tsv s.tsv
		else
			sa-sample -m grid -o $d/design.tsv s.tsv
		fi
		# the dice of results, 0.3 lower where W is four
		results 42 22 $d/design.tsv | awk -F '\t' -v OFS='\t' 'NR == FNR { if ($4 == "four") four[$1] = 1; next }
		    FNR > 1 && four[$1] { $4 -= 0.3 } { print }' $d/design.tsv - > $d/results.tsv
		sa-trials -o $d/trials.tsv $d/design.tsv $d/results.tsv
	done
	assert_equal "$(grep -c '^#space' cur/trials.tsv)" 3
	sa-prune --current cur --knowledge k --paggr 0.75 --report r.tsv -o new.tsv s.tsv
	assert_equal "$(grep -P '^W\t' new.tsv)" "$(printf 'W\tenum\teight,six\teight\tc d')"
	assert_equal "$(body new.tsv | head -1)" "$(printf 'name\ttype\tvalues\tdefault\tnote')"
	# the past campaigns' words read by text onto another order of them
	sed 's/four,eight,six/six,four,eight/' s.tsv > s2.tsv
	sa-prune --current cur --knowledge k --paggr 0.75 --report r2.tsv -o new2.tsv s2.tsv
	assert_equal "$(grep -P '^W\t' new2.tsv)" "$(printf 'W\tenum\tsix,eight\teight\tc d')"
	assert_equal "$(field removed W r2.tsv)" four
}

@test "--report: to stdout with -o; refused where the space goes" {
	knowledge
	run sa-prune --current cur --knowledge k --paggr 0.75 --report - -o new.tsv s.tsv
	assert_success
	assert_equal "$(grep -c '^outcome' <<< "$output")" 1
	run sa-prune --current cur --knowledge k --report - s.tsv
	assert_failure 2
	assert_output --partial 'the space already goes to stdout'
	run sa-prune --current cur --knowledge k --report x.tsv -o x.tsv s.tsv
	assert_failure 2
	assert_output --partial '--report x.tsv: the space is written there already'
	run sa-prune --current cur --knowledge k --report s.tsv s.tsv
	assert_failure 2
	assert_output --partial 'output s.tsv is the input s.tsv'
	assert [ ! -e x.tsv ]
}

@test "bad input: one line naming file and line, exit 1, nothing written (space nor report)" {
	knowledge
	printf '999\tt1\tok\t0.5\t0.3\t0.4\t0.3\t90\t2\n' >> k/p2/results.tsv
	rm cur/trials.tsv
	sed -i 's/^3\tt1\tok\t[0-9.]*/3\tt1\tok\tabc/' cur/results.tsv
	refuse_run sa-prune 1 "sa-prune: cur/results.tsv:8: column dice: 'abc'" --current cur --knowledge k s.tsv
	assert [ ! -e r.tsv ]
	run sa-prune --current cur --knowledge k --report r.tsv -o new.tsv s.tsv
	assert_failure 1
	assert [ ! -e r.tsv ]
	assert [ ! -e new.tsv ]
	campaign cur 40 20 -m random -n 40 -s 3
	rm k/p2/trials.tsv
	refuse_run sa-prune 1 "sa-prune: k/p2/results.tsv:" --current cur --knowledge k s.tsv
	refuse_run sa-prune 1 "sa-prune: k/p2/results.tsv:" --current cur --past k/p2 s.tsv
	# a trials.tsv row of another status, a repeated run
	campaign k/p2 75 5
	sed -i 's/^5\tcomplete/5\tdone/' k/p2/trials.tsv
	refuse_run sa-prune 1 "column status: 'done' is not complete, cancelled or failed" --current cur --past k/p2 s.tsv
	sed -i 's/^5\tdone/6\tcomplete/' k/p2/trials.tsv
	refuse_run sa-prune 1 "column run: run 6 repeats" --current cur --past k/p2 s.tsv
	# not campaign outputs; a missing directory
	mkdir nothing
	refuse_run sa-prune 1 "sa-prune: nothing: not a campaign output: no trials.tsv, and no results.tsv with its design.tsv" \
	    --current cur --past nothing s.tsv
	refuse_run sa-prune 1 "sa-prune: gone: No such file or directory" --current cur --past gone s.tsv
	# (a knowledge directory that is a campaign output: one past experiment)
	run -0 sa-prune --current k/p1 --knowledge cur --report kc.tsv -o kc-space.tsv s.tsv
	assert_equal "$(awk -F'\t' '$1 == "past" { print $2 }' kc.tsv)" cur
	refuse_run sa-prune 1 "sa-prune: s.tsv: not a directory" --current cur --past s.tsv s.tsv
	# a bad space
	printf 'name\ttype\tvalues\tdefault\nG1\tint\t5:7:80\t80\n' > bad.tsv
	refuse_run sa-prune 1 "sa-prune: bad.tsv:2: column values: parameter G1" --current cur bad.tsv
}

@test "a write error (/dev/full) of either output: exit 3, neither committed" {
	knowledge
	run sa-prune --current cur --knowledge k --report r.tsv -o /dev/full s.tsv
	assert_failure 3
	assert_output --partial '/dev/full: write error'
	assert [ ! -e r.tsv ]
	run sa-prune --current cur --knowledge k --report /dev/full -o new.tsv s.tsv
	assert_failure 3
	assert [ ! -e new.tsv ]
	no_temp_files
}

@test "usage: --help, --version, operands, option values, options that go together" {
	run sa-prune --help
	assert_success
	assert_output --partial 'Usage: sa-prune'
	assert_output --partial '--paggr P|auto'
	run sa-prune --version
	assert_success
	assert_output --regexp '^sa-prune \(sareuse\) [0-9.]+$'
	run sa-prune
	assert_failure 2
	assert_output --partial 'expected SPACE.tsv, got 0 arguments'
	local bad
	for bad in '--paggr 1' '--paggr 0' '--paggr abc' '-k 0' '--bins 0' '--lags 2' \
	    '--min-ncorr 1.5' '--points 1' '--paggr-max 0' '--paggr-fallback 1' '-s -1' \
	    '--frobnicate'; do
		run sa-prune $bad s.tsv
		assert_failure 2
	done
	run sa-prune --paggr 1 s.tsv
	assert_output --partial "--paggr '1'"
	run sa-prune --current a --current b s.tsv
	assert_failure 2
	assert_output --partial '--current: one current experiment only'
	run sa-prune --current a --current-files d m s.tsv
	assert_failure 2
	run sa-prune --past-files d
	assert_failure 2
	assert_output --partial '--past-files needs DESIGN and METRICS'
	run sa-prune --past - s.tsv
	assert_failure 2
	assert_output --partial "--past: '-': experiments are read from files"
	run sa-prune --paggr 0.7 --lags 5 s.tsv
	assert_failure 2
	assert_output --partial '--lags, --paggr-max, --paggr-top, --paggr-min and --paggr-fallback go with --paggr auto'
	run sa-prune --paggr-max 0.5 --paggr-fallback 0.6 s.tsv
	assert_failure 2
	assert_output --partial '--paggr-fallback 0.6 is above --paggr-max 0.5'
	run sa-prune --paggr-min 0.7 --paggr-max 0.6 s.tsv
	assert_failure 2
	assert_output --partial '--paggr-min 0.7 is above --paggr-max 0.6'
	run sa-prune --paggr-top 0.2 --paggr-fallback 0.6 s.tsv
	assert_failure 2
	assert_output --partial '--paggr-top or --paggr-min, and --paggr-fallback: one or the other'
	for bad in 0 1 x; do
		run sa-prune --paggr-top $bad s.tsv
		assert_failure 2
		assert_output --partial "--paggr-top '$bad'"
	done
	# options after the operand, and --current-files before it
	knowledge
	run sa-prune s.tsv --current-files cur/design.tsv cur/results.tsv --knowledge k --paggr 0.75
	assert_success
}
