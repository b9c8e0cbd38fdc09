#!/usr/bin/env bats
# seg-run: the nuclei workflow on real tissue, merged buckets against runs
# alone, outputs, and bad input.
load common
bats_require_minimum_version 1.5.0

WF=$TOP/share/workflows/nuclei.wf
MONUSEG=$TOP/test/data/monuseg

# plan DESIGN ALGO [ARGS]: instances i.tsv and plan b.tsv of a design
plan() {
	local d=$1 a=$2
	shift 2
	wf-compact -q -o i.tsv "$WF" "$d"
	reuse-merge -a "$a" "$@" -o b.tsv "$WF" i.tsv
}

# reference: the default parameter set as design ref.tsv, planned
reference() {
	sa-sample --reference -o ref.tsv "$SPACE"
	plan ref.tsv none
}

# segrun ARGS: seg-run on plan b.tsv of i.tsv
segrun() {
	seg-run --workflow "$WF" --instances i.tsv --buckets b.tsv "$@"
}

# within A B TOL: |A - B| <= TOL
within() {
	awk -v a="$1" -v b="$2" -v t="$3" 'BEGIN { d = a - b; if (d < 0) d = -d;
	    exit !(d <= t) }'
}

@test "defaults on the 5 MoNuSeg tiles: Dice and object counts of nscale's published run" {
	reference
	ls "$MONUSEG"/*.png | grep -v -e '\.mask\.png' -e '\.labels\.png' > tiles.list
	run segrun --bucket 0 --tiles tiles.list --ref "$MONUSEG" \
	    --ref-suffix .mask.png -o r.tsv --timings t.tsv
	assert_success
	# tile, Dice, objects (nscale at defaults, within 0.03 and 10 %)
	while read -r tile dice objects; do
		row=$(awk -F'\t' -v t="$tile" '$2 ~ t' r.tsv)
		[ -n "$row" ] || fail "no row for $tile"
		got=$(cut -f4 <<< "$row")
		n=$(cut -f8 <<< "$row")
		[ "$(cut -f3 <<< "$row")" = ok ] || fail "$tile: $row"
		within "$got" "$dice" 0.03 || fail "$tile: Dice $got, not $dice"
		within "$n" "$objects" "$(awk -v o="$objects" 'BEGIN { print o / 10 }')" ||
		    fail "$tile: $n objects, not $objects"
	done <<'END'
21-5784 0.627 387
A7-A13E 0.577 383
B0-5698 0.543 225
G9-6362 0.586 714
NH-A8F7 0.140 120
END
	assert_equal "$(grep -c '^0	TCGA' r.tsv)" 5
}

@test "the 16-bit ground-truth labels as reference give the masks' Dice" {
	reference
	ls "$MONUSEG"/*-DX1.png | grep -v -e mask -e labels | head -2 > tiles.list
	segrun --bucket 0 --tiles tiles.list --ref "$MONUSEG" --ref-suffix .mask.png \
	    -o m.tsv --timings t.tsv
	segrun --bucket 0 --tiles tiles.list --ref "$MONUSEG" \
	    --ref-suffix .labels.png -o l.tsv --timings t2.tsv
	for k in 1 2; do
		a=$(body m.tsv | awk -F'\t' -v k=$((k + 1)) 'NR == k { print $4 }')
		b=$(body l.tsv | awk -F'\t' -v k=$((k + 1)) 'NR == k { print $4 }')
		within "$a" "$b" 0.01 || fail "mask $a, labels $b"
	done
}

@test "merged buckets give masks byte-identical to runs alone; timings show the shared tasks ran once" {
	crops 2 256
	sa-sample -m moat -r 3 -s 11 -o d.tsv "$SPACE"
	plan d.tsv none
	mv b.tsv alone.tsv
	reuse-merge -a rtma -b 8 -o merged.tsv "$WF" i.tsv
	nb=$(body merged.tsv | awk 'NR > 1' | wc -l)
	# every run alone
	for i in $(seq 0 $(($(body alone.tsv | wc -l) - 2))); do
		seg-run --workflow "$WF" --instances i.tsv --buckets alone.tsv \
		    --bucket "$i" --tiles tiles/list --masks alone -o ra$i.tsv \
		    --timings ta$i.tsv
	done
	# two random merged buckets, two paths at once
	for i in $(shuf -i 0-$((nb - 1)) -n 2 --random-source=<(yes)); do
		seg-run --workflow "$WF" --instances i.tsv --buckets merged.tsv \
		    --bucket "$i" --tiles tiles/list --masks merged --active-paths 2 \
		    -o rm$i.tsv --timings tm$i.tsv
		row=$(body merged.tsv | awk -F'\t' -v i="$i" '$1 == i')
		runs=$(cut -f3 <<< "$row" | tr , ' ')
		tasks=$(cut -f4 <<< "$row")
		for r in $runs; do
			for t in t1 t2; do
				cmp "merged/$r/$t.tif" "alone/$r/$t.tif" ||
				    fail "bucket $i run $r tile $t differs"
			done
		done
		for t in t1 t2; do
			n=$(body tm$i.tsv | awk -F'\t' -v t=$t '$2 == t && $4 ~ /^Seg/' | wc -l)
			assert_equal "$n" "$tasks"
			n=$(body tm$i.tsv | awk -F'\t' -v t=$t '$2 == t && $4 == "normalize"' | wc -l)
			assert_equal "$n" 1
		done
		# results: the same rows as alone, seconds aside
		for r in $runs; do
			a=$(cat ra*.tsv | grep -v '^#' | awk -F'\t' -v r="$r" '$1 == r' | cut -f1-4 | sort)
			b=$(body rm$i.tsv | awk -F'\t' -v r="$r" '$1 == r' | cut -f1-4 | sort)
			assert_equal "$b" "$a"
		done
	done
}

@test "--active-paths 1, 2 and 4 give the same results and masks" {
	crops 2 200
	sa-sample -m moat -r 2 -s 5 -o d.tsv "$SPACE"
	plan d.tsv naive -b 16
	for p in 1 2 4; do
		segrun --bucket 0 --tiles tiles/list --active-paths $p --masks m$p \
		    -o r$p.tsv --timings t$p.tsv
		body r$p.tsv | cut -f1-4 > c$p
		body t$p.tsv | cut -f1-5,7 > u$p
	done
	assert_equal "$(cat c2)" "$(cat c1)"
	assert_equal "$(cat c4)" "$(cat c1)"
	assert_equal "$(cat u2)" "$(cat u1)"
	assert_equal "$(cat u4)" "$(cat u1)"
	run diff -r m1 m2
	assert_success
	run diff -r m1 m4
	assert_success
}

@test "--no-prefault: the same results and masks, no #prefault lines; prefault stays below the tasks' own peak" {
	sa-testimg mosaic 1536 tiles.png "$MONUSEG"/TCGA-21-5784-01Z-00-DX1.png \
	    "$MONUSEG"/TCGA-A7-A13E-01Z-00-DX1.png
	echo tiles.png > list
	sa-sample -m moat -r 1 -s 5 -o d.tsv "$SPACE"
	plan d.tsv naive -b 4
	# 16 threads on a bucket of 4 instances: still one tile's first path
	for p in 1 2 16; do
		segrun --bucket 0 --tiles list --active-paths $p --masks m$p \
		    -o r$p.tsv --timings t$p.tsv
		segrun --bucket 0 --tiles list --active-paths $p --masks n$p \
		    --no-prefault -o s$p.tsv --timings u$p.tsv
		assert_equal "$(body s$p.tsv | cut -f1-4)" "$(body r$p.tsv | cut -f1-4)"
		assert_equal "$(body u$p.tsv | cut -f1-5,7)" "$(body t$p.tsv | cut -f1-5,7)"
		run diff -r m$p n$p
		assert_success
		grep -Eq '^#prefault tile=tiles seconds=[0-9.e-]+$' t$p.tsv
		run grep -c '^#prefault' u$p.tsv
		assert_output 0
		# the heap touched up front is no more than the tasks touch
		# without it (peak resident memory, 20 % for noise); one path
		# only: with threads, glibc's per-thread arenas make the peak
		# vary run to run (120 to 180 MB at 16 paths, either way)
		a=$(sed -n 's/^#memory.*peak_rss=//p' t$p.tsv)
		b=$(sed -n 's/^#memory.*peak_rss=//p' u$p.tsv)
		[ "$p" != 1 ] || awk -v a="$a" -v b="$b" 'BEGIN { exit !(a <= 1.2 * b) }' ||
		    fail "--active-paths $p: peak RSS $a with prefault, $b without"
		# and reaches what the model asks: 1536^2 x (3 + 10), one
		# tile's first path
		awk -v a="$a" 'BEGIN { exit !(a >= 1536 * 1536 * 13) }' ||
		    fail "--active-paths $p: peak RSS $a, below the prefault model"
	done
}

@test "timings cost another plan: reuse-merge --cost reads them" {
	crops 1 200
	sa-sample -m moat -r 2 -s 5 -o d.tsv "$SPACE"
	plan d.tsv naive -b 100
	segrun --bucket 0 --tiles tiles/list -o r.tsv --timings t.tsv
	run reuse-merge -a rtma -b 4 --cost t.tsv -o b2.tsv "$WF" i.tsv
	assert_success
	grep -q 'cost=t.tsv' b2.tsv
}

@test "results and timings: columns, one row per run and tile, one per task node" {
	crops 2 200
	reference
	segrun --bucket 0 --tiles tiles/list --ref tiles --ref-suffix .mask.png \
	    -o r.tsv --timings t.tsv
	assert_equal "$(body r.tsv | head -1)" "$(printf 'run\ttile\tstatus\tdice\tjaccard\tobject_dice\taji\tobjects\tseconds')"
	assert_equal "$(body r.tsv | wc -l)" 3
	assert_equal "$(body t.tsv | head -1)" "$(printf 'bucket\ttile\tdepth\ttask\tinstances\tseconds\tbytes')"
	# normalize, 7 tasks, compare per tile
	assert_equal "$(body t.tsv | awk -F'\t' 'NR > 1 { print $2, $3, $4 }' | head -9 | tr '\n' ' ')" \
	    "t1 1 normalize t1 1 Seg0 t1 2 Seg1 t1 3 Seg2 t1 4 Seg3 t1 5 Seg4 t1 6 Seg5 t1 7 Seg6 t1 1 compare "
	grep -qx '#bucket=0 instances=1 runs=1 tiles=2 tasks=7' r.tsv
	grep -qx '#active_paths=1 normalize=reinhard' r.tsv
	grep -q '^#read tile=t1 seconds=' t.tsv
	# each #read line followed by its tile's #prefault line
	assert_equal "$(grep -e '^#read' -e '^#prefault' t.tsv | cut -d' ' -f1,2 | tr '\n' ' ')" \
	    '#read tile=t1 #prefault tile=t1 #read tile=t2 #prefault tile=t2 '
	grep -Eq '^#memory heap=[0-9]+ peak_rss=[1-9][0-9]+$' t.tsv
	# without --ref: no dice or jaccard columns
	segrun --bucket 0 --tiles tiles/list -o r2.tsv --timings t2.tsv
	assert_equal "$(body r2.tsv | head -1)" "$(printf 'run\ttile\tstatus\tobjects\tseconds')"
	run grep -c compare t2.tsv
	assert_output 0
}

@test "--ref finds DIR/TILE.tif before DIR/TILE.png" {
	crops 1 200
	reference
	mkdir ref
	cp tiles/t1.mask.png ref/t1.png
	segrun --bucket 0 --tiles tiles/list --ref ref -o a.tsv --timings t.tsv
	sa-testimg blank 200 200 ref/t1.tif
	segrun --bucket 0 --tiles tiles/list --ref ref -o c.tsv --timings t.tsv
	[ "$(body a.tsv | cut -f4 | tail -1)" != 0 ]
	assert_equal "$(body c.tsv | cut -f4 | tail -1)" 0
}

@test "--masks writes 32-bit label TIFFs, --mask-format png8 binary PNGs, one per run and tile" {
	crops 2 200
	sa-sample -m moat -r 1 -s 2 -o d.tsv "$SPACE"
	plan d.tsv naive -b 100
	segrun --bucket 0 --tiles tiles/list --masks tif -o r.tsv --timings t.tsv
	segrun --bucket 0 --tiles tiles/list --masks png --mask-format png8 \
	    -o r2.tsv --timings t2.tsv
	assert_equal "$(ls tif | wc -l)" "$(body d.tsv | awk 'NR > 1' | wc -l)"
	for r in $(ls tif); do
		for t in t1 t2; do
			read -r w h nz max bits < <(sa-testimg info tif/$r/$t.tif)
			assert_equal "$w $h $bits" "200 200 32"
			objects=$(body r.tsv | awk -F'\t' -v r=$r -v t=$t '$1 == r && $2 == t { print $4 }')
			assert_equal "$max" "$objects"
			read -r w2 h2 nz2 max2 bits2 < <(sa-testimg info png/$r/$t.png)
			assert_equal "$nz2 $bits2" "$nz 8"
			[ "$nz" -eq 0 ] || assert_equal "$max2" 255
		done
	done
	no_temp_files tif
}

@test "statuses: background, background_likely and no_candidates are results, not failures" {
	reference
	mkdir tiles
	sa-testimg solid 300 300 250 250 250 tiles/white.png
	sa-testimg blank 300 300 tiles/white.mask.png
	crops 1 300
	# about 93 % white: t1 in a white frame 110 pixels wide
	sa-testimg frame tiles/t1.png 110 250 250 250 tiles/pale.png
	sa-testimg blank 300 300 tiles/pale.mask.png
	printf 'white.png\npale.png\nt1.png\n' > tiles/list
	run segrun --bucket 0 --tiles tiles/list --ref tiles --ref-suffix .mask.png \
	    -o r.tsv --timings t.tsv
	assert_success
	assert_output --partial 'white.png: not normalized'
	assert_equal "$(body r.tsv | cut -f2-5,8 | awk 'NR > 1' | head -2 | tr '\n' ' ')" \
	    "white	background	1	1	0 pale	background_likely	1	1	0 "
	grep -q '^#unnormalized tile=white foreground=0' r.tsv
	# maxSize 0 keeps no candidate
	sed 's/\t1000\t\(45\)/\t0\t\1/' i.tsv > i0.tsv
	grep -q '	0	45	' i0.tsv
	seg-run --workflow "$WF" --instances i0.tsv --buckets b.tsv --bucket 0 \
	    --tiles tiles/list -o r0.tsv --timings t0.tsv
	assert_equal "$(body r0.tsv | awk -F'\t' '$2 == "t1" { print $3, $4 }')" \
	    "no_candidates 0"
}

@test "TIFF tiles: strips, tiled and BigTIFF give the PNG's results" {
	crops 1 256
	reference
	sa-testimg convert tiles/t1.png tiles/strip.tif
	sa-testimg convert --tile 64 tiles/t1.png tiles/tiled.tif
	sa-testimg convert --tile 32 --bigtiff tiles/t1.png tiles/big.tif
	segrun --bucket 0 --tiles tiles/list -o p.tsv --timings t.tsv
	for f in strip tiled big; do
		echo "$f.tif" > tiles/l$f
		segrun --bucket 0 --tiles tiles/l$f -o $f.tsv --timings t.tsv
		assert_equal "$(body $f.tsv | cut -f3,4)" "$(body p.tsv | cut -f3,4)"
	done
}

@test "--no-normalize and --target-image" {
	crops 1 256
	reference
	segrun --bucket 0 --tiles tiles/list -o n.tsv --timings t.tsv
	segrun --bucket 0 --tiles tiles/list --no-normalize -o raw.tsv --timings t.tsv
	grep -q 'normalize=none' raw.tsv
	grep -q 'normalize=reinhard' n.tsv
	# the timings say their normalization rows measure none
	grep -qx '#normalize=no' t.tsv
	segrun --bucket 0 --tiles tiles/list -o n.tsv --timings tn.tsv
	run grep -c 'normalize=no' tn.tsv
	assert_output 0
	assert_equal "$(body t.tsv | cut -f 1-5,7)" "$(body tn.tsv | cut -f 1-5,7)"
	segrun --bucket 0 --tiles tiles/list --target-image "$MONUSEG/TCGA-G9-6362-01Z-00-DX1.png" \
	    -o tg.tsv --timings t.tsv
	grep -q 'normalize=target-image' tg.tsv
	# normalizing to a tile's own statistics changes it (almost) nothing
	segrun --bucket 0 --tiles tiles/list --target-image tiles/t1.png \
	    -o self.tsv --timings t.tsv
	a=$(body raw.tsv | awk 'NR == 2 { print $4 }')
	b=$(body self.tsv | awk 'NR == 2 { print $4 }')
	within "$a" "$b" "$(awk -v a="$a" 'BEGIN { print a / 50 + 1 }')"
}

@test "a complete bucket is not redone; --force redoes it" {
	crops 1 200
	reference
	segrun --bucket 0 --tiles tiles/list -o r.tsv --timings t.tsv
	cp r.tsv r.before
	touch -d '2000-01-01' r.tsv t.tsv
	run segrun --bucket 0 --tiles tiles/list -o r.tsv --timings t.tsv
	assert_success
	assert_output --partial 'complete'
	assert_equal "$(stat -c %Y r.tsv)" "$(date -d 2000-01-01 +%s)"
	segrun --bucket 0 --tiles tiles/list -o r.tsv --timings t.tsv --force
	[ "$(stat -c %Y r.tsv)" -gt "$(date -d 2000-01-01 +%s)" ]
	# results of another bucket under the same name are not "complete"
	sa-sample -m moat -r 1 -s 2 -o d.tsv "$SPACE"
	plan d.tsv none
	run segrun --bucket 1 --tiles tiles/list -o r.tsv --timings t.tsv
	assert_success
	grep -q '^#bucket=1 ' r.tsv
}

@test "killed midway: no results, no timings, no temporaries" {
	sa-sample -m moat -r 2 -s 5 -o d.tsv "$SPACE"
	plan d.tsv naive -b 100
	ls "$MONUSEG"/*.png | grep -v -e mask -e labels > tiles.list
	seg-run --workflow "$WF" --instances i.tsv --buckets b.tsv --bucket 0 \
	    --tiles tiles.list --masks m -o r.tsv --timings t.tsv &
	pid=$!
	# midway: once it writes masks (later under valgrind)
	for k in $(seq 300); do
		[ -z "$(ls m 2>/dev/null)" ] || break
		sleep 0.1
	done
	sleep 0.2
	kill -TERM $pid
	run wait $pid
	assert_failure
	assert [ ! -e r.tsv ]
	assert [ ! -e t.tsv ]
	no_temp_files .
	run find m -name '.*'
	assert_output ''
}

# refuse CODE MESSAGE ARGS...: seg-run ARGS fails with CODE and MESSAGE and
# leaves no results, no timings, and existing files untouched
refuse() {
	local code=$1 msg=$2
	shift 2
	printf 'keep\n' > r.tsv
	printf 'keep\n' > t.tsv
	run seg-run "$@" -o r.tsv --timings t.tsv
	assert_failure "$code"
	assert_output --partial "$msg"
	[ "${#lines[@]}" -le 2 ] || fail "more than a line of error: $output"
	assert_equal "$(cat r.tsv)" keep
	assert_equal "$(cat t.tsv)" keep
	no_temp_files .
}

@test "bad input: missing, corrupt, truncated, empty and absurd images" {
	crops 1 200
	reference
	set -- --workflow "$WF" --instances i.tsv --buckets b.tsv --bucket 0
	echo nothere.png > tiles/l1
	refuse 1 'tiles/l1:1: tiles/nothere.png: No such file' "$@" --tiles tiles/l1
	head -c 3000 tiles/t1.png > tiles/trunc.png
	echo trunc.png > tiles/l2
	refuse 1 'tiles/trunc.png: ' "$@" --tiles tiles/l2
	sa-testimg convert tiles/t1.png tiles/t1.tif
	head -c 20000 tiles/t1.tif > tiles/trunc.tif
	echo trunc.tif > tiles/l3
	refuse 1 'tiles/trunc.tif: ' "$@" --tiles tiles/l3
	printf 'not an image\n' > tiles/text.png
	echo text.png > tiles/l4
	refuse 1 'tiles/text.png: not a TIFF or PNG' "$@" --tiles tiles/l4
	: > tiles/empty.tif
	echo empty.tif > tiles/l5
	refuse 1 'tiles/empty.tif: ' "$@" --tiles tiles/l5
	sa-testimg absurd 100000 100000 tiles/huge.tif
	echo huge.tif > tiles/l6
	refuse 1 'exceeds the limit' "$@" --tiles tiles/l6
	sa-testimg absurd 0 5 tiles/zero.tif
	echo zero.tif > tiles/l7
	refuse 1 'tiles/zero.tif: ' "$@" --tiles tiles/l7
	printf 't1.png\n# c\nt1.png\n' > tiles/l8
	refuse 1 "tiles/l8:3: tile name 't1' repeats line 1" "$@" --tiles tiles/l8
	# references
	refuse 1 'no reference mask for tile t1' "$@" --tiles tiles/list --ref nowhere
	sa-testimg blank 100 100 tiles/t1.mask.tif
	refuse 1 'tiles/t1.mask.tif: 100x100, but tile' "$@" --tiles tiles/list \
	    --ref tiles --ref-suffix .mask.tif
}

@test "bad input: plan, instances and workflow" {
	crops 1 200
	sa-sample -m moat -r 1 -s 2 -o d.tsv "$SPACE"
	plan d.tsv none
	n=$(body b.tsv | awk 'NR > 1' | wc -l)
	set -- --workflow "$WF" --instances i.tsv --buckets b.tsv --tiles tiles/list
	refuse 1 "b.tsv: --bucket $n: the plan has buckets 0 to $((n - 1))" "$@" --bucket "$n"
	# a value off its domain names file, line and column
	line=$(grep -n '^segment	0	' i.tsv | cut -d: -f1)
	awk -F'\t' -v OFS='\t' '$1 == "segment" && $2 == 0 { $5 = 300 } 1' i.tsv > bad.tsv
	refuse 1 "bad.tsv:$line: column B: value 300: not an integer from 0 to 255" \
	    --workflow "$WF" --instances bad.tsv --buckets b.tsv --tiles tiles/list --bucket 0
	awk -F'\t' -v OFS='\t' '$1 == "segment" && $2 == 0 { $17 = 6 } 1' i.tsv > bad.tsv
	refuse 1 "column Watershed: value 6: not a connectivity (4 or 8)" \
	    --workflow "$WF" --instances bad.tsv --buckets b.tsv --tiles tiles/list --bucket 0
	# a plan of other instances
	sa-sample -m moat -r 2 -s 9 -o d2.tsv "$SPACE"
	wf-compact -q -o i2.tsv "$WF" d2.tsv
	reuse-merge -a rtma -b 8 -o b2.tsv "$WF" i2.tsv
	refuse 1 "b2.tsv:" "$@" --buckets b2.tsv --bucket 0
	# a plan naming an instance the file lacks
	printf 'bucket\tinstances\truns\ttasks\tcost\n0\t0,999\t0\t8\t8\n' > b3.tsv
	refuse 1 "b3.tsv:2: column instances: '999' is not an instance of stage segment" \
	    "$@" --buckets b3.tsv --bucket 0
	# not the nuclei workflow
	sed 's/^segment	Seg5	minSizePl,Watershed/segment	Seg5	minSizePl/' "$WF" > w.wf
	refuse 1 "w.wf:" --workflow w.wf --instances i.tsv --buckets b.tsv \
	    --tiles tiles/list --bucket 0
}

@test "usage errors exit 2" {
	crops 1 200
	reference
	set -- --workflow "$WF" --instances i.tsv --buckets b.tsv --tiles tiles/list
	refuse 2 "--active-paths '0'" "$@" --bucket 0 --active-paths 0
	refuse 2 "--active-paths 'x'" "$@" --bucket 0 --active-paths x
	refuse 2 "--bucket '-1'" "$@" --bucket -1
	refuse 2 "--mask-format 'jpg'" "$@" --bucket 0 --mask-format jpg
	refuse 2 "are required" "$@"
	refuse 2 "--ref-suffix needs --ref" "$@" --bucket 0 --ref-suffix .png
	refuse 2 "exclude each other" "$@" --bucket 0 --no-normalize --target-image x.png
	refuse 2 "unknown option" "$@" --bucket 0 --frobnicate
	run seg-run --workflow "$WF" --instances i.tsv --buckets b.tsv --tiles tiles/list \
	    --bucket 0 -o same.tsv --timings same.tsv
	assert_failure 2
	run seg-run --workflow "$WF" --instances i.tsv --buckets b.tsv --tiles tiles/list \
	    --bucket 0 -o same.tsv --timings ../"${PWD##*/}"/same.tsv
	assert_failure 2
	assert [ ! -e same.tsv ]
}

