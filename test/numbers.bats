#!/usr/bin/env bats
# The numbers sareuse writes as text: byte-identical to the recorded
# outputs (test/golden-numbers: designs of every method, indices of every
# method), whatever formats them (issue 17: double-conversion).
load common

# bats test_tags=fast
@test "designs and indices: the recorded bytes (test/data/golden/numbers.sha256)" {
	run "$TOP/test/golden-numbers" out
	assert_success
	assert_output "$(cat "$TOP/test/data/golden/numbers.sha256")"
}
