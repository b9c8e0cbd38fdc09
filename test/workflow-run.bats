#!/usr/bin/env bats
# workflow(5)'s run column: workflows whose tasks are commands, read by
# wf-compact and reuse-merge (reuse planned as for built-in tasks, the
# stage of commands merged), and refused, naming file, line and byte,
# where a template or the workflow's shape is wrong. seg-run executes
# them: seg-run-commands.bats.
load common

bats_require_minimum_version 1.5.0

setup() {
	cd "$BATS_TEST_TMPDIR" || return 1
	printf 'name\ttype\tvalues\tdefault\nsigma\treal\t0.5..3\t1\nmethod\tenum\t1,2,3\t1\noffset\treal\t-1..1\t0\n' > s.tsv
	sa-sample -m moat -n 4 -s 1 s.tsv > d.tsv
}

# mkwf FILE ROW...: a workflow with a run column and these rows
mkwf() {
	local f=$1
	shift
	printf 'stage\ttask\tparams\tcost\trun\n' > "$f"
	printf '%s\n' "$@" >> "$f"
}

# stage_counts INSTANCES: "stage count" per stage, as wf-compact wrote them
stage_counts() {
	body "$1" | tail -n +2 | cut -f1 | uniq -c | while read -r n s; do echo "$s $n"; done
}

@test "a workflow of commands: stage-level reuse as for built-in tasks, the same instances as without the run column" {
	mkwf c.wf $'normalize\tnormalize\t-\t0.2\t-' \
	    $'seg\tblur\tsigma\t1\tblur.py -s {sigma} {in} {out}' \
	    $'seg\tthr\tmethod,offset\t1\tthr.py "--method {method}" {offset} {in} {out.tif}' \
	    $'compare\tcompare\t-\t0.01\t-'
	wf-compact -q c.wf d.tsv > i.tsv
	# the same workflow without commands plans the same instances
	cut -f1-4 c.wf > plain.wf
	wf-compact -q plain.wf d.tsv > plain.tsv
	assert_equal "$(body i.tsv)" "$(body plain.tsv)"
	assert_equal "$(stage_counts i.tsv)" "$(printf 'normalize 1\nseg 37\ncompare 37')"
}

@test "reuse-merge merges the stage of commands, also when it has one task and another stage as many" {
	mkwf one.wf $'normalize\tnormalize\t-\t0.2\t-' $'seg\tone\tsigma\t1\tone {sigma} {in} {out}'
	wf-compact -q one.wf d.tsv > i.tsv
	reuse-merge -a rtma -b 2 one.wf i.tsv > b.tsv
	grep -qx '#algorithm=rtma stage=seg cost=tasks b=2' b.tsv
	# without the run column the first stage of the tie is merged, as before
	cut -f1-4 one.wf > plain.wf
	reuse-merge -a rtma -b 2 plain.wf i.tsv > p.tsv 2>&1 || true
	run ! grep -q 'stage=seg' p.tsv
	mkwf two.wf $'seg\tone\tsigma\t1\tone {sigma} {in} {out}' $'compare\tcompare\t-\t1\t-'
	wf-compact -q two.wf d.tsv > i2.tsv
	reuse-merge -a rtma -b 2 two.wf i2.tsv > b2.tsv
	grep -qx '#algorithm=rtma stage=seg cost=tasks b=2' b2.tsv
	# its #stats count that stage: 4 distinct sigmas of MOAT's levels
	grep -q '^#stats runs=80 instances=4 ' b2.tsv
}

@test "a placeholder naming no parameter of its task: exit 1 naming file:line:byte and the task's params" {
	mkwf bad.wf $'seg\tblur\tsigma\t1\tblur.py -s {sigma2} {in} {out}'
	refuse_run wf-compact 1 "bad.wf:2:29: column run: task blur: {sigma2}: not a placeholder nor a parameter of the task (its params: sigma)" bad.wf d.tsv
	refuse_run reuse-merge 1 "bad.wf:2:29: column run: task blur: {sigma2}" -a rtma bad.wf d.tsv
}