# bats test_tags=fast
@test "--help and --version" {
	run seg-run --help
	assert_success
	assert_output --partial 'Usage: seg-run'
	assert_output --partial '--active-paths N'
	run seg-run --version
	assert_success
	assert_output --regexp '^seg-run \(sareuse\) [0-9.]+$'
}

@test "--save-normalized writes the tiles as normalized; --no-normalize on them gives the same masks" {
	crops 2 200
	sa-sample -m moat -r 1 -s 2 -o d.tsv "$SPACE"
	plan d.tsv naive -b 100
	segrun --bucket 0 --tiles tiles/list --save-normalized norm --masks m1 -o r1.tsv --timings t1.tsv
	assert_equal "$(ls norm)" "$(printf 't1.tif\nt2.tif')"
	printf 't1.tif\nt2.tif\n' > norm/list
	segrun --bucket 0 --tiles norm/list --no-normalize --masks m2 -o r2.tsv --timings t2.tsv
	run diff -r m1 m2
	assert_success
	assert_equal "$(body r2.tsv | cut -f1-4)" "$(body r1.tsv | cut -f1-4)"
	no_temp_files norm
	# writing a tile is a #saved line of its own, after its #read and
	# #prefault lines, not part of the normalization row
	assert_equal "$(grep -c '^#saved tile=' t1.tsv)" 2
	assert_equal "$(grep -e '^#read' -e '^#prefault' -e '^#saved' t1.tsv | cut -d' ' -f1,2 | paste -sd' ')" \
	    '#read tile=t1 #prefault tile=t1 #saved tile=t1 #read tile=t2 #prefault tile=t2 #saved tile=t2'
	grep -Eq '^#saved tile=t1 seconds=[0-9.e-]+$' t1.tsv
	run grep -c '^#saved' t2.tsv
	assert_output 0
}

