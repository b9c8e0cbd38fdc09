#!/usr/bin/env bats
# sa-campaign on a workflow of commands (workflow(5) column run): the same
# plan, buckets, resume and indices as the nuclei workflow; each task
# node's command invoked once per tile; a command's own metric analysed;
# a bucket killed during a command resumed to the same results.
load common
load campaign

bats_require_minimum_version 1.5.0

CMDS=$TOP/test/data/commands

setup() {
	cd "$BATS_TEST_TMPDIR" || return 1
	export PATH="$CMDS:$PATH" COUNT_FILE=$BATS_TEST_TMPDIR/count
	tiles 96
	printf 'name\ttype\tvalues\tdefault\nsigma\treal\t0.5..3\t1\nk\tint\t1:1:3\t1\n' > s.tsv
	# blur copies the normalized tile; thr writes a's or b's mask as k is
	# even or odd, and k as its metric area
	{
		printf 'stage\ttask\tparams\tcost\trun\tmetrics\n'
		printf 'normalize\tnormalize\t-\t0.2\t-\t-\n'
		printf 'seg\tblur\tsigma\t1\t%s\t-\n' "count blur sh -c 'cp \$1 \$2' sh {in} {out} {sigma}"
		printf 'seg\tthr\tk\t1\t%s\tarea\n' "count thr sh -c 'm=a; [ \$((\$1 % 2)) = 0 ] || m=b; cp $BATS_TEST_TMPDIR/tiles/\$m.mask.png \$2; printf \"area\\t%s\\n\" \$1 > \$3' sh {k} {out} {metrics}"
		printf 'compare\tcompare\t-\t0.01\t-\t-\n'
	} > w.wf
}

# cmd_campaign FILE [KEY=VALUE...]: a MOAT campaign of w.wf on the crops
cmd_campaign() {
	local f=$1
	shift
	campaign "$f" space=s.tsv workflow=w.wf trajectories=4 plot=no report=no "$@"
}

# stat NAME OUT: NAME= of OUT/buckets.tsv's #stats
stat() {
	grep -o " $1=[0-9]*" "$2/buckets.tsv" | cut -d= -f2
}

@test "a MOAT campaign: invocations are tasks_merged x tiles (rtma) and tasks_noreuse x tiles (none), the same indices" {
	local m
	for m in rtma none; do
		cmd_campaign $m.campaign merge=$m metric=objects
		: > count
		sa-campaign -q run $m.campaign
		# the reference step runs the defaults' 2 task nodes on each tile
		assert_equal "$(wc -l < count)" $((($(stat tasks_merged $m-out) + 2) * 2))
	done
	assert_equal "$(stat tasks_noreuse none-out)" "$(stat tasks_noreuse rtma-out)"
	[ "$(stat tasks_merged rtma-out)" -lt "$(stat tasks_noreuse rtma-out)" ]
	assert_equal "$(body rtma-out/indices.tsv)" "$(body none-out/indices.tsv)"
	# k's parity decides the mask, a's (2 objects) or b's (8): a non-zero
	# mu* for k, zero for sigma
	body rtma-out/indices.tsv | awk -F'\t' '$1 == "k" && $3 > 0 { k = 1 } $1 == "sigma" && $3 == 0 { s = 1 } END { exit !(k && s) }'
}

@test "metric = a command's metric: its indices; a metric the results lack is refused naming the workflow's" {
	cmd_campaign m.campaign metric=area
	sa-campaign -q run m.campaign
	grep -q '^#method=moat metric=area ' m-out/indices.tsv
	# area is k: mu* of k is the step of k between levels, sigma's 0
	assert_equal "$(body m-out/indices.tsv | awk -F'\t' '$1 == "sigma" { print $3 }')" 0
	cmd_campaign x.campaign metric=volume
	run sa-campaign plan x.campaign
	assert_failure 1
	assert_output --regexp "^sa-campaign: x.campaign:[0-9]+: metric: volume: not a column of the results of $PWD/w.wf \(its metrics: dice jaccard object_dice aji objects area\)$"
}

