#!/usr/bin/env bats
# seg-merge: bucket results and timings as one table, as sa-campaign's
# awk merge wrote it; every option; bad input.
load common

RH='run\ttile\tstatus\tdice\tjaccard\tobject_dice\taji\tobjects\tseconds\n'
TH='bucket\ttile\tdepth\ttask\tinstances\tseconds\tbytes\n'

# buckets: results r0.tsv r1.tsv r2.tsv (r2 without rows), timings t0 t1,
# a reference run's results ref.tsv; #unnormalized lines repeat
buckets() {
	printf "#seg-run 0.1.0\n#bucket=0\n#unnormalized tile=b foreground=0.0100\n${RH}0\ta\tok\t0.5\t0.3\t0.4\t0.2\t12\t1.5\n0\tb\tbackground\t1\t1\t1\t1\t0\t0.1\n" > r0.tsv
	printf "#unnormalized tile=c foreground=0.0200\n#unnormalized tile=b foreground=0.0100\n${RH}1\ta\tno_candidates\t0\t0\t0\t0\t0\t2\n" > r1.tsv
	printf "${RH}" > r2.tsv
	printf '#unnormalized tile=z foreground=0.0000\nrun\ttile\tstatus\tobjects\tseconds\n0\tz\tok\t3\t1\n' > ref.tsv
	printf "#bucket=0 tiles=1\n#read tile=a seconds=0.1\n${TH}0\ta\t1\tnormalize\t0\t0.2\t300\n" > t0.tsv
	printf "${TH}1\ta\t1\tSeg0\t1,2\t0.25\t100\n" > t1.tsv
}