@test "a slide's tiles are normalized from the slide's colour moments: the pixels two overlapping tiles share are the same in both, not without them" {
	sa-testimg slide 1400 1000 s.tif "0 0 $MONUSEG/TCGA-21-5784-01Z-00-DX1.png"
	# tiles of 600 at 0 and 400: s_0_0 and s_400_0 share x 400..599
	wsi-tiles -q --size 600 --overlap 200 --min-tissue 0 -o t.tsv s.tif
	grep -Eq '^#slide s: .* norm_mean=[-0-9.e]+,[-0-9.e]+,[-0-9.e]+ norm_sd=[0-9.e-]+,[0-9.e-]+,[0-9.e-]+$' t.tsv
	reference
	segrun --bucket 0 --tiles t.tsv --save-normalized n1 -o r1.tsv --timings t1.tsv
	sa-testimg crop n1/s_0_0.tif 400 0 200 600 a1.png
	sa-testimg crop n1/s_400_0.tif 0 0 200 600 b1.png
	cmp a1.png b1.png
	# each tile from its own moments (a table without them): they differ
	sed 's/ norm_mean=.*$//' t.tsv > t2.tsv
	segrun --bucket 0 --tiles t2.tsv --save-normalized n2 -o r2.tsv --timings t2r.tsv
	sa-testimg crop n2/s_0_0.tif 400 0 200 600 a2.png
	sa-testimg crop n2/s_400_0.tif 0 0 200 600 b2.png
	run ! cmp -s a2.png b2.png
	run ! cmp -s a1.png a2.png
	# a bad moment: file and what
	sed 's/norm_sd=[^,]*,/norm_sd=-1,/' t.tsv > t3.tsv
	run -1 segrun --bucket 0 --tiles t3.tsv -o r3.tsv --timings t3r.tsv
	assert_output --partial "t3.tsv: '#slide s: "
	assert_output --partial "norm_sd is not three positive numbers"
}

