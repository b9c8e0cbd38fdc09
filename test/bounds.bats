#!/usr/bin/env bats
# Resource and range bounds (issue 12, items 7 and 8): what sa-sample
# writes reads back; images and their tiles are refused before they are
# allocated when they exceed the memory budget or a sane decompression
# ratio; seg-run's memory estimate never overflows.
load common

bats_require_minimum_version 1.5.0

# bats test_tags=fast
@test "a real range whose width overflows a double is refused when read (not inf and -nan in the design)" {
	printf 'name\ttype\tvalues\tdefault\nx\treal\t-1e308..1e308\t0\n' > s.tsv
	run sa-sample -m mc -n 4 s.tsv
	assert_failure 1
	assert_output "sa-sample: s.tsv:2: column values: parameter x: range '-1e308..1e308': its width hi - lo overflows a double"
	printf 'name\ttype\tvalues\tdefault\nx\treal\t-1e308:1e308:1e308\t0\n' > g.tsv
	run sa-sample -m mc -n 4 g.tsv
	assert_failure 1
	assert_output --partial "grid '-1e308:1e308:1e308': its width hi - lo overflows a double"
}

@test "a range as wide as a double allows is sampled, and every value reads back" {
	printf 'name\ttype\tvalues\tdefault\nx\treal\t-8e307..8e307\t0\ny\treal\t0..1.7e308\t0\n' > s.tsv
	for m in mc lhs halton sobol moat vbd grid; do
		run sa-sample -m $m -n 8 -r 2 -p 4 -o d-$m.tsv s.tsv
		assert_success
		refute grep -qiE 'inf|nan' d-$m.tsv
		# every value finite and in its range
		run awk -F'\t' '!/^#/ && $1 != "run" && ($2 + 0 < -8e307 || $2 + 0 > 8e307) { print; exit 1 }' d-$m.tsv
		assert_success
	done
}

# bomb.png: a 69-byte PNG declaring 1 x 2^30 RGB pixels
make_png_bomb() {
	python3 -c '
import struct, zlib, sys
def chunk(t, d): return struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d))
sys.stdout.buffer.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 1, 1 << 30, 8, 2, 0, 0, 0))
    + chunk(b"IDAT", zlib.compress(b"\0\0\0\0")) + chunk(b"IEND", b""))' > bomb.png
}

@test "a 69-byte PNG declaring 1x2^30 pixels is refused at once, by the probe too (no bogus estimate)" {
	make_png_bomb
	echo bomb.png > t.list
	run timeout 10 seg-run --estimate-memory --tiles t.list
	assert_failure 1
	assert_output --partial 'bomb.png: truncated or corrupt PNG: 1x1073741824 pixels need at least 4161790 bytes of compressed data'
	run timeout 10 compare-dice bomb.png bomb.png
	assert_failure 1
	assert_output --partial 'bomb.png: truncated or corrupt PNG'
}

@test "an image beyond --max-memory or SR_MAX_MEMORY is refused naming the file and what it needs" {
	sa-testimg solid 512 512 1 2 3 s.png
	sa-testimg blank 512 512 m.png
	run compare-dice --max-memory 512K m.png m.png
	assert_failure 1
	assert_output 'compare-dice: m.png: reading 512x512 pixels would need 2 MiB, above the memory budget of 524288 bytes (--max-memory)'
	SR_MAX_MEMORY=1M run compare-dice m.png m.png
	assert_failure 1
	assert_output --partial 'above the memory budget of 1 MiB (SR_MAX_MEMORY)'
	# the whole comparison: 64 + ceil(512^2 x 12 / 2^20) = 67 MiB
	SR_MAX_MEMORY=66M run compare-dice m.png m.png
	assert_failure 1
	assert_output 'compare-dice: m.png: 512x512 needs about 67 MiB to compare, over the memory budget of 66 MiB (SR_MAX_MEMORY)'
	SR_MAX_MEMORY=67M run compare-dice m.png m.png
	assert_success
	echo s.png > t.list
	run seg-run --estimate-memory --tiles t.list --max-memory 1M
	assert_failure 1
	assert_output --partial 's.png: reading 512x512 pixels would need 2 MiB'
	run seg-run --estimate-memory --tiles t.list --max-memory 1G
	assert_success
	run compare-dice --max-memory 1x m.png m.png
	assert_failure 2
	assert_output --partial "--max-memory '1x': a size"
	SR_MAX_MEMORY=lots run compare-dice m.png m.png
	assert_failure 2
	assert_output --partial "SR_MAX_MEMORY='lots': a size"
}

