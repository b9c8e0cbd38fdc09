#!/usr/bin/env bats
# seg-run in a tuning campaign: --tile-order, --ledger, --cancel, --metric
# on real tissue crops with ground truth: the ledger's lines, resuming
# without recomputing, cancelled runs skipped, bad options.
load common
bats_require_minimum_version 1.5.0
load campaign

WF=$TOP/share/workflows/nuclei.wf
MONUSEG=$TOP/test/data/monuseg

# sets N: a random design of N sets over the influential parameters,
# planned as one bucket (rtma)
sets() {
	sa-sample -m random -n "$1" -s 5 --fix B=220 --fix G=220 --fix R=220 \
	    -o d.tsv "$SPACE"
	wf-compact -q -o i.tsv "$WF" d.tsv
	reuse-merge -a rtma -b 1000 -o b.tsv "$WF" i.tsv
}

# tune ARGS: seg-run on bucket 0 against the crops' masks
tune() {
	seg-run -q --workflow "$WF" --instances i.tsv --buckets b.tsv --bucket 0 \
	    --tiles tiles/list --ref tiles --ref-suffix .mask.png "$@"
}

# rows FILE: the results' rows without the seconds column (the last)
rows() {
	body "$1" | awk -F'\t' -v OFS='\t' '{ NF--; print }'
}

# lines KIND: the ledger's lines of that kind
lines() {
	body ledger.tsv | awk -F'\t' -v k="$1" '$1 == k'
}

@test "--tile-order: shuffle:SEED walks and writes the tiles in one seeded order; list keeps the list's" {
	crops 4 96
	sets 2
	tune --tile-order shuffle:3 -o a.tsv --timings at.tsv
	tune --tile-order shuffle:3 -o a2.tsv --timings a2t.tsv
	assert_equal "$(rows a.tsv)" "$(rows a2.tsv)"
	# the order of the rows of a run: every tile once; not the list's for
	# every seed
	order() {
		body "$1" | awk -F'\t' 'NR == 2 { r = $1 } NR > 1 && $1 == r { print $2 }' | paste -sd' '
	}
	orders=$(order a.tsv)
	for s in 4 5 6; do
		tune --tile-order shuffle:$s -o s$s.tsv --timings s${s}t.tsv
		orders+=$'\n'$(order s$s.tsv)
	done
	while read -r o; do
		assert_equal "$(tr ' ' '\n' <<< "$o" | sort | paste -sd' ')" "t1 t2 t3 t4"
	done <<< "$orders"
	[ "$(grep -cvx 't1 t2 t3 t4' <<< "$orders")" -ge 1 ] || fail "no shuffle changed the order: $orders"
	tune --tile-order list -o c.tsv --timings ct.tsv
	tune -o d.tsv --timings dt.tsv
	assert_equal "$(rows c.tsv)" "$(rows d.tsv)"
	# the same rows as a set, whatever the order
	assert_equal "$(rows a.tsv | sort)" "$(rows c.tsv | sort)"
	run tune --tile-order shuffle -o e.tsv --timings et.tsv
	assert_failure 2
	assert_output --partial "--tile-order 'shuffle': list or shuffle:SEED"
	run tune --tile-order shuffle:x -o e.tsv --timings et.tsv
	assert_failure 2
}

@test "--ledger --cancel none: a result line per run and tile, the same results as without a ledger" {
	crops 3 96
	sets 6
	tune -o plain.tsv --timings pt.tsv
	tune --ledger ledger.tsv -o r.tsv --timings t.tsv
	assert_equal "$(rows r.tsv)" "$(rows plain.tsv)"
	assert_equal "$(body ledger.tsv | head -1)" "$(printf 'kind\trun\ttile\tvalue\tseconds\tdetail')"
	assert_equal "$(lines result | wc -l)" 18
	assert_equal "$(lines cancel | wc -l)" 0
	# each line's value is the run's Dice on the tile
	join -t $'\t' <(lines result | awk -F'\t' -v OFS='\t' '{ print $2 ":" $3, $4 }' | sort) \
	    <(body r.tsv | awk -F'\t' -v OFS='\t' 'NR > 1 { print $1 ":" $2, $4 }' | sort) |
	    awk -F'\t' '$2 != $3 { print; bad = 1 } END { exit bad }'
}

