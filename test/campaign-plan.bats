#!/usr/bin/env bats
# sa-campaign: plans (transactional, their summary and estimate, a plan
# refused for another campaign), the keys a merge recomputes, and bad
# campaign files refused before anything runs. (campaign.bats: the rest
# of sa-campaign.)
load common

load campaign
bats_require_minimum_version 1.5.0

@test "bad campaign files: exit 1 naming file and line, nothing run" {
	tiles 160
	campaign c.campaign
	printf 'foo = 1\n' >> c.campaign
	run sa-campaign plan c.campaign
	assert_failure 1
	assert_output "sa-campaign: c.campaign:11: unknown key 'foo'"
	assert [ ! -e c-out ]
	campaign c.campaign merge=fast
	run sa-campaign plan c.campaign
	assert_failure 1
	assert_output --partial "c.campaign:10: merge: 'fast' is not none, stage"
	campaign c.campaign trajectories=0
	run sa-campaign plan c.campaign
	assert_output --partial "trajectories: '0' is not a positive integer"
	campaign c.campaign
	printf 'seed = 5\n' >> c.campaign
	run sa-campaign plan c.campaign
	assert_output "sa-campaign: c.campaign:11: key 'seed' repeats line 5"
	campaign c.campaign
	printf 'just words\n' >> c.campaign
	run sa-campaign plan c.campaign
	assert_output "sa-campaign: c.campaign:11: not a 'key = value' line"
	campaign c.campaign space=nowhere.tsv
	run sa-campaign plan c.campaign
	assert_failure 1
	assert_output --partial "space: $PWD/nowhere.tsv: no such readable file"
	campaign c.campaign reference=nodir
	run sa-campaign plan c.campaign
	assert_output --partial "reference: $PWD/nodir: no such directory"
	campaign c.campaign merge=trtma
	run sa-campaign plan c.campaign
	assert_output --partial "merge = trtma needs max_buckets or cores"
	sed '/^method/d' c.campaign > m.campaign
	run sa-campaign plan m.campaign
	assert_output --partial "no 'method' key"
	run sa-campaign plan none.campaign
	assert_failure 1
	assert_output --partial "none.campaign: no such readable file"
	assert [ ! -e c-out ]
}

@test "an engine whose commands are not installed is refused before anything runs" {
	tiles 160
	mkdir path
	for c in bash dirname basename cat grep tail wc mkdir cmp cp mv rm awk nproc sed \
	    sa-sample wf-compact reuse-merge seg-run sa-indices; do
		ln -s "$(command -v $c)" path/$c
	done
	for e in slurm pbs; do
		campaign c.campaign engine=$e
		PATH=$PWD/path run "$SR_BIN/sa-campaign" run c.campaign
		assert_failure 1
		assert_output --partial "engine $e: "
		assert_output --partial "not found: install"
		assert [ ! -e c-out ]
	done
	campaign c.campaign
	PATH=$PWD/path run "$SR_BIN/sa-campaign" run c.campaign
	assert_failure 1
	assert_output --partial "engine local: parallel not found: install GNU parallel"
}

@test "plans are transactional: a failed plan then an edited seed is planned afresh; analysis keys and comments stay free" {
	tiles 160
	echo 'not a workflow' > bad.wf
	campaign c.campaign workflow=bad.wf
	run sa-campaign plan c.campaign
	assert_failure 1
	[ ! -e c-out/design.tsv ] && [ ! -e c-out/inputs ]
	campaign c.campaign seed=9
	campaign ref.campaign seed=9
	sa-campaign -q plan ref.campaign
	sa-campaign -q plan c.campaign
	assert_equal "$(body c-out/design.tsv)" "$(body ref-out/design.tsv)"
	grep -qx 'seed = 9' c-out/inputs
	run find c-out -name '.*.tmp*'
	assert_output ''
	# a half-committed plan (killed while moving it in): planned again
	rm c-out/inputs
	echo junk > c-out/design.tsv
	sa-campaign -q plan c.campaign
	assert_equal "$(body c-out/design.tsv)" "$(body ref-out/design.tsv)"
	# analysis keys, engine keys and comments: accepted after a run
	sa-campaign -q run c.campaign
	printf '# a comment\nresamples = 50\nplot = no\nmetric = jaccard\njobs = 1\n' >> c.campaign
	run sa-campaign run c.campaign
	assert_success
	# a plan key: refused, nothing rewritten
	cp -p c-out/design.tsv design.before
	echo 'bucket_size = 2' >> c.campaign
	sed -i '/^bucket_size = 4/d' c.campaign
	run sa-campaign run c.campaign
	assert_failure 1
	assert_output --partial "holds another campaign (planned with bucket_size = 4, c.campaign has bucket_size = 2)"
	cmp design.before c-out/design.tsv
	# results without a complete plan: refused
	rm c-out/inputs
	run sa-campaign plan c.campaign
	assert_failure 1
	assert_output --partial "holds bucket results but no complete plan"
}

