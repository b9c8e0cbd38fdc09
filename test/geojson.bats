#!/usr/bin/env bats
# seg-run --geojson and seg-merge --geojson: the nuclei of each run as
# GeoJSON polygons in level-0 slide coordinates, per chunk, joined per run
# and slide; checked by test/geojson-check (Python's json) against the
# tif32 label masks of the same runs.
load common
bats_require_minimum_version 1.5.0

WF=$TOP/share/workflows/nuclei.wf
CHECK=$TOP/test/geojson-check

# plan DESIGN ALGO [ARGS]: instances i.tsv and plan b.tsv of a design
plan() {
	local d=$1 a=$2
	shift 2
	wf-compact -q -o i.tsv "$WF" "$d"
	reuse-merge -a "$a" "$@" -o b.tsv "$WF" i.tsv
}

segrun() {
	seg-run --workflow "$WF" --instances i.tsv --buckets b.tsv "$@"
}

# slide: crops t1, t2 (256x256 MoNuSeg) placed at (512, 512) and (1024,
# 512) of s.tif (2048x1536, deflate, downsamples 1, 2, 4); the default
# run planned
slide() {
	crops 2 256
	sa-sample --reference -o ref.tsv "$SPACE"
	plan ref.tsv none
	sa-testimg slide --downsample 2 2048 1536 s.tif \
	    '512 512 tiles/t1.png' '1024 512 tiles/t2.png'
}

# table LEVEL SIZE OUT: the tile table of s.tif's tiles at (512, 512)
# and (1024, 512), SIZE pixels of LEVEL
table() {
	printf 'tile\tslide\tlevel\tx\ty\twidth\theight\ttissue\n' > "$3"
	printf 's_%s_512\ts.tif\t%s\t%s\t512\t%s\t%s\t1\n' \
	    512 "$1" 512 "$2" "$2" 1024 "$1" 1024 "$2" "$2" >> "$3"
}

# raw DIR RUN TILE: the run's tif32 mask of TILE as DIR.RUN.TILE.raw
raw() {
	sa-testimg raw "$1/$2/$3.tif" "$1.$2.$3.raw"
}

@test "--geojson: every polygon inside its tile and exactly its mask's object, slide at level 0 and 1, PNG tiles" {
	slide
	# level 0: level-0 coordinates are the tile's offset plus its pixels
	table 0 256 s0.tsv
	segrun --bucket 0 --tiles s0.tsv --masks m0 --geojson g0 -o r0.tsv \
	    --timings t0.tsv
	assert_equal "$(cd g0 && find . -type f | sort)" './0/s.0000.geojson'
	raw m0 0 s_512_512
	raw m0 0 s_1024_512
	run "$CHECK" g0/0/s.0000.geojson 0 s 0 \
	    s_512_512=m0.0.s_512_512.raw:512:512:1 \
	    s_1024_512=m0.0.s_1024_512.raw:1024:512:1
	assert_success
	assert_output --regexp '^[1-9][0-9]+ features, [0-9]+ pixels: every object exact$'
	# as many features as the results' objects
	n=$(body r0.tsv | awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++)
	    if ($i == "objects") c = i } NR > 1 { s += $c } END { print s }')
	assert_output --partial "$n features"
	# the check can fail: the same file against the wrong offset
	run "$CHECK" g0/0/s.0000.geojson 0 s 0 \
	    s_512_512=m0.0.s_512_512.raw:513:512:1 \
	    s_1024_512=m0.0.s_1024_512.raw:1024:512:1
	assert_failure
	# level 1 (downsample 2): tile pixels twice as large on level 0
	table 1 128 s1.tsv
	segrun --bucket 0 --tiles s1.tsv --masks m1 --geojson g1 --chunk 12 \
	    -o r1.tsv --timings t1.tsv
	raw m1 0 s_512_512
	raw m1 0 s_1024_512
	run "$CHECK" g1/0/s.0012.geojson 0 s 12 \
	    s_512_512=m1.0.s_512_512.raw:512:512:2 \
	    s_1024_512=m1.0.s_1024_512.raw:1024:512:2
	assert_success
	# the level-1 polygons reach level-0 coordinates up to 512 + 2 * 128
	run python3 -c 'import json, sys
xs = [p[0] for f in json.load(open(sys.argv[1]))["features"]
      for r in f["geometry"]["coordinates"] for p in r]
