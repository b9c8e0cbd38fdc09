#!/usr/bin/env bats
# Fuzzing smoke run: the libFuzzer harnesses of every reader (test/fuzz),
# built once with clang into build/fuzz (make fuzzbins), each replaying its
# crash regressions (test/data/fuzz-regress/NAME) and then fuzzing 300
# inputs from its seed corpus. make fuzz runs them for minutes.
load common

FUZZ=$TOP/build/fuzz

# smoke_run NAME: in $BATS_FILE_TMPDIR/NAME, the crash regressions
# replayed (regress.log, regress.rc), then 300 inputs fuzzed from the
# seeds (fuzz.log, fuzz.rc): a count, not a time, whatever the load. At most 64 descriptors: a refused read that
# leaked its file would soon leave the harness none to write the next
# input with (it aborts then).
smoke_run() {
	local name=$1 bin=$TOP/build/fuzz/fuzz-$1 dir=$BATS_FILE_TMPDIR/$1
	local regress=("$TOP"/test/data/fuzz-regress/"$1"/*)

	mkdir -p "$dir/corpus"
	cd "$dir" || return 1
	if [ -e "${regress[0]}" ]; then
		"$bin" -detect_leaks=0 "${regress[@]}" > regress.log 2>&1
		echo $? > regress.rc
	fi
	bash -c 'ulimit -n 64 && exec "$@"' fuzz "$bin" -runs=300 \
	    -detect_leaks=0 -close_fd_mask=2 -print_final_stats=1 \
	    -artifact_prefix="$dir/" corpus "$TOP/test/fuzz/corpus/$name" \
	    > fuzz.log 2>&1
	echo $? > fuzz.rc
}

# Builds the harnesses once for the suite (make is incremental), then
# runs every smoke, two at a time (one per core of the reference
# machine); the tests read their outcome. Without clang every test skips.
setup_file() {
	command -v clang > /dev/null || return 0
	if ! make -C "$TOP" -s -j2 fuzzbins > "$BATS_FILE_TMPDIR/build.log" 2>&1; then
		touch "$BATS_FILE_TMPDIR/build.failed"
		return 0
	fi
	export -f smoke_run
	export TOP BATS_FILE_TMPDIR
	printf '%s\n' space design metrics workflow instances buckets results \
	    timings model pairs tiles ledger campaign png tiff tiletable slide georef |
	    xargs -P 2 -I{} bash -c 'smoke_run "$1"' smoke {}
}

# Bats 1.8 cannot skip from setup_file: each test skips here.
setup() {
	command -v clang > /dev/null ||
	    skip "clang is not installed (tools/install-deps installs it)"
	cd "$BATS_TEST_TMPDIR" || return 1
	if [ -e "$BATS_FILE_TMPDIR/build.failed" ]; then
		cat "$BATS_FILE_TMPDIR/build.log" >&2
		return 1
	fi
}

# smoke NAME: the crash regressions replayed clean, then the 300 inputs
# fuzzed without a crash.
smoke() {
	local dir=$BATS_FILE_TMPDIR/$1

	if [ -e "$dir/regress.rc" ]; then
		run cat "$dir/regress.log"
		assert_equal "$(cat "$dir/regress.rc")" 0
	fi
	run cat "$dir/fuzz.log"
	assert_equal "$(cat "$dir/fuzz.rc")" 0
	assert_output --regexp 'stat::number_of_executed_units: +[0-9]{3,}'
	refute_output --partial 'ERROR: '
}

@test "fuzz: space.tsv (sr_space_read)" { smoke space; }
@test "fuzz: design.tsv (sr_design_read)" { smoke design; }
@test "fuzz: metrics (sr_metrics_read)" { smoke metrics; }
@test "fuzz: workflow.wf (sr_workflow_read)" { smoke workflow; }
@test "fuzz: instances.tsv (sr_instances_read)" { smoke instances; }
@test "fuzz: buckets.tsv (sr_buckets_open, sr_buckets_next)" { smoke buckets; }
@test "fuzz: results.tsv (sr_simresults_read, sr_gather)" { smoke results; }
@test "fuzz: timings.tsv (sr_timings_next, sr_simcost_timings, sr_gather, sr_simfit_timings)" { smoke timings; }
@test "fuzz: cost models (sr_simmodel_read, sr_simcost_model)" { smoke model; }
@test "fuzz: compare-dice pairs (sr_pairs_read)" { smoke pairs; }
@test "fuzz: tiles lists (sr_tiles_read)" { smoke tiles; }
@test "fuzz: ledger.tsv, read as it grows (sr_ledger_update)" { smoke ledger; }
@test "fuzz: campaign files (sr_campaign_parse, sr_campaign_resolve)" { smoke campaign; }
@test "fuzz: PNG (sr_image_probe, sr_rgb_read, sr_labels_read)" { smoke png; }
@test "fuzz: TIFF (sr_image_probe, sr_rgb_read, sr_labels_read)" { smoke tiff; }
@test "fuzz: tile tables (sr_tiletable_read)" { smoke tiletable; }
@test "fuzz: slides through OpenSlide (sr_slide_open, sr_slide_read_small, sr_slide_read)" { smoke slide; }
@test "fuzz: slide references as GeoJSON (sr_georef_read, sr_georef_raster)" { smoke georef; }