@test "--normalized-format: ZSTD by default, deflate or none on request, the same pixels; a bad name refused" {
	crops 1 200
	sa-sample --reference -o d.tsv "$SPACE"
	plan d.tsv none
	# the compression tag (259) of the first IFD of a little-endian TIFF:
	# 50000 ZSTD, 8 deflate, 1 none
	codec() {
		python3 -c 'import struct, sys
b = open(sys.argv[1], "rb").read()
off = struct.unpack("<I", b[4:8])[0]
n = struct.unpack("<H", b[off:off + 2])[0]
for i in range(n):
    tag, typ, cnt, val = struct.unpack("<HHII", b[off + 2 + 12 * i:off + 14 + 12 * i])
    if tag == 259:
        print(val & 0xffff)' "$1"
	}
	for f in default zstd deflate none; do
		args=(--normalized-format $f)
		[ $f = default ] && args=()
		segrun --bucket 0 --tiles tiles/list --save-normalized n-$f -o r-$f.tsv \
		    --timings t-$f.tsv "${args[@]}"
		sa-testimg convert n-$f/t1.tif n-$f.png
	done
	assert_equal "$(codec n-default/t1.tif) $(codec n-zstd/t1.tif) $(codec n-deflate/t1.tif) $(codec n-none/t1.tif)" \
	    "50000 50000 8 1"
	cmp n-zstd.png n-default.png
	cmp n-zstd.png n-deflate.png
	cmp n-zstd.png n-none.png
	[ "$(stat -c %s n-none/t1.tif)" -gt $((200 * 200 * 3)) ]
	run segrun --bucket 0 --tiles tiles/list --save-normalized n-bad -o r.tsv \
	    --timings t.tsv --normalized-format lzw
	assert_failure 2
	assert_output --partial "--normalized-format 'lzw': not deflate, zstd or none"
	[ ! -e n-bad ]
}