@test "the command keys: threads_per_path in {threads} and the array task's cores; task_timeout fails slow commands; warned of for the nuclei workflow" {
	sed -i "s|count blur sh -c 'cp \$1 \$2' sh {in} {out} {sigma}|sh -c 'echo \$3 >> $BATS_TEST_TMPDIR/threads; [ \$4 != 3 ] \|\| sleep 5; cp \$1 \$2' sh {in} {out} {threads} {sigma}|" w.wf
	cmd_campaign c.campaign threads_per_path=2 task_timeout=1 scratch=$BATS_TEST_TMPDIR/scr
	mkdir scr
	# the runs of sigma = 3 fail: a third of them, more than max_missing
	run sa-campaign run c.campaign
	assert_failure 1
	assert_output --partial "have no dice result"
	assert_equal "$(sort -u threads)" 2
	# the runs with sigma = 3 failed on both tiles, the others did not
	assert_equal "$(body c-out/results.tsv | awk -F'\t' '$3 == "error"' | wc -l)" \
	    $((2 * $(body c-out/design.tsv | awk -F'\t' 'NR > 1 && $2 == 3' | wc -l)))
	body c-out/results.tsv | awk -F'\t' 'NR > 1 && $3 != "error" && $3 != "ok" { exit 1 }'
	grep -q 'task blur (node [0-9]*): timeout after 1 s' c-out/logs/bucket-*.log
	run ls -A scr
	assert_output ''
	campaign n.campaign threads_per_path=2 command_mem=1G
	run sa-campaign plan n.campaign
	assert_success
	assert_output --partial "n.campaign:11: threads_per_path: not used: the workflow has no commands (workflow(5) column run)"
	assert_output --partial "n.campaign:12: command_mem: not used: the workflow has no commands (workflow(5) column run)"
}

@test "the plan's memory: seg-run's own and command_mem per active path, or a word that the commands' is not estimated" {
	cmd_campaign a.campaign active_paths=2
	run sa-campaign plan a.campaign
	assert_output --partial "memory of the commands: not estimated"
	local own
	own=$(seg-run --estimate-memory --tiles tiles/list --active-paths 2 --workflow w.wf 2> /dev/null)
	cmd_campaign b.campaign active_paths=2 command_mem=100M
	run sa-campaign plan b.campaign
	assert_output --partial "memory per array task: $((own + 200))M for 2 active path(s)"
}

@test "masks = yes: each run's last output kept as its mask" {
	cmd_campaign m.campaign masks=yes
	sa-campaign -q run m.campaign
	local r k
	r=$(body m-out/design.tsv | awk -F'\t' 'NR == 2 { print $1 }')
	k=$(body m-out/design.tsv | awk -F'\t' 'NR == 2 { print $3 }')
	compare-dice -q m-out/masks/$r/a.tif tiles/$( ((k % 2)) && echo b || echo a).mask.png > c.tsv
	assert_equal "$(body c.tsv | awk -F'\t' 'NR == 2 { print $3 }')" 1
}

@test "kill -9 of a bucket during a long command: no command left running; the resumed campaign's results are an uninterrupted run's" {
	cmd_campaign u.campaign merge=rtma bucket_size=100
	sa-campaign -q run u.campaign
	# the same campaign, its blur slow on one run's sigma the first time
	sed -i "s|count blur sh -c 'cp \$1 \$2' sh {in} {out} {sigma}|sh -c 'if [ ! -e $BATS_TEST_TMPDIR/slow ]; then echo \$\$ > $BATS_TEST_TMPDIR/slow; sleep 300 \& echo \$! > $BATS_TEST_TMPDIR/slow2; wait; fi; cp \$1 \$2' sh {in} {out} {sigma}|" w.wf
	cmd_campaign k.campaign merge=rtma bucket_size=100 -report
	sa-campaign -q plan k.campaign
	touch slow	# the reference step's blur is not slow
	sa-campaign -q reference k.campaign
	rm -f slow slow2
	sa-campaign -q bucket k.campaign 0 &
	local drv=$! t pid pid2
	for ((t = 0; t < 200; t++)); do [ -s slow2 ] && break; sleep 0.05; done
	[ -s slow2 ]
	pid=$(cat slow) pid2=$(cat slow2)
	# the bucket's seg-run (the oldest: its commands' reaper is its fork)
	pkill -KILL -o -f "seg-run -q --workflow $PWD/w.wf"
	wait $drv || true
	for ((t = 0; t < 40; t++)); do
		kill -0 "$pid" 2> /dev/null || kill -0 "$pid2" 2> /dev/null || break
		sleep 0.05
	done
	run ! kill -0 "$pid"
	run ! kill -0 "$pid2"
	[ ! -e k-out/results/00000-0000.tsv ]
	sa-campaign -q run k.campaign
	assert_equal "$(body k-out/results.tsv | cut -f1-8,10)" "$(body u-out/results.tsv | cut -f1-8,10)"
	assert_equal "$(body k-out/indices.tsv)" "$(body u-out/indices.tsv)"
}

