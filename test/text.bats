#!/usr/bin/env bats
# Text in TSV files (issue 12, item 11, and the duplicate-column check of
# item 8): UTF-8 required of header and rows, a BOM refused, values shown
# in messages escaped and shortened, a wide header checked in linear time.
load common

bats_require_minimum_version 1.5.0

HEADER=$'name\ttype\tvalues\tdefault'

# bats test_tags=fast
@test "a UTF-8 byte order mark is refused by name, not as a missing column" {
	printf '\xef\xbb\xbf%s\nx\treal\t0..1\t0.5\n' "$HEADER" > bom.tsv
	run sa-sample -m mc -n 2 bom.tsv
	assert_failure 1
	assert_output 'sa-sample: bom.tsv:1: starts with a UTF-8 byte order mark (BOM): save the file as UTF-8 without one'
}

@test "a BOM before a comment line is refused too (stdin)" {
	run sa-sample -m mc -n 2 - < <(printf '\xef\xbb\xbf# c\n%s\nx\treal\t0..1\t0.5\n' "$HEADER")
	assert_failure 1
	assert_output --partial '<stdin>:1: starts with a UTF-8 byte order mark'
}

# bats test_tags=fast
@test "invalid UTF-8 in a row is refused with file, line, column and byte" {
	printf '%s\nx\xff\treal\t0..1\t0.5\n' "$HEADER" > bad.tsv
	run sa-sample -m mc -n 2 bad.tsv
	assert_failure 1
	assert_output 'sa-sample: bad.tsv:2: column name: invalid UTF-8 (byte 0xff at byte 2 of the field)'
}

@test "invalid UTF-8 in the header, overlong forms and surrogates are refused" {
	printf 'name\ttype\tval\xc3\tdefault\nx\treal\t0..1\t0.5\n' > h.tsv
	run sa-sample -m mc -n 2 h.tsv
	assert_failure 1
	assert_output 'sa-sample: h.tsv:1: column 3: invalid UTF-8 (byte 0xc3 at byte 4 of the field)'
	printf '%s\n\xc0\xafx\treal\t0..1\t0.5\n' "$HEADER" > o.tsv
	run sa-sample -m mc -n 2 o.tsv
	assert_failure 1
	assert_output --partial 'o.tsv:2: column name: invalid UTF-8 (byte 0xc0 at byte 1'
	printf '%s\n\xed\xa0\x80\treal\t0..1\t0.5\n' "$HEADER" > s.tsv
	run sa-sample -m mc -n 2 s.tsv
	assert_failure 1
	assert_output --partial 's.tsv:2: column name: invalid UTF-8 (byte 0xed at byte 1'
}

# bats test_tags=fast
@test "valid UTF-8 names pass (é, 中, an emoji)" {
	printf '%s\n\xc3\xa9\treal\t0..1\t0.5\n\xe4\xb8\xad\treal\t0..1\t0.5\n\xf0\x9f\x99\x82\treal\t0..1\t0.5\n' "$HEADER" > u.tsv
	run sa-sample -m mc -n 2 u.tsv
	assert_success
	assert_line $'run\t\xc3\xa9\t\xe4\xb8\xad\t\xf0\x9f\x99\x82'
}

# bats test_tags=fast
@test "control characters in a value shown in a message are escaped" {
	printf '%s\nx\treal\t0..1\t\x1b[31mred\x7f\n' "$HEADER" > ctl.tsv
	run sa-sample -m mc -n 2 ctl.tsv
	assert_failure 1
	assert_output "sa-sample: ctl.tsv:2: column default: parameter x: default '\\x1b[31mred\\x7f': not a number"
}

@test "control characters in any message are escaped: options, paths, a tool's own quotes, strerror's suffix" {
	run sa-sample -m $'mo\x1b[2Jat' x.tsv
	assert_failure 2
	assert_line --index 0 --partial "sa-sample: -m 'mo\\x1b[2Jat': not "
	run wf-compact $'w\x07f.wf' $'d\nx.tsv'
	assert_failure 1
	assert_output "wf-compact: w\\x07f.wf: No such file or directory"
	run seg-run --estimate-memory --tiles $'l\tst\r'
	assert_output "seg-run: l\\tst\\r: No such file or directory"
	# valid UTF-8 is kept as it is
	run seg-run --estimate-memory --tiles 'liste-é中'
	assert_output "seg-run: liste-é中: No such file or directory"
}

@test "a long value in a message is cut after 60 bytes with an ellipsis" {
	long=$(printf 'a%.0s' {1..100})
	printf '%s\nx\treal\t0..1\t%s\n' "$HEADER" "$long" > long.tsv
	run sa-sample -m mc -n 2 long.tsv
	assert_failure 1
	assert_output "sa-sample: long.tsv:2: column default: parameter x: default '$(printf 'a%.0s' {1..60})…': not a number"
}

@test "a duplicate column is named, and a 200,000-column header is checked in linear time" {
	printf '%s\tname\nx\treal\t0..1\t0.5\t1\n' "$HEADER" > dup.tsv
	run sa-sample -m mc -n 2 dup.tsv
	assert_failure 1
	assert_output 'sa-sample: dup.tsv:1: header: column name named twice'
	awk 'BEGIN { for (i = 0; i < 200000; i++) printf "%sc%d", i ? "\t" : "", i; print "" }' > wide.tsv
	run timeout 10 sa-sample -m mc -n 2 wide.tsv
	assert_failure 1
	assert_output "sa-sample: wide.tsv: no column 'name' in the header"
	awk 'BEGIN { for (i = 0; i < 200000; i++) printf "%sc%d", i ? "\t" : "", i; print "\tc199999" }' > wide2.tsv
	run timeout 10 sa-sample -m mc -n 2 wide2.tsv
	assert_failure 1
	assert_output 'sa-sample: wide2.tsv:1: header: column c199999 named twice'
}