@test "bad templates: unclosed quote and brace, a lone brace, an empty placeholder, a placeholder as the program, two output forms, a bad extension" {
	local row=$'seg\tt\tsigma\t1\t' cases=(
		'x "a {in} {out}|3|a quote without its closing quote'
		'x {in {out}|3|{in {out}: not a placeholder'
		'x {in} }|8|a lone'
		'x {} {out}|3|an empty placeholder'
		'{in} x {out}|1|the program (the first word) cannot hold a placeholder'
		'x {out} {out.tif}|9|a second output form'
		'x {out.t-f}|3|{out.t-f}: an extension is letters and digits'
		'x {sigma} {in} {out|16|'"'"'{'"'"' without its'
		' |1|an empty command')
	local c tmpl col msg
	for c in "${cases[@]}"; do
		IFS='|' read -r tmpl col msg <<< "$c"
		mkwf bad.wf "$row$tmpl"
		run wf-compact bad.wf d.tsv
		assert_failure 1
		assert_output --partial "bad.wf:2:$((14 + col)): column run: task t: $msg"
	done
}

@test "reserved parameter names: the placeholders and the columns run and tile, in workflows and spaces" {
	local name
	for name in in out tile ref threads metrics scratch run; do
		mkwf r.wf $'seg\tt\tsigma,'"$name"$'\t1\tx {sigma} {in} {out}'
		refuse_run wf-compact 1 "r.wf:2: column params: parameter name '$name' is reserved" r.wf d.tsv
	done
	# a workflow without a run column refuses them as well
	printf 'stage\ttask\tparams\tcost\nseg\tt\tsigma,in\t1\n' > p.wf
	refuse_run wf-compact 1 "p.wf:2: column params: parameter name 'in' is reserved" p.wf d.tsv
}

@test "the shape of a workflow of commands: one stage of commands, normalize before it, compare after it, alone in their stages" {
	local shape="a workflow of commands is an optional stage of normalize alone, one stage of command tasks and an optional stage of compare alone (workflow(5))"
	mkwf w.wf $'normalize\tnormalize\t-\t1\t-' $'a\tone\tsigma\t1\tone {sigma} {in} {out}' \
	    $'b\ttwo\tmethod\t1\ttwo {method} {in} {out}'
	refuse_run wf-compact 1 "w.wf:4: task two: a second stage of commands (not yet: one stage of commands is merged): $shape" w.wf d.tsv
	mkwf w.wf $'seg\tone\tsigma\t1\tone {sigma} {in} {out}' $'seg\tSeg0\t-\t1\t-'
	refuse_run wf-compact 1 "w.wf:3: task Seg0: a built-in task among the commands (a task without a run)" w.wf d.tsv
	mkwf w.wf $'pre\tfoo\t-\t1\t-' $'seg\tone\tsigma\t1\tone {sigma} {in} {out}'
	refuse_run wf-compact 1 "w.wf:2: task foo: a built-in task before the commands other than normalize alone in its stage" w.wf d.tsv
	mkwf w.wf $'normalize\tnormalize\t-\t1\t-' $'normalize\tx\t-\t1\t-' $'seg\tone\tsigma\t1\tone {sigma} {in} {out}'
	refuse_run wf-compact 1 "w.wf:2: task normalize: a built-in task before the commands" w.wf d.tsv
	mkwf w.wf $'a\tnormalize\t-\t1\t-' $'b\tfoo\t-\t1\t-' $'seg\tone\tsigma\t1\tone {sigma} {in} {out}'
	refuse_run wf-compact 1 "w.wf:2: task normalize: a built-in task before the commands" w.wf d.tsv
	mkwf w.wf $'seg\tone\tsigma\t1\tone {sigma} {in} {out}' $'post\tcompare\t-\t1\t-' $'post\tx\t-\t1\t-'
	refuse_run wf-compact 1 "w.wf:3: task compare: a built-in task after the commands other than compare alone in its stage" w.wf d.tsv
	mkwf w.wf $'seg\tone\tsigma\t1\tone {sigma} {in} {out}' $'post\tcompare\t-\t1\t-' $'last\tx\t-\t1\t-'
	refuse_run wf-compact 1 "w.wf:3: task compare: a built-in task after the commands" w.wf d.tsv
	mkwf w.wf $'normalize\tnormalize\t-\t1\tmy-normalize {in} {out}' $'seg\tone\tsigma\t1\tone {sigma} {in} {out}'
	refuse_run wf-compact 1 "w.wf:2: column run: task normalize: normalize and compare are built-in tasks: name a command otherwise" w.wf d.tsv
}

