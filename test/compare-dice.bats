#!/usr/bin/env bats
# compare-dice: known answers on drawn rectangles and on MoNuSeg ground
# truth, agreement with seg-run, pairs lists, formats, and bad input.
load common

WF=$TOP/share/workflows/nuclei.wf
MONUSEG=$TOP/test/data/monuseg
TILE=$MONUSEG/TCGA-21-5784-01Z-00-DX1

# scores ARGS: the measures (dice ... fn) of the one row compare-dice
# ARGS writes, tab-separated
scores() {
	compare-dice "$@" | body /dev/stdin | awk 'NR == 2' | cut -f 3-
}

# expect ARGS -- FIELDS: scores ARGS are FIELDS (dice jaccard object_dice
# aji objects_mask objects_ref tp fp fn)
expect() {
	local args=()
	while [ "$1" != -- ]; do
		args+=("$1")
		shift
	done
	shift
	assert_equal "$(scores "${args[@]}")" "$(IFS=$'\t'; echo "$*")"
}

# within A B TOL: |A - B| <= TOL
within() {
	awk -v a="$1" -v b="$2" -v t="$3" 'BEGIN { d = a - b; if (d < 0) d = -d;
	    exit !(d <= t) }'
}

@test "output: provenance, metadata, header, one row with the paths as given" {
	sa-testimg draw 40 40 a.png '255 10 10 20 20'
	run compare-dice a.png a.png
	assert_success
	assert_line --index 0 --regexp '^#compare-dice [0-9.]+$'
	assert_line --index 1 '#command line: compare-dice a.png a.png'
	assert_line --index 2 '#iou=0.5 reading=auto pairs=1'
	assert_line --index 3 "$(printf 'mask\tref\tdice\tjaccard\tobject_dice\taji\tobjects_mask\tobjects_ref\ttp\tfp\tfn')"
	assert_line --index 4 "$(printf 'a.png\ta.png\t1\t1\t1\t1\t1\t1\t1\t0\t0')"
	assert_equal "${#lines[@]}" 5
	run compare-dice --iou 0.75 --labels -o - a.png a.png
	assert_line --index 2 '#iou=0.75 reading=labels pairs=1'
	compare-dice -o out.tsv a.png a.png
	assert_equal "$(body out.tsv)" "$(body <(compare-dice a.png a.png))"
	no_temp_files
}

@test "identical images: every measure 1, every object matched" {
	expect "$TILE.labels.png" "$TILE.labels.png" -- 1 1 1 1 398 398 398 0 0
	n=$(scores "$TILE.mask.png" "$TILE.mask.png" | cut -f 5)
	expect "$TILE.mask.png" "$TILE.mask.png" -- 1 1 1 1 "$n" "$n" "$n" 0 0
	sa-testimg draw 50 30 l.tif '4294967295 0 0 10 10' '7 20 0 30 10' \
	    '65536 40 20 50 30'
	expect l.tif l.tif -- 1 1 1 1 3 3 3 0 0
}

# bats test_tags=fast
@test "disjoint objects: every measure 0, nothing matched" {
	sa-testimg draw 40 40 a.png '255 0 0 10 10' '255 20 0 30 10'
	sa-testimg draw 40 40 b.png '255 0 20 10 30'
	expect a.png b.png -- 0 0 0 0 2 1 0 2 1
	expect --iou 0.01 b.png a.png -- 0 0 0 0 1 2 0 1 2
}

@test "a square shifted by half its width: Dice 1/2, Jaccard and AJI 1/3, a match only at IoU 0.3" {
	sa-testimg draw 40 40 ref.png '255 10 10 20 20'
	sa-testimg draw 40 40 mask.png '255 15 10 25 20'
	expect mask.png ref.png -- 0.5 0.3333333333333333 0.5 0.3333333333333333 1 1 0 1 1
	expect --iou 0.3 mask.png ref.png -- 0.5 0.3333333333333333 0.5 0.3333333333333333 1 1 1 0 0
	# IoU 1/3 exactly: matched at 1/3 written as a decimal just below it
	expect --iou 0.333333333333333 mask.png ref.png -- 0.5 0.3333333333333333 0.5 0.3333333333333333 1 1 1 0 0
	expect --iou 0.34 mask.png ref.png -- 0.5 0.3333333333333333 0.5 0.3333333333333333 1 1 0 1 1
}