@test "plan prints a summary: runs, stage instances, buckets, task nodes with and without reuse, memory per array task" {
	tiles 160
	campaign c.campaign
	run --separate-stderr sa-campaign plan c.campaign
	assert_success
	assert_output ''
	assert_equal "$(sed -n 1p <<< "$stderr")" "sa-campaign: plan: 32 runs, 65 stage instances, $(body c-out/buckets.tsv | tail -n +2 | wc -l) buckets x 1 chunk(s) of up to 16 tiles (2 tile(s) in all) = $(body c-out/buckets.tsv | tail -n +2 | wc -l) array tasks (0-$(($(body c-out/buckets.tsv | tail -n +2 | wc -l) - 1))): $PWD/c-out/buckets.tsv"
	stats=$(sed -n 's/^#stats //p' c-out/buckets.tsv)
	grep -qF "task nodes: $(tr ' ' '\n' <<< "$stats" | sed -n 's/^tasks_noreuse=//p') without reuse" <<< "$stderr"
	assert_equal "$(sed -n 3p <<< "$stderr")" "sa-campaign: memory per array task: $(seg-run --estimate-memory --tiles c-out/tiles.list)M for 1 active path(s) on the largest tile"
	assert_equal "$(sed -n 4p <<< "$stderr" | sed 's/([0-9.]* s)/(S s)/; s/, [0-9.e-]* core-hours/, C core-hours/')" "sa-campaign: estimate: the buckets take 0:00:00 (S s) on 2 slot(s) (2 at a time, local), C core-hours; from the workflow's costs (seconds on a 4096x4096 tile, scaled to these tiles' pixels)"
	run --separate-stderr sa-campaign -q plan c.campaign
	assert_equal "$stderr" ''
	# the estimate from the workflow's costs: every run alone (merge =
	# none) on one slot: 32 runs x 2 tiles x the workflow's 1.778 s of
	# tasks x (160/4096)^2 of a 4096x4096 tile's pixels = 0.1736 s; core-hours from
	# sim-runtime's work to 4 significant digits, 0.1736 / 3600
	campaign n.campaign merge=none jobs=1
	run --separate-stderr sa-campaign plan n.campaign
	assert_success
	grep -qxF "sa-campaign: estimate: the buckets take 0:00:00 (0.1736 s) on 1 slot(s) (1 at a time, local), 4.822e-05 core-hours; from the workflow's costs (seconds on a 4096x4096 tile, scaled to these tiles' pixels)" <<< "$stderr"
	# Slurm: array_limit slots, else every array task at once
	campaign s.campaign engine=slurm array_limit=3
	run --separate-stderr sa-campaign plan s.campaign
	grep -q "^sa-campaign: estimate: .* on 3 slot(s) (array_limit, slurm), " <<< "$stderr"
	campaign s.campaign engine=slurm
	run --separate-stderr sa-campaign plan s.campaign
	grep -q "^sa-campaign: estimate: .* on $(body s-out/buckets.tsv | tail -n +2 | wc -l) slot(s) (every array task at once: no array_limit), " <<< "$stderr"
}

