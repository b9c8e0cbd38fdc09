#!/usr/bin/env bats
# The examples, and so the README's main job (make demo), end to end.
load common
bats_require_minimum_version 1.5.0

@test "examples/ishigami/run: Sobol indices of the Ishigami function, end to end" {
	run "$TOP"/examples/ishigami/run out
	assert_success
	assert_output --partial "indices: out/indices.tsv"
	assert_output --partial "plot:    out/indices.png"
	# S1 = 0.3139 0.4424 0, ST = 0.5576 0.4424 0.2437 (within 0.02)
	run awk -F '\t' '!/^#/ && $1 != "param" {
		split("0.3139 0.4424 0", s1, " "); split("0.5576 0.4424 0.2437", st, " ")
		i++; d1 = $2 - s1[i]; dt = $4 - st[i]
		if (d1 < -0.02 || d1 > 0.02 || dt < -0.02 || dt > 0.02) bad++
	} END { exit !(i == 3 && !bad) }' out/indices.tsv
	assert_success
	[ "$(head -c 4 out/indices.png | tail -c 3)" = PNG ]
}

@test "examples/ishigami/run twice gives the same indices (seeded)" {
	"$TOP"/examples/ishigami/run a > /dev/null
	"$TOP"/examples/ishigami/run b > /dev/null
	assert_equal "$(body a/indices.tsv)" "$(body b/indices.tsv)"
}

# copy_example NAME: examples/NAME in ./NAME with its relative paths made
# absolute, so that it can be changed and run here
copy_example() {
	mkdir -p "$1"
	sed "s|= \.\./\.\./|= $TOP/|" "$TOP/examples/$1/$1.campaign" > "$1/$1.campaign"
	sed "s|^\.\./\.\./|$TOP/|" "$TOP/examples/$1/tiles.list" > "$1/tiles.list"
}

@test "examples/moat and examples/vbd: their campaigns plan as their READMEs say" {
	run sa-campaign -o moat-out plan "$TOP/examples/moat/moat.campaign"
	assert_success
	grep -q '^#stats runs=320 ' moat-out/buckets.tsv
	run sa-campaign -o vbd-out plan "$TOP/examples/vbd/vbd.campaign"
	assert_success
	grep -q '^#stats runs=1024 instances=988 tasks_noreuse=7168 tasks_stage=6916 tasks_merged=3766 ' vbd-out/buckets.tsv
}

@test "examples/moat/run: the main job end to end (2 trajectories instead of 20)" {
	copy_example moat
	sed -i 's/^trajectories .*/trajectories = 2/' moat/moat.campaign
	cp "$TOP/examples/moat/run" moat/run
	run moat/run out
	assert_success
	assert_output --partial "indices: $PWD/out/indices.tsv"
	assert_output --partial "plot:    $PWD/out/indices.png"
	assert_output --partial "runs:    32 x 5 tiles"
	# G1 leads the screen, the background thresholds do nothing
	assert_equal "$(echo "$output" | awk '$1 == "param" { getline; print $1 }')" G1
	assert_equal "$(echo "$output" | awk '$1 == "B" { print $2 }')" 0.0000
	[ "$(head -c 4 out/indices.png | tail -c 3)" = PNG ]
	assert_output --partial "report:  $PWD/out/report.html"
	[ -s out/report.html ]
}

@test "examples/slide/run: a campaign over a generated slide end to end (2 trajectories instead of 4)" {
	mkdir slide
	sed "s|= \.\./\.\./|= $TOP/|; s/^trajectories .*/trajectories     = 2/" \
	    "$TOP/examples/slide/slide.campaign" > slide/slide.campaign
	cp "$TOP/examples/slide/slides.list" "$TOP/examples/slide/run" slide/
	sed -i "s|^top=.*|top=$TOP|" slide/run
	run slide/run out
	assert_success
	[ -s slide/demo.tif ]
	# the tiles keep 95 % of the tissue or more: no warning
	refute_output --partial 'below --min-coverage'
	grep -q '^#slide demo: 5000x3500 .* tile_size=512 overlap=192 tiles=61/176 .* covered=1 norm_mean=' out/tiles.list
	assert_equal "$(echo "$output" | awk '$1 == "param" { getline; print $1 }' | grep -c '^G[12]$')" 1
	[ -s out/geojson/0/demo.geojson ]
	file out/slides/demo.png | grep -q 'PNG image data'
	grep -q 'id="slides"' out/report.html
	assert_output --partial "report:  $PWD/out/report.html"
	# each nucleus of a run once: no two polygons share a pixel or meet
	# on a tile line
	run -0 "$TOP/test/slide-check" out/geojson/0/demo.geojson out/tiles.list
	assert_output --regexp '^features [0-9]+ overlapping 0 meeting 0$'
}