@test "--estimate-memory: 64 + ceil(P (6 + 16 N) / 2^20) MiB from the PNG and TIFF headers of the largest tile" {
	mkdir tiles
	sa-testimg solid 300 200 250 250 250 tiles/small.png
	sa-testimg solid 1000 700 250 250 250 tiles/big.png
	sa-testimg convert tiles/big.png tiles/big.tif
	printf 'small.png\nbig.tif\n' > tiles/tif.list
	printf 'small.png\n' > tiles/png.list
	# 700000 x (6 + 16) / 1048576 = 14.69 -> 79; with N = 4: 46.73 -> 111
	run seg-run --estimate-memory --tiles tiles/tif.list
	assert_success
	assert_output 79
	run seg-run --estimate-memory --tiles tiles/tif.list --active-paths 4
	assert_output "$(awk 'BEGIN { x = 700000 * (6 + 16 * 4) / 1048576
	    printf "%d", 64 + (x == int(x) ? x : int(x) + 1) }')"
	assert_output 111
	# 60000 x 22 / 2^20 = 1.26 -> 66
	run seg-run --estimate-memory --tiles tiles/png.list
	assert_output 66
}

# no_budget_env: the budget from physical memory (or a cgroup), none of
# the variables of the caller's job
no_budget_env() {
	unset SR_MAX_MEMORY SLURM_MEM_PER_NODE SLURM_MEM_PER_CPU \
	    SLURM_CPUS_ON_NODE SLURM_CPUS_PER_TASK
}