@test "plan's estimate from a campaign that ran (estimate_from): sim-runtime --fit on its timings, for the engine's slots" {
	tiles 160
	campaign small.campaign
	sa-campaign -q run small.campaign
	campaign big.campaign trajectories=4 seed=9 jobs=2 estimate_from=small-out
	run --separate-stderr sa-campaign plan big.campaign
	assert_success
	line=$(grep '^sa-campaign: estimate: ' <<< "$stderr")
	# what sim-runtime predicts from the small campaign's timings, the
	# reference step's normalization, for the big one's plan
	rep=$(sim-runtime --fit --ref-timings small-out/ref/timings.tsv \
	    --skip-stage normalize --workflow "$TOP/share/workflows/nuclei.wf" \
	    --instances big-out/instances.tsv -n 2 small-out/timings big-out/buckets.tsv)
	want=$(awk -F '\t' '/^#/ { next } !h++ { for (i = 1; i <= NF; i++) c[$i] = i; next }
	    { printf "%.4g s) on 2 slot(s) (2 at a time, local), %.4g core-hours; fitted to the timings of", $c["makespan"], $c["work"] / 3600 }' <<< "$rep")
	assert_equal "${line#*(}" "$want $PWD/small-out"
	# a campaign that did not run: the plan goes on without an estimate
	rm -r small-out/timings
	run --separate-stderr sa-campaign plan big.campaign
	assert_failure 1
	assert_equal "$stderr" "sa-campaign: big.campaign:12: estimate_from: $PWD/small-out: not the output of a campaign that ran (no timings/ and ref/timings.tsv)"
}

@test "analysis keys changed after the buckets ran (aggregate, resamples, plot): merge computes the indices again, no bucket runs again" {
	tiles 160
	campaign c.campaign plot=no
	sa-campaign -q run c.campaign
	n=$(wc -l < c-out/logs/attempts)
	cp c-out/indices.tsv mean.tsv
	sed -i 's/^plot = no$/plot = yes/' c.campaign
	printf '%s\n' 'aggregate = median' 'resamples = 50' >> c.campaign
	run sa-campaign -q merge c.campaign
	assert_success
	assert_equal "$(wc -l < c-out/logs/attempts)" "$n"
	sa-indices -m moat --aggregate median -r 50 -s 3 -o want.tsv c-out/design.tsv c-out/results.tsv
	assert_equal "$(body c-out/indices.tsv)" "$(body want.tsv)"
	[ "$(body c-out/indices.tsv)" != "$(body mean.tsv)" ] || fail "the median gave the mean's indices"
	[ -s c-out/indices.png ]
	# run does the same, and runs no bucket either
	sa-campaign -q run c.campaign
	assert_equal "$(wc -l < c-out/logs/attempts)" "$n"
	# aggregate is refused in a tune campaign (it ranks by the mean)
	campaign t.campaign goal=tune method=random samples=4 aggregate=sum
	run sa-campaign plan t.campaign
	assert_failure 1
	assert_output --partial "aggregate: only for goal = sensitivity"
}

@test "campaign errors the tools would find are refused with the campaign's file and line, before anything is made" {
	tiles 160
	: > afile
	campaign c.campaign
	run sa-campaign -o afile plan c.campaign
	assert_failure 1
	assert_output "sa-campaign: c.campaign: output: $PWD/afile exists and is not a directory"
	run sa-campaign -o $'x\ny' plan c.campaign
	assert_failure 1
	assert_output "sa-campaign: c.campaign: output: a newline or tab in the path: no engine carries it; rename it"
	campaign c.campaign seed=9999999999999
	run sa-campaign plan c.campaign
	assert_output "sa-campaign: c.campaign:10: seed: seeds go from 0 to 4294967294"
	campaign c.campaign trajectories=1000000000
	run sa-campaign plan c.campaign
	assert_output "sa-campaign: c.campaign:10: trajectories: moat: 1.6e+10 runs is too many (limit 1e+09)"
	campaign c.campaign bucket_size=99999999999
	run sa-campaign plan c.campaign
	assert_output "sa-campaign: c.campaign:10: bucket_size: at most 1e9"
	# a grid counts the values of each parameter not fixed, as sa-sample
	# does (levels only for continuous ranges): the whole of nuclei.tsv
	# is refused with sa-sample's count, two parameters left are planned
	campaign c.campaign method=grid
	run sa-campaign plan c.campaign
	assert_output "sa-campaign: c.campaign: levels: grid: 2.14e+13 runs is too many (limit 1e+09)"
	run sa-sample -m grid "$SPACE"
	assert_output --partial "grid: 2.144e+13 runs is too many"
	campaign c.campaign method=grid \
	    fix=B=220,G=220,R=220,T1=5,T2=4,minSize=12,maxSize=1000,minSizePl=30,minSizeSeg=20,maxSizeSeg=1000,FillHoles=4,MorphRecon=8,Watershed=8
	sa-campaign -q plan c.campaign
	assert_equal "$(body c-out/design.tsv | tail -n +2 | wc -l)" 320	# G1 16 x G2 20
	rm -r c-out
	assert [ ! -e c-out ] && assert [ ! -e x ]
	# tiles the engines cannot name: refused with the list's line
	printf 'a.png\nb\tc.png\n' > tiles/list
	campaign c.campaign
	run sa-campaign plan c.campaign
	assert_output "sa-campaign: $PWD/tiles/list:2: a tab in a tile's name: rename the tile"
	printf 'a.png\n.png\n' > tiles/list
	run sa-campaign plan c.campaign
	assert_output "sa-campaign: $PWD/tiles/list:2: '.png': a tile needs a name before its extension"
	assert [ ! -e c-out/design.tsv ]
}

@test "vary: only the named parameters searched, the others at their defaults; a space without the workflow's parameters refused when planning, naming them; vary's mistakes" {
	tiles 160
	# the grid of G1 x G2 by vary: every other parameter at its default
	campaign c.campaign method=grid vary=G1,G2
	run -0 sa-campaign -q plan c.campaign
	assert_equal "$(body c-out/design.tsv | tail -n +2 | wc -l)" 320	# G1 16 x G2 20
	assert_equal "$(body c-out/design.tsv | tail -n +2 | cut -f 2-6,9- | sort -u)" \
	    "$(printf '220\t220\t220\t5\t4\t11\t1000\t30\t21\t1000\t4\t8\t8')"
	assert_equal "$(body c-out/design.tsv | tail -n +2 | cut -f 7,8 | sort -u | wc -l)" 320
	grep -q -- '--fix B=220 .* --fix Watershed=8 -o ' c-out/design.tsv
	# with fix: a held parameter at another value than its default
	rm -r c-out
	campaign c.campaign method=random samples=6 'vary=G1 minSize' fix=maxSize=1200
	run -0 sa-campaign -q plan c.campaign
	assert_equal "$(body c-out/design.tsv | tail -n +2 | cut -f 10 | sort -u)" 1200
	assert_equal "$(body c-out/design.tsv | tail -n +2 | cut -f 8 | sort -u)" 45
	# a space of two parameters: refused, naming the others and vary; no
	# output, no .plan.tmp
	awk -F '\t' '$1 == "name" || $1 == "G1" || $1 == "G2"' "$SPACE" > two.tsv
	campaign t.campaign space=two.tsv method=random samples=6
	run sa-campaign plan t.campaign
	assert_failure 1
	assert_output "sa-campaign: t.campaign:9: space: $PWD/two.tsv has no parameters B, G, R, T1, T2, MorphRecon, FillHoles, minSize, maxSize, minSizePl, Watershed, minSizeSeg, maxSizeSeg, which $TOP/share/workflows/nuclei.wf reads: a space lists every parameter of the workflow, each with its default; to search only some, name them with vary (the others stay at their defaults)"
	assert [ ! -e t-out ]
	assert_equal "$(find . -name '.plan.tmp*')" ""
	# vary's mistakes, with file and line
	for v in 'G3:no parameter G3 in '"$SPACE" 'G1,G1:G1 is named twice'; do
		campaign v.campaign method=random samples=6 "vary=${v%%:*}"
		run sa-campaign plan v.campaign
		assert_failure 1
		assert_output "sa-campaign: v.campaign:12: vary: ${v#*:}"
	done
	campaign v.campaign method=random samples=6 vary=G1,G2 fix=G2=8
	run sa-campaign plan v.campaign
	assert_output "sa-campaign: v.campaign:12: vary: G2 is fixed too (line 13)"
	assert [ ! -e v-out ]
}

@test "tuning keys through sa-campaign: refused with file and line in a sensitivity campaign, with another rule, and what tune needs; nothing made" {
	tiles 160
	campaign c.campaign cancel=median
	run sa-campaign plan c.campaign
	assert_failure 1
	assert_output "sa-campaign: c.campaign:11: cancel: only for goal = tune (this campaign's goal is sensitivity)"
	campaign c.campaign cancel_window=3
	run sa-campaign plan c.campaign
	assert_output "sa-campaign: c.campaign:11: cancel_window: only for goal = tune (this campaign's goal is sensitivity)"
	campaign c.campaign goal=tune method=random samples=8 cancel=median cancel_p=0.2
	run sa-campaign plan c.campaign
	assert_failure 1
	assert_output "sa-campaign: c.campaign:14: cancel_p: only for cancel = wilcoxon (this campaign's cancel is median)"
	campaign c.campaign goal=tune
	run sa-campaign plan c.campaign
	assert_output "sa-campaign: c.campaign:3: method: moat is a design for sensitivity indices, refused with goal = tune: use grid, random, lhs, sobol, halton, hammersley or mc"
	campaign c.campaign goal=tune method=random reference=defaults
	sed -i '/^reference_suffix/d' c.campaign
	run sa-campaign plan c.campaign
	assert_output "sa-campaign: c.campaign:10: reference: defaults is refused with goal = tune: tuning scores every set against ground-truth masks; give their directory"
	campaign c.campaign goal=tune method=random metric=objects
	run sa-campaign plan c.campaign
	assert_output "sa-campaign: c.campaign:12: metric: objects is a count, not a score, refused with goal = tune: use dice, jaccard, object_dice or aji"
	assert [ ! -e c-out ]
}

@test "a planned sensitivity output refuses the campaign made a tune one, and the other way round, naming the goal" {
	tiles 160
	campaign s.campaign method=random samples=4
	sa-campaign -q -o out plan s.campaign
	campaign t.campaign method=random samples=4 goal=tune
	run sa-campaign -o out plan t.campaign
	assert_failure 1
	assert_output --partial "holds another campaign (planned without goal = tune, t.campaign has it)"
	campaign t.campaign method=random samples=4 goal=tune
	sa-campaign -q -o tout plan t.campaign
	grep -qx 'goal = tune' tout/inputs
	grep -qx 'cancel = stable' tout/inputs
	grep -qx 'metric = dice' tout/inputs
	# in a tune campaign the metric decides the runs (what is cancelled)
	campaign t2.campaign method=random samples=4 goal=tune metric=aji
	run sa-campaign -o tout plan t2.campaign
	assert_failure 1
	assert_output --partial "holds another campaign (planned with metric = dice, t2.campaign has metric = aji)"
	run sa-campaign -o tout plan s.campaign
	assert_failure 1
	assert_output --partial "holds another campaign (planned with goal = tune, s.campaign has no goal)"
}

@test "warnings of the campaign file pass through sa-campaign, even with -q; a local run's buckets do not repeat them" {
	tiles 160
	campaign c.campaign plot=no trajectories=1 partition=debug
	run --separate-stderr sa-campaign -q plan c.campaign
	assert_success
	assert_equal "$stderr" "sa-campaign: c.campaign:12: partition: not used by engine = local (it concerns slurm)"
	# and the indices' own warning (one trajectory), not progress either
	run --separate-stderr sa-campaign -q run c.campaign
	assert_success
	assert_equal "$stderr" "$(printf '%s\n' "sa-campaign: c.campaign:12: partition: not used by engine = local (it concerns slurm)" \
	    'sa-indices: warning: sigma is undefined with one trajectory: mu* alone ranks the parameters, without an interval; sample 2 trajectories or more (10 or more is usual)')"
	assert [ -s c-out/indices.tsv ]
	# a valid campaign: nothing on stderr with -q
	campaign v.campaign plot=no trajectories=1
	run --separate-stderr sa-campaign -q plan v.campaign
	assert_success
	assert_equal "$stderr" ''
}

@test "missing tiles and references are found when planning, each named by the user's list and line; nothing planned" {
	tiles 96
	printf '# two crops and one lost\na.png\nlost.png\nb.png\n' > tiles/list
	campaign c.campaign
	run -1 sa-campaign plan c.campaign
	assert_line --index 0 "sa-campaign: $PWD/tiles/list:3: $PWD/tiles/lost.png: no such readable tile: No such file or directory"
	assert_line --index 1 "sa-campaign: $PWD/tiles/list: 1 of 3 tile(s) cannot be run (above): nothing planned"
	assert_equal "${#lines[@]}" 2
	[ ! -e c-out/inputs ]
	# each missing reference mask, in one go
	printf 'a.png\nb.png\n' > tiles/list
	rm tiles/a.mask.png tiles/b.mask.png
	run -1 sa-campaign plan c.campaign
	assert_line --index 0 "sa-campaign: $PWD/tiles/list:1: tile a: no reference mask $PWD/tiles/a.mask.png: No such file or directory"
	assert_line --index 1 "sa-campaign: $PWD/tiles/list:2: tile b: no reference mask $PWD/tiles/b.mask.png: No such file or directory"
	assert_line --index 2 "sa-campaign: $PWD/tiles/list: 2 of 2 tile(s) cannot be run (above): nothing planned"
	[ ! -e c-out/inputs ]
	# reference = defaults: the tiles alone
	campaign d.campaign reference=defaults -reference_suffix
	run -0 sa-campaign -q plan d.campaign
	# a tune campaign's validation tiles, against validate_reference
	tiles 96
	mkdir v
	cp tiles/a.png v/c.png
	printf 'c.png\n' > v/list
	campaign t.campaign goal=tune method=random samples=4 -trajectories validate=v/list
	run -1 sa-campaign plan t.campaign
	assert_line --index 0 "sa-campaign: $PWD/v/list:1: tile c: no reference mask $PWD/tiles/c.mask.png: No such file or directory"
	[ ! -e t-out/inputs ]
	cp tiles/a.mask.png v/c.mask.png
	echo 'validate_reference = v' >> t.campaign
	run -0 sa-campaign -q plan t.campaign
}

@test "tiles = DIR: its PNG and TIFF images but the references, in name order, as the plan's tiles; its references checked; recorded in the plan's inputs" {
	tiles 96
	cp tiles/b.png tiles/0.PNG
	cp tiles/b.mask.png tiles/0.mask.png
	sa-testimg solid 8 8 200 120 160 tiles/.hidden.png
	echo 'not a tile' > tiles/notes.txt
	campaign c.campaign tiles=tiles
	run -0 sa-campaign -q plan c.campaign
	assert_equal "$(cat c-out/tiles.list)" "$(printf '%s\n' "$PWD/tiles/0.PNG" "$PWD/tiles/a.png" "$PWD/tiles/b.png")"
	grep -qx "tiles $(cksum < c-out/tiles.list)" c-out/inputs
	# a new image in the directory: other tiles than planned
	cp tiles/a.png tiles/c.tif
	cp tiles/a.mask.png tiles/c.mask.png
	run -1 sa-campaign -q plan c.campaign
	assert_output --partial "$PWD/tiles lists other tiles (or the same at other paths) than $PWD/c-out was planned with"
	# an image without its reference: named by its path
	rm tiles/c.mask.png
	campaign d.campaign tiles=tiles output=d-out
	run -1 sa-campaign -q plan d.campaign
	assert_line --index 0 "sa-campaign: $PWD/tiles/c.tif: no reference mask $PWD/tiles/c.mask.png: No such file or directory"
	assert_line --index 1 "sa-campaign: $PWD/tiles: 1 of 4 tile(s) cannot be run (above): nothing planned"
	mkdir empty
	campaign e.campaign tiles=empty output=e-out
	run -1 sa-campaign -q plan e.campaign
	assert_output "sa-campaign: $PWD/empty: no PNG or TIFF tile in the directory (images ending in .mask.png are references)"
}
