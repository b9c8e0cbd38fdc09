#!/usr/bin/env bats
# seg-run's masks: byte-identical to the ones recorded before the speed and
# memory work of issue 17 (test/golden-masks; the 4096 x 4096 mosaic's are
# checked by test/bench/segrun, too slow for the suite).
load common

@test "masks of the reference and a MOAT design on the 5 MoNuSeg tiles: the recorded bytes (test/data/golden/masks.sha256)" {
	run "$TOP/test/golden-masks" out
	assert_success
	assert_output "$(cat "$TOP/test/data/golden/masks.sha256")"
}