@test "examples/own-workflow: its campaigns plan without Python; run says what to install when scikit-image is missing" {
	run sa-campaign -o own-moat plan "$TOP/examples/own-workflow/moat.campaign"
	assert_success
	grep -q '^#stats runs=48 ' own-moat/buckets.tsv
	run sa-campaign -o own-tune plan "$TOP/examples/own-workflow/tune.campaign"
	assert_success
	# a python3 that cannot import scikit-image: the run refuses, naming the package
	mkdir nopy
	printf '#!/bin/sh\nexit 1\n' > nopy/python3
	chmod +x nopy/python3
	PATH=$PWD/nopy:$PATH run "$TOP/examples/own-workflow/run" moat out
	assert_failure 1
	assert_output "run: python3 cannot import scikit-image (Debian: apt-get install python3-skimage)"
	[ ! -e out ]
}

@test "examples/tune/run: a tune campaign with held-out validation end to end (16 sets in 2 batches instead of 64 in 4): validation.tsv, best.tsv's two scores, evaluate's figures as compare-dice's" {
	mkdir tune
	sed "s|= \.\./\.\./|= $TOP/|" "$TOP/examples/tune/tune.campaign" |
	    sed -e 's/^samples .*/samples = 16/' -e 's/^batches .*/batches = 2/' > tune/tune.campaign
	for f in train validate; do
		sed "s|^\.\./\.\./|$TOP/|" "$TOP/examples/tune/$f.list" > tune/$f.list
	done
	cp "$TOP/examples/tune/run" tune/run
	run -0 tune/run out
	assert_output --partial "sa-campaign: validate: 4 set(s), defaults best1 best2 best3, on the 3 tile(s) of $PWD/tune/validate.list"
	assert_output --partial "note: with 3 tile(s) a two-sided Wilcoxon signed-rank test cannot give p below 0.25"
	assert_output --regexp "#validation metric=dice tiles=3 defaults=0\.42[0-9]+ best1=0\.[0-9]+ best2=0\.[0-9]+ best3=0\.[0-9]+"
	assert_output --partial "report:     $PWD/out/report.html"
	grep -q '^#best run=' out/best.tsv
	assert_equal "$(body out/validation.tsv | cut -f1 | sort | uniq -c | awk '{ print $1, $2 }' | paste -sd' ')" \
	    "3 best1 3 best2 3 best3 3 defaults 1 set"
	# evaluate: the best set's Dice on a held-out tile, as compare-dice's
	compare-dice -o cd.tsv out/evaluate/masks/1/TCGA-NH-A8F7-01A-01-TS1.tif \
	    "$MONUSEG/TCGA-NH-A8F7-01A-01-TS1.mask.png"
	assert_equal "$(awk -F'\t' '$1 == "TCGA-NH-A8F7-01A-01-TS1" && $2 == "dice" { print $4 }' out/evaluate/evaluation.tsv)" \
	    "$(tail -n 1 cd.tsv | cut -f 3)"
	grep -q 'Validation on 3 held-out tiles' out/report.html
	# status: the validation, and the page of every batch before batch 2's
	run -0 sa-campaign -o out status tune/tune.campaign
	assert_line "validation: $PWD/out/validation.tsv"
	assert_line "report: $PWD/out/report.html (every batch; batch 2's: $PWD/out/batch-2/report.html)"
}
