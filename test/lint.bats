#!/usr/bin/env bats
# make lint: the library's layers (tools/check-layers) and the driver's lint
# (tools/check-shell) hold, and what they refuse, planted, is caught.
load common
bats_require_minimum_version 1.5.0

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

# Each exchanged format has one module, the only reader and writer, its
# column names as constants there (issue 11).

@test "formats: no column is looked up by a literal name outside its format module's constants" {
	run grep -rnE 'sr_tsv_(need|col)\([^,]+, *"' "$top/tools"
	[ "$status" -eq 1 ]
	[ -z "$output" ]
}

@test "formats: each format's column constants are defined in one header" {
	local p n
	for p in BUCKETS RESULTS TIMINGS INSTANCES WORKFLOW SPACE METRICS MODEL PAIRS LEDGER; do
		n=$(grep -rlE "^#define SR_${p}_[A-Z_]+[[:space:]]" "$top/tools/lib" | wc -l)
		[ "$n" -eq 1 ] || { echo "SR_${p}_*: defined in $n headers"; return 1; }
	done
	# and the column names of buckets, results, timings, instances appear
	# as literals nowhere else in the library or the tools
	for p in depth bytes object_dice upstream; do
		run grep -rlE "\"$p\"" "$top/tools" --include=*.c --include=*.h
		[ "$(printf '%s\n' "$output" | grep -cv -e plan/timings.h -e plan/results.h \
		    -e plan/instances.h -e image/compare_table.c)" -eq 0 ] ||
		    { echo "\"$p\" in: $output"; return 1; }
	done
}

@test "formats: TSV header lines are written only by format modules" {
	run grep -rlE '"[A-Za-z_0-9]+\\t[A-Za-z_0-9]+' "$top/tools" --include=*.c --include=*.h
	local f bad=
	for f in $output; do
		case ${f#"$top"/tools/} in
		lib/campaign/campaign.c|lib/sim/report.c|lib/sa/indices_tsv.c) ;;
		*) bad="$bad $f" ;;
		esac
	done
	[ -z "$bad" ] || { echo "header literals outside the format modules:$bad"; return 1; }
}

@test "formats: a column looked up by a literal name is caught (the check can fail)" {
	mkdir -p tools/lib/x
	printf 'int f(void *t) { return sr_tsv_need(t, "run"); }\n' > tools/lib/x/bad.c
	run grep -rnE 'sr_tsv_(need|col)\([^,]+, *"' tools
	[ "$status" -eq 0 ]
}

# bats test_tags=fast
@test "check-shell: awk over results.tsv planted in a driver script is refused, naming file and line; the same script without it passes" {
	mkdir -p wf
	printf '#!/bin/bash\n# shellcheck shell=bash\nset -eu\nout=$1\necho "$out"\n' > wf/x.sh
	run "$TOP/tools/check-shell" wf
	assert_success
	assert_output ''
	printf '%s\n' "best=\$(awk -F'\\t' '{ print \$2 }' \"\$out/results.tsv\")" 'echo "$best"' >> wf/x.sh
	run "$TOP/tools/check-shell" wf
	assert_failure 1
	assert_output --partial "wf/x.sh:6: awk, sed or cut in the driver"
	# sed and cut too, after a pipe or in $( ), not in a comment
	printf '%s\n' '#!/bin/bash' '# awk is not run here' > wf/x.sh
	printf '%s\n' 'n=$(sed -n 1p "$1")' 'echo "$n" | cut -f 1' >> wf/x.sh
	run "$TOP/tools/check-shell" wf
	assert_failure 1
	assert_output --partial "wf/x.sh:3: awk, sed or cut"
	assert_output --partial "wf/x.sh:4: awk, sed or cut"
	run ! grep -q 'x.sh:2: awk' <<< "$output"
}

# bats test_tags=fast
@test "check-shell (make lint's): the driver and the job scripts run no awk, sed or cut, allow none, and are shellcheck clean" {
	run "$TOP/tools/check-shell"
	assert_success
	assert_output ''
	run grep -v '^#' "$TOP/tools/check-shell.allow"
	assert_output ''
	run "$TOP/tools/check-shell" --shellcheck
	assert_success
	assert_output ''
}

# The layout (issue 26): no include cycle between the library's files, no
# library file over 900 lines; both checks in the one pass of the layers.

# bats test_tags=fast
@test "check-layers: the tree passes: no include against the layers, no cycle, no file over 900 lines" {
	run "$top/tools/check-layers" "$top/tools/lib"
	assert_success
	assert_output ''
}

# bats test_tags=fast
@test "check-layers: a planted include cycle between two modules is refused, naming it" {
	cp -r "$top/tools/lib" "$BATS_TEST_TMPDIR/lib"
	# tsv.c includes core/err.h: err.c including core/tsv.h closes a circle
	grep -q '^#include "core/err.h"' "$BATS_TEST_TMPDIR/lib/core/tsv.c"
	sed -i '1a #include "core/tsv.h"' "$BATS_TEST_TMPDIR/lib/core/err.c"
	run "$top/tools/check-layers" "$BATS_TEST_TMPDIR/lib"
	[ "$status" -eq 1 ]
	[[ "$output" == *"include cycle: core/err.c -> core/tsv.h (with core/tsv.c) -> core/err.h"* ]]
}

# bats test_tags=fast
@test "check-layers: a planted cycle of headers is refused, naming it" {
	cp -r "$top/tools/lib" "$BATS_TEST_TMPDIR/lib"
	printf '#include "core/b.h"\n' > "$BATS_TEST_TMPDIR/lib/core/a.h"
	printf '#include "core/c.h"\n' > "$BATS_TEST_TMPDIR/lib/core/b.h"
	printf '#include "core/a.h"\n' > "$BATS_TEST_TMPDIR/lib/core/c.h"
	run "$top/tools/check-layers" "$BATS_TEST_TMPDIR/lib"
	[ "$status" -eq 1 ]
	[[ "$output" == *"include cycle: core/a.h -> core/b.h -> core/c.h -> core/a.h"* ]]
}

# bats test_tags=fast
@test "check-layers: a library file of 901 lines is refused, one of 900 passes" {
	cp -r "$top/tools/lib" "$BATS_TEST_TMPDIR/lib"
	seq 900 | sed 's|^|/* |; s|$| */|' > "$BATS_TEST_TMPDIR/lib/plan/long.c"
	run "$top/tools/check-layers" "$BATS_TEST_TMPDIR/lib"
	[ "$status" -eq 0 ]
	echo '/* one more */' >> "$BATS_TEST_TMPDIR/lib/plan/long.c"
	run "$top/tools/check-layers" "$BATS_TEST_TMPDIR/lib"
	[ "$status" -eq 1 ]
	[[ "$output" == *"lib/plan/long.c: 901 lines, over the 900 a library file may have: split it by concern"* ]]
}
