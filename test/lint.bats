#!/usr/bin/env bats
# make lint: the library's layers (tools/check-layers) hold, and a planted
# include against them is caught.
load common

top=$(cd "$BATS_TEST_DIRNAME/.." && pwd)

@test "check-layers: the tree as it is passes" {
	run "$top/tools/check-layers" "$top/tools/lib"
	[ "$status" -eq 0 ]
	[ -z "$output" ]
}

@test "check-layers: core including sim is refused, naming file and line" {
	cp -r "$top/tools/lib" "$BATS_TEST_TMPDIR/lib"
	sed -i '1a #include "sim/simulate.h"' "$BATS_TEST_TMPDIR/lib/core/err.c"
	run "$top/tools/check-layers" "$BATS_TEST_TMPDIR/lib"
	[ "$status" -eq 1 ]
	[[ "$output" == *"lib/core/err.c:2: core/ may not include sim/simulate.h"* ]]
}

@test "check-layers: sa including exec (an upward edge) is refused" {
	cp -r "$top/tools/lib" "$BATS_TEST_TMPDIR/lib"
	sed -i '1a #include "exec/runner.h"' "$BATS_TEST_TMPDIR/lib/sa/space.h"
	run "$top/tools/check-layers" "$BATS_TEST_TMPDIR/lib"
	[ "$status" -eq 1 ]
	[[ "$output" == *"sa/space.h:2: sa/ may not include exec/runner.h"* ]]
}

@test "check-layers: an include without its folder is refused" {
	cp -r "$top/tools/lib" "$BATS_TEST_TMPDIR/lib"
	sed -i '1a #include "num.h"' "$BATS_TEST_TMPDIR/lib/plan/timings.c"
	run "$top/tools/check-layers" "$BATS_TEST_TMPDIR/lib"
	[ "$status" -eq 1 ]
	[[ "$output" == *"plan/timings.c:2: #include \"num.h\" does not name its folder"* ]]
}

@test "check-layers: a folder missing from the layer table is refused" {
	cp -r "$top/tools/lib" "$BATS_TEST_TMPDIR/lib"
	mkdir "$BATS_TEST_TMPDIR/lib/extra"
	: > "$BATS_TEST_TMPDIR/lib/extra/x.c"
	run "$top/tools/check-layers" "$BATS_TEST_TMPDIR/lib"
	[ "$status" -eq 1 ]
	[[ "$output" == *"extra/: a folder with no line in the layer table"* ]]
}