@test "a TIFF tile that decodes to far more than its compressed bytes is refused before decoding" {
	sa-testimg bomb 4096 bomb.tif
	run timeout 20 sa-testimg convert bomb.tif o.png
	assert_failure 1
	assert_output --regexp 'bomb.tif: tile 0 decodes to 50331648 bytes from [0-9]+, more than 256:1'
	SR_MAX_MEMORY=8M run compare-dice bomb.tif bomb.tif
	assert_failure 1
	# a real tiled image, blank tiles included, still reads
	sa-testimg solid 2048 2048 0 0 0 black.png
	sa-testimg convert --tile 2048 black.png black.tif
	run sa-testimg convert black.tif back.png
	assert_success
}

# bats test_tags=fast
@test "an instances file naming run 255555557 among 32 is refused at once naming its line, not after allocating gigabytes (fuzzing find)" {
	f=$TOP/test/data/fuzz-regress/instances/run-255555557
	# under a 300 MB address-space limit where it is the tool's own (not
	# under valgrind or ASan's shadow memory)
	if [ "${VALGRIND:-}" = 1 ] || ldd "$SR_BIN/reuse-merge" | grep -q libasan; then
		run reuse-merge -a none -o b.tsv "$TOP/share/workflows/nuclei.wf" "$f"
	else
		run bash -c "ulimit -v 300000 && reuse-merge -a none -o b.tsv '$TOP/share/workflows/nuclei.wf' '$f'"
	fi
	assert_failure 1
	assert_output "reuse-merge: $f:5: column runs: run 255555557, but stage normalize lists 32 runs (runs go from 0 to 31)"
	assert [ ! -e b.tsv ]
}

# bats test_tags=fast
@test "a 238-byte TIFF of 18761 samples a pixel is refused before libtiff's RGBA interface allocates 4.4 GB (fuzzing find)" {
	f=$TOP/test/data/fuzz-regress/tiff/spp-18761-deflate
	sa-sample --reference -o ref.tsv "$SPACE"
	wf-compact -q -o i.tsv "$TOP/share/workflows/nuclei.wf" ref.tsv
	reuse-merge -a none -o b.tsv "$TOP/share/workflows/nuclei.wf" i.tsv
	echo "$f" > tiles.list
	run seg-run -q --workflow "$TOP/share/workflows/nuclei.wf" --instances i.tsv \
	    --buckets b.tsv --bucket 0 --tiles tiles.list -o r.tsv --timings t.tsv
	assert_failure 1
	assert_output "seg-run: $f: decodes to 4461515888 bytes from 230, more than 256:1 (a decompression bomb?)"
	assert [ ! -e r.tsv ]
}

@test "an 860-byte uncompressed TIFF declaring 11536x18196 pixels is refused as truncated, not decoded to gigabytes of nothing (fuzzing find)" {
	f=$TOP/test/data/fuzz-regress/tiff/uncompressed-11536x18196-in-860-bytes
	echo "$f" > tiles.list
	run seg-run --estimate-memory --tiles tiles.list
	assert_failure 1
	assert_output "seg-run: tiles.list:1: $f: truncated TIFF: 11536x18196 pixels uncompressed need 26238632 bytes, the file has 860"
	run compare-dice "$f" "$f"
	assert_failure 1
	assert_output --partial "truncated TIFF"
}

@test "compare-dice: a 1 MB PNG declaring 32768x32768 is refused before decoding, with the whole comparison's need against --max-memory 5G (issue 25)" {
	sa-testimg zeros 32768 32768 big.png
	run timeout 60 /usr/bin/time -f %M -o rss compare-dice --max-memory 5G \
	    big.png big.png
	assert_failure 1
	# 64 + 32768^2 x 12 / 2^20 = 12352
	assert_output 'compare-dice: big.png: 32768x32768 needs about 12352 MiB to compare, over the memory budget of 5120 MiB (--max-memory)'
	[ "$(tail -n 1 rss)" -lt 102400 ] || fail "peak RSS $(tail -n 1 rss) KiB"
}