@test "invalid UTF-8 in a comment line is accepted (comments carry paths, which are bytes)" {
	printf '# made from /data/\xff\n%s\nx\treal\t0..1\t0.5\n' "$HEADER" > c.tsv
	run sa-sample -m mc -n 2 c.tsv
	assert_success
}

# short_message WANT TOOL ARGS...: TOOL refuses with exit 1 and the one
# line that contains WANT; every run of x (the 8 KB value of the input)
# in it is at most 60 bytes, the cut sareuse(7) states, and the line at
# most 300 bytes.
short_message() {
	local want=$1 longest
	shift
	run "$@"
	assert_failure 1
	assert_equal "${#lines[@]}" 1
	assert_output --partial "$want"
	longest=$(printf '%s\n' "$output" | grep -o 'x*' | awk '{ if (length($0) > n) n = length($0) } END { print n + 0 }')
	assert [ "$longest" -le 60 ]
	assert [ "$(printf '%s' "$output" | wc -c)" -le 300 ]
}

@test "an 8 KB name or value in any reader's message is quoted cut at 60 bytes, on one short line (issue 25)" {
	local x t3=$TOP/test/data/reuse/t3.wf
	x=$(head -c 8192 /dev/zero | tr '\0' x)
	wf-compact -q -o i.tsv "$t3" "$TOP/test/data/reuse/ex2.tsv"
	reuse-merge -a none -o none.tsv "$t3" i.tsv
	{
		printf 'bucket\ttile\tdepth\ttask\tinstances\tseconds\tbytes\n'
		for k in 0 1 2 3 4; do
			printf '%s\ta\t%s\tt%s\t%s\t1\t0\n' $k 1 1 $k $k 2 2 $k $k 3 3 $k
		done
	} > t.tsv
	# space: a parameter name; design: its first column
	printf '%s\nx %s\treal\t0..1\t0.5\n' "$HEADER" "$x" > s.tsv
	short_message "s.tsv:2: column name: parameter x xxx" sa-sample -m mc -n 2 s.tsv
	printf '%s\na\treal\t0..1\t0.5\n' "$HEADER" > a.tsv
	sa-sample -m mc -n 2 -o d.tsv a.tsv
	sed "s/^run\t/$x\t/" d.tsv > d1.tsv
	printf 'run\ty\n0\t1\n1\t2\n' > m.tsv
	short_message "d1.tsv:5: the first column must be 'run', not 'xxx" sa-indices -m corr d1.tsv m.tsv
	# metrics: a value
	printf 'run\ty\n0\t%s\n1\t2\n' "$x" > m1.tsv
	short_message "m1.tsv:2: column y: 'xxx" sa-indices -m corr d.tsv m1.tsv
	# workflow: a stage name
	printf 'stage\ttask\tparams\tcost\ns %s\tt1\tp1\t1\n' "$x" > w.wf
	short_message "w.wf:2: column stage: 's xxx" wf-compact w.wf "$TOP/test/data/reuse/ex2.tsv"
	# instances: the runs
	awk -v x="$x" 'BEGIN { FS = OFS = "\t" } !/^#/ && !/^stage/ { $4 = x } 1' i.tsv > i1.tsv
	short_message "i1.tsv:5: column runs: 'xxx" reuse-merge -a none "$t3" i1.tsv
	# buckets: the instances
	awk -v x="$x" 'BEGIN { FS = OFS = "\t" } !/^#/ && !/^bucket/ { $2 = x } 1' none.tsv > b1.tsv
	short_message "b1.tsv:6: column instances: 'xxx" sim-runtime --workflow "$t3" --instances i.tsv t.tsv b1.tsv
	# timings: a #read line's seconds, a tile of a repeated row
	{ printf '#bucket=0 tiles=1\n#read tile=a seconds=%s\n' "$x"; cat t.tsv; } > t1.tsv
	short_message "t1.tsv: #read tile=a seconds=xxx" sim-runtime t1.tsv
	{ cat t.tsv; printf '0\t%s\t1\tt1\t0\t1\t0\n' "$x" "$x"; } > t2.tsv
	short_message "t2.tsv:18: bucket 0, tile xxx" sim-runtime t2.tsv
	# results and a ledger: a tile not of the timings
	printf 'run\ttile\tdice\n0\t%s\t0.5\n' "$x" > res.tsv
	short_message "res.tsv:2: column tile: 'xxx" sim-runtime --workflow "$t3" --instances i.tsv --results res.tsv --cancel median t.tsv
	printf 'kind\trun\ttile\tvalue\tseconds\tdetail\nresult\t0\t%s\t0.5\t1\t\n' "$x" > ledger.tsv
	short_message "ledger.tsv: run 0: tile 'xxx" sim-runtime --workflow "$t3" --instances i.tsv --results ledger.tsv --cancel median t.tsv
	# a tiles list: a name twice
	printf '/a/%s.png\n/b/%s.png\n' "$x" "$x" > tiles.txt
	short_message "tiles.txt:2: tile name 'xxx" seg-run --estimate-memory --tiles tiles.txt
	# a campaign file: an unknown key, a bad value
	printf '%s=1\n' "$x" > c.conf
	short_message "c.conf:1: unknown key 'xxx" sa-campaign-conf c.conf
}
