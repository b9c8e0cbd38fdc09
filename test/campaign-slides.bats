#!/usr/bin/env bats
# sa-campaign on slides and tile tables: wsi-tiles' table, array tasks of
# a bucket on a chunk of tiles, max_array_size, masks = geojson,
# aggregate_by = slide, the slide keys; the driver's array and engine
# functions, sourced. (campaign.bats: the rest of sa-campaign.)
load common

load campaign
bats_require_minimum_version 1.5.0

@test "slides: wsi-tiles' table, array tasks of a bucket on a chunk (NNNNN-CCCC, the last chunk smaller), the indices of the same tiles as PNGs" {
	slide
	campaign png.campaign tiles=png/list -reference -reference_suffix
	campaign s.campaign slides=slides.list tile_size=260 tile_overlap=0 tiles_per_task=3 \
	    -tiles -reference -reference_suffix
	sa-campaign -q run png.campaign
	run sa-campaign plan s.campaign
	assert_success
	assert_output --partial "8 buckets x 2 chunk(s) of up to 3 tiles (4 tile(s) in all) = 16 array tasks (0-15)"
	# the campaign's tile table: the four tissue tiles, the slide absolute
	assert_equal "$(body s-out/tiles.list | cut -f 1,2,4-7)" \
	    "$(printf 'tile\tslide\tx\ty\twidth\theight\n'; for xy in 0_0 260_0 0_260 260_260; do
		printf 's_%s\t%s\t%s\t%s\t260\t260\n' "$xy" "$PWD/s.tif" "${xy%_*}" "${xy#*_}"; done)"
	grep -q '^slides [0-9]' s-out/inputs
	grep -qx 'tiles_per_task = 3' s-out/inputs
	# the slide's thumbnail, for the report; the table's coverage
	file s-out/slides/s.png | grep -q 'PNG image data, 780 x 520'
	grep -q '^#slide s: .* tiles=4/6 .* tissue_area=[0-9]* covered=1 norm_mean=' s-out/tiles.list
	run sa-campaign run s.campaign
	assert_success
	assert_output --partial "16 of 16 array tasks to run"
	# results per (bucket, chunk): chunk 0 has 3 tiles, chunk 1 one
	assert_equal "$(ls s-out/results | sed -n '1p;2p;$p' | tr '\n' ' ')" "00000-0000.tsv 00000-0001.tsv 00007-0001.tsv "
	grep -q '^#bucket=7 .* tiles=3 ' s-out/results/00007-0000.tsv
	grep -q '^#bucket=7 .* tiles=1 ' s-out/results/00007-0001.tsv
	[ -e s-out/logs/bucket-00003-0001.log ]
	# the tasks normalize their own tiles: no normalized tiles stored
	[ ! -e s-out/norm ]
	grep -q 'normalize=reinhard' s-out/results/00000-0000.tsv
	# the chunks normalize from the slide's colour moments: the indices
	# of the whole table (tiles = the table); each tile from its own
	# moments (a table without them), those of the same tiles as PNGs
	cp s-out/tiles.list t.tsv
	sed 's/ norm_mean=.*$//' s-out/tiles.list > u.tsv
	campaign t.campaign tiles=t.tsv -reference -reference_suffix
	campaign u.campaign tiles=u.tsv -reference -reference_suffix
	sa-campaign -q run t.campaign
	sa-campaign -q run u.campaign
	assert_equal "$(body s-out/indices.tsv)" "$(body t-out/indices.tsv)"
	assert_equal "$(trials_rows s-out/trials.tsv)" "$(trials_rows t-out/trials.tsv)"
	assert_equal "$(body u-out/indices.tsv)" "$(body png-out/indices.tsv)"
	assert_equal "$(trials_rows u-out/trials.tsv)" "$(trials_rows png-out/trials.tsv)"
	run ! diff <(body s-out/indices.tsv) <(body png-out/indices.tsv)
	# the report's slides: the row of s, its thumbnail inlined; none in
	# the report of the tiles as PNGs
	grep -q '<a href="#slides">Slides</a>' s-out/report.html
	grep -q '<tr><td>s</td><td class="n">0</td><td class="n">260</td><td class="n">0</td><td class="n">4/6</td><td class="n">[0-9.e+]* px</td><td class="n">100 %</td></tr>' s-out/report.html
	grep -q '<img alt="slides/s.png" width="780" height="520" src="data:image/png;base64,' s-out/report.html
	run ! grep -q 'id="slides"' png-out/report.html
	run sa-campaign status s.campaign
	assert_line "buckets=8 chunks=2 tasks=16 done=16 running=0 pending=0 failed=0 waiting=0"
	# one task again: its bucket and chunk; an index beyond the tasks
	rm s-out/results/00002-0001.tsv
	run sa-campaign merge s.campaign
	assert_failure 1
	assert_output --partial "tasks without results: 5 (of 0-15)"
	sa-campaign bucket s.campaign 5
	grep -q '^#bucket=2 .* tiles=1 ' s-out/results/00002-0001.tsv
	run sa-campaign bucket s.campaign 16
	assert_failure 1
	assert_output "sa-campaign: bucket '16': the plan has array tasks (a bucket on a chunk of tiles) 0 to 15"
	# another tiles_per_task is another plan
	campaign s.campaign slides=slides.list tile_size=260 tile_overlap=0 tiles_per_task=2 \
	    -tiles -reference -reference_suffix
	run sa-campaign plan s.campaign
	assert_failure 1
	assert_output --partial "planned with tiles_per_task = 3"
}