@test "a 1 MB PNG declaring 32768x32768 is refused before decoding: the whole run's estimate against --max-memory 5G, both numbers (issue 25)" {
	no_budget_env
	reference
	sa-testimg zeros 32768 32768 big.png
	echo big.png > big.list
	# the old check let it through (4 GiB to decode < 5 GiB) and the run
	# peaked at 16.8 GB; timeout: the old one is stopped, not waited for
	run timeout 60 /usr/bin/time -f %M -o rss seg-run --workflow "$WF" \
	    --instances i.tsv --buckets b.tsv --bucket 0 --tiles big.list \
	    --max-memory 5G -o r.tsv --timings t.tsv
	assert_failure 1
	# 64 + 32768^2 x 22 / 2^20 = 22592
	assert_output "seg-run: big.list:1: big.png: 32768x32768 needs about 22592 MiB for 1 active path, over the memory budget of 5120 MiB (--max-memory)"
	assert [ ! -e r.tsv ]
	assert [ ! -e t.tsv ]
	no_temp_files .
	# nothing decoded: a peak RSS far below the 1 GiB of its pixels
	[ "$(tail -n 1 rss)" -lt 102400 ] || fail "peak RSS $(tail -n 1 rss) KiB"
	SR_MAX_MEMORY=5G run segrun --bucket 0 --tiles big.list --active-paths 2 \
	    -o r.tsv --timings t.tsv
	assert_failure 1
	assert_output --partial "32768x32768 needs about 38976 MiB for 2 active paths, over the memory budget of 5120 MiB (SR_MAX_MEMORY)"
}

@test "the default budget: the Slurm allocation (SLURM_MEM_PER_NODE, SLURM_MEM_PER_CPU x SLURM_CPUS_ON_NODE); --max-memory and SR_MAX_MEMORY first; a job given --estimate-memory's MiB runs (issue 25)" {
	no_budget_env
	reference
	mkdir tiles
	sa-testimg mosaic 4096 tiles/t.png "$MONUSEG/TCGA-21-5784-01Z-00-DX1.png"
	echo t.png > tiles/list
	# 64 + 4096^2 x 38 / 2^20 = 672 MiB for 2 paths, 416 for one
	SLURM_MEM_PER_NODE=512 run segrun --bucket 0 --tiles tiles/list \
	    --active-paths 2 -o r.tsv --timings t.tsv
	assert_failure 1
	assert_output "seg-run: tiles/list:1: tiles/t.png: 4096x4096 needs about 672 MiB for 2 active paths, over the memory budget of 512 MiB (SLURM_MEM_PER_NODE)"
	assert [ ! -e r.tsv ]
	SLURM_MEM_PER_CPU=256 SLURM_CPUS_ON_NODE=2 run segrun --bucket 0 \
	    --tiles tiles/list --active-paths 2 -o r.tsv --timings t.tsv
	assert_failure 1
	assert_output --partial "over the memory budget of 512 MiB (SLURM_MEM_PER_CPU x SLURM_CPUS_ON_NODE)"
	SLURM_MEM_PER_NODE=512 run segrun --bucket 0 --tiles tiles/list \
	    --active-paths 2 --max-memory 600M -o r.tsv --timings t.tsv
	assert_failure 1
	assert_output --partial "over the memory budget of 600 MiB (--max-memory)"
	SLURM_MEM_PER_NODE=512 SR_MAX_MEMORY=1G run segrun --bucket 0 \
	    --tiles tiles/list --active-paths 2 -o r.tsv --timings t.tsv
	assert_success
	# 416 MiB for one path: within 512
	SLURM_MEM_PER_NODE=512 run segrun --bucket 0 --tiles tiles/list \
	    -o r.tsv --timings t.tsv --force
	assert_success
	# sbatch --mem from --estimate-memory (workflows/engines.sh): the
	# job's SLURM_MEM_PER_NODE is just enough
	mem=$(seg-run --estimate-memory --tiles tiles/list --active-paths 2)
	assert_equal "$mem" 672
	SLURM_MEM_PER_NODE=$mem run segrun --bucket 0 --tiles tiles/list \
	    --active-paths 2 -o r.tsv --timings t.tsv --force
	assert_success
	SLURM_MEM_PER_NODE=$((mem - 1)) run segrun --bucket 0 --tiles tiles/list \
	    --active-paths 2 -o r.tsv --timings t.tsv --force
	assert_failure 1
}