print(min(xs) >= 512, max(xs) <= 1280, max(xs) > 1024, all(x % 2 == 0 for x in xs))' \
	    g1/0/s.0012.geojson
	assert_output 'True True True True'
	# PNG tiles of a tiles list: one file per tile, the tile's own pixels
	segrun --bucket 0 --tiles tiles/list --masks mp --geojson gp -o rp.tsv \
	    --timings tp.tsv
	assert_equal "$(cd gp && find . -type f | sort | tr '\n' ' ')" \
	    './0/t1.0000.geojson ./0/t2.0000.geojson '
	raw mp 0 t1
	run "$CHECK" gp/0/t1.0000.geojson 0 t1 0 t1=mp.0.t1.raw:0:0:1
	assert_success
	# the PNG's polygons are the level-0 slide's, shifted by the offset
	python3 -c 'import json, sys
a = json.load(open(sys.argv[1]))["features"]
b = json.load(open(sys.argv[2]))["features"]
a = [f["geometry"]["coordinates"] for f in a if f["properties"]["tile"] == "s_512_512"]
b = [[[[x + 512, y + 512] for x, y in r] for r in f["geometry"]["coordinates"]] for f in b]
sys.exit(a != b)' g0/0/s.0000.geojson gp/0/t1.0000.geojson
	no_temp_files .
}

@test "--geojson: one file per run, the same bytes with 1 or 3 active paths and from merged buckets as from runs alone" {
	crops 2 128
	sa-sample -m moat -r 1 -s 5 -o d.tsv "$SPACE"
	plan d.tsv naive -b 32
	for p in 1 3; do
		segrun --bucket 0 --tiles tiles/list --active-paths $p --masks m$p \
		    --geojson g$p -o r$p.tsv --timings t$p.tsv
	done
	run diff -r g1 g3
	assert_success
	runs=$(body b.tsv | awk -F'\t' 'NR == 2 { print $3 }' | tr , ' ')
	assert_equal "$(ls g1 | sort -n | tr '\n' ' ')" "$(tr ' ' '\n' <<< "$runs" | sort -n | tr '\n' ' ')"
	for r in $runs; do
		for t in t1 t2; do
			raw m1 "$r" $t
			"$CHECK" g1/$r/$t.0000.geojson "$r" $t 0 $t=m1.$r.$t.raw:0:0:1 > /dev/null
		done
	done
	# run 3 alone
	wf-compact -q -o i.tsv "$WF" d.tsv
	reuse-merge -a none -o b.tsv "$WF" i.tsv
	segrun --bucket 3 --tiles tiles/list --geojson ga -o ra.tsv --timings ta.tsv
	cmp ga/3/t1.0000.geojson g1/3/t1.0000.geojson
	cmp ga/3/t2.0000.geojson g1/3/t2.0000.geojson
}

# threshold_plan: t.wf, a workflow of one command that looks at each
# pixel alone (sa-testimg threshold: red below 120), its default run
# planned as ti.tsv and tb.tsv
threshold_plan() {
	printf 'name\ttype\tvalues\tdefault\nt\tint\t60:10:160\t120\n' > t.tsv
	{
		printf 'stage\ttask\tparams\tcost\trun\tmetrics\n'
		printf 'normalize\tnormalize\t-\t0.2\t-\t-\n'
		printf 'seg\tthreshold\tt\t1\tsa-testimg threshold {in} {out.png} {t}\t-\n'
	} > t.wf
	sa-sample --reference -o tref.tsv t.tsv
	wf-compact -q -o ti.tsv t.wf tref.tsv
	reuse-merge -a none -o tb.tsv t.wf ti.tsv
}