@test "slides with a workflow of commands: each command's {in} is the tile cut from the slide and normalized, from the slide's colour moments in chunks as in the whole table; from its own, as the same tile as a PNG gives it" {
	slide
	printf 'name\ttype\tvalues\tdefault\nk\tint\t1:1:3\t1\n' > c.tsv
	# v: the CRC of the normalized tile's pixels' PNG, plus k
	{
		printf 'stage\ttask\tparams\tcost\trun\tmetrics\n'
		printf 'normalize\tnormalize\t-\t0.2\t-\t-\n'
		printf 'seg\tcrc\tk\t1\t%s\tv\n' 'sh -c '"'"'cp "$1" "$3"; c=$(cksum < "$1"); printf "v\t%s\n" $((${{c%% *}} % 1000 + $2)) > "$4"'"'"' sh {in} {k} {out} {metrics}'
	} > c.wf
	campaign png.campaign tiles=png/list space=c.tsv workflow=c.wf metric=v -reference -reference_suffix
	campaign s.campaign slides=slides.list tile_size=260 tile_overlap=0 tiles_per_task=3 space=c.tsv workflow=c.wf metric=v \
	    -tiles -reference -reference_suffix
	sa-campaign -q run png.campaign
	sa-campaign -q run s.campaign
	cp s-out/tiles.list t.tsv
	sed 's/ norm_mean=.*$//' s-out/tiles.list > u.tsv
	campaign t.campaign tiles=t.tsv space=c.tsv workflow=c.wf metric=v -reference -reference_suffix
	campaign u.campaign tiles=u.tsv space=c.tsv workflow=c.wf metric=v -reference -reference_suffix
	sa-campaign -q run t.campaign
	sa-campaign -q run u.campaign
	# every run on every tile: a value; the whole table's; from the tiles'
	# own moments, the PNG tiles'
	assert_equal "$(body s-out/results.tsv | awk -F'\t' 'NR > 1 && $3 == "ok"' | wc -l)" \
	    $(( $(body s-out/design.tsv | tail -n +2 | wc -l) * 4 ))
	assert_equal "$(body s-out/results.tsv | cut -f1,2,6 | sort)" "$(body t-out/results.tsv | cut -f1,2,6 | sort)"
	assert_equal "$(body u-out/results.tsv | cut -f1,2,6 | sort)" "$(body png-out/results.tsv | cut -f1,2,6 | sort)"
	assert_equal "$(body u-out/indices.tsv)" "$(body png-out/indices.tsv)"
	run ! diff <(body s-out/results.tsv | cut -f1,2,6 | sort) <(body png-out/results.tsv | cut -f1,2,6 | sort)
}

