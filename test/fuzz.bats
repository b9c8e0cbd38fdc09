#!/usr/bin/env bats
# Fuzzing smoke run: the libFuzzer harnesses of every reader (test/fuzz),
# built once with clang into build/fuzz (make fuzzbins), each replaying its
# crash regressions (test/data/fuzz-regress/NAME) and then fuzzing for a
# second over its seed corpus. make fuzz runs them for minutes.
load common

FUZZ=$TOP/build/fuzz

# Builds the harnesses once for the suite (make is incremental); without
# clang every test skips.
setup_file() {
	command -v clang > /dev/null || return 0
	make -C "$TOP" -s -j2 fuzzbins > "$BATS_FILE_TMPDIR/build.log" 2>&1 ||
	    touch "$BATS_FILE_TMPDIR/build.failed"
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

# smoke NAME: the crash regressions replay clean, then a second of fuzzing
# over the seeds ends without a crash after more runs than seeds. At most
# 64 descriptors: a refused read that leaked its file would soon leave
# the harness none to write the next input with (it aborts then).
smoke() {
	local bin=$FUZZ/fuzz-$1 regress=("$TOP"/test/data/fuzz-regress/"$1"/*)

	if [ -e "${regress[0]}" ]; then
		run "$bin" -detect_leaks=0 "${regress[@]}"
		assert_success
	fi
	mkdir corpus
	run bash -c 'ulimit -n 64 && exec "$@"' fuzz "$bin" -max_total_time=1 \
	    -detect_leaks=0 -close_fd_mask=2 -print_final_stats=1 \
	    -artifact_prefix="$PWD/" corpus "$TOP/test/fuzz/corpus/$1"
	assert_success
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
@test "fuzz: timings.tsv (sr_timings_next, sr_simcost_timings, sr_gather)" { smoke timings; }
@test "fuzz: cost models (sr_simcost_model)" { smoke model; }
@test "fuzz: compare-dice pairs (sr_pairs_read)" { smoke pairs; }
@test "fuzz: tiles lists (sr_tiles_read)" { smoke tiles; }
@test "fuzz: ledger.tsv, read as it grows (sr_ledger_update)" { smoke ledger; }
@test "fuzz: campaign files (sr_campaign_parse, sr_campaign_resolve)" { smoke campaign; }
@test "fuzz: PNG (sr_image_probe, sr_rgb_read, sr_labels_read)" { smoke png; }
@test "fuzz: TIFF (sr_image_probe, sr_rgb_read, sr_labels_read)" { smoke tiff; }
