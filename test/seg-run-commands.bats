#!/usr/bin/env bats
# seg-run on a workflow of commands (workflow(5) column run): each task
# node's command run once per tile however many runs share it, never
# through a shell; failures fail the runs below the node and spare its
# siblings; outputs in a scratch directory that is emptied as the walk
# goes; the commands' metrics in results.tsv.
load common

bats_require_minimum_version 1.5.0

CMDS=$TOP/test/data/commands

setup() {
	cd "$BATS_TEST_TMPDIR" || return 1
	export PATH="$CMDS:$PATH" COUNT_FILE=$BATS_TEST_TMPDIR/count
	crops 2 96
	printf 'name\ttype\tvalues\tdefault\nsigma\treal\t0.5..3\t1\nk\tint\t1:1:3\t1\n' > s.tsv
	sa-sample -m moat -r 3 -s 1 s.tsv > d.tsv
	mkdir -p scratch
}

# mkwf ROW...: w.wf, a workflow of commands with these rows between
# normalize and compare (a row: task^params^run^metrics)
mkwf() {
	local r
	{
		printf 'stage\ttask\tparams\tcost\trun\tmetrics\n'
		printf 'normalize\tnormalize\t-\t0.2\t-\t-\n'
		for r in "$@"; do
			IFS='^' read -r t p c m <<< "$r"
			printf 'seg\t%s\t%s\t1\t%s\t%s\n' "$t" "$p" "$c" "${m:--}"
		done
		printf 'compare\tcompare\t-\t0.01\t-\t-\n'
	} > w.wf
}

# plan ALGORITHM [B]: i.tsv and b.tsv of d.tsv on w.wf
plan() {
	wf-compact -q w.wf d.tsv > i.tsv
	reuse-merge -a "$1" ${2:+-b "$2"} w.wf i.tsv > b.tsv
}

# segrun BUCKET [ARGS...]: seg-run on bucket BUCKET of the plan, the
# crops compared with their masks, scratch in ./scratch
segrun() {
	local b=$1
	shift
	seg-run -q --workflow w.wf --instances i.tsv --buckets b.tsv --bucket "$b" \
	    --tiles tiles/list --ref tiles --ref-suffix .mask.png --scratch scratch "$@"
}

# the default two-task workflow: blur copies its input, thr writes t2's
# mask (whatever the tile), so that the scores are compare-dice's of t2's
# mask against each tile's
default_wf() {
	mkwf "blur^sigma^count blur:{sigma} cp {in} {out}" \
	    "thr^k^count thr:{k} cp $BATS_TEST_TMPDIR/tiles/t2.mask.png {out}"
}

# column NAME FILE: the values of column NAME of a results file
column() {
	body "$2" | awk -F'\t' -v n="$1" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == n) c = i; next } { print $c }'
}

@test "a command task's output is scored as compare-dice scores it, once per tile however many runs share the node" {
	default_wf
	plan none
	segrun 0 -o r.tsv --timings t.tsv
	# bucket 0: one instance, the runs MOAT repeats
	run column status r.tsv
	assert_output "$(printf 'ok\n%.0s' $(seq $(body r.tsv | tail -n +2 | wc -l)))"
	compare-dice -q tiles/t2.mask.png tiles/t1.mask.png > c1.tsv
	body r.tsv | awk -F'\t' '$2 == "t1"' | cut -f4-7 | sort -u > t1.scores
	assert_equal "$(cat t1.scores)" "$(body c1.tsv | tail -n +2 | cut -f3-6)"
	assert_equal "$(body r.tsv | awk -F'\t' '$2 == "t2" { print $4 $7 }' | sort -u)" 11
	# the timings: normalize, blur, thr and compare per tile
	assert_equal "$(body t.tsv | cut -f2,4 | tail -n +2 | tr '\t\n' ' ;')" \
	    "t1 normalize;t1 blur;t1 thr;t1 compare;t2 normalize;t2 blur;t2 thr;t2 compare;"
	assert_equal "$(cut -d: -f1 count | sort | uniq -c | tr -s ' ')" " 2 blur
 2 thr"
}