# awkmerge DEST FILE... [-- EXTRA...]: what sa-campaign's merge_files wrote
awkmerge() {
	local dest=$1 files=() extra=()
	shift
	while [ $# -gt 0 ] && [ "$1" != -- ]; do files+=("$1"); shift; done
	[ $# -eq 0 ] || { shift; extra=("$@"); }
	{
		echo "#buckets=${#files[@]}"
		awk '/^#unnormalized / && !seen[$0]++' ${extra[@]+"${extra[@]}"} "${files[@]}"
		awk 'FNR == 1 { h = 0 } /^#/ { next } !h { h = 1; if (!done) { print; done = 1 }; next } { print }' \
		    "${files[@]}"
	} > "$dest"
}

# noprov FILE: FILE without its provenance lines
noprov() {
	grep -v -e '^#seg-merge ' -e '^#command line: ' "$1"
}

@test "results: the awk merge's bytes, #unnormalized lines of -u first, provenance" {
	buckets
	seg-merge -f results -u ref.tsv -o m.tsv r0.tsv r1.tsv r2.tsv
	awkmerge a.tsv r0.tsv r1.tsv r2.tsv -- ref.tsv
	assert_equal "$(noprov m.tsv)" "$(cat a.tsv)"
	assert_equal "$(sed -n 1p m.tsv)" "#seg-merge 0.1.0"
	assert_equal "$(sed -n 2p m.tsv)" "#command line: seg-merge -f results -u ref.tsv -o m.tsv r0.tsv r1.tsv r2.tsv"
	assert_equal "$(grep -c '^#unnormalized' m.tsv)" 3
	assert_equal "$(grep '^#unnormalized' m.tsv | head -1)" "#unnormalized tile=z foreground=0.0000"
	assert_equal "$(body m.tsv | wc -l)" 4
	# stdout without -o, the same bytes
	run seg-merge --format results --unnormalized-from ref.tsv r0.tsv r1.tsv r2.tsv
	assert_success
	assert_equal "$(grep -v '^#' <<< "$output")" "$(body a.tsv)"
	no_temp_files
}

# bats test_tags=fast
@test "timings: the awk merge's bytes, in the order given" {
	buckets
	seg-merge -f timings -o m.tsv t1.tsv t0.tsv
	awkmerge a.tsv t1.tsv t0.tsv
	assert_equal "$(noprov m.tsv)" "$(cat a.tsv)"
	assert_equal "$(body m.tsv | cut -f1 | tr '\n' ' ')" "bucket 1 0 "
}

@test "timings of seg-run --no-normalize: #normalize=no kept once; beside timings without it, a warning and none" {
	buckets
	for b in 0 1; do
		printf "#bucket=$b tiles=1\n#memory heap=0 peak_rss=0\n#normalize=no\n#read tile=a seconds=0.1\n${TH}$b\ta\t1\tnormalize\t0\t0.000002\t300\n" > n$b.tsv
	done
	seg-merge -f timings -o m.tsv n0.tsv n1.tsv
	assert_equal "$(grep -c '^#normalize=no$' m.tsv)" 1
	assert_equal "$(sed -n 4p m.tsv)" '#normalize=no'
	assert_equal "$(body m.tsv | cut -f1 | tr '\n' ' ')" "bucket 0 1 "
	# the rows do not tell which buckets normalized (a campaign resumed
	# with a newer seg-run): a warning, and no line
	run seg-merge -f timings -o m.tsv n0.tsv t0.tsv
	assert_success
	assert_output 'seg-merge: t0.tsv: no #normalize=no line, unlike n0.tsv: the merged timings get none (their normalization rows may not all be measurements)'
	run grep -c normalize=no m.tsv
	assert_output 0
	assert_equal "$(body m.tsv | cut -f1 | tr '\n' ' ')" "bucket 0 0 "
	run seg-merge -f timings -o m.tsv t0.tsv n1.tsv
	assert_output --partial 'n1.tsv: a #normalize=no line, unlike t0.tsv'
	# without the line, none is written
	seg-merge -f timings -o m.tsv t0.tsv t1.tsv
	run grep -c normalize=no m.tsv
	assert_output 0
}

# bats test_tags=fast
@test "results without metric columns (a reference run)" {
	buckets
	seg-merge -f results -o m.tsv ref.tsv ref.tsv
	assert_equal "$(body m.tsv | head -1)" "$(printf 'run\ttile\tstatus\tobjects\tseconds')"
	assert_equal "$(grep -c '^#unnormalized' m.tsv)" 1
}

# bats test_tags=fast
@test "--help, --version" {
	run seg-merge --help
	assert_success
	assert_output --partial 'Usage: seg-merge -f FORMAT'
	run seg-merge -h
	assert_success
	run seg-merge --version
	assert_success
	assert_output --partial 'seg-merge (sareuse)'
}

@test "bad input: another format, another header, bad rows, missing files (exit 1, nothing written)" {
	buckets
	refuse_run seg-merge 1 "t0.tsv:3: a timings header, not a results one" -f results r0.tsv t0.tsv
	refuse_run seg-merge 1 "r0.tsv:4: a results header, not a timings one" -f timings t0.tsv r0.tsv
	refuse_run seg-merge 1 "ref.tsv:2: another header than r0.tsv's" -f results r0.tsv ref.tsv
	refuse_run seg-merge 1 "t0.tsv:3: a timings header, not a results one" -f results -u t0.tsv r0.tsv
	printf 'run\ttile\tstatus\tdice\n' > odd.tsv
	refuse_run seg-merge 1 "odd.tsv:1: not a results header" -f results odd.tsv
	printf "${RH}0\ta\tfine\t1\t1\t1\t1\t0\t1\n" > st.tsv
	refuse_run seg-merge 1 "st.tsv:2: column status: 'fine' is not ok, background, background_likely, no_candidates, error or cancelled" -f results st.tsv
	printf "${RH}-1\ta\tok\t1\t1\t1\t1\t0\t1\n" > neg.tsv
	refuse_run seg-merge 1 "neg.tsv:2: column run: negative run number" -f results neg.tsv
	printf "${RH}0\ta\tok\n" > short.tsv
	refuse_run seg-merge 1 "short.tsv:2" -f results r0.tsv short.tsv
	printf "${TH}0\ta\t1\tSeg0\t1\t-2\t100\n" > negt.tsv
	refuse_run seg-merge 1 "negt.tsv:2: column seconds: negative seconds" -f timings negt.tsv
	refuse_run seg-merge 1 "gone.tsv" -f results r0.tsv gone.tsv
}

@test "usage errors (exit 2)" {
	buckets
	refuse_run seg-merge 2 "no format given" r0.tsv
	refuse_run seg-merge 2 "-f 'metrics': not results or timings" -f metrics r0.tsv
	refuse_run seg-merge 2 "no files to merge" -f results
	refuse_run seg-merge 2 "stdin cannot be one" -f results r0.tsv -
	refuse_run seg-merge 2 "unknown option" -f results --bogus r0.tsv
}