@test "a reference object split in two: AJI counts the unused half and a stray object in the union" {
	sa-testimg draw 40 40 ref.png '255 10 10 20 20'
	sa-testimg draw 40 40 split.tif '1 10 10 15 20' '2 15 10 20 20' '3 30 30 35 35'
	# C = 50 (ref with half 1), U = 100 + 50 + 25; object Dice
	# (2/3 + 2/3 * 100/125) / 2 = 0.6; IoU of ref and half 1 is 0.5
	row=$(scores split.tif ref.png)
	assert_equal "$(cut -f 1,2,4- <<< "$row")" \
	    "$(printf '0.8888888888888888\t0.8\t0.2857142857142857\t3\t1\t1\t2\t0')"
	within "$(cut -f 3 <<< "$row")" 0.6 1e-12
	# a tenth of a pixel stricter and the halves match nothing
	assert_equal "$(scores --iou 0.51 split.tif ref.png | cut -f 7-)" \
	    "$(printf '0\t3\t1')"
	# the other way round: both halves take the square, C = 100, U =
	# 100 + 100 + 25; one match, the second half and the stray missed
	row=$(scores ref.png split.tif)
	assert_equal "$(cut -f 4- <<< "$row")" \
	    "$(printf '0.4444444444444444\t1\t3\t1\t0\t2')"
}

@test "label images and binary masks of the same objects agree; --binary and --labels force a reading" {
	# three separate rectangles: as labels, as a 0/255 mask, as 0/1
	sa-testimg draw 60 40 l.tif '3 0 0 10 10' '9 20 0 30 10' '100000 40 20 50 30'
	sa-testimg draw 60 40 m.png '255 0 0 10 10' '255 20 0 30 10' '255 40 20 50 30'
	sa-testimg draw 60 40 one.tif '1 0 0 10 10' '1 20 0 30 10' '1 40 20 50 30'
	expect l.tif m.png -- 1 1 1 1 3 3 3 0 0
	expect one.tif l.tif -- 1 1 1 1 3 3 3 0 0
	# two touching labels: two objects, one as a binary mask
	sa-testimg draw 40 40 t.tif '1 0 0 10 10' '2 10 0 20 10'
	sa-testimg draw 40 40 tm.png '255 0 0 20 10'
	row=$(scores t.tif tm.png)
	assert_equal "$(cut -f 1,2,4- <<< "$row")" \
	    "$(printf '1\t1\t0.3333333333333333\t2\t1\t1\t1\t0')"
	within "$(cut -f 3 <<< "$row")" 0.6666666666666666 1e-12
	expect --binary t.tif tm.png -- 1 1 1 1 1 1 1 0 0
	# one label in two pieces: two objects when binary (auto), one with
	# --labels
	expect one.tif one.tif -- 1 1 1 1 3 3 3 0 0
	expect --labels one.tif one.tif -- 1 1 1 1 1 1 1 0 0
	expect --labels one.tif m.png -- 1 1 1 1 1 1 1 0 0
}

# bats test_tags=fast
@test "diagonal neighbours are one object of a binary mask (8-connected)" {
	sa-testimg draw 40 40 d.png '255 0 0 5 5' '255 5 5 10 10' '255 20 20 25 25'
	run scores d.png d.png
	assert_equal "$(cut -f 5 <<< "$output")" 2
}