@test "--estimate-memory: bad tiles and options" {
	mkdir tiles
	printf 'not an image\n' > tiles/x.png
	printf 'x.png\n' > tiles/list
	run seg-run --estimate-memory --tiles tiles/list
	assert_failure 1
	assert_output --partial 'tiles/list:1: tiles/x.png: not a TIFF or PNG file'
	printf '\x89PNG\r\n\x1a\n' > tiles/x.png
	run seg-run --estimate-memory --tiles tiles/list
	assert_failure 1
	assert_output --partial 'tiles/x.png: truncated PNG (libpng: unexpected end of file)'
	printf 'II*\0junk' > tiles/x.png
	run seg-run --estimate-memory --tiles tiles/list
	assert_failure 1
	assert_output --partial 'tiles/x.png: corrupt TIFF (libtiff: '
	printf 'gone.png\n' > tiles/list
	run seg-run --estimate-memory --tiles tiles/list
	assert_failure 1
	assert_output --partial 'tiles/gone.png: No such file'
	run seg-run --estimate-memory
	assert_failure 2
	assert_output --partial '--estimate-memory needs --tiles'
	run seg-run --estimate-memory --tiles tiles/list --bucket 0
	assert_failure 2
	assert_output --partial '--estimate-memory takes only --tiles, --active-paths, --workflow, --command-mem'
	run seg-run --estimate-memory --tiles tiles/list --active-paths 0
	assert_failure 2
	assert_output --partial "--active-paths '0'"
}

# ---- tile tables: regions of whole-slide images (wsi-tiles) ------------

# slide_tiles: crops t1, t2 (512x512 MoNuSeg) placed at (512, 512) and
# (1024, 512) of s.tif (2048x1536, deflate, levels of downsample 1, 2, 4)
# and of j.svs (the same as a JPEG Aperio SVS, downsamples 1, 4, 16); the
# default run planned
slide_tiles() {
	crops 2 512
	reference
	sa-testimg slide --downsample 2 2048 1536 s.tif \
	    '512 512 tiles/t1.png' '1024 512 tiles/t2.png'
	sa-testimg slide --format svs --compression jpeg 2048 1536 j.svs \
	    '512 512 tiles/t1.png' '1024 512 tiles/t2.png'
}

# same_masks DIR1 DIR2 NAME1:NAME2...: the run-0 masks are byte-identical
same_masks() {
	local a=$1 b=$2 p
	shift 2
	for p in "$@"; do
		cmp "$a/0/${p%:*}.tif" "$b/0/${p#*:}.tif"
	done
}

@test "a tile table: masks pixel-identical to the same tiles as PNGs (lossless slide at levels 0 and 1, JPEG slide against read_region)" {
	command -v openslide-write-png > /dev/null ||
	    skip "openslide-tools is not installed"
	slide_tiles
	# level 0 of the deflate slide: the placed PNGs themselves; the tables
	# without their slides' colour moments, so that each tile is
	# normalized from its own, as a PNG of a list is
	wsi-tiles --size 512 -o s0.tsv s.tif
	sed -i 's/ norm_mean=.*$//' s0.tsv
	assert_equal "$(body s0.tsv | cut -f 1-7 | tail -n +2)" "$(printf '%s\n' \
	    's_512_512	s.tif	0	512	512	512	512' \
	    's_1024_512	s.tif	0	1024	512	512	512')"
	segrun --bucket 0 --tiles s0.tsv --masks m0 -o r0.tsv --timings t0.tsv
	segrun --bucket 0 --tiles tiles/list --masks mp -o rp.tsv --timings tp.tsv
	same_masks m0 mp s_512_512:t1 s_1024_512:t2
	# results and timings name the table's tiles
	assert_equal "$(body r0.tsv | cut -f 2 | tail -n +2 | tr '\n' ' ')" 's_512_512 s_1024_512 '
	assert_equal "$(body r0.tsv | cut -f 3,4)" "$(body rp.tsv | cut -f 3,4)"
	grep -q $'^0\ts_1024_512\t1\tSeg0\t' t0.tsv
	# level 1: the pixels OpenSlide's read_region gives, saved as PNGs
	wsi-tiles --level 1 --size 256 -o s1.tsv s.tif
	sed -i 's/ norm_mean=.*$//' s1.tsv
	assert_equal "$(body s1.tsv | cut -f 1,3-7 | tail -n +2 | tr '\t\n' '  ')" \
	    's_512_512 1 512 512 256 256 s_1024_512 1 1024 512 256 256 '
	mkdir l1
	openslide-write-png s.tif 512 512 1 256 256 l1/a.png
	openslide-write-png s.tif 1024 512 1 256 256 l1/b.png
	printf 'a.png\nb.png\n' > l1/list
	segrun --bucket 0 --tiles s1.tsv --masks m1 -o r1.tsv --timings t1.tsv
	segrun --bucket 0 --tiles l1/list --masks n1 -o q1.tsv --timings u1.tsv
	same_masks m1 n1 s_512_512:a s_1024_512:b
	assert_equal "$(sa-testimg info m1/0/s_512_512.tif | cut -d' ' -f1,2)" '256 256'
	# the JPEG slide: not the PNG's pixels, but read_region's
	wsi-tiles --size 512 -o j.tsv j.svs
	sed -i 's/ norm_mean=.*$//' j.tsv
	mkdir jp
	openslide-write-png j.svs 512 512 0 512 512 jp/a.png
	openslide-write-png j.svs 1024 512 0 512 512 jp/b.png
	printf 'a.png\nb.png\n' > jp/list
	refute [ "$(sa-testimg diff jp/a.png tiles/t1.png | cut -d' ' -f3)" = 0 ]
	segrun --bucket 0 --tiles j.tsv --masks mj -o rj.tsv --timings tj.tsv
	segrun --bucket 0 --tiles jp/list --masks nj -o qj.tsv --timings uj.tsv
	same_masks mj nj j_512_512:a j_1024_512:b
}

