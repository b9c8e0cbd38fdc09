#!/usr/bin/env bats
# The examples, and so the README's main job (make demo), end to end.
load common

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
