#!/usr/bin/env bats
# io: what every tool does when an output cannot be written, memory runs
# out or an output would replace an input (issue 12, items 5 and 6): exit
# 3 for an I/O or system failure, nothing committed when any output
# fails, -o naming an input refused (exit 2), temp names that fit; every
# image writer (TIFF, PNG, thumbnails, gnuplot's plots) on a full tmpfs
# (issue 25).
load common

bats_require_minimum_version 1.5.0

WF=$TOP/share/workflows/nuclei.wf
MONUSEG=$TOP/test/data/monuseg
INDICES=$TOP/test/data/indices
TILE=$MONUSEG/TCGA-21-5784-01Z-00-DX1

# bucket: the reference run planned (ref.tsv, i.tsv, b.tsv) and one
# 48 x 48 tile, tiles/t1.png, listed in tiles/list
bucket() {
	sa-sample --reference -o ref.tsv "$SPACE"
	wf-compact -q -o i.tsv "$WF" ref.tsv
	reuse-merge -a none -o b.tsv "$WF" i.tsv
	mkdir -p tiles
	sa-testimg crop "$TILE.png" 0 0 48 48 tiles/t1.png
	echo t1.png > tiles/list
}

# segrun ARGS: seg-run on bucket 0 of the plan, quiet
segrun() {
	seg-run -q --workflow "$WF" --instances i.tsv --buckets b.tsv \
	    --bucket 0 --tiles tiles/list "$@"
}

# under_ulimit KIB CMD...: CMD under ulimit -v KIB (skipped where virtual
# memory is not the tool's own: valgrind, sanitizers)
under_ulimit() {
	local kib=$1
	shift
	(ulimit -v "$kib" && "$@")
}

# small_fs KIB: a 64 KiB tmpfs mounted on fs, filled to leave KIB free
# (0: none), unmounted by teardown; skips the test, saying why, where it
# cannot be mounted
small_fs() {
	mkdir -p fs
	mount -t tmpfs -o size=64k tmpfs fs 2> mount.err ||
	    skip "cannot mount a tmpfs here (needs root): $(head -n 1 mount.err)"
	head -c $(((64 - $1) * 1024)) /dev/zero > fs/fill 2> /dev/null || true
}

# only_fill: fs holds nothing but its fill (no file, no temporary)
only_fill() {
	run find fs -type f
	assert_output fs/fill
}

teardown() {
	if mountpoint -q "$BATS_TEST_TMPDIR/fs" 2> /dev/null; then
		umount "$BATS_TEST_TMPDIR/fs"
	fi
}

skip_unless_plain() {
	[ "${VALGRIND:-}" != 1 ] || skip "virtual memory limits under valgrind"
	ldd "$SR_BIN/wf-compact" | grep -q libasan && skip "ASan build"
	return 0
}