@test "invocations: the plan's merged task nodes times tiles, with rtma and with none; the same results" {
	# thr writes t1's or t2's mask as k is even or odd
	mkwf "blur^sigma^count blur:{sigma} cp {in} {out}" \
	    "thr^k^count thr:{k} sh -c 'cp $BATS_TEST_TMPDIR/tiles/t\$((\$1 % 2 + 1)).mask.png \$2' sh {k} {out}"
	local alg b n tasks
	for alg in none rtma; do
		plan $alg $([ $alg = none ] || echo 4)
		: > count
		n=$(body b.tsv | tail -n +2 | wc -l)
		for ((b = 0; b < n; b++)); do
			segrun $b -o r$alg.$b.tsv --timings t$alg.$b.tsv
		done
		tasks=$(grep -o 'tasks_merged=[0-9]*' b.tsv | cut -d= -f2)
		assert_equal "$(wc -l < count)" $((tasks * 2))
		seg-merge -f results -o r$alg.tsv r$alg.*.tsv
	done
	# MOAT's 3 trajectories, 2 parameters: 9 runs, fewer nodes merged
	assert_equal "$(grep -o 'tasks_noreuse=[0-9]*' b.tsv)" tasks_noreuse=18
	[ "$(grep -o 'tasks_merged=[0-9]*' b.tsv | cut -d= -f2)" -lt 18 ]
	assert_equal "$(body rnone.tsv | cut -f1-8 | sort -n)" "$(body rrtma.tsv | cut -f1-8 | sort -n)"
	# the header, 1 (a tile's own mask) and the Dice of the two masks
	assert_equal "$(body rnone.tsv | cut -f4 | sort -u | wc -l)" 3
}

# runs_with K: the runs of d.tsv whose k is K, each twice (two tiles)
runs_with() {
	body d.tsv | awk -F'\t' -v k="$1" 'NR > 1 && $3 == k { print $1; print $1 }'
}

