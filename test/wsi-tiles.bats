#!/usr/bin/env bats
# wsi-tiles: tissue tiles of generated slides (sa-testimg slide: MoNuSeg
# tiles placed at known coordinates on an off-white background), as a
# pyramidal TIFF (deflate) and an Aperio SVS (JPEG); levels, grid,
# names, paths, thumbnails and bad input.
load common
bats_require_minimum_version 1.5.0

MONUSEG=$TOP/test/data/monuseg

# The five MoNuSeg tiles (1000x1000), placed at these level-0 corners.
PLACES=(1000,1000 3000,1000 5000,1000 1000,3000 3000,3000)

# placements: the five 'X Y IMAGE' arguments of sa-testimg slide
placements() {
	local k=0 f
	for f in "$MONUSEG"/*-DX1.png "$MONUSEG"/*-TS1.png; do
		case $f in *.mask.png | *.labels.png) continue ;; esac
		echo "${PLACES[$k]/,/ } $f"
		k=$((k + 1))
	done
}

# The slides, made once: five.tif (7000x5000, deflate, 4 levels of
# downsample 2, no mpp) and five.svs (JPEG, 3 levels of downsample 4,
# 0.25 um per pixel).
setup_file() {
	local p=()
	mapfile -t p < <(placements)
	cd "$BATS_FILE_TMPDIR" || return 1
	sa-testimg slide --downsample 2 --levels 4 7000 5000 five.tif "${p[@]}"
	sa-testimg slide --format svs --compression jpeg 7000 5000 five.svs \
	    "${p[@]}"
}

setup() {
	cd "$BATS_TEST_TMPDIR" || return 1
	ln -s "$BATS_FILE_TMPDIR/five.tif" "$BATS_FILE_TMPDIR/five.svs" .
}

# one_line: $output is one line
one_line() {
	assert_equal "$(printf '%s\n' "$output" | wc -l)" 1
}

# kept TABLE: the names of the table's tiles, one per line
kept() {
	body "$1" | awk -F'\t' 'NR > 1 { print $1 }'
}

# bats test_tags=fast
@test "OpenSlide reads the generated slides: generic-tiff without mpp, aperio with mpp 0.25" {
	command -v openslide-show-properties > /dev/null ||
	    skip "openslide-tools is not installed"
	run openslide-show-properties five.tif
	assert_line "openslide.vendor: 'generic-tiff'"
	assert_line "openslide.level-count: '4'"
	assert_line "openslide.level[3].width: '875'"
	refute_output --partial 'mpp'
	run openslide-show-properties five.svs
	assert_line "openslide.vendor: 'aperio'"
	assert_line "openslide.level-count: '3'"
	assert_line "openslide.mpp-x: '0.25'"
	assert_line "openslide.level[1].downsample: '4'"
}

@test "OpenSlide is loaded when a slide is opened, never linked: a broken libopenslide is one error naming the slide, nothing written" {
	local t
	for t in "$SR_BIN"/*; do
		[ "$(head -c 2 "$t")" != '#!' ] || continue
		run ldd "$t"
		refute_output --partial libopenslide
	done
	mkdir lib
	for t in libopenslide.so.0 libopenslide.so.1 libopenslide.so; do
		echo 'not a library' > "lib/$t"
	done
	LD_LIBRARY_PATH=$PWD/lib run wsi-tiles --size 1000 -o t.tsv five.tif
	assert_failure 1
	assert_output --regexp '^wsi-tiles: five.tif: cannot load OpenSlide \(.*\): install libopenslide0$'
	assert [ ! -e t.tsv ]
	run wsi-tiles -q --size 1000 -o t.tsv five.tif
	assert_success
}

@test "defaults find every placed MoNuSeg tile, with at least 80 % tissue, and no background tile (TIFF and SVS)" {
	for s in five.tif five.svs; do
		wsi-tiles --size 1000 -o t.tsv "$s"
		assert_equal "$(kept t.tsv)" "$(printf 'five_%s\n' "${PLACES[@]/,/_}")"
		body t.tsv | awk -F'\t' 'NR > 1 && ($8 < 0.8 || $8 > 1) { exit 1 }'
		grep -q "^#slide five: 7000x5000 levels=[34] .*tiles=5/35 " t.tsv
	done
}

@test "a finer grid: the kept tiles are the 4 of each placed tile, nothing beside them" {
	wsi-tiles --size 500 -o t.tsv five.tif
	expect=$(for p in "${PLACES[@]}"; do
		x=${p%,*} y=${p#*,}
		printf 'five_%d_%d\n' $x $y $((x + 500)) $y $x $((y + 500)) \
		    $((x + 500)) $((y + 500))
	done | sort)
	assert_equal "$(kept t.tsv | sort)" "$expect"
}

@test "table: columns, provenance, level-0 coordinates, partial border tiles with their real size" {
	sa-testimg slide --downsample 2 2500 1700 b.tif "0 0 $MONUSEG/TCGA-21-5784-01Z-00-DX1.png"
	run -0 --separate-stderr wsi-tiles --size 1000 --min-tissue 0 b.tif
	assert_line --index 0 --regexp '^#wsi-tiles [0-9.]+$'
	assert_line --index 1 '#command line: wsi-tiles --size 1000 --min-tissue 0 b.tif'
	assert_line --index 2 --regexp '^#slide b: 2500x1700 levels=3 downsamples=1,2,4 mpp=- vendor=generic-tiff level=0 tile_size=1000 overlap=0 tiles=6/6 tissue_threshold=[0-9.]+ tissue_area=[0-9]+ covered=1 norm_mean=[-0-9.e,]+ norm_sd=[0-9.e,-]+$'
	assert_line --index 3 "$(printf 'tile\tslide\tlevel\tx\ty\twidth\theight\ttissue')"
	assert_equal "$(body <(echo "$output") | cut -f 1-7 | tail -n +2)" "$(printf '%s\n' \
	    'b_0_0	b.tif	0	0	0	1000	1000' \
	    'b_1000_0	b.tif	0	1000	0	1000	1000' \
	    'b_2000_0	b.tif	0	2000	0	500	1000' \
	    'b_0_1000	b.tif	0	0	1000	1000	700' \
	    'b_1000_1000	b.tif	0	1000	1000	1000	700' \
	    'b_2000_1000	b.tif	0	2000	1000	500	700')"
	# the placed tile's tissue, none beside it
	assert_line --regexp $'^b_0_0\tb.tif\t0\t0\t0\t1000\t1000\t0\\.[89]'
	assert_line --regexp $'^b_2000_1000\t.*\t0$'
}

@test "--overlap: the grid steps by size less overlap; the last tile reaches the edge; each row its overlap and kept neighbours" {
	sa-testimg slide 2500 1000 o.tif
	run -0 --separate-stderr wsi-tiles --size 1000 --overlap 100 --min-tissue 0 o.tif
	assert_equal "$(body <(echo "$output") | cut -f 4,6,9,10 | tr '\t\n' ' |')" \
	    "x width overlap neighbours|0 1000 100 e|900 1000 100 w,e|1800 700 100 w|"
	# a grid of 3 x 2 less its middle top tile: the neighbours kept (its
	# smallest level, 213x163, narrower than its tiles of 256, is passed
	# over for the tissue: OpenSlide reads it scrambled)
	local m=$MONUSEG/TCGA-21-5784-01Z-00-DX1.png
	sa-testimg slide 3400 2600 t.tif "0 0 $m" "1600 0 $m" "0 800 $m" \
	    "800 800 $m" "1600 800 $m"
	run -0 --separate-stderr wsi-tiles --size 1000 --overlap 200 --min-tissue 0.7 t.tif
	assert_equal "$(body <(echo "$output") | cut -f 1,9,10 | tr '\t\n' ' |')" \
	    "tile overlap neighbours|t_0_0 200 s,se|t_1600_0 200 sw,s|t_0_800 200 n,e|t_800_800 200 nw,ne,w,e|t_1600_800 200 n,w|"
	# no overlap: the eight columns of before
	run -0 --separate-stderr wsi-tiles --size 1000 o.tif
	assert_line 'tile	slide	level	x	y	width	height	tissue'
	# a pixel in at most four tiles
	run -0 wsi-tiles --size 1000 --overlap 500 o.tif
	run wsi-tiles --size 1000 --overlap 501 o.tif
	assert_failure 2
	assert_output --partial '--overlap 501: must be at most half --size (1000)'
}

@test "--level and --mpp: the level's pixels, level-0 coordinates; --mpp refused without mpp" {
	wsi-tiles --level 1 --size 500 -o l1.tsv five.tif
	assert_equal "$(kept l1.tsv)" "$(printf 'five_%s\n' "${PLACES[@]/,/_}")"
	body l1.tsv | awk -F'\t' 'NR > 1 && ($3 != 1 || $6 != 500 || $7 != 500) { exit 1 }'
	grep -q '^#slide five: .* level=1 tile_size=500 ' l1.tsv
	# 0.25 um at level 0, 1 um at level 1 (downsample 4)
	wsi-tiles --mpp 0.9 --size 250 -o m.tsv five.svs
	assert_equal "$(kept m.tsv)" "$(printf 'five_%s\n' "${PLACES[@]/,/_}")"
	body m.tsv | awk -F'\t' 'NR > 1 && ($3 != 1 || $6 != 250) { exit 1 }'
	refuse_run wsi-tiles 1 \
	    'wsi-tiles: five.tif: the slide has no microns per pixel (mpp) to choose a level by: give --level instead' \
	    --mpp 0.5 five.tif
	one_line
	refuse_run wsi-tiles 1 \
	    'wsi-tiles: five.svs: level 3 does not exist (the slide has levels 0 to 2)' \
	    --level 3 five.svs
	one_line
	run wsi-tiles --level 1 --mpp 1 five.svs
	assert_failure 2
	assert_output --partial '--level and --mpp exclude each other'
}

@test "--threshold, --min-tissue, --min-region and --max-hole" {
	sa-testimg solid 400 400 240 236 242 hole.png
	sa-testimg crop "$MONUSEG/TCGA-G9-6362-01Z-00-DX1.png" 0 0 300 300 frag.png
	sa-testimg slide --downsample 2 4000 3000 h.tif \
	    "1000 1000 $MONUSEG/TCGA-G9-6362-01Z-00-DX1.png" "1300 1300 hole.png" \
	    "2600 1000 frag.png"
	# the hole (400x400 of background inside the tile) is filled; the
	# 300x300 fragment is below the smallest region kept
	wsi-tiles --size 1000 --min-tissue 0.01 -o d.tsv h.tif
	assert_equal "$(kept d.tsv)" h_1000_1000
	filled=$(body d.tsv | awk -F'\t' 'NR == 2 { print $8 }')
	wsi-tiles --size 1000 --min-tissue 0.01 --max-hole 0 --min-region 0 -o n.tsv h.tif
	assert_equal "$(kept n.tsv)" "$(printf 'h_1000_1000\nh_2000_1000')"
	holed=$(body n.tsv | awk -F'\t' 'NR == 2 { print $8 }')
	# the hole is 16 % of the tile
	awk -v a="$filled" -v b="$holed" 'BEGIN { d = a - b - 0.16; exit !(d > -0.04 && d < 0.04) }'
	# a threshold above every saturation: no tissue, a warning, the header alone
	run wsi-tiles --threshold 255 -o none.tsv h.tif
	assert_success
	assert_output 'wsi-tiles: h.tif: no tissue found: no tiles'
	assert_equal "$(body none.tsv | wc -l)" 1
	# --min-tissue 0 keeps the whole grid
	wsi-tiles --size 1000 --min-tissue 0 -o all.tsv h.tif
	assert_equal "$(kept all.tsv | wc -l)" 12
	run wsi-tiles --min-tissue 1.5 h.tif
	assert_failure 2
	run wsi-tiles --threshold -1 h.tif
	assert_failure 2
}

@test "tissue never lost silently: its area and the share kept on stderr and in the table; below --min-coverage a warning, none kept an error, each with what to try" {
	# tiles of 4096: five 1000x1000 tissues, 4 in the first tile (under a
	# quarter of it), 1 in the second
	run -1 wsi-tiles -o t.tsv five.tif
	assert_line --index 0 --regexp '^wsi-tiles: five.tif: tissue [0-9.e+]+ level-0 pixels, 0.0 % of it in the 0 tiles kept of 4$'
	assert_line --index 1 'wsi-tiles: five.tif: tissue found, but no tile of the 4 has 25 % tissue or more: try a smaller --size (2048) or --min-tissue 0.0625 (95 % or more kept)'
	[ ! -e t.tsv ]
	# --min-tissue 0.1: the first tile, 4 of the 5 tissues (80 %)
	run -0 wsi-tiles --min-tissue 0.1 -o t.tsv five.tif
	assert_line --index 0 --regexp '^wsi-tiles: five.tif: tissue [0-9.e+]+ level-0 pixels, [78][0-9].[0-9] % of it in the 1 tiles kept of 4$'
	assert_line --index 1 --regexp '^wsi-tiles: five.tif: the kept tiles hold [78][0-9].[0-9] % of the tissue, below --min-coverage 95 %: try a smaller --size \(2048\) or --min-tissue 0.05 \(95 % or more kept\)$'
	assert_equal "$(kept t.tsv)" five_0_0
	grep -q '^#slide five: .* tissue_area=[0-9]* covered=0.[78][0-9]* norm_mean=' t.tsv
	# the mpp of an SVS: mm²; the share wanted lowered: no warning; -q: nothing
	run -0 wsi-tiles --min-tissue 0.1 --min-coverage 0.75 -o s.tsv five.svs
	assert_output --regexp '^wsi-tiles: five.svs: tissue [0-9.e+]+ level-0 pixels, 0.[0-9]+ mm², [78][0-9].[0-9] % of it in the 1 tiles kept of 4$'
	run -0 wsi-tiles -q --size 1000 -o s.tsv five.svs
	assert_output ''
	grep -q '^#slide five: .* covered=1 norm_mean=' s.tsv
	run -2 wsi-tiles --min-coverage 2 five.tif
}

@test "slide paths relative to the table's directory, absolute ones kept, as given on stdout" {
	mkdir -p slides out
	sa-testimg slide 1000 1000 slides/e.tif
	wsi-tiles --min-tissue 0 -o out/t.tsv slides/e.tif
	assert_equal "$(body out/t.tsv | awk -F'\t' 'NR == 2 { print $2 }')" ../slides/e.tif
	wsi-tiles --min-tissue 0 -o slides/t.tsv slides/e.tif
	assert_equal "$(body slides/t.tsv | awk -F'\t' 'NR == 2 { print $2 }')" e.tif
	wsi-tiles --min-tissue 0 -o out/a.tsv "$PWD/slides/e.tif"
	assert_equal "$(body out/a.tsv | awk -F'\t' 'NR == 2 { print $2 }')" "$PWD/slides/e.tif"
	assert_equal "$(wsi-tiles --min-tissue 0 slides/e.tif | body /dev/stdin | awk -F'\t' 'NR == 2 { print $2 }')" slides/e.tif
}

@test "several slides: one table, a comment per slide; two slides of one name refused, naming both" {
	run wsi-tiles --size 1000 five.tif five.svs
	assert_failure 2
	assert_output --partial 'slides five.tif and five.svs have one name, five'
	ln -s five.svs other.svs
	wsi-tiles --size 1000 -o t.tsv five.tif other.svs
	assert_equal "$(grep -c '^#slide ' t.tsv)" 2
	assert_equal "$(kept t.tsv | grep -c '^five_')" 5
	assert_equal "$(kept t.tsv | grep -c '^other_')" 5
}

@test "--thumbnail: a PNG of about 1600 pixels; a directory for several slides" {
	wsi-tiles --size 1000 --thumbnail th.png -o t.tsv five.tif
	file th.png | grep -q 'PNG image data, 1750 x 1250, 8-bit/color RGB'
	ln -s five.svs other.svs
	mkdir th
	wsi-tiles --size 1000 --thumbnail th -o t.tsv five.tif other.svs
	file th/five.png th/other.png | grep -c 'PNG image data' | grep -qx 2
	# a directory with one slide too
	rm th/*
	wsi-tiles --size 1000 --thumbnail th -o t.tsv five.tif
	file th/five.png | grep -q 'PNG image data, 1750 x 1250' 
	refuse_run wsi-tiles 2 'an existing directory for SLIDE.png' \
	    --thumbnail nodir five.tif other.svs
}

@test "progress on a terminal for a slide of 10^8 pixels, not with -q, not in a log" {
	command -v script > /dev/null || skip "script (util-linux) is not installed"
	sa-testimg slide --tile 512 12000 9000 big.tif \
	    "5000 4000 $MONUSEG/TCGA-21-5784-01Z-00-DX1.png"
	run timeout 60 script -qec 'wsi-tiles --size 1000 -o t.tsv big.tif' /dev/null < /dev/null
	assert_success
	assert_output --partial $'\rwsi-tiles: big.tif: reading for tissue 100%'
	run timeout 60 script -qec 'wsi-tiles -q --size 1000 -o t.tsv big.tif' /dev/null < /dev/null
	assert_output ''
	# in a log: the tissue kept, no progress
	run wsi-tiles --size 1000 -o t.tsv big.tif
	assert_output --regexp '^wsi-tiles: big.tif: tissue [0-9.e+]+ level-0 pixels, 100.0 % of it in the 1 tiles kept of 108$'
	assert_equal "$(kept t.tsv)" big_5000_4000
	# five.tif, 3.5 10^7 pixels: no progress
	run timeout 60 script -qec 'wsi-tiles --size 1000 -o t.tsv five.tif' /dev/null < /dev/null
	refute_output --partial 'reading for tissue'
}

@test "bad slides: one-line errors naming the slide, nothing written" {
	echo 'not a slide' > text.tif
	refuse_run wsi-tiles 1 'wsi-tiles: text.tif: not a slide OpenSlide can read (no format it knows)' text.tif
	one_line
	refuse_run wsi-tiles 1 'wsi-tiles: missing.svs: No such file or directory' missing.svs
	head -c 2000000 five.tif > cut.tif
	refuse_run wsi-tiles 1 'wsi-tiles: cut.tif: a TIFF that OpenSlide cannot read (truncated, corrupt, or not tiled)' cut.tif
	one_line
	# a strip TIFF: not a slide of OpenSlide's
	sa-testimg convert "$MONUSEG/TCGA-21-5784-01Z-00-DX1.png" strip.tif
	refuse_run wsi-tiles 1 'wsi-tiles: strip.tif: a TIFF that OpenSlide cannot read' strip.tif
	# tiles of the lowest level damaged: refused when tissue is read
	cp five.tif bad.tif
	size=$(stat -c %s bad.tif)
	dd if=/dev/zero of=bad.tif bs=1 seek=$((size - 30000)) count=20000 conv=notrunc 2> /dev/null
	run wsi-tiles bad.tif
	assert_failure 1
	assert_output --regexp '^wsi-tiles: bad.tif: OpenSlide: .*'
	one_line
	# a level wider than level 0 (OpenSlide 3.4.1 divides by zero on it;
	# found by fuzzing): refused before OpenSlide opens it
	cp "$TOP/test/data/fuzz-regress/slide/level-wider-than-level0.svs" wide.svs
	refuse_run wsi-tiles 1 'wsi-tiles: wide.svs: TIFF directory 1 (272x12) is larger than directory 0 (64x49): not a pyramid of levels' wide.svs
	# the table is not left half written when a later slide fails
	refuse_run wsi-tiles 1 'wsi-tiles: text.tif: not a slide' -q --size 1000 five.tif text.tif
	run wsi-tiles -o five.tif five.tif
	assert_failure 2
}

@test "an output that cannot be written: exit 3, nothing committed" {
	run wsi-tiles --size 1000 -o /dev/full five.tif
	assert_failure 3
	assert_output --partial '/dev/full: write error'
	run wsi-tiles --size 1000 --thumbnail /dev/full -o t.tsv five.tif
	assert_failure 3
	assert [ ! -e t.tsv ]
	no_temp_files
}

# bats test_tags=fast
@test "--help, --version, usage errors" {
	run wsi-tiles --help
	assert_success
	assert_output --partial 'Usage: wsi-tiles [options] [-o TILES.tsv] SLIDE...'
	assert_output --partial '--size N             tile side in pixels of the level [4096]'
	run wsi-tiles --version
	assert_success
	assert_output --regexp '^wsi-tiles \(sareuse\) [0-9.]+$'
	run wsi-tiles
	assert_failure 2
	assert_output --partial 'no slides given'
	run wsi-tiles --size 0 five.tif
	assert_failure 2
	run wsi-tiles --bogus five.tif
	assert_failure 2
}

@test "the levels it decodes are held to the budget: SR_MAX_MEMORY, else the Slurm allocation's, named in the refusal (issue 25)" {
	unset SR_MAX_MEMORY SLURM_MEM_PER_NODE SLURM_MEM_PER_CPU
	sa-testimg slide --downsample 2 --levels 3 3000 3000 s.tif \
	    "0 0 $TOP/test/data/monuseg/TCGA-21-5784-01Z-00-DX1.png"
	SLURM_MEM_PER_NODE=1K run wsi-tiles -o x.tsv s.tif
	assert_failure 1
	assert_output 'wsi-tiles: s.tif: reading 94x94 pixels would need 36096 bytes, above the memory budget of 1024 bytes (SLURM_MEM_PER_NODE)'
	assert [ ! -e x.tsv ]
	SLURM_MEM_PER_NODE=1K SR_MAX_MEMORY=2K run wsi-tiles -o x.tsv s.tif
	assert_failure 1
	assert_output --partial 'above the memory budget of 2048 bytes (SR_MAX_MEMORY)'
	SLURM_MEM_PER_NODE=64 run wsi-tiles --size 1000 -o x.tsv s.tif
	assert_success
}