@test "tune on a command's metric, in a workflow without compare and without references: the best set is the metric's" {
	# no compare stage: thr writes k as area, and a mask nobody compares
	sed -i '/^compare/d' w.wf
	cmd_campaign t.campaign goal=tune method=grid levels=3 metric=area cancel=none -reference -reference_suffix
	run sa-campaign -q run t.campaign
	assert_success
	# the results have no scores, only the commands' metric
	assert_equal "$(body t-out/results.tsv | head -1)" "$(printf 'run\ttile\tstatus\tobjects\tseconds\tarea')"
	# the best set: k = 3, the largest area
	grep -q '^#best run=[0-9]* metric=area mean=3 tiles=2' t-out/best.tsv
	assert_equal "$(body t-out/best.tsv | awk -F'\t' '$1 == "k" { print $4 }')" 3
	# a reference given to a workflow that compares nothing is refused
	cmd_campaign r.campaign goal=tune method=grid levels=3 metric=area
	run sa-campaign plan r.campaign
	assert_failure 1
	assert_output --partial "reference: $PWD/w.wf ends with no compare stage: nothing to compare with the references"
}

@test "an enum of words: a campaign's commands get the words, its indices are those of the same levels as numbers; tune's best.tsv holds a word; the nuclei workflow refuses words" {
	cmd_campaign n.campaign metric=objects
	sa-campaign -q run n.campaign
	# k as the words one, two, ;rm: thr picks a's mask for two, b's else
	printf 'name\ttype\tvalues\tdefault\nsigma\treal\t0.5..3\t1\nk\tenum\tone,two,;rm\tone\n' > sw.tsv
	grep -v '^seg	thr' w.wf > ww.wf
	printf 'seg\tthr\tk\t1\t%s\tarea\n' "sh -c 'm=b; [ \"\$1\" != two ] || m=a; cp $BATS_TEST_TMPDIR/tiles/\$m.mask.png \$2; printf \"%s\\n\" \"\$1\" >> $BATS_TEST_TMPDIR/got; printf \"area\\t%s\\n\" \${{#1}} > \$3' sh {k} {out} {metrics}" > thr.row
	sed -i "/^seg\tblur/r thr.row" ww.wf
	cmd_campaign w.campaign metric=objects space=sw.tsv workflow=ww.wf
	sa-campaign -q run w.campaign
	run -1 grep -vxF -e k -e one -e two -e ';rm' <(body w-out/design.tsv | cut -f3)
	assert_output ''
	assert_equal "$(body w-out/indices.tsv)" "$(body n-out/indices.tsv)"
	# what thr got as {k} (one: the reference run's): each word as one argument
	assert_equal "$(sort -u got | tr '\n' ' ')" ';rm one two '
	cmd_campaign t.campaign goal=tune method=grid levels=3 metric=dice cancel=none space=sw.tsv workflow=ww.wf
	sa-campaign -q run t.campaign
	grep -q $'^k\tenum\tone,two,;rm\t' t-out/best.tsv
	grep -q $'^#space\tk\tenum\tone,two,;rm\tone$' t-out/trials.tsv
	# the nuclei workflow's own space with FillHoles as words
	awk -F '\t' -v OFS='\t' '$1 == "FillHoles" { $2 = "enum"; $3 = "four,eight"; $4 = "four" } { print }' \
	    "$SPACE" > nw.tsv
	campaign x.campaign space=nw.tsv trajectories=2 plot=no report=no
	run sa-campaign plan x.campaign
	assert_failure 1
	assert_output --partial "nw.tsv: parameter FillHoles is an enum of words (four,eight): the tasks of "
}