@test "a failing command fails the runs below it on that tile, its siblings go on: exit, signal, timeout, no output" {
	local fail why
	for fail in 'exit 3|exit 3' 'kill -9 $$|killed by signal 9 (Killed)' 'sleep 30|timeout after 0.5 s' \
	    ':|it did not create {out}'; do
		why=${fail#*|}
		mkwf "blur^sigma^sh -c 'cp \$1 \$2' sh {in} {out} {sigma}" \
		    "thr^k^sh -c 'if [ \$1 = 2 ]; then echo about to fail >&2; ${fail%%|*}; else cp \$2 \$3; fi' sh {k} $BATS_TEST_TMPDIR/tiles/t2.mask.png {out}"
		plan rtma 100
		run -0 --separate-stderr segrun 0 --task-timeout 0.5 -o r.tsv --timings t.tsv --force
		assert_equal "$(body r.tsv | awk -F'\t' '$3 == "error" { print $1 }')" "$(runs_with 2)"
		assert_equal "$(body r.tsv | awk -F'\t' '$3 == "ok"' | wc -l)" $((2 * 9 - $(runs_with 2 | wc -l)))
		# the failed rows have no values; the reason and the log's tail on stderr
		body r.tsv | awk -F'\t' '$3 == "error" && ($4 != "" || $10 != "") { exit 1 }'
		[[ $stderr == *"t1: task thr (node "*"): $why; the last lines of its log:"*"| about to fail"* ]]
	done
	# nothing is left in the scratch directory
	run ls -A scratch
	assert_output ''
}

@test "a command not found: exit 1 before anything runs, naming the workflow's line and PATH" {
	mkwf "blur^sigma^no-such-command-xyz {in} {out} {sigma}"
	plan none
	run segrun 0 -o r.tsv --timings t.tsv
	assert_failure 1
	assert_output --partial "w.wf:3: column run: command 'no-such-command-xyz' not found (PATH="
	[ ! -e r.tsv ] && [ ! -e t.tsv ]
	run ls -A scratch
	assert_output ''
}

@test "a template's words arrive as one argument each, never through a shell: a hostile tile name stays one word" {
	local evil='$(touch PWNED);rm -rf x; `touch PWNED2`'
	mkdir -p ev
	cp tiles/t1.png "ev/$evil.png"
	cp tiles/t1.mask.png "ev/$evil.mask.png"
	printf '%s\n' "$evil.png" > ev/list
	mkwf "blur^sigma^argv {out.txt} {tile} \"two words\" x{{y}}z {sigma} {threads}" \
	    "thr^k^sh -c 'cat \$1 >> $BATS_TEST_TMPDIR/seen; cp $BATS_TEST_TMPDIR/tiles/t1.mask.png \$2' sh {in} {out} {k}"
	plan rtma 100
	seg-run -q --workflow w.wf --instances i.tsv --buckets b.tsv --bucket 0 \
	    --tiles ev/list --ref ev --ref-suffix .mask.png --scratch scratch \
	    --command-logs logs --threads-per-path 3 -o r.tsv --timings t.tsv
	[ ! -e PWNED ] && [ ! -e PWNED2 ] && [ ! -e ev/PWNED ]
	assert_equal "$(body r.tsv | awk -F'\t' 'NR > 1 { print $3 }' | sort -u)" ok
	# 5 words after {out.txt}, each as it was written
	assert_equal "$(head -5 seen)" "5
$evil
two words
x{y}z
$(body d.tsv | awk -F'\t' 'NR == 2 { print $2 }')"
	assert_equal "$(sed -n 6p seen)" 3
	# --command-logs kept no empty log
	run ls -A logs
	assert_output ''
	run ls -A scratch
	assert_output ''
}

@test "an enum of words: each word, hostile ones too, reaches its command as one argument; nothing runs from it" {
	printf 'name\ttype\tvalues\tdefault\nsigma\treal\t0.5..3\t1\nk\tenum\t$(>PWNED),;rm,`>PWNED2`\t;rm\n' > s.tsv
	sa-sample -m grid -p 2 s.tsv > d.tsv
	mkwf "blur^sigma^cp {in} {out}" \
	    "thr^k^sh -c 'printf \"%s\\n\" \"\$1\" >> $BATS_TEST_TMPDIR/seen; cp $BATS_TEST_TMPDIR/tiles/t1.mask.png \$2' sh {k} {out}"
	plan rtma 100
	# the instances hold the words, and the design's space to read them
	assert_equal "$(grep -c '^#space' i.tsv)" 2
	assert_equal "$(body i.tsv | awk -F'\t' '$1 == "seg" { print $6 }' | sort -u | tr '\n' ' ')" \
	    '$(>PWNED) ;rm `>PWNED2` '
	segrun 0 -o r.tsv --timings t.tsv
	assert_equal "$(body r.tsv | awk -F'\t' 'NR > 1 { print $3 }' | sort -u)" ok
	# 2 sigmas x 3 words, the thr node of each run once per tile: 12 lines
	assert_equal "$(wc -l < seen)" 12
	assert_equal "$(sort -u seen | tr '\n' ' ')" '$(>PWNED) ;rm `>PWNED2` '
	run find "$BATS_TEST_TMPDIR" -name 'PWNED*'
	assert_output ''
}

@test "placeholders: {tile}, {ref}, {threads}, {out/}, {out.npy}, {scratch} hold what workflow(5) says" {
	mkwf "a^sigma^sh -c 'mkdir \$4; printf \"%s|%s|%s\\n\" \"\$1\" \"\$2\" \"\$3\" > \$4/args; [ -d \$5 ] && touch \$5/tmp' sh {tile} {ref} {threads} {out/} {scratch}" \
	    "b^k^sh -c 'cat \$1/args > \$2; cp \$2 \$3/seen-\$(basename \$(dirname \$1))' sh {in} {out.npy} $BATS_TEST_TMPDIR" \
	    "c^-^sh -c 'cat \$1 >> $BATS_TEST_TMPDIR/seen; cp $BATS_TEST_TMPDIR/tiles/t1.mask.png \$2' sh {in} {out}"
	plan rtma 100
	segrun 0 --threads-per-path 2 -o r.tsv --timings t.tsv
	assert_equal "$(sort -u seen)" "t1|$BATS_TEST_TMPDIR/tiles/t1.mask.png|2
t2|$BATS_TEST_TMPDIR/tiles/t2.mask.png|2"
	run ls -A scratch
	assert_output ''
}

@test "the commands' metrics: NAME<TAB>number lines to {metrics}, columns of results.tsv after seconds that sa-indices reads" {
	mkwf "blur^sigma^sh -c 'cp \$1 \$2; printf \"sig\\t%s\\n\" \$3 > \$4' sh {in} {out} {sigma} {metrics}^sig" \
	    "thr^k^sh -c 'cp $BATS_TEST_TMPDIR/tiles/t2.mask.png \$1; printf \"kk\\t%s\\nk2\\t%s\\n\" \$2 \$((\$2 * 2)) > \$3' sh {out} {k} {metrics}^kk,k2"
	plan rtma 100
	segrun 0 -o r.tsv --timings t.tsv
	assert_equal "$(body r.tsv | sed -n 1p)" "$(printf 'run\ttile\tstatus\tdice\tjaccard\tobject_dice\taji\tobjects\tseconds\tsig\tkk\tk2')"
	# each run's row holds its own values of the design
	assert_equal "$(body r.tsv | awk -F'\t' 'NR > 1 && $2 == "t1" { print $1, $10, $11, $12 }' | sort -n)" \
	    "$(body d.tsv | awk -F'\t' 'NR > 1 { print $1, $2, $3, 2 * $3 }' | sort -n)"
	# sa-indices analyses a command's metric: k2 is 2 k, its mu* twice kk's
	sa-indices -m moat --metric k2 d.tsv r.tsv > k2.tsv
	sa-indices -m moat --metric kk d.tsv r.tsv > kk.tsv
	assert_equal "$(body k2.tsv | awk -F'\t' '$1 == "k" { print $3 }')" \
	    "$(body kk.tsv | awk -F'\t' '$1 == "k" { print 2 * $3 }')"
}

@test "a metric line that is not NAME<TAB>number of a declared metric, or a metric missing, fails the run with the reason" {
	local line why
	for line in 'area 5|not NAME<TAB>number' 'area\tfive|not a number' 'area\tnan|not a number' \
	    'other\t1|not a metric of the task' 'area\t1\narea\t2|given twice' '|metric area missing'; do
		why=${line#*|}
		mkwf "blur^sigma^sh -c 'cp \$1 \$2; if [ \$4 = 0.5 ]; then printf \"${line%%|*}\" > \$3; else printf \"area\\t1\\n\" > \$3; fi' sh {in} {out} {metrics} {sigma}^area" \
		    "thr^k^sh -c 'cp $BATS_TEST_TMPDIR/tiles/t2.mask.png \$1' sh {out} {k}"
		plan rtma 100
		run -0 --separate-stderr segrun 0 -o r.tsv --timings t.tsv --force
		assert_equal "$(body r.tsv | awk -F'\t' '$3 == "error" { print $1 }')" \
		    "$(body d.tsv | awk -F'\t' 'NR > 1 && $2 == 0.5 { print $1; print $1 }')"
		[[ $stderr == *"task blur (node "*"$why"* ]]
	done
}

@test "--active-paths 1 and 4: the same results; the scratch directory holds at most active paths x depth node directories" {
	mkwf "a^sigma^sh -c 'cp \$1 \$2; ls -d $BATS_TEST_TMPDIR/scratch/*/*/*/ | wc -l >> $BATS_TEST_TMPDIR/dirs' sh {in} {out} {sigma}" \
	    "b^k^sh -c 'cp $BATS_TEST_TMPDIR/tiles/t\$((\$1 % 2 + 1)).mask.png \$2; ls -d $BATS_TEST_TMPDIR/scratch/*/*/*/ | wc -l >> $BATS_TEST_TMPDIR/dirs' sh {k} {out}"
	plan rtma 100
	local a
	for a in 1 4; do
		: > dirs
		segrun 0 --active-paths $a -o r$a.tsv --timings t$a.tsv
		sort -n dirs | tail -1 > max$a
		[ "$(cat max$a)" -le $((a * 2)) ]
	done
	assert_equal "$(cat max1)" 2
	assert_equal "$(body r1.tsv | cut -f1-8)" "$(body r4.tsv | cut -f1-8)"
	run ls -A scratch
	assert_output ''
}

@test "--masks: each run's last output as its mask, read as labels" {
	default_wf
	plan none
	segrun 0 --masks m -o r.tsv --timings t.tsv
	local run0
	run0=$(body r.tsv | awk -F'\t' 'NR == 2 { print $1 }')
	compare-dice -q m/$run0/t1.tif tiles/t2.mask.png > c.tsv
	assert_equal "$(column dice c.tsv)" 1
}

@test "seg-run's command options: bad values are usage errors; --estimate-memory takes none of them" {
	default_wf
	plan none
	segrun0() { segrun 0 "$@"; }
	refuse_run segrun0 2 "--task-timeout" --task-timeout -1 --timings t.tsv
	refuse_run segrun0 2 "--threads-per-path" --threads-per-path 0 --timings t.tsv
	run seg-run --estimate-memory --tiles tiles/list --scratch x
	assert_failure 2
	assert_output --partial "--estimate-memory takes only --tiles"
	run segrun 0 --scratch /nonexistent/dir -o r.tsv --timings t.tsv
	assert_failure
	assert_output --partial "--scratch /nonexistent/dir: cannot make a directory there"
	[ ! -e r.tsv ]
}

# sleeper: seg-run started in the background ($SEG) on a command that
# writes its pid to pid and its child's (a sleep 300) to pid2, once both
# are written
sleeper() {
	mkwf "a^sigma^sh -c 'echo \$\$ > $BATS_TEST_TMPDIR/pid; sleep 300 & echo \$! > $BATS_TEST_TMPDIR/pid2; wait' sh {sigma} {in} {out}"
	plan rtma 100
	seg-run -q --workflow w.wf --instances i.tsv --buckets b.tsv --bucket 0 \
	    --tiles tiles/list --scratch scratch -o r.tsv --timings t.tsv 2> err &
	SEG=$!
	local k
	for ((k = 0; k < 200; k++)); do [ -s pid2 ] && break; sleep 0.05; done
	[ -s pid2 ]
}

# sleeper_gone: the command and its child are gone within 2 s
# (PR_SET_PDEATHSIG, the commands' reaper)
sleeper_gone() {
	local k
	for ((k = 0; k < 40; k++)); do
		kill -0 "$(cat pid)" 2> /dev/null || kill -0 "$(cat pid2)" 2> /dev/null || break
		sleep 0.05
	done
	run ! kill -0 "$(cat pid)"
	run ! kill -0 "$(cat pid2)"
}

@test "kill -9 of seg-run during a long command: no command left running; the next seg-run sweeps its scratch directory" {
	sleeper
	local seg=$SEG
	assert_equal "$(ls scratch | wc -l)" 1
	kill -9 $seg
	wait $seg || true
	sleeper_gone
	[ ! -e r.tsv ] && [ ! -e t.tsv ]
	# its scratch directory is left, and swept by the next run on this host
	assert_equal "$(ls scratch | wc -l)" 1
	mkwf "a^sigma^sh -c 'cp \$1 \$2' sh {in} {out} {sigma}"
	plan rtma 100
	segrun 0 -o r.tsv --timings t.tsv
	run ls -A scratch
	assert_output ''
}

@test "SIGTERM of seg-run during a long command: no command left running, its scratch directory removed, no output" {
	sleeper
	local seg=$SEG
	kill -TERM $seg
	local st=0
	wait $seg || st=$?
	assert_equal "$st" $((128 + 15))
	sleeper_gone
	run ls -A scratch
	assert_output ''
	[ ! -e r.tsv ] && [ ! -e t.tsv ]
	no_temp_files
}

@test "{in} of the first command: a PNG tile as it is without normalize, any other tile decoded and written as a PNG" {
	printf 'stage\ttask\tparams\tcost\trun\tmetrics\n' > w.wf
	printf 'seg\ta\tsigma\t1\t%s\t-\n' "sh -c 'echo \$1 >> $BATS_TEST_TMPDIR/in; head -c 4 \$1 | od -An -c | tr -d \" \" >> $BATS_TEST_TMPDIR/magic; cp $BATS_TEST_TMPDIR/tiles/t1.mask.png \$2' sh {in} {out} {sigma}" >> w.wf
	printf 'compare\tcompare\t-\t0.01\t-\t-\n' >> w.wf
	plan rtma 100
	segrun 0 -o r.tsv --timings t.tsv
	assert_equal "$(sort -u in)" "$(printf '%s\n' "$PWD"/tiles/t1.png "$PWD"/tiles/t2.png)"
	# no normalize row in the timings: the workflow has none
	run ! grep -q $'\tnormalize\t' t.tsv
	sa-testimg mosaic 96 tiles/t3.tif tiles/t1.png
	cp tiles/t1.mask.png tiles/t3.mask.png
	echo t3.tif > tiles/list
	: > in
	: > magic
	segrun 0 -o r2.tsv --timings t2.tsv
	[[ $(sort -u in) == "$PWD/scratch/seg-run."*/0/in.png ]]
	assert_equal "$(sort -u magic)" 211PNG
	# told by its bytes, not its name: a TIFF named .png is decoded too
	cp tiles/t3.tif tiles/t4.png
	cp tiles/t1.mask.png tiles/t4.mask.png
	echo t4.png > tiles/list
	: > magic
	segrun 0 -o r3.tsv --timings t3.tsv
	assert_equal "$(sort -u magic)" 211PNG
}

@test "tuning on a command's metric: its values in the ledger, a resumed bucket takes them back; a failed run has no value and is cancelled" {
	# blur fails on sigma = 3; thr writes area = k
	mkwf "blur^sigma^sh -c '[ \$3 != 3 ] || exit 4; cp \$1 \$2' sh {in} {out} {sigma}" \
	    "thr^k^sh -c 'cp $BATS_TEST_TMPDIR/tiles/t2.mask.png \$1; printf \"area\\t%s\\n\" \$2 > \$3' sh {out} {k} {metrics}^area"
	plan rtma 100
	run -0 segrun 0 --ledger l.tsv --metric area --cancel none -o r.tsv --timings t.tsv
	grep -q '^#metric=area rule=none ' l.tsv
	# each result's value is its run's k, and its detail holds area=k
	body l.tsv | awk -F'\t' 'NR > 1 && $4 != "-" { print $2, $4, $6 }' | sort -n > values
	[ -s values ]
	while read -r r v d; do
		assert_equal "$v" "$(body d.tsv | awk -F'\t' -v r="$r" '$1 == r { print $3 }')"
		[[ $d == *" area=$v" ]]
	done < <(body l.tsv | awk -F'\t' 'NR > 1 && $4 != "-" { print $2, $4, $6 }')
	# the failed runs: no value, status error in the detail
	assert_equal "$(body l.tsv | awk -F'\t' 'NR > 1 && $4 == "-" { print $2 }' | sort -un)" \
	    "$(body d.tsv | awk -F'\t' 'NR > 1 && $2 == 3 { print $1 }' | sort -un)"
	# resumed against the full ledger: nothing runs (the commands now
	# fail), the same results
	mkwf "blur^sigma^sh -c 'exit 9' sh {in} {out} {sigma}" \
	    "thr^k^sh -c 'exit 9' sh {out} {k} {metrics}^area"
	segrun 0 --ledger l.tsv --metric area --cancel none -o r2.tsv --timings t2.tsv
	assert_equal "$(body r2.tsv | cut -f1-8,10)" "$(body r.tsv | cut -f1-8,10)"
	# a metric that is neither built in nor the commands': a usage error
	run segrun 0 --ledger l2.tsv --metric volume -o r3.tsv --timings t3.tsv
	assert_failure 2
	assert_output --partial "--metric 'volume': not dice, jaccard, object_dice or aji, nor a metric of w.wf's commands"
	[ ! -e r3.tsv ]
}