@test "PNG 8 and 16-bit and TIFF 32-bit label images of the same objects give the same scores" {
	set -- '1 0 0 10 10' '2 12 0 20 10' '3 0 12 30 20'
	sa-testimg draw 40 40 ref8.png "$@"
	sa-testimg draw 40 40 ref16.png '300 0 0 10 10' '301 12 0 20 10' '302 0 12 30 20'
	sa-testimg draw 40 40 ref32.tif '70000 0 0 10 10' '70001 12 0 20 10' '70002 0 12 30 20'
	assert_equal "$(sa-testimg info ref8.png | cut -d' ' -f 5)" 8
	assert_equal "$(sa-testimg info ref16.png | cut -d' ' -f 5)" 16
	sa-testimg draw 40 40 mask.png '255 2 0 12 10' '255 14 0 22 8' '255 5 12 30 20'
	want=$(scores mask.png ref8.png)
	assert_equal "$(scores mask.png ref16.png)" "$want"
	assert_equal "$(scores mask.png ref32.tif)" "$want"
	assert_equal "$(cut -f 5,6 <<< "$want")" "$(printf '3\t3')"
}

@test "MoNuSeg ground truth: the mask against its labels has Dice 1 and one object per label" {
	for t in "$MONUSEG"/*.labels.png; do
		n=$(sa-testimg info "$t" | cut -d' ' -f 4)	# labels are 1..N
		row=$(scores "${t%.labels.png}.mask.png" "$t")
		assert_equal "$(cut -f 1,2,6 <<< "$row")" "$(printf '1\t1\t%s' "$n")"
		# touching nuclei merge into one component of the mask
		[ "$(cut -f 5 <<< "$row")" -le "$n" ] || fail "$t: $row"
		[ "$(cut -f 7 <<< "$row")" -le "$n" ] || fail "$t: $row"
	done
	# read as labels, the mask is one object
	assert_equal "$(scores --labels "$TILE.mask.png" "$TILE.labels.png" | cut -f 5)" 1
}

@test "a seg-run mask against the ground truth gives seg-run's Dice and Jaccard" {
	mkdir tiles
	cp "$TILE.png" tiles/tissue.png
	cp "$TILE.mask.png" tiles/tissue.mask.png
	echo tissue.png > tiles/list
	sa-sample --reference -o ref.tsv "$SPACE"
	wf-compact -q -o i.tsv "$WF" ref.tsv
	reuse-merge -a none -o b.tsv "$WF" i.tsv
	for f in tif32 png8; do
		seg-run --workflow "$WF" --instances i.tsv --buckets b.tsv --bucket 0 \
		    --tiles tiles/list --ref tiles --ref-suffix .mask.png --masks $f \
		    --mask-format $f -o $f.tsv --timings $f.t
	done
	# results: run tile status dice jaccard object_dice aji objects seconds
	want=$(body tif32.tsv | awk -F'\t' 'NR == 2 { print $4 "\t" $5 "\t" $6 "\t" $7 "\t" $8 }')
	row=$(scores tif32/0/tissue.tif tiles/tissue.mask.png)
	assert_equal "$(cut -f 1-5 <<< "$row")" "$want"
	# the 0/255 PNG of the same mask: the same components
	assert_equal "$(scores png8/0/tissue.png tiles/tissue.mask.png)" "$row"
	# the ground-truth labels as reference: the same pixels
	row=$(scores tif32/0/tissue.tif "$TILE.labels.png")
	assert_equal "$(cut -f 1,2 <<< "$row")" "$(cut -f 1,2 <<< "$want")"
	assert_equal "$(cut -f 6 <<< "$row")" 398
}

@test "-l: one row per pair in order, paths relative to the list, other columns copied in front" {
	mkdir -p d/masks
	sa-testimg draw 40 40 d/masks/a.png '255 10 10 20 20'
	sa-testimg draw 40 40 d/masks/b.png '255 15 10 25 20'
	sa-testimg draw 40 40 d/ref.png '255 10 10 20 20'
	printf '# pairs\nrun\tmask\ttile\tref\n0\tmasks/a.png\tt1\tref.png\n1\tmasks/b.png\tt2\t%s/d/ref.png\n' \
	    "$PWD" > d/pairs.tsv
	run compare-dice -l d/pairs.tsv
	assert_success
	assert_line --index 2 '#iou=0.5 reading=auto pairs=2'
	body <(echo "$output") > got.tsv
	assert_equal "$(head -1 got.tsv)" "$(printf 'run\ttile\tmask\tref\tdice\tjaccard\tobject_dice\taji\tobjects_mask\tobjects_ref\ttp\tfp\tfn')"
	assert_equal "$(cut -f 1-4 got.tsv | tail -2)" \
	    "$(printf '0\tt1\tmasks/a.png\tref.png\n1\tt2\tmasks/b.png\t%s/d/ref.png' "$PWD")"
	assert_equal "$(tail -2 got.tsv | cut -f 5,11-)" \
	    "$(printf '1\t1\t0\t0\n0.5\t0\t1\t1')"
	# the same measures as the pairs one by one
	(cd d && compare-dice masks/b.png ref.png) | body /dev/stdin | tail -1 | cut -f 3- > one.tsv
	assert_equal "$(tail -1 got.tsv | cut -f 5-)" "$(cat one.tsv)"
	# from standard input: relative to the working directory
	printf 'mask\tref\nd/masks/a.png\td/ref.png\n' | compare-dice -l - -o in.tsv
	assert_equal "$(body in.tsv | tail -1 | cut -f 3-)" "$(sed -n 2p got.tsv | cut -f 5-)"
	no_temp_files
	# with a run column, the output is a metrics file for sa-indices
	sa-sample -m lhs -n 20 -s 2 -o lhs.tsv "$SPACE"
	{
		printf 'run\tmask\tref\n'
		for r in $(seq 0 19); do
			printf '%s\td/masks/%s.png\td/ref.png\n' $r \
			    "$([ $((r % 3)) = 0 ] && echo a || echo b)"
		done
	} > p.tsv
	compare-dice -l p.tsv -o m.tsv
	run sa-indices -m corr --metric aji lhs.tsv m.tsv
	assert_success
	assert_output --partial 'metric=aji'
}

@test "bad images: missing, corrupt, truncated, colour, empty; sizes differ" {
	sa-testimg draw 40 40 a.png '255 10 10 20 20'
	sa-testimg draw 30 40 small.png '255 10 10 20 20'
	refuse_run compare-dice 1 'compare-dice: nothere.png: No such file' nothere.png a.png
	refuse_run compare-dice 1 'compare-dice: nothere.png: No such file' a.png nothere.png
	printf 'not an image\n' > text.png
	refuse_run compare-dice 1 'compare-dice: text.png: not a TIFF or PNG' text.png a.png
	head -c 60 "$TILE.labels.png" > trunc.png
	refuse_run compare-dice 1 'compare-dice: trunc.png: ' a.png trunc.png
	: > empty.tif
	refuse_run compare-dice 1 'compare-dice: empty.tif: ' empty.tif a.png
	refuse_run compare-dice 1 "compare-dice: $TILE.png: " "$TILE.png" "$TILE.mask.png"
	refuse_run compare-dice 1 'compare-dice: small.png: 30x40, but the mask a.png is 40x40' \
	    a.png small.png
	assert_equal "$(wc -l <<< "$output")" 1
}

@test "bad pairs lists: missing column, bad row, empty path, missing or corrupt image, no pairs" {
	sa-testimg draw 40 40 a.png '255 10 10 20 20'
	printf 'not an image\n' > text.png
	printf 'mask\tother\na.png\ta.png\n' > p1.tsv
	refuse_run compare-dice 1 "p1.tsv: no column 'ref' in the header" -l p1.tsv
	printf 'mask\tref\na.png\ta.png\na.png\n' > p2.tsv
	refuse_run compare-dice 1 'p2.tsv:3: 1 fields, expected 2' -l p2.tsv
	printf 'mask\tref\na.png\t\n' > p3.tsv
	refuse_run compare-dice 1 'p3.tsv:2: column ref: empty path' -l p3.tsv
	mkdir sub
	printf 'mask\tref\n../a.png\t../a.png\n../a.png\tnothere.png\n' > sub/p4.tsv
	refuse_run compare-dice 1 'sub/p4.tsv:3: column ref: sub/nothere.png: No such file' \
	    -l sub/p4.tsv
	printf 'mask\tref\na.png\ta.png\ntext.png\ta.png\n' > p5.tsv
	refuse_run compare-dice 1 'p5.tsv:3: column mask: text.png: not a TIFF or PNG' -l p5.tsv
	sa-testimg draw 30 30 small.png '255 0 0 5 5'
	printf 'mask\tref\na.png\tsmall.png\n' > p7.tsv
	refuse_run compare-dice 1 'p7.tsv:2: small.png: 30x30, but the mask a.png is 40x40' -l p7.tsv
	printf '# nothing\nmask\tref\n' > p6.tsv
	refuse_run compare-dice 1 'p6.tsv: no pairs' -l p6.tsv
	refuse_run compare-dice 1 'nothere.tsv: No such file' -l nothere.tsv
	printf 'mask\tref\taji\na.png\ta.png\t1\n' > p8.tsv
	refuse_run compare-dice 1 "p8.tsv: column 'aji' would repeat an output column" -l p8.tsv
}

@test "usage errors exit 2: --iou out of (0, 1], bad options and operands" {
	sa-testimg draw 40 40 a.png '255 10 10 20 20'
	for v in 0 1.5 -0.5 abc nan inf ''; do
		refuse_run compare-dice 2 "--iou '$v': a number in (0, 1]" --iou "$v" a.png a.png
	done
	refuse_run compare-dice 2 'Try' --iou 1.0000001 a.png a.png
	refuse_run compare-dice 2 "--binary and --labels exclude each other" --binary --labels a.png a.png
	refuse_run compare-dice 2 "unknown option '--frobnicate'" --frobnicate a.png a.png
	refuse_run compare-dice 2 "unknown option '-x'" -x a.png a.png
	refuse_run compare-dice 2 "option '--iou' needs a value" a.png a.png --iou
	refuse_run compare-dice 2 'expected MASK and REF, or -l PAIRS.tsv; got 1' a.png
	refuse_run compare-dice 2 'expected MASK and REF, or -l PAIRS.tsv; got 3' a.png a.png a.png
	refuse_run compare-dice 2 '-l and MASK REF exclude each other' -l p.tsv a.png a.png
	cp a.png "$(printf 'tab\tname.png')"
	refuse_run compare-dice 2 'cannot be written to the output' "$(printf 'tab\tname.png')" a.png
	# --iou 1 is valid: only equal objects match
	run compare-dice --iou 1 --binary --labels a.png a.png
	assert_failure 2
	expect --iou 1 a.png a.png -- 1 1 1 1 1 1 1 0 0
}

# bats test_tags=fast
@test "-v reports objects and seconds on stderr; the scores do not change" {
	sa-testimg draw 40 40 a.png '255 10 10 20 20'
	compare-dice -v -o v.tsv a.png a.png 2> err
	grep -q '^compare-dice: a.png a.png: 40x40, 1 and 1 objects (binary, binary); read [0-9.]* s, compared [0-9.]* s$' err ||
	    fail "$(cat err)"
	assert_equal "$(body v.tsv)" "$(compare-dice a.png a.png | body /dev/stdin)"
}

# bats test_tags=fast
@test "--help and --version" {
	run compare-dice --help
	assert_success
	assert_output --partial 'Usage: compare-dice'
	assert_output --partial 'IoU >= T, in (0, 1] [0.5]'
	run compare-dice --version
	assert_success
	assert_output --regexp '^compare-dice \(sareuse\) [0-9.]+$'
}