# objects WF I B TABLE OUT: the default run of plan I, B of workflow WF
# on the tiles of TABLE, its GeoJSON in OUT; prints slide-check's line
objects() {
	seg-run -q --workflow "$1" --instances "$2" --buckets "$3" --bucket 0 \
	    --tiles "$4" --geojson "$5" -o "$5.tsv" --timings "$5.t.tsv"
	"$TOP/test/slide-check" "$5"/0/*.geojson "$4"
}

@test "tiles that overlap: a nucleus on the corner of four tiles is one polygon, the same at every tile size" {
	threshold_plan
	# dark squares of 16 on pink tissue, each centred where the cores of
	# four tiles of one grid meet (overlap 128: 448, 936, 960), and one
	# elsewhere
	sa-testimg solid 1800 1800 230 150 200 tissue.png
	sa-testimg solid 16 16 60 20 90 nucleus.png
	local c p=()
	for c in 448 936 960; do
		p+=("$((c - 8)) $((c - 8)) nucleus.png")
	done
	sa-testimg slide --levels 1 2200 2200 s.tif '200 200 tissue.png' "${p[@]}" \
	    '1220 433 nucleus.png'
	for size in 512 1000 1024 2200; do
		wsi-tiles -q --size $size --overlap 128 --min-tissue 0.1 -o s$size.tsv s.tif
		run -0 objects t.wf ti.tsv tb.tsv s$size.tsv g$size
		assert_line "features 4 overlapping 0 meeting 0"
		# the features in slide order, without their tile
		python3 -c 'import json, sys
f = json.load(open(sys.argv[1]))["features"]
print(sorted(json.dumps(x["geometry"]) for x in f))' g$size/0/s.0000.geojson > f$size
	done
	grep -q 1024 s1024.tsv	# (a tile of each grid at a corner)
	cmp f2200 f512
	cmp f2200 f1000
	cmp f2200 f1024
	# without overlap, the one on the lines of a grid of 448 is cut in
	# four
	wsi-tiles -q --size 448 --min-tissue 0.1 -o z.tsv s.tif
	run -0 objects t.wf ti.tsv tb.tsv z.tsv gz
	assert_line --regexp '^features [7-9] overlapping 0 meeting [1-9]'
}

@test "tiles that overlap: MoNuSeg tissue cut at 512, 1000 and 1024: no object twice, none split on a tile line; counts equal for a local workflow, within 1 % for the nuclei workflow" {
	threshold_plan
	sed -i 's/120$/90/' t.tsv	# (darker: nuclei, not clumps)
	sa-sample --reference -o tref.tsv t.tsv
	wf-compact -q -o ti.tsv t.wf tref.tsv
	reuse-merge -a none -o tb.tsv t.wf ti.tsv
	sa-sample --reference -o ref.tsv "$SPACE"
	wf-compact -q -o i.tsv "$WF" ref.tsv
	reuse-merge -a none -o b.tsv "$WF" i.tsv
	local f=("$MONUSEG"/*-DX1.png)
	sa-testimg slide --downsample 2 --levels 2 2300 2300 m.tif "150 150 ${f[0]}" \
	    "1150 150 ${f[1]}" "150 1150 ${f[2]}" "1150 1150 ${f[3]}"
	for size in 512 1000 1024 2300; do
		wsi-tiles -q --size $size --overlap 192 --min-tissue 0.1 -o m$size.tsv m.tif
		run -0 objects t.wf ti.tsv tb.tsv m$size.tsv t$size
		assert_output --regexp '^features [0-9]+ overlapping 0 meeting 0$'
		echo "${output#features }" | cut -d' ' -f1 >> threshold.counts
		[ $size = 2300 ] && continue
		run -0 objects "$WF" i.tsv b.tsv m$size.tsv n$size
		assert_output --regexp '^features [0-9]+ overlapping 0 meeting 0$'
		echo "${output#features }" | cut -d' ' -f1 >> nuclei.counts
	done
	# a local workflow: the same objects as the slide in one tile
	assert_equal "$(sort -u threshold.counts | wc -l)" 1
	run -0 awk 'NR == 1 || $1 < lo { lo = $1 } $1 > hi { hi = $1 }
	    END { print lo, hi; exit !(lo > 1000 && (hi - lo) / lo < 0.01) }' nuclei.counts
	# without overlap, nuclei are split by the lines of the tiles
	wsi-tiles -q --size 512 --min-tissue 0.1 -o z.tsv m.tif
	run -0 objects "$WF" i.tsv b.tsv z.tsv gz
	assert_output --regexp '^features [0-9]+ overlapping 0 meeting [1-9][0-9]+$'
}

# copy_plan: c.wf, a workflow whose one command copies the tile's
# reference ({ref}) as its mask, its run planned as ci.tsv and cb.tsv
copy_plan() {
	printf 'name\ttype\tvalues\tdefault\nk\tint\t1:1:2\t1\n' > c.tsv
	{
		printf 'stage\ttask\tparams\tcost\trun\tmetrics\n'
		printf 'seg\tcopy\tk\t1\t%s\t-\n' "sh -c 'cp \"\$1\" \"\$2\"' copy {ref} {out.png} {k}"
	} > c.wf
	sa-sample --reference -o cref.tsv c.tsv
	wf-compact -q -o ci.tsv c.wf cref.tsv
	reuse-merge -a none -o cb.tsv c.wf ci.tsv
}

@test "--ref with a slide's GeoJSON: made from the tiles' masks, it scores every run exactly as they do; a tile's own mask first; refusals name the file" {
	slide
	table 0 256 s0.tsv
	mkdir masks
	cp tiles/t1.mask.png masks/s_512_512.mask.png
	cp tiles/t2.mask.png masks/s_1024_512.mask.png
	# the masks' objects as the slide's GeoJSON (level-0 coordinates)
	copy_plan
	seg-run -q --workflow c.wf --instances ci.tsv --buckets cb.tsv --bucket 0 \
	    --tiles s0.tsv --ref masks --ref-suffix .mask.png --geojson cg \
	    -o cg.tsv --timings cgt.tsv
	mkdir geo
	cp cg/0/s.0000.geojson geo/s.geojson
	# a MOAT design, scored against each
	sa-sample -m moat -r 2 -s 3 -o d.tsv "$SPACE"
	plan d.tsv naive -b 32
	segrun --bucket 0 --tiles s0.tsv --ref masks --ref-suffix .mask.png -o rm.tsv --timings tm.tsv
	segrun --bucket 0 --tiles s0.tsv --ref geo -o rg.tsv --timings tg.tsv
	assert_equal "$(body rg.tsv | cut -f 1-8)" "$(body rm.tsv | cut -f 1-8)"
	assert_equal "$(body rg.tsv | awk -F'\t' 'NR > 1 && $3 == "ok"' | wc -l)" 64
	# the table at level 1: the polygons rasterized at downsample 2
	table 1 128 s1.tsv
	segrun --bucket 0 --tiles s1.tsv --ref geo -o r1.tsv --timings t1.tsv
	assert_equal "$(body r1.tsv | awk -F'\t' 'NR > 1 && $3 == "ok"' | wc -l)" 64
	run -0 awk -F'\t' '!/^#/ && $3 == "ok" { s += $4; n++ } END { print s / n; exit !(s / n > 0.3) }' r1.tsv
	# a tile's own mask comes first: an empty one for s_512_512
	sa-testimg blank 256 256 geo/s_512_512.png
	segrun --bucket 0 --tiles s0.tsv --ref geo -o rb.tsv --timings tb.tsv
	assert_equal "$(body rb.tsv | awk -F'\t' '$2 == "s_512_512" { print $4 }' | sort -u)" 0
	rm geo/s_512_512.png
	# neither: both named
	mv geo/s.geojson geo/other.geojson
	run segrun --bucket 0 --tiles s0.tsv --ref geo -o rn.tsv --timings tn.tsv
	assert_failure 1
	assert_output --partial "geo/s_512_512.png: no reference mask for tile s_512_512 (s0.tsv:2), nor its slide's GeoJSON: No such file or directory"
	# a bad one: file and feature; nothing written
	printf '[{"type":"Feature","geometry":{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,1]]]}}]' > geo/s.geojson
	run segrun --bucket 0 --tiles s0.tsv --ref geo -o rn.tsv --timings tn.tsv
	assert_failure 1
	assert_output "seg-run: geo/s.geojson: feature 0: a ring that is not closed (its last position is not its first)"
	# beyond the memory budget (32 bytes held per byte of JSON): 3 MiB
	python3 -c 'import sys; f = "{\"type\":\"Feature\",\"geometry\":{\"type\":\"Polygon\",\"coordinates\":[[[0,0],[1,0],[1,1],[0,0]]]}}"
sys.stdout.write("[" + ",".join([f] * 30000) + "]")' > geo/s.geojson
	SR_MAX_MEMORY=80M run segrun --bucket 0 --tiles s0.tsv --ref geo -o rn.tsv --timings tn.tsv
	assert_failure
	assert_output --regexp "geo/s.geojson: 3 MiB of GeoJSON would need 8[0-9] MiB to read, beyond the memory budget \(80 MiB, SR_MAX_MEMORY\)"
	assert [ ! -e rn.tsv ]
	no_temp_files .
}

@test "seg-merge --geojson joins the chunks of every run and slide in chunk order" {
	slide
	table 0 256 s0.tsv
	sed 3d s0.tsv > c0.tsv	# chunk 0: s_512_512; chunk 1: s_1024_512
	sed 2d s0.tsv > c1.tsv
	segrun --bucket 0 --tiles c1.tsv --masks m --geojson g --chunk 1 -o r1.tsv --timings t1.tsv
	segrun --bucket 0 --tiles c0.tsv --masks m --geojson g --chunk 0 -o r0.tsv --timings t0.tsv
	segrun --bucket 0 --tiles s0.tsv --geojson whole -o r.tsv --timings t.tsv
	assert_equal "$(cd g && find . -type f | sort | tr '\n' ' ')" \
	    './0/s.0000.geojson ./0/s.0001.geojson '
	run seg-merge --geojson g -o j
	assert_success
	assert_output ''
	assert_equal "$(cd j && find . -type f)" './0/s.geojson'
	assert_equal "$(head -1 j/0/s.geojson)" \
	    '{"type":"FeatureCollection","sareuse":{"run":0,"slide":"s","chunks":[0,1]},"features":['
	# the features of chunk 0 then chunk 1: those of the whole table
	assert_equal "$(sed '1d;$d;s/^,//' j/0/s.geojson)" \
	    "$(sed '1d;$d;s/^,//' whole/0/s.0000.geojson)"
	raw m 0 s_512_512
	raw m 0 s_1024_512
	run "$CHECK" j/0/s.geojson 0 s - s_512_512=m.0.s_512_512.raw:512:512:1 \
	    s_1024_512=m.0.s_1024_512.raw:1024:512:1
	assert_success
	# again: replaced in place, the same bytes
	cp j/0/s.geojson before
	seg-merge --geojson g -o j
	cmp before j/0/s.geojson
	# a run of empty masks: an empty FeatureCollection, joined as one
	mkdir -p e/4
	printf '{"type":"FeatureCollection","sareuse":{"run":4,"slide":"x y","chunk":2},"features":[\n]}\n' > 'e/4/x y.0002.geojson'
	seg-merge --geojson e -o ej
	python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); sys.exit(d["features"] != [] or d["sareuse"]["chunks"] != [2])' 'ej/4/x y.geojson'
	no_temp_files .
}

# refuse_merge MESSAGE: seg-merge --geojson g -o out fails with exit 1
# and MESSAGE on one line, and writes nothing
refuse_merge() {
	run seg-merge --geojson g -o out
	assert_failure 1
	assert_output "seg-merge: $1"
	assert [ ! -e out/0/s.geojson ]
	no_temp_files .
}

# bats test_tags=fast
@test "seg-merge --geojson: malformed chunks refused naming file and line, nothing written" {
	mkdir -p g/0
	h='{"type":"FeatureCollection","sareuse":{"run":0,"slide":"s","chunk":1},"features":['
	f='{"type":"Feature","geometry":{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,0]]]},"properties":{}}'
	good() { printf '%s\n%s\n,%s\n]}\n' "$h" "$f" "$f" > g/0/s.0001.geojson; }
	good
	seg-merge --geojson g -o ok
	assert_equal "$(wc -l < ok/0/s.geojson)" 4
	# a good chunk beside the bad ones: not written either
	printf '{"type":"FeatureCollection","sareuse":{"run":0,"slide":"a","chunk":0},"features":[\n]}\n' > g/0/a.0000.geojson
	printf '%s\n%s\n%s\n]}\n' "$h" "$f" "$f" > g/0/s.0001.geojson
	refuse_merge 'g/0/s.0001.geojson:3: a feature after the first does not start with a comma'
	assert [ ! -e out/0/a.geojson ]
	printf '%s\n,%s\n]}\n' "$h" "$f" > g/0/s.0001.geojson
	refuse_merge 'g/0/s.0001.geojson:2: the first feature starts with a comma'
	printf '%s\n{"type":"Feature",\n]}\n' "$h" > g/0/s.0001.geojson
	run seg-merge --geojson g -o out
	assert_failure 1
	assert_output --regexp '^seg-merge: g/0/s.0001.geojson:2: not JSON: .*\(column [0-9]+\)$'
	printf '%s\n%s\n' "$h" "$f" > g/0/s.0001.geojson
	refuse_merge 'g/0/s.0001.geojson:3: truncated: no closing ]}'
	printf '%s\n%s' "$h" "$f" > g/0/s.0001.geojson
	refuse_merge 'g/0/s.0001.geojson:2: truncated line (no newline)'
	printf '%s\n%s\n]}\n%s\n' "$h" "$f" "$f" > g/0/s.0001.geojson
	refuse_merge 'g/0/s.0001.geojson:4: text after the end of the FeatureCollection'
	printf '%s\n%s\n]}\n' "${h/\"run\":0/\"run\":5}" "$f" > g/0/s.0001.geojson
	refuse_merge 'g/0/s.0001.geojson:1: not the header of run 0, slide s, chunk 1'
	printf '%s\n%s\n]}\n' "$h" "${f/Polygon/Point}" > g/0/s.0001.geojson
	refuse_merge 'g/0/s.0001.geojson:2: geometry type is not Polygon or MultiPolygon'
	printf '%s\n%s\n]}\n' "$h" "${f/\[1,1\],/}" > g/0/s.0001.geojson
	refuse_merge 'g/0/s.0001.geojson:2: a ring is not an array of at least 4 positions'
	: > g/0/s.0001.geojson
	refuse_merge 'g/0/s.0001.geojson:1: truncated: no closing ]}'
	good
	touch g/0/s.geojson
	refuse_merge "g/0/s.geojson: not a chunk's GeoJSON file (SLIDE.CCCC.geojson)"
	rm g/0/s.geojson
	touch g/0/s.001.geojson
	refuse_merge "g/0/s.001.geojson: not a chunk's GeoJSON file (SLIDE.CCCC.geojson)"
	rm g/0/s.001.geojson
	mkdir g/runs
	refuse_merge 'g/runs: not a run'"'"'s directory (a run number)'
	rmdir g/runs
	: > g/7
	refuse_merge 'g/7: not a run'"'"'s directory (a run number)'
	rm g/7
	mkdir empty
	run seg-merge --geojson empty -o out
	assert_failure 1
	assert_output 'seg-merge: empty: no GeoJSON files (RUN/SLIDE.CCCC.geojson)'
	run seg-merge --geojson missing -o out
	assert_failure 1
	assert_output --partial 'seg-merge: missing: No such file or directory'
}

@test "--geojson and --chunk: usage errors, two slides of one name, a failed run leaves no file" {
	slide
	table 0 256 s0.tsv
	for a in -1 10000 x; do
		run segrun --bucket 0 --tiles s0.tsv --geojson g --chunk $a -o r.tsv --timings t.tsv
		assert_failure 2
		assert_output --partial -- "--chunk"
	done
	run segrun --bucket 0 --tiles s0.tsv --chunk 3 -o r.tsv --timings t.tsv
	assert_failure 2
	assert_output --partial -- '--chunk needs --geojson'
	run seg-run --estimate-memory --tiles s0.tsv --geojson g
	assert_failure 2
	run seg-run --help
	assert_output --partial -- '--geojson DIR'
	assert_output --partial -- '--chunk C'
	# two slides named s: s.tif and other/s.tif
	mkdir other
	cp s.tif other/s.tif
	(cat s0.tsv; sed -n 2p s0.tsv | sed 's/^s_512_512\ts.tif/o\tother\/s.tif/') > two.tsv
	run segrun --bucket 0 --tiles two.tsv --geojson g -o r.tsv --timings t.tsv
	assert_failure 1
	assert_output --regexp "two.tsv:[0-9]+: slide .*other/s.tif has the name of slide .*s.tif \(line [0-9]+\), s: --geojson would write both to one file"
	assert [ ! -e r.tsv ]
	# without --geojson the table is fine
	segrun --bucket 0 --tiles two.tsv -o r.tsv --timings t.tsv
	# a tile that fails midway: no GeoJSON file, no fragment, no temporary
	cp tiles/t1.png tiles/t0.png
	head -c 300 tiles/t2.png > tiles/t9.png
	printf 't0.png\nt9.png\n' > tiles/bad.list
	run segrun --bucket 0 --tiles tiles/bad.list --geojson gb -o rb.tsv --timings tb.tsv
	assert_failure 1
	assert [ ! -e rb.tsv ]
	run find gb -type f
	assert_output ''
	no_temp_files .
}
