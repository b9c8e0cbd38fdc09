#!/usr/bin/env bats
# Man pages: mandoc -Tlint is clean, man -l prints no warnings, every tool has a page, and the commands
# in every EXAMPLES section run.
load common

@test "every man page is mandoc -Tlint clean" {
	run mandoc -Tlint -W warning "$TOP"/man/man*/*.[157]
	assert_success
	assert_output ''
}

@test "man -l of every page prints nothing on stderr (groff's mdoc too: no macro name such as An first in a .%T)" {
	command -v man > /dev/null || skip "man is not installed"
	local page err
	for page in "$TOP"/man/man*/*.[157]; do
		err=$(MANWIDTH=80 man -l "$page" 2>&1 > /dev/null)
		[ -z "$err" ] || fail "$(basename "$page"): $err"
	done
}

@test "every tool has a man page in section 1 with EXAMPLES and EXIT STATUS" {
	for t in "$SR_BIN"/*; do
		page=$TOP/man/man1/${t##*/}.1
		[ -f "$page" ] || fail "no man page for ${t##*/}"
		grep -q '^\.Sh EXAMPLES' "$page" || fail "${t##*/}.1: no EXAMPLES"
		grep -q '^\.Sh EXIT STATUS' "$page" || fail "${t##*/}.1: no EXIT STATUS"
	done
}

# run_examples PAGE: runs its EXAMPLES in a fresh directory holding the
# shipped spaces and workflows and tiles/tissue{,.mask}.png; fails on the
# first command that fails.
run_examples() {
	local page=$1 dir
	dir=$(mktemp -d "$BATS_TEST_TMPDIR/ex.XXXXXX")
	cp "$TOP"/share/spaces/*.tsv "$TOP"/share/workflows/*.wf "$dir"
	mkdir "$dir/tiles"	# a tile and its ground truth for seg-run's examples
	cp "$TOP"/test/data/monuseg/TCGA-21-5784-01Z-00-DX1.png "$dir/tiles/tissue.png"
	cp "$TOP"/test/data/monuseg/TCGA-21-5784-01Z-00-DX1.mask.png \
	    "$dir/tiles/tissue.mask.png"
	"$TOP"/test/man-examples "$page" > "$dir/.examples.sh"
	[ -s "$dir/.examples.sh" ] || { echo "$page: no examples"; return 1; }
	(cd "$dir" && bash -e -o pipefail .examples.sh)
}

@test "EXAMPLES of every section 1 page run" {
	for page in "$TOP"/man/man1/*.1; do
		run run_examples "$page"
		[ "$status" -eq 0 ] || fail "$(basename "$page"): $output"
	done
}

@test "EXAMPLES of section 5 and 7 pages run where they have commands" {
	for page in "$TOP"/man/man5/*.5 "$TOP"/man/man7/*.7; do
		[ -f "$page" ] || continue
		"$TOP"/test/man-examples "$page" | grep -q . || continue
		run run_examples "$page"
		[ "$status" -eq 0 ] || fail "$(basename "$page"): $output"
	done
}