@test "a parameter of a task missing from its command is warned of (it still tells runs apart); run - is a built-in task" {
	mkwf w.wf $'normalize\tnormalize\t-\t1\t-' $'seg\tone\tsigma,offset\t1\tone {sigma} {in} {out}'
	run wf-compact -q -o i.tsv w.wf d.tsv
	assert_success
	assert_output "wf-compact: w.wf:3: task one: parameter offset is not in its command (it still tells runs apart)"
	[ -s i.tsv ]
}

@test "metrics a command writes: declared in the metrics column, with {metrics} in its command; refused when they clash or are missing" {
	printf 'stage\ttask\tparams\tcost\trun\tmetrics\n' > head
	row() { { cat head; printf '%s\n' "$@"; } > m.wf; }
	row $'seg\tone\tsigma\t1\tone {sigma} {in} {out} {metrics}\tarea,count'
	wf-compact -q m.wf d.tsv > i.tsv
	[ -s i.tsv ]
	row $'seg\tone\tsigma\t1\tone {sigma} {in} {out}\tarea'
	refuse_run wf-compact 1 "m.wf:2: column metrics: task one declares metrics and its command has no {metrics} to write them to" m.wf d.tsv
	row $'seg\tone\tsigma\t1\tone {sigma} {in} {out} {metrics}\t-'
	refuse_run wf-compact 1 "m.wf:2: column run: task one: {metrics} without metrics declared (column metrics: the names it writes)" m.wf d.tsv
	local name
	for name in dice jaccard object_dice aji objects seconds status run tile; do
		row $'seg\tone\tsigma\t1\tone {sigma} {in} {out} {metrics}\t'"$name"
		refuse_run wf-compact 1 "m.wf:2: column metrics: metric $name: a column of results already" m.wf d.tsv
	done
	row $'seg\tone\tsigma\t1\tone {sigma} {in} {out} {metrics}\ta' $'seg\ttwo\tmethod\t1\ttwo {method} {in} {out} {metrics}\tb,a'
	refuse_run wf-compact 1 "m.wf:3: column metrics: metric a named twice: a metric is one column of results" m.wf d.tsv
	row $'seg\tone\tsigma\t1\tone {sigma} {in} {out} {metrics}\tmethod' $'seg\ttwo\tmethod\t1\ttwo {method} {in} {out}\t-'
	refuse_run wf-compact 1 "m.wf:2: column metrics: metric method is also a parameter's name" m.wf d.tsv
	row $'normalize\tnormalize\t-\t1\t-\tx' $'seg\tone\tsigma\t1\tone {sigma} {in} {out}\t-'
	refuse_run wf-compact 1 "m.wf:2: column metrics: task normalize: metrics of a built-in task: only a command writes its own (column run)" m.wf d.tsv
	row $'seg\tone\tsigma\t1\tone {sigma} {in} {out} {metrics}\ta b'
	refuse_run wf-compact 1 "m.wf:2: column metrics: 'a b' is not a metric name" m.wf d.tsv
}