@test "-o /dev/full exits 3 (an I/O failure) in every tool, naming the file" {
	bucket
	sa-sample -m moat -n 2 -o d.tsv "$SPACE"
	run sa-sample -m moat -n 2 -o /dev/full "$SPACE"
	assert_failure 3
	assert_output --partial '/dev/full: write error: No space left on device'
	run wf-compact -q -o /dev/full "$WF" d.tsv
	assert_failure 3
	run reuse-merge -a none -o /dev/full "$WF" i.tsv
	assert_failure 3
	run sa-indices -m moat -o /dev/full "$INDICES/moat2.tsv" "$INDICES/tiles.tsv"
	assert_failure 3
	run compare-dice -o /dev/full "$TILE.mask.png" "$TILE.mask.png"
	assert_failure 3
	segrun -o r.tsv --timings t.tsv
	run seg-merge -f results -o /dev/full r.tsv
	assert_failure 3
	run sim-runtime -o /dev/full t.tsv
	assert_failure 3
	run segrun --force -o /dev/full --timings t2.tsv
	assert_failure 3
	for t in "$SR_BIN"/*; do
		[ "$(head -c 2 "$t")" = '#!' ] && continue
		run sh -c '"$1" --help > /dev/full' sh "$t"
		assert_failure 3
	done
	no_temp_files
}

@test "seg-run -o /dev/full --timings t.tsv commits no t.tsv, an existing one stays" {
	bucket
	run segrun -o /dev/full --timings t.tsv
	assert_failure 3
	assert_output --partial '/dev/full: write error'
	assert [ ! -e t.tsv ]
	printf 'keep\n' > t.tsv
	run segrun -o /dev/full --timings t.tsv
	assert_failure 3
	assert_equal "$(cat t.tsv)" keep
	run segrun -o r.tsv --timings /dev/full
	assert_failure 3
	assert [ ! -e r.tsv ]
	no_temp_files
}

@test "a full filesystem (tmpfs): nothing committed, no temporaries, exit 3" {
	[ "$(id -u)" = 0 ] || skip "needs root to mount a tmpfs"
	bucket
	mkdir fs
	mount -t tmpfs -o size=64k tmpfs fs || skip "cannot mount a tmpfs"
	# one page (4 KiB) left: the first output written fits, the second
	# gets ENOSPC at the commit, and neither is renamed into place
	head -c 61440 /dev/zero > fs/fill
	run segrun -o fs/r.tsv --timings fs/t.tsv
	local st=$status
	ls -A fs > fs.ls
	umount fs
	[ "$st" -eq 3 ] || fail "seg-run: exit $st, not 3: $output"
	assert_equal "$(cat fs.ls)" fill
	# full: the plot's data cannot be written
	mount -t tmpfs -o size=64k tmpfs fs
	head -c 1M /dev/zero > fs/fill 2>/dev/null || true
	run sa-indices -m moat --plot fs/p.png -o idx.tsv "$INDICES/moat2.tsv" \
	    "$INDICES/tiles.tsv"
	st=$status
	ls -A fs > fs.ls
	umount fs
	[ "$st" -eq 3 ] || fail "sa-indices --plot on a full filesystem: exit $st"
	assert_equal "$(cat fs.ls)" fill
	assert [ ! -e idx.tsv ]
	no_temp_files
}

@test "seg-run on a full filesystem: TIFF and PNG masks, normalized tiles exit 3, no file" {
	bucket
	small_fs 0
	local m
	for m in tif32 png8; do
		run segrun --force -o r.tsv --timings t.tsv --masks fs/m \
		    --mask-format "$m"
		assert_failure 3
		assert_output --partial ": write error: No space left on device"
		assert_output --partial "fs/m/0/t1.${m%%[0-9]*}"
		only_fill
	done
	run segrun --force -o r.tsv --timings t.tsv --save-normalized fs/n
	assert_failure 3
	assert_output 'seg-run: fs/n/t1.tif: write error: No space left on device'
	only_fill
	assert [ ! -e r.tsv ]
	assert [ ! -e t.tsv ]
}

@test "seg-run: a TIFF mask that fills the disk part-way exits 3" {
	bucket
	sa-testimg crop "$TILE.png" 0 0 400 400 tiles/t1.png
	# one page free: the 400 x 400 mask (about 9 KiB) is cut short
	small_fs 4
	run segrun --force -o r.tsv --timings t.tsv --masks fs/m
	assert_failure 3
	assert_output 'seg-run: fs/m/0/t1.tif: write error: No space left on device'
	only_fill
	assert [ ! -e r.tsv ]
}

@test "wsi-tiles --thumbnail on a full filesystem exits 3, no thumbnail, no table" {
	sa-testimg slide 2000 2000 s.tif "0 0 $TILE.png"
	small_fs 0
	run wsi-tiles --size 1000 --thumbnail fs/th.png -o t.tsv s.tif
	assert_failure 3
	assert_output --partial 'wsi-tiles: fs/th.png: write error: No space left on device'
	only_fill
	assert [ ! -e t.tsv ]
}

@test "a plot whose image fills the disk (gnuplot exits 0 on it) exits 3, no plot" {
	command -v gnuplot > /dev/null || skip "no gnuplot"
	# 12 KiB free: the data and script (a page each) fit, the image
	# (11 KiB and more) is cut short, and gnuplot still exits 0
	small_fs 12
	run sa-indices -m moat --plot fs/p.png -o idx.tsv "$INDICES/moat2.tsv" \
	    "$INDICES/tiles.tsv"
	assert_failure 3
	assert_output --partial 'sa-indices: fs/p.png: write error: No space left on device'
	only_fill
	assert [ ! -e idx.tsv ]
	printf 'bucket\ttile\tdepth\ttask\tinstances\tseconds\tbytes\n' > st.tsv
	printf '%s\ta\t1\tt1\t%s\t5\t0\n' 0 0 1 1 >> st.tsv
	run sim-runtime --sweep 1,2,4 --plot fs/m.png -o sr.tsv st.tsv
	assert_failure 3
	assert_output 'sim-runtime: fs/m.png: write error: No space left on device'
	only_fill
	assert [ ! -e sr.tsv ]
	no_temp_files
}

@test "sa-indices --plot pp.png -o /dev/full leaves no pp.png; -o fails: no plot" {
	command -v gnuplot > /dev/null || skip "no gnuplot"
	run sa-indices -m moat --plot pp.png -o /dev/full "$INDICES/moat2.tsv" \
	    "$INDICES/tiles.tsv"
	assert_failure 3
	assert [ ! -e pp.png ]
	run sa-indices -m moat --plot pp.png -o nodir/i.tsv "$INDICES/moat2.tsv" \
	    "$INDICES/tiles.tsv"
	assert_failure 1
	assert [ ! -e pp.png ]
	run sa-indices -m moat --plot /dev/null -o i.tsv "$INDICES/moat2.tsv" \
	    "$INDICES/tiles.tsv"
	assert_success
	assert [ -c /dev/null ]
	no_temp_files
}

@test "an allocation failure exits 3 (out of memory), not 1" {
	skip_unless_plain
	run under_ulimit 60000 sa-sample -m random -n 100000000 -o d.tsv "$SPACE"
	assert_failure 3
	assert_output --partial 'out of memory'
	assert [ ! -e d.tsv ]
}

@test "wf-compact: a piped design with a huge comment line under ulimit -v exits 3, not 0 with part of the runs" {
	skip_unless_plain
	sa-sample -m moat -n 4 -o d.tsv "$SPACE"
	run under_ulimit 60000 bash -c '{ grep "^#" d.tsv; grep -v "^#" d.tsv |
	    head -n 11; printf "#"; head -c 100000000 /dev/zero | tr "\0" x;
	    echo; grep -v "^#" d.tsv | tail -n +12; } | wf-compact -q -o i.tsv "$1" -' \
	    sh "$WF"
	assert_failure 3
	assert_output --regexp '<stdin>:[0-9]+: read error: Cannot allocate memory'
	assert [ ! -e i.tsv ]
}

# bats test_tags=fast
@test "-o naming an input is refused (exit 2, both named), the input untouched" {
	sa-sample -m moat -n 2 -o d.tsv "$SPACE"
	cp d.tsv keep.tsv
	run sa-sample -m moat -n 2 -o ./d.tsv d.tsv
	assert_failure 2
	assert_output --partial 'output ./d.tsv is the input d.tsv'
	run wf-compact -q -o d.tsv "$WF" d.tsv
	assert_failure 2
	assert_output --partial 'output d.tsv is the input d.tsv'
	ln -s d.tsv link.tsv
	run wf-compact -q -o link.tsv "$WF" d.tsv
	assert_failure 2
	cmp d.tsv keep.tsv
	wf-compact -q -o i.tsv "$WF" d.tsv
	run reuse-merge -a none -o i.tsv "$WF" i.tsv
	assert_failure 2
	cp "$INDICES/moat2.tsv" "$INDICES/tiles.tsv" .
	run sa-indices -m moat --plot tiles.tsv moat2.tsv tiles.tsv
	assert_failure 2
	run sa-indices -m moat -o moat2.tsv moat2.tsv tiles.tsv
	assert_failure 2
	cmp moat2.tsv "$INDICES/moat2.tsv"
	run seg-merge -f results -o tiles.tsv tiles.tsv
	assert_failure 2
	cmp tiles.tsv "$INDICES/tiles.tsv"
}

@test "seg-run: -o or --timings naming an input, --save-normalized over a tile: refused" {
	bucket
	cp tiles/t1.png keep.png
	run segrun -o i.tsv --timings t.tsv
	assert_failure 2
	assert_output --partial 'output i.tsv is the input i.tsv'
	run segrun -o r.tsv --timings tiles/list
	assert_failure 2
	run segrun -o r.tsv --timings tiles/t1.png
	assert_failure 2
	sa-testimg crop "$TILE.png" 0 0 48 48 tiles/t2.tif
	echo t2.tif >> tiles/list
	cp tiles/t2.tif keep.tif
	run segrun -o r.tsv --timings t.tsv --save-normalized tiles
	assert_failure 2
	assert_output --partial 'is the input'
	cmp tiles/t2.tif keep.tif
	assert [ ! -e r.tsv ]
}

@test "seg-run --masks DIR: a mask that would replace a reference mask or a tile is refused, nothing written" {
	bucket
	segrun --masks ref -o r0.tsv --timings t0.tsv
	cp ref/0/t1.tif keep.tif
	# the bucket's reference masks in the masks it would write
	run --separate-stderr segrun --ref ref/0 --masks ref -o r.tsv --timings t.tsv
	assert_failure 2
	assert_equal "$(head -1 <<< "$stderr")" "seg-run: --masks ref: the mask of run 0 on tile t1 is the input ref/0/t1.tif: it would be replaced"
	cmp ref/0/t1.tif keep.tif
	assert [ ! -e r.tsv ] && assert [ ! -e t.tsv ]
	# through another spelling of the directory
	run segrun --ref "$PWD/ref/0" --masks ./ref/../ref -o r.tsv --timings t.tsv
	assert_failure 2
	# a tile among them
	mkdir -p m/0
	sa-testimg crop "$TILE.png" 0 0 48 48 m/0/t1.tif
	printf '%s\n' "$PWD/m/0/t1.tif" > tiles/list2
	run seg-run -q --workflow "$WF" --instances i.tsv --buckets b.tsv --bucket 0 \
	    --tiles tiles/list2 --masks m -o r.tsv --timings t.tsv
	assert_failure 2
	assert_output --partial "the mask of run 0 on tile t1 is the input $PWD/m/0/t1.tif"
	# another run's directory, or PNG masks beside TIFF inputs: allowed
	run segrun --ref ref/0 --masks ref --mask-format png8 -o r.tsv --timings t.tsv
	assert_success
	cmp ref/0/t1.tif keep.tif
}

# bats test_tags=fast
@test "an output name of 250 bytes: its temporary fits, the file is written" {
	local name
	name=$(printf 'n%.0s' $(seq 246)).tsv
	run sa-sample -m moat -n 2 -o "$name" "$SPACE"
	assert_success
	assert [ -s "$name" ]
	no_temp_files
}

@test "compare-dice under a shrinking ulimit -v: an image that cannot be held exits 3, never 1" {
	skip_unless_plain
	local v st got3=0
	for v in $(seq 20000 4000 80000); do
		st=0
		under_ulimit "$v" compare-dice "$TILE.labels.png" \
		    "$TILE.labels.png" > /dev/null 2> err.txt || st=$?
		case $st in
		0 | 127) ;;	# enough memory; too little to load the libraries
		3) got3=1 ;;
		*) fail "ulimit -v $v: exit $st: $(cat err.txt)" ;;
		esac
	done
	[ "$got3" = 1 ] || skip "no limit between the libraries and the image"
}
