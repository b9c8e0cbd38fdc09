#!/usr/bin/env bats
# Resource and range bounds (issue 12, items 7 and 8): what sa-sample
# writes reads back; images and their tiles are refused before they are
# allocated when they exceed the memory budget or a sane decompression
# ratio; seg-run's memory estimate never overflows.
load common

bats_require_minimum_version 1.5.0

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