@test "masks = geojson: each run's nuclei per chunk, joined per run and slide at the merge, exactly the objects of the masks = yes campaign's masks" {
	slide
	campaign g.campaign slides=slides.list tile_size=260 tile_overlap=0 tiles_per_task=3 \
	    masks=geojson -tiles -reference -reference_suffix
	campaign m.campaign slides=slides.list tile_size=260 tile_overlap=0 tiles_per_task=3 \
	    masks=yes -tiles -reference -reference_suffix
	run sa-campaign run g.campaign
	assert_success
	assert_output --partial "nuclei: $PWD/g-out/geojson/RUN/SLIDE.geojson"
	sa-campaign -q run m.campaign
	# two chunks per run (3 tiles and 1), one file per run and slide
	assert_equal "$(ls g-out/geojson-chunks/0 | tr '\n' ' ')" "s.0000.geojson s.0001.geojson "
	n=$(body g-out/design.tsv | awk 'END { print NR - 1 }')
	assert_equal "$(ls g-out/geojson | wc -l)" "$n"
	assert_equal "$(ls g-out/geojson/3)" s.geojson
	# the report links the slide's files, the first run's
	grep -q "<p class=\"note\">Its nuclei, joined per run: <a href=\"geojson/0/s.geojson\">geojson/0/s.geojson</a> and the others beside it, one file per run ($n).</p>" g-out/report.html
	# the rows name no masks (the #command line names --geojson)
	run ! grep -q geojson <(body g-out/results/00000-0000.tsv)
	local r t args
	for r in 0 3 $((n - 1)); do
		args=()
		for t in 0_0 260_0 0_260 260_260; do
			sa-testimg raw "m-out/masks/$r/s_$t.tif" "m.$r.$t.raw"
			args+=("s_$t=m.$r.$t.raw:${t%_*}:${t#*_}:1")
		done
		run "$TOP/test/geojson-check" "g-out/geojson/$r/s.geojson" "$r" s - "${args[@]}"
		assert_success
		assert_output --regexp '^[1-9][0-9]* features, [0-9]+ pixels: every object exact$'
	done
	# another masks value is another plan; a value not of the list
	campaign g.campaign slides=slides.list tile_size=260 tile_overlap=0 tiles_per_task=3 \
	    masks=tif -tiles -reference -reference_suffix
	run sa-campaign plan g.campaign
	assert_failure 1
	assert_output --regexp "^sa-campaign: g.campaign:[0-9]+: masks: 'tif' is not no, yes or geojson$"
}