@test "a tile table: --estimate-memory from the table's sizes; --tile-order shuffles its rows" {
	slide_tiles
	wsi-tiles --size 512 -o s0.tsv s.tif
	assert_equal "$(seg-run --estimate-memory --tiles s0.tsv --active-paths 2)" \
	    "$(seg-run --estimate-memory --tiles tiles/list --active-paths 2)"
	# sa-campaign-conf --tile-sizes reads the table too
	assert_equal "$(sa-campaign-conf --tile-sizes s0.tsv)" \
	    "$(printf 's_512_512\t512\t512\ns_1024_512\t512\t512')"
	printf 'tile\tslide\tlevel\tx\ty\twidth\theight\ttissue\n' > big.tsv
	printf 'a\ts.tif\t0\t0\t0\t3000\t2000\t1\n' >> big.tsv
	run seg-run --estimate-memory --tiles big.tsv
	assert_output "$(awk 'BEGIN { x = 6e6 * 22 / 1048576
	    printf "%d", 64 + (x == int(x) ? x : int(x) + 1) }')"
	run seg-run --estimate-memory --tiles big.tsv --max-memory 10M
	assert_failure 1
	assert_output --partial 'big.tsv:2: a: reading 3000x2000 pixels would need'
	segrun --bucket 0 --tiles s0.tsv --tile-order shuffle:3 -o r.tsv --timings t.tsv
	assert_equal "$(body r.tsv | cut -f 2 | tail -n +2 | sort)" "$(printf 's_1024_512\ns_512_512')"
}

@test "bad tile tables: one-line errors naming table, line and tile, nothing written" {
	slide_tiles
	h=$'tile\tslide\tlevel\tx\ty\twidth\theight\ttissue'
	# refused row RESULT MESSAGE: seg-run on a table of that one row
	refused() {
		printf '%s\n%s\n' "$h" "$1" > bad.tsv
		run segrun --bucket 0 --tiles bad.tsv -o r.tsv --timings t.tsv
		assert_failure 1
		assert_output --partial "$2"
		assert_equal "$(printf '%s\n' "$output" | wc -l)" 1
		assert [ ! -e r.tsv ]
		assert [ ! -e t.tsv ]
		no_temp_files .
	}
	refused $'a\tgone.svs\t0\t0\t0\t64\t64\t1' 'bad.tsv:2: tile a: gone.svs: No such file or directory'
	refused $'a\ts.tif\t3\t0\t0\t64\t64\t1' 'bad.tsv:2: tile a: s.tif: level 3 does not exist (levels 0 to 2)'
	refused $'a\ts.tif\t1\t1024\t0\t1000\t64\t1' 'bad.tsv:2: tile a: s.tif: the region reaches beyond level 1 (1024x768)'
	refused $'a\ttiles/t1.png\t0\t0\t0\t64\t64\t1' 'bad.tsv:2: tile a: tiles/t1.png: not a slide OpenSlide can read'
	refused $'a\ts.tif\t0\t0\t0\t0\t64\t1' "bad.tsv:2: column width: '0' is not a whole number from 1 to"
	refused $'a\ts.tif\t0\t-5\t0\t64\t64\t1' "bad.tsv:2: column x: '-5' is not a whole number from 0 to"
	refused $'a\ts.tif\t0\t0\t0\t64\t64\t1.5' "bad.tsv:2: column tissue: '1.5' is not a fraction from 0 to 1"
	refused $'a/b\ts.tif\t0\t0\t0\t64\t64\t1' "bad.tsv:2: column tile: 'a/b' cannot name a file"
	refused $'a\ts.tif\t0\t0\t0\t64\t64\t1\na\ts.tif\t0\t64\t0\t64\t64\t1' "bad.tsv:3: column tile: 'a' repeats the tile of line 2"
	printf 'tile\tslide\tlevel\tx\ty\twidth\theight\n' > bad.tsv
	run seg-run --estimate-memory --tiles bad.tsv
	assert_failure 1
	assert_output --partial 'bad.tsv:1: not a tile table header (tile slide level x y width height tissue, then optionally overlap neighbours)'
	printf '%s\n' "$h" > bad.tsv
	run seg-run --estimate-memory --tiles bad.tsv
	assert_failure 1
	assert_output --partial 'bad.tsv: no tiles'
	# level-0 tiles overwritten (0xff: no deflate stream): the read fails,
	# naming table, line, tile and slide
	cp s.tif z.tif
	head -c 600000 /dev/zero | tr '\0' '\377' |
	    dd of=z.tif bs=1 seek=20000 conv=notrunc 2> /dev/null
	refused $'z\tz.tif\t0\t0\t0\t2048\t1536\t1' 'bad.tsv:2: tile z: z.tif: OpenSlide: '
}