@test "a bucket resumed against its ledger recomputes no pair the ledger holds, and writes the same results" {
	crops 3 96
	sets 6
	tune --ledger ledger.tsv -o r.tsv --timings t.tsv
	cp ledger.tsv before.tsv
	rm r.tsv t.tsv
	tune --ledger ledger.tsv -o r.tsv --timings t.tsv
	cmp ledger.tsv before.tsv
	# only the tiles' reading and normalization ran: no task node
	assert_equal "$(body t.tsv | awk -F'\t' 'NR > 1 && $0 ~ /Seg/' | wc -l)" 0
	tune --ledger other.tsv -o full.tsv --timings ft.tsv
	assert_equal "$(rows r.tsv)" "$(rows full.tsv)"
}

@test "--cancel median: poor sets are cancelled after the warm-up, skip the tiles left, and the best survives" {
	crops 5 96
	sets 16
	tune --ledger none.tsv -o all.tsv --timings allt.tsv
	tune --ledger ledger.tsv --cancel median:warmup=1,startup=3 -o r.tsv --timings t.tsv
	n=$(lines cancel | wc -l)
	[ "$n" -ge 1 ] || fail "nothing cancelled"
	# every cancelled run: rows cancelled after its cancel line's tiles
	# seen, none before; no result line after its cancel line
	lines cancel | while IFS=$'\t' read -r kind run seen value secs detail; do
		got=$(body r.tsv | awk -F'\t' -v r="$run" '$1 == r && $3 != "cancelled"' | wc -l)
		assert_equal "$got" "$seen"
		assert_equal "$(lines result | awk -F'\t' -v r="$run" '$2 == r' | wc -l)" "$seen"
		[[ $detail == median* ]] || fail "detail '$detail'"
	done
	# fewer task nodes ran than without cancelling
	[ "$(body t.tsv | wc -l)" -lt "$(body allt.tsv | wc -l)" ] || fail "no work saved"
	# the runs complete in both have identical rows (seconds aside)
	done_runs=$(body r.tsv | awk -F'\t' 'NR > 1 && $3 == "cancelled" { c[$1] = 1 } NR > 1 { r[$1] = 1 }
	    END { for (k in r) if (!(k in c)) print k }' | sort -n)
	for run in $done_runs; do
		assert_equal "$(rows r.tsv | awk -F'\t' -v r="$run" '$1 == r')" \
		    "$(rows all.tsv | awk -F'\t' -v r="$run" '$1 == r')"
	done
	# the best set by mean Dice over every tile is not cancelled
	best=$(body all.tsv | awk -F'\t' 'NR > 1 { s[$1] += $4; n[$1]++ }
	    END { for (k in s) print s[k] / n[k], k }' | sort -gr | head -1 | cut -d' ' -f2)
	grep -qx "$best" <<< "$done_runs" || fail "the best set $best was cancelled"
}

@test "two buckets on one ledger at once: every line once, whole lines only" {
	crops 3 96
	sa-sample -m random -n 12 -s 9 -o d.tsv "$SPACE"
	wf-compact -q -o i.tsv "$WF" d.tsv
	reuse-merge -a rtma -b 4 -o b.tsv "$WF" i.tsv
	nb=$(body b.tsv | tail -n +2 | wc -l)
	[ "$nb" -ge 2 ] || fail "one bucket only"
	for ((k = 0; k < nb; k++)); do
		seg-run -q --workflow "$WF" --instances i.tsv --buckets b.tsv --bucket $k \
		    --tiles tiles/list --ref tiles --ref-suffix .mask.png \
		    --ledger ledger.tsv --cancel median:warmup=1,startup=2 \
		    -o r$k.tsv --timings t$k.tsv &
	done
	wait
	body ledger.tsv | awk -F'\t' 'NR > 1 && NF != 6 { print "bad line " NR; bad = 1 } END { exit bad }'
	assert_equal "$(lines result | cut -f 2,3 | sort | uniq -d)" ""
	assert_equal "$(lines cancel | cut -f 2 | sort | uniq -d)" ""
	[ ! -e ledger.tsv.lock ]
}

@test "tuning options: refused without --ledger, without --ref, bad rules and metrics" {
	crops 1 64
	sets 2
	run tune --cancel median -o r.tsv --timings t.tsv
	assert_failure 2
	assert_output --partial "--cancel and --metric need --ledger"
	run seg-run --workflow "$WF" --instances i.tsv --buckets b.tsv --bucket 0 \
	    --tiles tiles/list --ledger l.tsv -o r.tsv --timings t.tsv
	assert_failure 2
	assert_output --partial "--ledger needs --ref"
	run tune --ledger l.tsv --cancel fastest -o r.tsv --timings t.tsv
	assert_failure 2
	run tune --ledger l.tsv --metric objects -o r.tsv --timings t.tsv
	assert_failure 2
	run tune --ledger r.tsv -o r.tsv --timings t.tsv
	assert_failure 2
	assert_output --partial "--ledger must be a file of its own"
	assert [ ! -e r.tsv ] && assert [ ! -e l.tsv ]
}

@test "--metric aji: the ledger's values are the runs' AJI" {
	crops 2 96
	sets 3
	tune --ledger ledger.tsv --metric aji -o r.tsv --timings t.tsv
	join -t $'\t' <(lines result | awk -F'\t' -v OFS='\t' '{ print $2 ":" $3, $4 }' | sort) \
	    <(body r.tsv | awk -F'\t' -v OFS='\t' 'NR > 1 { print $1 ":" $2, $7 }' | sort) |
	    awk -F'\t' '$2 != $3 { print; bad = 1 } END { exit bad }'
}

# knowledge: kb/ holding three finished tune campaigns on the tiles: p1
# (12 sets), p2 (12 sets in 2 batches) and p3 (6 sets, batch 1's of the
# campaign below, identical)
knowledge() {
	local n
	mkdir -p kb
	for n in p1:12:11:1 p2:12:7:2 p3:6:5:1; do
		IFS=: read -r name samples seed batches <<< "$n"
		campaign kb/$name.campaign goal=tune method=random samples=$samples \
		    seed=$seed bucket_size=6 cancel=none plot=no report=no \
		    batches=$batches output=$name tiles=$PWD/tiles/list reference=$PWD/tiles
		sed -i '/^trajectories/d' kb/$name.campaign
		sa-campaign -q run kb/$name.campaign
	done
}

# batched: b.campaign, 18 sets in 3 batches with kb/ as knowledge
batched() {
	campaign b.campaign goal=tune method=random samples=18 seed=5 bucket_size=6 \
	    cancel=none batches=3 knowledge=kb plot=no "$@"
	sed -i '/^trajectories/d' b.campaign
}

@test "a tune campaign in 3 batches with knowledge: each batch drawn from sa-prune's space, global runs, the best of all, resumed" {
	tiles 96
	knowledge
	batched prune_paggr=0.8 prune_bins=4
	sa-campaign -q run b.campaign
	# batch 1 from the campaign's space; 2 and 3 from sa-prune's, with
	# the knowledge base (p2's batches are not experiments of their own)
	# and the prune_ keys
	assert_equal "$(body b-out/batch-1/space.tsv)" "$(body "$SPACE")"
	assert [ ! -e b-out/batch-1/prune.tsv ]
	sa-prune --current-files b-out/batch-1/design.tsv b-out/batch-1/results.tsv \
	    --knowledge kb -s 5 --paggr 0.8 --bins 4 -o by-hand.tsv "$SPACE"
	assert_equal "$(sed -n 3p b-out/batch-2/prune.tsv)" '#metric=dice k=5 points=current seed=5 min_ncorr=0.5 bins=4 paggr=0.8'
	assert_equal "$(body b-out/batch-2/space.tsv)" "$(body by-hand.tsv)"
	assert_equal "$(awk -F'\t' '$1 == "past" { print $2 }' b-out/batch-2/prune.tsv)" \
	    "$(printf '%s\n' "$PWD/kb/p1" "$PWD/kb/p2" "$PWD/kb/p3")"
	grep -qP "^chosen\t$PWD/kb/p3\t1\t" b-out/batch-2/prune.tsv
	grep -qP "^current\t$PWD/b-out\t12\t" b-out/batch-3/prune.tsv
	for k in 2 3; do
		seed=$(sa-campaign-data batch-seed b-out $k 5)
		sa-sample -m random -n 6 -s $seed -o d$k.tsv b-out/batch-$k/space.tsv
		assert_equal "$(body b-out/batch-$k/design.tsv)" "$(body d$k.tsv)"
		grep -qx "batch $k of 3 seed=$seed" b-out/batch-$k/inputs
	done
	grep -qx "batch 1 of 3 seed=5" b-out/batch-1/inputs
	# trials: 18 sets, global runs, batch K's runs 6(K-1) to 6K-1
	grep -q ' sets=18 complete=18 ' b-out/trials.tsv
	assert_equal "$(body b-out/trials.tsv | awk -F'\t' 'NR > 1 { print $1, $10 }' | sort -n | awk '$2 != int($1 / 6) + 1')" ""
	# the same values as the batches' own trials, runs shifted
	for k in 1 2 3; do
		assert_equal "$(body b-out/batch-$k/trials.tsv | awk -F'\t' -v o=$((6 * (k - 1))) 'NR > 1 { print $1 + o, $4 }' | sort -n)" \
		    "$(body b-out/trials.tsv | awk -F'\t' -v k=$k 'NR > 1 && $10 == k { print $1, $4 }' | sort -n)"
	done
	best=$(body b-out/trials.tsv | awk -F'\t' 'NR == 2 { print $1 }')
	grep -q "^#best run=$best metric=dice " b-out/best.tsv
	run sa-campaign status b.campaign
	assert_success
	assert_line "batch=3 of 3: $PWD/b-out/batch-3"
	assert_output --regexp "sets=18 complete=18 running=0 cancelled=0 waiting=0 best=$best dice=0\.[0-9]{4}"
	# resumed: batch 3's results gone, only batch 3 runs again
	cp b-out/trials.tsv before.tsv
	rm -r b-out/batch-3/results b-out/batch-3/ledger.tsv
	mkdir b-out/batch-3/results
	touch -d '1 hour ago' b-out/batch-1/results/* b-out/batch-2/results/*
	sa-campaign -q run b.campaign
	assert_equal "$(find b-out/batch-1 b-out/batch-2 -newer before.tsv -path '*results/*')" ""
	assert_equal "$(body b-out/trials.tsv | cut -f 1-6,8-)" "$(body before.tsv | cut -f 1-6,8-)"
}

# line KEY [FILE]: the line of KEY in FILE (b.campaign)
line() {
	grep -n "^$1 = " "${2:-b.campaign}" | cut -d: -f1
}

@test "knowledge that is one campaign output: one past experiment, said when planning; a directory of them: each one" {
	tiles 96
	mkdir kb
	campaign kb/p.campaign goal=tune method=random samples=8 seed=11 bucket_size=6 \
	    cancel=none plot=no report=no output=p tiles=$PWD/tiles/list reference=$PWD/tiles
	sed -i '/^trajectories/d' kb/p.campaign
	sa-campaign -q run kb/p.campaign
	campaign b.campaign goal=tune method=random samples=8 seed=5 bucket_size=6 \
	    cancel=none batches=2 knowledge=kb/p plot=no report=no
	sed -i '/^trajectories/d' b.campaign
	echo 'prune_k = 3' >> b.campaign
	echo 'prune_min_ncorr = 0.2' >> b.campaign
	echo 'prune_paggr_max = 0.8' >> b.campaign
	run -0 sa-campaign run b.campaign
	assert_line "sa-campaign: knowledge: $PWD/kb/p: a campaign output, taken as one past experiment"
	assert_equal "$(awk -F'\t' '$1 == "past" { print $2 }' b-out/batch-2/prune.tsv)" "$PWD/kb/p"
	assert_equal "$(sed -n 3p b-out/batch-2/prune.tsv)" '#metric=dice k=3 points=current seed=5 min_ncorr=0.2 bins=10 paggr=auto lags=10 paggr_max=0.8 paggr_top=0.1 paggr_min=0.6'
	run -0 sa-campaign-data knowledge kb
	assert_output "kb: 1 campaign output, each a past experiment"
}

@test "method = pso, anneal, tpe: each batch a round of the search drawn from the rounds before (rounds 1 and 2 drawn again by hand the same); refused outside tune and without batches" {
	tiles 96
	for m in pso anneal tpe; do
		extra=()	# tpe: its independent estimators (sa-sample's tests
		ind=()		# cover the default)
		[ $m != tpe ] || extra=(tpe_multivariate=no) ind=(--independent)
		campaign $m.campaign goal=tune method=$m samples=12 batches=3 seed=4 \
		    bucket_size=6 cancel=none plot=no report=no ${extra[@]+"${extra[@]}"}
		sed -i '/^trajectories/d' $m.campaign
		run -0 sa-campaign run $m.campaign
		grep -q " sets=12 complete=12 " $m-out/trials.tsv
		for k in 1 2 3; do
			grep -qx "batch $k of 3 seed=4" $m-out/batch-$k/inputs
		done
		# rounds 1 and 2 drawn again by hand: round 2 from round 1's
		# trials as the history
		assert_equal "$(body $m-out/batch-1/design.tsv)" \
		    "$(sa-sample -m $m -n 4 -s 4 --round 1 --rounds 3 "$SPACE" | body /dev/stdin)"
		assert_equal "$(body $m-out/batch-2/design.tsv)" \
		    "$(sa-sample -m $m -n 4 -s 4 --round 2 --rounds 3 --history $m-out/batch-1/trials.tsv \
		    ${ind[@]+"${ind[@]}"} --within $m-out/batch-2/space.tsv "$SPACE" | body /dev/stdin)"
		grep -q "^#method=$m n=4 k=15 .* round=3 seed=4" $m-out/batch-3/design.tsv
		# the method's settings reach sa-sample
		case $m in
		tpe) grep -q -- ' --gamma 0.1 --candidates 24 --independent ' $m-out/batch-2/design.tsv ;;
		pso) grep -q -- ' --inertia 0.7298 --c1 1.49618 --c2 1.49618 ' $m-out/batch-2/design.tsv ;;
		esac
		# the search learned: round 3 is not what round 1's draws give
		assert [ "$(body $m-out/batch-3/design.tsv | tail -n +2 | cut -f 2-)" != \
		    "$(body $m-out/batch-1/design.tsv | tail -n +2 | cut -f 2-)" ]
	done
	campaign s.campaign method=tpe samples=12
	run sa-campaign plan s.campaign
	assert_failure 1
	assert_output "sa-campaign: s.campaign:$(line method s.campaign): method: tpe is a search that learns from scores, only for goal = tune"
	campaign t.campaign goal=tune method=pso samples=12
	sed -i '/^trajectories/d' t.campaign
	run sa-campaign plan t.campaign
	assert_failure 1
	assert_output --partial "pso learns from round to round: give batches = 2 or more"
}

@test "batches and knowledge: refused outside tune, beyond the samples, with a grid, knowledge not a directory; with file and line" {
	tiles 96
	campaign c.campaign batches=2
	run sa-campaign plan c.campaign
	assert_failure 1
	assert_output "sa-campaign: c.campaign:11: batches: only for goal = tune (this campaign's goal is sensitivity)"
	campaign c.campaign knowledge=tiles
	run sa-campaign plan c.campaign
	assert_output "sa-campaign: c.campaign:11: knowledge: only for goal = tune (this campaign's goal is sensitivity)"
	mkdir kb
	batched batches=19
	run sa-campaign plan b.campaign
	assert_failure 1
	assert_output "sa-campaign: b.campaign:$(line batches): batches: 19 batches of 18 samples: at most one batch per sample"
	batched method=grid levels=2 fix=B=220
	run sa-campaign plan b.campaign
	assert_failure 1
	assert_output --partial "b.campaign:$(line batches): batches: a grid is one design, not drawn in batches"
	batched knowledge=tiles/list
	run sa-campaign plan b.campaign
	assert_failure 1
	assert_output "sa-campaign: b.campaign:$(line knowledge): knowledge: $PWD/tiles/list: no such directory"
	assert [ ! -e b-out ]
	campaign c.campaign goal=tune method=random samples=4 knowledge=tiles
	sed -i '/^trajectories/d' c.campaign
	run sa-campaign -o out plan c.campaign
	assert_success
	assert_output --partial "c.campaign:$(line knowledge c.campaign): knowledge: not used with batches = 1"
	run sa-campaign -o out --batch 1 status c.campaign
	assert_failure 1
	assert_output --partial "--batch 1: the campaign has no batches"
}

# g1g2 FILE: nuclei.tsv with G1 and G2 on their grids and every other
# parameter held at its default (one value)
g1g2() {
	awk -F '\t' -v OFS='\t' '/^#/ || $1 == "name" || $1 == "G1" || $1 == "G2" { print; next }
	    $2 == "enum" { $3 = $4; print; next } { $3 = $4 ":1:" $4; print }' "$SPACE" > "$1"
}

# values FILE NAME: the values of parameter NAME in space FILE, one a
# line, in sort(1)'s order (comm's)
values() {
	sa-sample -m grid -o "$1.grid" "$1"
	body "$1.grid" | awk -F'\t' -v p="$2" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == p) c = i; next } { print $c }' | sort -u
}

@test "batches with knowledge that prunes: batch 2 is drawn from a smaller space, Algorithm 1's cut on the chosen past campaign" {
	mkdir tiles kb
	sa-testimg crop "$MONUSEG/TCGA-21-5784-01Z-00-DX1.png" 0 0 128 128 tiles/a.png
	sa-testimg crop --mask "$MONUSEG/TCGA-21-5784-01Z-00-DX1.mask.png" 0 0 128 128 tiles/a.mask.png
	echo a.png > tiles/list
	g1g2 g.tsv
	# two past searches of the same tile: their surrogates are the
	# current one's (ncorr well above 0.5)
	for n in p1:40:11:1 p2:40:7:1 b:24:5:2; do
		IFS=: read -r name samples seed batches <<< "$n"
		campaign $name.campaign goal=tune space=g.tsv method=random samples=$samples \
		    seed=$seed batches=$batches bucket_size=20 cancel=none plot=no report=no \
		    output=$name-out
		sed -i '/^trajectories/d' $name.campaign
	done
	sed -i '/^report = no/d' b.campaign
	sed -i 's/^output = p\(.\)-out/output = kb\/p\1/' p1.campaign p2.campaign
	echo 'knowledge = kb' >> b.campaign
	sa-campaign -q run p1.campaign
	sa-campaign -q run p2.campaign
	sa-campaign -q run b.campaign
	grep -qP '^outcome\tpruned\t0\.[0-9]*[1-9]' b-out/batch-2/prune.tsv
	chosen=$(awk -F'\t' '$1 == "chosen" { print $2 }' b-out/batch-2/prune.tsv)
	paggr=$(awk -F'\t' '$1 == "paggr" { print $3 }' b-out/batch-2/prune.tsv)
	# batch 2's space: fewer values, none new
	n1=$(values g.tsv G1 | wc -l)$'\t'$(values g.tsv G2 | wc -l)
	n2=$(values b-out/batch-2/space.tsv G1 | wc -l)$'\t'$(values b-out/batch-2/space.tsv G2 | wc -l)
	[ "$(body b-out/batch-2/space.tsv.grid | wc -l)" -lt "$(body g.tsv.grid | wc -l)" ] ||
	    fail "batch 2's space ($n2 values of G1, G2) is not smaller than the campaign's ($n1)"
	for p in G1 G2; do
		assert_equal "$(comm -13 <(values g.tsv $p) <(values b-out/batch-2/space.tsv $p))" ""
		# Algorithm 1 by hand on the chosen campaign's jobs: a value is
		# removed exactly when every job with it scored below paggr x max,
		# but for the value of batch 1's best set (the current best)
		cur=$(body b-out/batch-1/trials.tsv | awk -F'\t' -v p=$p '
		    NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } NR == 2 { print $c[p] }')
		body "$chosen/trials.tsv" | awk -F'\t' -v p=$p -v a="$paggr" -v cur="$cur" '
		    NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		    { v = $c[p]; y = $c["mean"]; if (!(v in top) || y > top[v]) top[v] = y; if (y > max) max = y }
		    END { for (v in top) print v, (top[v] < a * max && v != cur ? "removed" : "kept") }' | sort > cut-$p
		assert_equal "$(awk '$2 == "removed" { print $1 }' cut-$p)" \
		    "$(comm -23 <(values g.tsv $p) <(values b-out/batch-2/space.tsv $p))"
	done
	[ -s cut-G2 ] && grep -q removed cut-G2
	# batch 2's sets are drawn from its space only
	body b-out/batch-2/design.tsv | awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } { print $c["G1"] "\t" $c["G2"] }' |
	    sort -u > drawn
	comm -23 drawn <(body b-out/batch-2/space.tsv.grid | awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } { print $c["G1"] "\t" $c["G2"] }' | sort -u) > outside
	[ ! -s outside ] || fail "batch 2 drew sets outside its space: $(cat outside)"
	assert_equal "$(wc -l < drawn)" 12
	# OUT/ledger.tsv: both batches' rows, runs renumbered, their batch
	assert_equal "$(body b-out/ledger.tsv | head -1)" "$(printf 'kind\trun\ttile\tvalue\tseconds\tdetail\tbatch')"
	for k in 1 2; do
		body b-out/batch-$k/ledger.tsv | tail -n +2 |
		    awk -F'\t' -v OFS='\t' -v k=$k '{ $2 += 12 * (k - 1); print $0, k }'
	done > want-ledger
	assert_equal "$(body b-out/ledger.tsv | tail -n +2)" "$(cat want-ledger)"
	assert_equal "$(wc -l < want-ledger)" 24
	grep -q '^#metric=dice rule=none runs=24 tiles=1$' b-out/ledger.tsv
	# seg-run appends to a batch's ledger, never to the composed one
	run seg-run -q --workflow "$WF" --instances b-out/batch-2/instances.tsv \
	    --buckets b-out/batch-2/buckets.tsv --bucket 0 --tiles b-out/tiles.list \
	    --ref tiles --ref-suffix .mask.png --ledger b-out/ledger.tsv -o r.tsv --timings t.tsv
	assert_failure 1
	assert_output --partial "b-out/ledger.tsv: a ledger of all batches (its batch column)"
	assert_equal "$(body b-out/ledger.tsv | tail -n +2)" "$(cat want-ledger)"
	# OUT/report.html: every batch, batch 2's space as sa-prune left it
	sed -n '/<section id="batches">/,/<\/section>/p' b-out/report.html | grep '^<tr><td' > batches
	assert_equal "$(wc -l < batches)" 2
	grep -q "^<tr><td class=\"n\">1</td><td class=\"n\">12</td><td class=\"n\">0–11</td><td>the campaign's space</td>" batches
	grep -q '^<tr><td class="n">2</td><td class="n">12</td><td class="n">12–23</td>' batches
	g2=$(awk -F'\t' '$1 == "parameter" && $2 == "G2" { print $4 }' b-out/batch-2/prune.tsv)
	grep -qF "<b>G2</b> $(sed 's/->/-\&gt;/' <<< "$g2")" batches
	grep -qF "chosen: $chosen" batches
	pct=$(awk -F'\t' '$1 == "removed_fraction" { printf "%.3g", 100 * $3 }' b-out/batch-2/prune.tsv)
	grep -q ">pruned: $pct % of the space removed<" batches
	# its reuse and buckets: both batches'
	sum() {
		for k in 1 2; do
			grep '^#stats' b-out/batch-$k/buckets.tsv | tr ' ' '\n' | sed -n "s/^$1=//p"
		done | paste -sd+ | bc
	}
	sed -n '/id="reuse"/,/<\/section>/p' b-out/report.html > saved
	grep -q "<td class=\"n\">$(sum tasks_noreuse)</td>" saved
	# the work saved per batch (1 tile: task nodes as #stats counts
	# them; run: the merged stage's rows of timings.tsv) and in all
	for k in 1 2; do
		st() { grep '^#stats' b-out/batch-$k/buckets.tsv | tr ' ' '\n' | sed -n "s/^$1=//p"; }
		ran=$(grep -c -P '\tSeg[0-6]\t' b-out/batch-$k/timings.tsv)
		grep -q "^<tr><td>$k</td><td class=\"n\">12</td><td class=\"n\">$(st tasks_noreuse)</td><td class=\"n\">$(st tasks_merged)</td><td class=\"n\">$ran</td>" saved ||
		    fail "batch $k: no row of its work saved"
		eval "ran$k=$ran"
	done
	grep -q "^<tr class=\"total\"><td>the campaign</td><td class=\"n\">24</td><td class=\"n\">$(sum tasks_noreuse)</td><td class=\"n\">$(sum tasks_merged)</td><td class=\"n\">$((ran1 + ran2))</td>" saved
	nb=$(($(sum buckets)))
	grep -q "<th>Buckets timed</th><td>$nb of $nb</td>" b-out/report.html
}