@test "tiles = a tile table of two slides, aggregate_by = slide: per slide results, trials and indices, those of the slide's tiles as PNGs" {
	slide
	mkdir t
	cp s.tif t/a.tif
	cp s.tif t/b.tif
	# slide a holds the first two tiles, b the last two (relative paths)
	{ printf 'tile\tslide\tlevel\tx\ty\twidth\theight\ttissue\n'
	  printf 's_0_0\ta.tif\t0\t0\t0\t260\t260\t1\ns_260_0\ta.tif\t0\t260\t0\t260\t260\t1\n'
	  printf 's_0_260\tb.tif\t0\t0\t260\t260\t260\t1\ns_260_260\tb.tif\t0\t260\t260\t260\t260\t1\n'; } > t/tiles.tsv
	campaign png.campaign tiles=png/list -reference -reference_suffix
	campaign t.campaign tiles=t/tiles.tsv aggregate_by=slide -reference \
	    -reference_suffix
	sa-campaign -q run png.campaign
	run sa-campaign run t.campaign
	assert_success
	assert_output --partial "indices: $PWD/t-out/slides/a/indices.tsv"
	assert_equal "$(body t-out/indices.tsv)" "$(body png-out/indices.tsv)"
	assert_equal "$(ls t-out/slides | tr '\n' ' ')" "a b "
	# each slide's indices: sa-indices on the PNG campaign's results of
	# its tiles
	for s in a:'s_0_0|s_260_0' b:'s_0_260|s_260_260'; do
		awk -F '\t' -v re="^(${s#*:})\$" '/^#/ || !h++ || $2 ~ re' \
		    png-out/results.tsv > "${s%%:*}.results"
		sa-indices -m moat -s 3 -o "${s%%:*}.indices" png-out/design.tsv "${s%%:*}.results"
		assert_equal "$(body "t-out/slides/${s%%:*}/indices.tsv")" "$(body "${s%%:*}.indices")"
		assert_equal "$(cut -f 2 "t-out/slides/${s%%:*}/results.tsv" | grep -v '^#' | sort -u | paste -sd' ')" \
		    "$(tr '|' '\n' <<< "${s#*:}" | sort | paste -sd' ') tile"
		[ -s "t-out/slides/${s%%:*}/trials.tsv" ] && [ -s "t-out/slides/${s%%:*}/indices.png" ]
	done
	[ "$(body t-out/slides/a/indices.tsv)" != "$(body t-out/slides/b/indices.tsv)" ]
	# a tiles list names no slide
	campaign l.campaign tiles=png/list aggregate_by=slide -reference -reference_suffix
	run sa-campaign plan l.campaign
	assert_failure 1
	assert_output "sa-campaign: l.campaign: aggregate_by = slide needs slides or a tile table of slides (a tiles list names no slide)"
}

@test "slide keys: tiles and slides, neither, level and mpp refused with file and line; wsi-tiles' keys without slides warned of; tiles_per_task only for sensitivity" {
	slide
	tiles 160
	campaign c.campaign slides=slides.list
	run sa-campaign plan c.campaign
	assert_failure 1
	assert_output "sa-campaign: c.campaign:11: slides: the campaign has tiles (line 6) already: give tiles or slides, not both"
	campaign c.campaign -tiles
	run sa-campaign plan c.campaign
	assert_failure 1
	assert_output "sa-campaign: c.campaign: no 'tiles' key (required, or 'slides')"
	campaign c.campaign slides=slides.list level=0 mpp=0.5 -tiles -reference -reference_suffix
	run sa-campaign plan c.campaign
	assert_failure 1
	assert_output --regexp '^sa-campaign: c.campaign:[0-9]+: mpp: the campaign has level \(line [0-9]+\): give one of them$'
	campaign c.campaign tile_size=512 -reference -reference_suffix
	run sa-campaign -q plan c.campaign
	assert_success
	assert_output "sa-campaign: c.campaign:9: tile_size: not used without slides (it is an option of wsi-tiles)"
	campaign c.campaign goal=tune tiles_per_task=4 method=random samples=4
	run sa-campaign plan c.campaign
	assert_failure 1
	assert_output --partial "tiles_per_task: only for goal = sensitivity"
	# no tissue: refused by wsi-tiles, naming the slide, nothing planned
	sa-testimg slide --levels 2 --downsample 2 780 520 e.tif
	echo e.tif > e.list
	campaign c.campaign slides=e.list tile_size=260 tile_overlap=0 -tiles -reference -reference_suffix
	run sa-campaign -o n plan c.campaign
	assert_failure 1
	assert_output --partial "wsi-tiles: $PWD/e.tif: no tissue found: no tiles"
	[ ! -e n/inputs ]
}

@test "array tasks, sourced: names NNNNN-CCCC, task_of, chunk_list of a table, split_arrays at max_array_size" {
	source "$SR_BIN/sa-campaign"
	nchunks=3
	assert_equal "$(bucket_name 7)" 00002-0001
	assert_equal "$(task_of 00002-0001)" 7
	assert_equal "$(task_label 7)" "task 7 (bucket 2, chunk 1)"
	conf[tiles_per_task]=2
	printf '#c\ntile\tslide\tlevel\tx\ty\twidth\theight\ttissue\n' > t.tsv
	for k in 0 1 2 3 4; do printf 't%s\t/s.tif\t0\t0\t0\t1\t1\t1\n' $k; done >> t.tsv
	assert_equal "$(chunk_list t.tsv 2 | cut -f 1 | tr '\n' ' ')" "tile t4 "
	assert_equal "$(tile_count t.tsv) $(tile_names t.tsv | tr '\n' ' ')" "5 t0 t1 t2 t3 t4 "
	conf[max_array_size]=4
	conf[engine]=slurm
	assert_equal "$(split_arrays "$(printf '%s\n' 1 2 3 5 9 10 11 12)")" \
	    "$(printf '0 1-3\n4 1\n8 1-3\n12 0')"
}

@test "engines, sourced: Slurm's and PBS's output read without awk: scontrol's job lines, a job's ending, the PBS job name" {
	source "$SR_BIN/sa-campaign"
	source "${libdir:-$here}/engines.sh"
	assert_equal "$(scontrol_state JobId=41 ArrayJobId=40 ArrayTaskId=3 JobState=FAILED Reason=NonZeroExitCode ExitCode=1:0)" \
	    "40_3 FAILED 1:0 NonZeroExitCode"
	assert_equal "$(scontrol_state JobId=42 JobState=COMPLETED Reason=None ExitCode=0:0 Comment=a=b)" \
	    "42 COMPLETED 0:0 "
	states=$(printf '%s\n' '40_3 FAILED 1:0 NonZeroExitCode' '43 PENDING 0:0 DependencyNeverSatisfied' '44 CANCELLED 0:15')
	assert_equal "$(job_ending 43 "$states")" \
	    "never ran: a job it depends on failed (Slurm: PENDING, DependencyNeverSatisfied)"
	assert_equal "$(job_ending 44 "$states")" "ended without its exit line (Slurm: CANCELLED, exit 0:15)"
	run job_ending 4 "$states"	# 4 is not 44 nor 40_3: unknown
	assert_output "ended without its exit line: cancelled, killed, or it never ran because a job before it failed"
	out=/srv/campaigns/out
	assert_equal "$(pbs_bucket_name)" sa-b87755779
	out=/a
	assert_equal "$(pbs_bucket_name)" sa-b68893034
	printf 'a\n  b c\nlast' | indent > got
	assert_equal "$(cat -A got)" "$(printf '  a$\n    b c$\n  last$')"
}

@test "plan's estimate models the array tasks: tiles_per_task = 1 on two tiles, a bucket's row per chunk on one tile: the same core-hours, half the makespan on enough slots" {
	tiles 160
	campaign one.campaign tiles_per_task=1 jobs=16
	campaign all.campaign jobs=16
	run --separate-stderr sa-campaign plan one.campaign
	assert_success
	assert_equal "$(sed -n 1p <<< "$stderr" | grep -o '= [0-9]* array tasks')" "= 16 array tasks"
	one=$(grep '^sa-campaign: estimate: ' <<< "$stderr")
	run --separate-stderr sa-campaign plan all.campaign
	assert_success
	all=$(grep '^sa-campaign: estimate: ' <<< "$stderr")
	# the work: each bucket's on one tile twice, or on two tiles once
	assert_equal "$(grep -o '[0-9.e-]* core-hours' <<< "$one")" "$(grep -o '[0-9.e-]* core-hours' <<< "$all")"
	# 16 slots: every task at once, the longest a bucket on one tile
	a=$(sed 's/.*(\([0-9.e-]*\) s) on 16 slot.*/\1/' <<< "$one")
	b=$(sed 's/.*(\([0-9.e-]*\) s) on 16 slot.*/\1/' <<< "$all")
	awk -v a="$a" -v b="$b" 'BEGIN { exit !(a > 0 && (2 * a - b) ^ 2 < (1e-3 * b) ^ 2) }' ||
	    fail "makespan $a s for 16 tasks of one tile, $b s for 8 of two"
}

# two_slides: a.tif (1000x950) and b.tif (1200x1000), each four 400x400
# crops of MoNuSeg tiles in a 2x2 block, placed where the grid of 512
# cuts through them (a at 100,100; b at 300,150), slides.list; their ground
# truth as geo/a.geojson and geo/b.geojson, the crops' masks outlined in
# level-0 coordinates (seg-run --geojson of a command that copies each
# crop's mask, on a table of the crops' regions)
two_slides() {
	local f k s x y xy=(0_0 400_0 0_400 400_400) img=("$MONUSEG"/TCGA-21-5784-01Z-00-DX1.png
	    "$MONUSEG"/TCGA-A7-A13E-01Z-00-DX1.png "$MONUSEG"/TCGA-B0-5698-01Z-00-DX1.png
	    "$MONUSEG"/TCGA-G9-6362-01Z-00-DX1.png)
	mkdir -p crops masks geo
	printf 'name\ttype\tvalues\tdefault\nk\tint\t1:1:2\t1\n' > c.tsv
	printf 'stage\ttask\tparams\tcost\trun\tmetrics\nseg\tcopy\tk\t1\t%s\t-\n' \
	    "sh -c 'cp \"\$1\" \"\$2\"' copy {ref} {out.png} {k}" > c.wf
	sa-sample --reference -o cref.tsv c.tsv
	wf-compact -q -o ci.tsv c.wf cref.tsv
	reuse-merge -a none -o cb.tsv c.wf ci.tsv
	: > slides.list
	for s in a:100:100 b:300:150; do
		IFS=: read -r s x y <<< "$s"
		printf 'tile\tslide\tlevel\tx\ty\twidth\theight\ttissue\n' > exact-$s.tsv
		for k in 0 1 2 3; do
			f=${img[k]}
			sa-testimg crop "$f" $((50 * k)) 100 400 400 crops/$s$k.png
			sa-testimg crop --mask "${f%.png}.mask.png" $((50 * k)) 100 400 400 \
			    masks/$s$k.png
			printf '%s%s\t%s.tif\t0\t%s\t%s\t400\t400\t1\n' $s $k $s \
			    $((x + ${xy[k]%_*})) $((y + ${xy[k]#*_})) >> exact-$s.tsv
		done
		sa-testimg slide --levels 2 --downsample 2 $((x + 900)) $((y + 850)) $s.tif \
		    "$x $y crops/${s}0.png" "$((x + 400)) $y crops/${s}1.png" \
		    "$x $((y + 400)) crops/${s}2.png" "$((x + 400)) $((y + 400)) crops/${s}3.png"
		seg-run -q --workflow c.wf --instances ci.tsv --buckets cb.tsv --bucket 0 \
		    --tiles exact-$s.tsv --ref masks --ref-suffix .png --geojson g-$s \
		    -o g-$s.tsv --timings g-$s.t.tsv
		cp g-$s/0/$s.0000.geojson geo/$s.geojson
		echo $s.tif >> slides.list
	done
}

@test "tune on two slides against GeoJSON references: tiles that overlap, each scored against its slide's polygons at its place, a best set found" {
	two_slides
	campaign t.campaign slides=slides.list tile_size=512 tile_overlap=64 goal=tune method=random \
	    samples=12 seed=4 cancel=none reference=geo metric=dice \
	    -tiles -reference_suffix -trajectories
	run -0 sa-campaign run t.campaign
	grep -q '^#slide a: .* tile_size=512 overlap=64 ' t-out/tiles.list
	grep -q '^#slide b: .* tile_size=512 overlap=64 ' t-out/tiles.list
	assert_equal "$(body t-out/tiles.list | head -1 | cut -f 9,10)" "overlap	neighbours"
	# every run on every tile of both slides scored against the polygons
	local ntiles=$(($(body t-out/tiles.list | wc -l) - 1))
	assert_equal "$(body t-out/results.tsv | awk -F'\t' 'NR > 1 && $3 == "ok" && $4 > 0' | wc -l)" \
	    $((12 * ntiles))
	# the best set: a mean Dice above 0.5 over the tiles of both slides
	run -0 awk -F'\t' '!/^#/ && NR > 1 && $3 == "ok" { s[$1] += $4; n[$1]++ }
	    END { for (r in s) { m = s[r] / n[r]; if (m > best) best = m }
	        print best; exit !(best > 0.5) }' t-out/results.tsv
	grep -q '^#best run=[0-9]* metric=dice ' t-out/best.tsv
}

@test "tune on slide a, validate on slide b: b cut as the campaign cuts, validation.tsv's defaults those of a campaign on b; evaluate on slides; a directory refused" {
	two_slides
	echo a.tif > a.list
	echo b.tif > b.list
	campaign t.campaign slides=a.list tile_size=512 tile_overlap=64 goal=tune method=random \
	    samples=4 seed=4 cancel=none reference=geo metric=dice validate=b.list \
	    plot=no -tiles -reference_suffix -trajectories
	run -0 sa-campaign run t.campaign
	assert_output --partial "validate: 2 set(s), defaults best1, on the "
	grep -q '^#slide b: .* tile_size=512 overlap=64 ' t-out/validate/tiles.list
	run -1 grep -q '^#slide a: ' t-out/validate/tiles.list
	[ -s t-out/validate/slides/b.png ]
	# the defaults on b: what the reference step of a campaign on b scores
	campaign b.campaign slides=b.list tile_size=512 tile_overlap=64 goal=tune method=random \
	    samples=4 seed=4 cancel=none reference=geo metric=dice \
	    plot=no -tiles -reference_suffix -trajectories
	sa-campaign -q plan b.campaign
	sa-campaign -q reference b.campaign
	nb=$(($(body b-out/tiles.list | wc -l) - 1))
	assert [ "$nb" -gt 1 ]
	assert_equal "$(body t-out/validation.tsv | awk -F'\t' '$1 == "defaults" && $4 == "ok" && $5 > 0' | wc -l)" "$nb"
	assert_equal "$(body t-out/validation.tsv | awk -F'\t' '$1 == "defaults"' | cut -f 3- | cut -f 1-4 | sort)" \
	    "$(body b-out/ref/results.tsv | awk 'NR > 1' | cut -f 2- | cut -f 1-4 | sort)"
	assert_equal "$(body t-out/validation.tsv | awk -F'\t' '$1 == "best1"' | wc -l)" "$nb"
	grep -q '^#validation metric=dice tiles='"$nb"' ' t-out/best.tsv
	# evaluate: on the validate slides by default; again, nothing run
	run -0 sa-campaign evaluate t.campaign defaults
	assert_output --partial "on the $nb tile(s) of $PWD/b.list"
	stamp=$(stat -c %Y t-out/evaluate/results.tsv)
	sleep 1
	run -0 sa-campaign evaluate t.campaign defaults
	assert_equal "$(stat -c %Y t-out/evaluate/results.tsv)" "$stamp"
	# validate = a directory: refused when planning, naming the key
	mkdir vdir
	campaign d.campaign slides=a.list goal=tune method=random samples=4 reference=geo \
	    validate=vdir -tiles -reference_suffix -trajectories
	run -1 sa-campaign plan d.campaign
	assert_output --partial "validate: $PWD/vdir: a directory: a campaign of slides validates on a list of slides"
}
