#!/usr/bin/env bats
# sa-campaign-conf: a campaign file's settings as NUL-separated records;
# its options, bad campaigns, the table of keys against campaign(5).
load common
bats_require_minimum_version 1.5.0

# small FILE [LINE...]: a small campaign of the shipped space and
# workflow on tiles/list, more lines added
small() {
	local f=$1
	shift
	mkdir -p tiles gt
	echo a.png > tiles/list
	printf '%s\n' "space = $SPACE" 'method = moat' 'tiles = tiles/list' \
	    "workflow = $TOP/share/workflows/nuclei.wf" "$@" > "$f"
}

# every parameter of nuclei.tsv but G1 and G2 fixed: a grid of 320 runs
GRIDFIX=B=220,G=220,R=220,T1=5,T2=4,minSize=12,maxSize=1000,minSizePl=30,minSizeSeg=20,maxSizeSeg=1000,FillHoles=4,MorphRecon=8,Watershed=8

# records FILE...: the records of sa-campaign-conf, one per line
records() {
	sa-campaign-conf "$@" | tr '\0' '\n'
}

@test "the records: every key once, paths absolute, defaults, derived settings, argument lists" {
	small c.campaign 'fix = B=220 G=230' 'reference = gt' 'reference_suffix = .m.png' \
	    'sbatch_options = --comment="x  y" *' 'merge = trtma' 'max_buckets = 3' \
	    'engine = slurm'
	run records c.campaign
	assert_success
	assert_line --index 0 "campaign=$PWD/c.campaign"
	assert_line "space=$SPACE"
	assert_line "tiles=$PWD/tiles/list"
	assert_line "reference=$PWD/gt"
	assert_line "reference_dir=$PWD/gt"
	assert_line "output=$PWD/c-out"
	assert_line 'sbatch_options=--comment="x  y" *'
	assert_line 'seed=1'
	assert_line 'optimize='
	assert_line 'indices_method=moat'
	assert_equal "$(records c.campaign | sed -n 's/^sample_arg=//p' | paste -sd' ')" \
	    "-m moat -r 20 -p 4 -s 1 --fix B=220 --fix G=230"
	assert_equal "$(records c.campaign | sed -n 's/^merge_arg=//p' | paste -sd' ')" \
	    "-a trtma --nodes 1 -B 3 --cost tasks"
	# every key of the table exactly once
	assert_equal "$(records c.campaign | cut -d= -f1 | grep -vx 'sample_arg\|merge_arg\|plan_key' | sort | uniq -d)" ''
	for k in $(sa-campaign-conf --keys | tail -n +2 | cut -f1); do
		records c.campaign | grep -q "^$k=" || fail "no record of $k"
	done
	# NUL-terminated, and nothing else
	assert_equal "$(sa-campaign-conf c.campaign | tail -c 1 | od -An -c | tr -d ' ')" '\0'
	assert_equal "$(sa-campaign-conf c.campaign | tr -cd '\n' | wc -c)" 0
}

# bats test_tags=fast
@test "other methods give their indices method and arguments; reference = defaults has no directory" {
	small c.campaign
	sed -i 's/^method = moat/method = sobol/' c.campaign
	echo 'samples = 64' >> c.campaign
	run records c.campaign
	assert_line 'indices_method=corr'
	assert_line 'reference=defaults'
	assert_line 'reference_dir='
	assert_equal "$(records c.campaign | sed -n 's/^sample_arg=//p' | paste -sd' ')" "-m sobol -n 64 -s 1"
}

@test "-o: the output directory from the current directory; output from the campaign's" {
	mkdir -p sub/tiles
	echo a.png > sub/tiles/list
	small sub/c.campaign 'output = there'
	run records sub/c.campaign
	assert_line "output=$PWD/sub/there"
	assert_line "campaign=$PWD/sub/c.campaign"
	run records -o here sub/c.campaign
	assert_line "output=$PWD/here"
	run records --output /abs/out sub/c.campaign
	assert_line 'output=/abs/out'
	# a relative campaign path with .. and .: the directory as cd makes it
	cd sub
	run records ../sub/./c.campaign
	assert_line "campaign=$(pwd)/c.campaign"
}

# bats test_tags=fast
@test "--share: the default workflow; without it a campaign without workflow is refused" {
	small c.campaign
	sed -i '/^workflow/d' c.campaign
	run records --share "$TOP/share" c.campaign
	assert_success
	assert_line "workflow=$TOP/share/workflows/nuclei.wf"
	run sa-campaign-conf c.campaign
	assert_failure 1
	assert_output "sa-campaign-conf: c.campaign: no 'workflow' key, and no share directory for its default"
	run sa-campaign-conf --share /nonexistent c.campaign
	assert_failure 1
	assert_output "sa-campaign-conf: c.campaign:0: workflow: /nonexistent/workflows/nuclei.wf: no such readable file"
}

@test "--keys: the table, and the same keys as campaign(5)" {
	run sa-campaign-conf --keys
	assert_success
	assert_line --index 0 "$(printf 'key\ttype\tdefault\trole\tconcerns')"
	assert_line "$(printf 'fix\tfix\t-\tplan\tall')"
	assert_line "$(printf 'space\tpath\t(required)\tplan\tall')"
	assert_line "$(printf 'metric\ttext\tdice\ttune-plan\tall')"
	assert_line "$(printf 'mem\tsize\t-\tengine\tslurm pbs')"
	# the keys documented: the .It Cm items of the lists of keys, before
	# the output directory's section (nested lists are values, not keys)
	awk '/^\.Ss The output directory/ { exit } /^\.Bl/ { d++ } /^\.El/ { d-- }
	    d == 1 && /^\.It Cm / { sub(/^\.It Cm /, ""); sub(/ No = .*/, "")
	    gsub(/ , /, "\n"); print }' "$TOP/man/man5/campaign.5" | sort > man.keys
	sa-campaign-conf --keys | tail -n +2 | cut -f1 | sort > table.keys
	run diff man.keys table.keys
	assert_success
	assert [ "$(wc -l < table.keys)" -ge 40 ]
}

@test "bad campaigns: exit 1, one line naming file and line, nothing on stdout" {
	small c.campaign 'levels = 1'
	run --separate-stderr sa-campaign-conf c.campaign
	assert_failure 1
	assert_output ''
	assert_equal "$stderr" "sa-campaign-conf: c.campaign:5: levels: '1' is not an integer from 2"
	small c.campaign 'fix = minSize=7'
	run sa-campaign-conf c.campaign
	assert_failure 1
	assert_output --regexp "^sa-campaign-conf: c.campaign:5: fix: minSize=7: '7' is not a value of minSize \(int .*, default .*\)$"
	small c.campaign 'fix = B=220,B=230'
	run sa-campaign-conf c.campaign
	assert_output "sa-campaign-conf: c.campaign:5: fix: B=230: B is fixed twice"
	small c.campaign 'reference_suffix = .png'
	run sa-campaign-conf c.campaign
	assert_output "sa-campaign-conf: c.campaign:5: reference_suffix needs a reference directory"
	small c.campaign 'mem = 2 G'
	run sa-campaign-conf c.campaign
	assert_output "sa-campaign-conf: c.campaign:5: mem: '2 G' is not a size such as 2000M or 4G"
	printf 'seed = 1\0\n' > nul.campaign
	run sa-campaign-conf nul.campaign
	assert_output "sa-campaign-conf: nul.campaign:1: a NUL byte: not a text file"
	run sa-campaign-conf missing.campaign
	assert_failure 1
	assert_output "sa-campaign-conf: missing.campaign: no such readable file"
	printf 'space = %s\n' "$SPACE" > nomethod.campaign
	run sa-campaign-conf nomethod.campaign
	assert_output "sa-campaign-conf: nomethod.campaign: no 'method' key (required)"
	# a broken space is refused before anything else is done
	printf 'name\ttype\tvalues\tdefault\nB\tint\t1:x:3\t2\n' > s.tsv
	small c.campaign
	sed -i "s|^space = .*|space = s.tsv|" c.campaign
	run sa-campaign-conf c.campaign
	assert_failure 1
	assert_output --partial "s.tsv:2: column values: parameter B:"
}

@test "PBS keys: characters a qsub front end's shell would act on are refused, file and line" {
	small c.campaign 'engine = pbs' 'qsub_options = -m abe -l nodes=1:ppn=2,mem=4gb -M a.b@c.org'
	run records c.campaign
	assert_success
	assert_line 'qsub_options=-m abe -l nodes=1:ppn=2,mem=4gb -M a.b@c.org'
	small c.campaign 'engine = pbs' 'qsub_options = -N $(touch PWNED)'
	run --separate-stderr sa-campaign-conf c.campaign
	assert_failure 1
	assert_output ''
	assert_equal "$stderr" "sa-campaign-conf: c.campaign:6: qsub_options: '\$' in '-N \$(touch PWNED)': only letters, digits and _.,:=@%+/- are passed to the scheduler (a qsub may hand them to a shell)"
	local v
	for v in 'queue = a;b' 'account = x`id`' 'walltime = 1:00:00|x' "queue = a'b" 'account = a"b'; do
		small c.campaign 'engine = pbs' "$v"
		run sa-campaign-conf c.campaign
		assert_failure 1
		assert_output --regexp "^sa-campaign-conf: c.campaign:6: ${v%% *}: '.' in '.*': only letters"
	done
	small c.campaign 'engine = pbs' $'queue = a\x01b'
	run sa-campaign-conf c.campaign
	assert_output 'sa-campaign-conf: c.campaign:6: queue: byte \x01: only letters, digits and _.,:=@%+/- are passed to the scheduler'
	[ ! -e PWNED ]
}

# bats test_tags=fast
@test "a read error of the campaign file exits 3 (an I/O failure), naming file and line" {
	# /proc/self/mem is a regular file whose first read fails with EIO
	run sa-campaign-conf /proc/self/mem
	assert_failure 3
	assert_output 'sa-campaign-conf: /proc/self/mem:1: Input/output error'
}

@test "estimate_from: absolute, a campaign's output that ran; anything else refused naming file and line" {
	mkdir -p run/timings run/ref
	: > run/ref/timings.tsv
	small c.campaign 'estimate_from = run'
	run records c.campaign
	assert_success
	assert_line "estimate_from=$PWD/run"
	for bad in nothere tiles; do
		small c.campaign "estimate_from = $bad"
		run --separate-stderr sa-campaign-conf c.campaign
		assert_failure 1
		assert_output ''
		assert_equal "$stderr" "sa-campaign-conf: c.campaign:5: estimate_from: $PWD/$bad: not the output of a campaign that ran (no timings/ and ref/timings.tsv)"
	done
	rm run/ref/timings.tsv
	small c.campaign 'estimate_from = run'
	run sa-campaign-conf c.campaign
	assert_failure 1
}

@test "--tile-sizes: each tile's name, width and height from its header; a tile that cannot be read: file and line, nothing printed" {
	mkdir -p t
	sa-testimg crop "$MONUSEG/TCGA-21-5784-01Z-00-DX1.png" 0 0 30 20 t/a.png
	sa-testimg crop "$MONUSEG/TCGA-21-5784-01Z-00-DX1.png" 0 0 7 9 t/b.png
	printf '# two\na.png\n\nb.png\n' > t/list
	run --separate-stderr sa-campaign-conf --tile-sizes t/list
	assert_success
	assert_output "$(printf 'a\t30\t20\nb\t7\t9')"
	printf 'a.png\nnope.png\n' > t/list
	run --separate-stderr sa-campaign-conf --tile-sizes t/list
	assert_failure 1
	assert_output ''
	assert_equal "$stderr" "sa-campaign-conf: t/list:2: t/nope.png: No such file or directory"
	run --separate-stderr sa-campaign-conf --tile-sizes missing.list
	assert_failure
	assert_output ''
}

@test "--holder: the live holder of a lock on this host, another host's with the lock's age; nothing for none or a dead one" {
	sleep 30 &
	local pid=$!
	sa-campaign-conf --lock l.lock --pid "$pid"
	run --separate-stderr sa-campaign-conf --holder l.lock
	assert_success
	assert_output --regexp "^$pid [0-9]+$"
	kill "$pid"
	wait "$pid" || true
	run --separate-stderr sa-campaign-conf --holder l.lock
	assert_failure 1
	assert_output ''
	assert_equal "$stderr" ''
	printf 'elsewhere.example %s 1\n' $$ > o.lock
	touch -d '-7 seconds' o.lock
	run sa-campaign-conf --holder o.lock
	assert_success
	assert_output --regexp "^$$ 1 elsewhere.example (7|8)$"
	run sa-campaign-conf --holder missing.lock
	assert_failure 1
	printf 'garbage\n' > g.lock
	run sa-campaign-conf --holder g.lock
	assert_failure 1
}

@test "--attempts: the last attempt of each task, in task order; malformed lines skipped with one warning naming file and line; none for no log" {
	printf '2 n1 100 1795000000\n0 n1 101 1795000001\n2 n2 102 1795000002\n' > attempts
	printf '10 n1 103 1795000003\n3 n1\n1 n1 x 1795000004\n0 n3 104 1795000005\n' >> attempts
	run --separate-stderr sa-campaign-conf --attempts attempts
	assert_success
	assert_output "$(printf '0 n3 104\n2 n2 102\n10 n1 103')"
	assert_equal "$stderr" "sa-campaign-conf: attempts:5: '3 n1': expected 'I HOST PID TIME': a task, the host and process of its attempt, and a time in seconds since the epoch; skipped (2 malformed lines in all: records cut by a kill)"
	run --separate-stderr sa-campaign-conf --attempts none
	assert_success
	assert_output ''
	assert_equal "$stderr" ''
	run sa-campaign-conf --attempts .
	assert_failure
}

# bats test_tags=fast
@test "a 10 MB line is refused in well under a second" {
	small c.campaign
	head -c 10485760 /dev/zero | tr '\0' ' ' >> c.campaign
	run timeout 5 sa-campaign-conf c.campaign
	assert_failure 1
	assert_output "sa-campaign-conf: c.campaign:5: a line longer than 65536 bytes"
}

@test "usage: --help, --version, no campaign, two, stdin, unknown option" {
	run sa-campaign-conf --help
	assert_success
	assert_output --partial 'Usage: sa-campaign-conf'
	run sa-campaign-conf --version
	assert_success
	assert_output --regexp '^sa-campaign-conf \(sareuse\) [0-9.]+$'
	run sa-campaign-conf
	assert_failure 2
	assert_output --partial "expected one CAMPAIGN file, got 0 arguments"
	run sa-campaign-conf a b
	assert_failure 2
	run sa-campaign-conf - < /dev/null
	assert_failure 2
	assert_output --partial "cannot be stdin"
	run sa-campaign-conf --frobnicate c.campaign
	assert_failure 2
	run sa-campaign-conf -o
	assert_failure 2
}

# tune FILE [LINE...]: a small tune campaign (random, ground truth in gt/)
tune() {
	local f=$1
	shift
	small "$f" 'goal = tune' 'reference = gt' "$@"
	sed -i 's/^method = moat/method = random/' "$f"
}

@test "goal = tune: defaults of the tuning keys, the derived records, the plan keys" {
	tune t.campaign
	run records t.campaign
	assert_success
	assert_line 'goal=tune'
	assert_line 'tile_order=shuffle'
	assert_line 'cancel=stable'
	assert_line 'cancel_acc=0.05'
	assert_line 'cancel_time=2'
	assert_line 'cancel_window=5'
	assert_line 'cancel_warmup=2'
	assert_line 'cancel_startup=5'
	assert_line 'cancel_p=0.1'
	assert_line 'metric=dice'
	assert_line 'cancel_rule=stable:acc=0.05,time=2,window=5'
	assert_line 'tile_order_arg=shuffle:1'
	assert_equal "$(records t.campaign | sed -n 's/^plan_key=//p' | grep -e goal -e metric -e tile_order -e cancel | paste -sd'|')" \
	    'goal = tune|metric = dice|tile_order = shuffle|cancel = stable|cancel_acc = 0.05|cancel_time = 2|cancel_window = 5'
	# every rule spelled in full, numbers as numbers, the seed in the order
	tune t.campaign 'cancel = median' 'cancel_startup = 3' 'seed = 42' 'metric = object_dice'
	run records t.campaign
	assert_line 'cancel_rule=median:warmup=2,startup=3'
	assert_line 'tile_order_arg=shuffle:42'
	assert_equal "$(records t.campaign | sed -n 's/^plan_key=//p' | grep -e metric -e tile_order -e cancel | paste -sd'|')" \
	    'metric = object_dice|tile_order = shuffle|cancel = median|cancel_warmup = 2|cancel_startup = 3'
	tune t.campaign 'cancel = wilcoxon' 'cancel_p = 0.050' 'cancel_warmup = 4' 'tile_order = list' 'metric = aji'
	run records t.campaign
	assert_line 'cancel_rule=wilcoxon:warmup=4,p=0.05'
	assert_line 'tile_order_arg=list'
	assert_line 'cancel_p=0.05'
	# a grid: each parameter not fixed counts its values (nuclei.tsv's
	# whole grid, 2.1e13 runs, is refused)
	tune t.campaign 'cancel = none' 'method = grid' 'levels = 2' "fix = $GRIDFIX"
	sed -i '/^method = random/d' t.campaign
	run records t.campaign
	assert_success
	assert_line 'cancel_rule=none'
	assert_equal "$(records t.campaign | sed -n 's/^plan_key=//p' | grep -c cancel)" 1
	assert_equal "$(records t.campaign | sed -n 's/^sample_arg=//p' | paste -sd' ')" \
	    "-m grid -p 2 -s 1 $(tr ',' '\n' <<< "$GRIDFIX" | sed 's/^/--fix /' | paste -sd' ')"
}

@test "goal = sensitivity: list order, no cancelling, metric an analysis key; object_dice and aji take" {
	small c.campaign 'metric = aji'
	run records c.campaign
	assert_success
	assert_line 'goal=sensitivity'
	assert_line 'tile_order=list'
	assert_line 'cancel=none'
	assert_line 'cancel_rule=none'
	assert_line 'tile_order_arg=list'
	assert_line 'metric=aji'
	refute_line --regexp '^plan_key=(goal|metric|tile_order|cancel)'
	small c.campaign 'metric = objects' 'goal = sensitivity'
	run records c.campaign
	assert_success
	assert_line 'metric=objects'
	# a sensitivity campaign may shuffle its tiles (results' row order only)
	small c.campaign 'tile_order = shuffle' 'seed = 4'
	run records c.campaign
	assert_success
	assert_line 'tile_order_arg=shuffle:4'
	refute_line --regexp '^plan_key=tile_order'
}

@test "tuning keys: refused in a sensitivity campaign and with another rule, naming file and line; what tune needs" {
	local v
	for v in 'cancel = none' 'cancel_acc = 0.1' 'cancel_p = 0.2' 'cancel_startup = 2'; do
		small c.campaign "$v"
		run --separate-stderr sa-campaign-conf c.campaign
		assert_failure 1
		assert_output ''
		assert_equal "$stderr" "sa-campaign-conf: c.campaign:5: ${v%% *}: only for goal = tune (this campaign's goal is sensitivity)"
	done
	tune t.campaign 'cancel = median' 'cancel_p = 0.2'
	run sa-campaign-conf t.campaign
	assert_failure 1
	assert_output "sa-campaign-conf: t.campaign:8: cancel_p: only for cancel = wilcoxon (this campaign's cancel is median)"
	tune t.campaign 'cancel_startup = 2'
	run sa-campaign-conf t.campaign
	assert_output "sa-campaign-conf: t.campaign:7: cancel_startup: only for cancel = median (this campaign's cancel is stable)"
	tune t.campaign 'cancel = none' 'cancel_warmup = 2'
	run sa-campaign-conf t.campaign
	assert_output "sa-campaign-conf: t.campaign:8: cancel_warmup: only for cancel = median or wilcoxon (this campaign's cancel is none)"
	tune t.campaign 'cancel = wilcoxon' 'cancel_time = 3'
	run sa-campaign-conf t.campaign
	assert_output "sa-campaign-conf: t.campaign:8: cancel_time: only for cancel = stable (this campaign's cancel is wilcoxon)"
	# a ground truth, a design of sets, a score
	small t.campaign 'goal = tune'
	sed -i 's/^method = moat/method = random/' t.campaign
	run sa-campaign-conf t.campaign
	assert_failure 1
	assert_output "sa-campaign-conf: t.campaign:5: goal: tune needs a reference directory of ground-truth masks (the default, reference = defaults, is the default run's masks, no ground truth)"
	tune t.campaign
	sed -i 's/^reference = gt/reference = defaults/' t.campaign
	run sa-campaign-conf t.campaign
	assert_output "sa-campaign-conf: t.campaign:6: reference: defaults is refused with goal = tune: tuning scores every set against ground-truth masks; give their directory"
	for m in moat vbd; do
		tune t.campaign
		sed -i "s/^method = random/method = $m/" t.campaign
		run sa-campaign-conf t.campaign
		assert_failure 1
		assert_output "sa-campaign-conf: t.campaign:2: method: $m is a design for sensitivity indices, refused with goal = tune: use grid, random, lhs, sobol, halton, hammersley or mc"
	done
	tune t.campaign 'metric = objects'
	run sa-campaign-conf t.campaign
	assert_output "sa-campaign-conf: t.campaign:7: metric: objects is a count, not a score, refused with goal = tune: use dice, jaccard, object_dice or aji"
}

@test "tuning keys: bad values name file and line" {
	local v
	small c.campaign 'goal = best'
	run sa-campaign-conf c.campaign
	assert_failure 1
	assert_output "sa-campaign-conf: c.campaign:5: goal: 'best' is not sensitivity or tune"
	for v in "metric = f1:f1: not a column of the results of $TOP/share/workflows/nuclei.wf (its metrics: dice jaccard object_dice aji objects)" \
	    "tile_order = random:'random' is not shuffle or list" \
	    "cancel = asha:'asha' is not none, stable, median or wilcoxon" \
	    "cancel_acc = 0:'0' is not a positive number" \
	    "cancel_time = nan:'nan' is not a positive number" \
	    "cancel_window = 0:'0' is not a positive integer" \
	    "cancel_warmup = 1.5:'1.5' is not a positive integer" \
	    "cancel_startup = -1:'-1' is not a positive integer" \
	    "cancel_p = 1:'1' is not a number between 0 and 1 (both excluded)" \
	    "prune_k = 0:'0' is not a positive integer" \
	    "prune_min_ncorr = 1:'1' is not a number between 0 and 1 (both excluded)" \
	    "prune_paggr = max:'max' is not a number between 0 and 1 (both excluded) or auto" \
	    "prune_paggr_max = 1.5:'1.5' is not a number between 0 and 1 (both excluded)" \
	    "prune_bins = 1:'1' is not an integer from 2"; do
		tune t.campaign "${v%%:*}"
		run sa-campaign-conf t.campaign
		assert_failure 1
		assert_output "sa-campaign-conf: t.campaign:7: ${v%% *}: ${v#*:}"
	done
}

@test "--keys: the tuning keys, their roles and what they concern" {
	run sa-campaign-conf --keys
	assert_line "$(printf 'goal\tenum\tsensitivity\ttune-plan\tall')"
	assert_line "$(printf 'metric\ttext\tdice\ttune-plan\tall')"
	assert_line "$(printf 'tile_order\tenum\t-\ttune-plan\tall')"
	assert_line "$(printf 'cancel\tenum\tstable\tplan\ttune')"
	assert_line "$(printf 'cancel_acc\treal\t0.05\tplan\ttune stable')"
	assert_line "$(printf 'cancel_time\treal\t2\tplan\ttune stable')"
	assert_line "$(printf 'cancel_window\tint\t5\tplan\ttune stable')"
	assert_line "$(printf 'cancel_warmup\tint\t2\tplan\ttune median wilcoxon')"
	assert_line "$(printf 'cancel_startup\tint\t5\tplan\ttune median')"
	assert_line "$(printf 'cancel_p\tfraction\t0.1\tplan\ttune wilcoxon')"
	assert_line "$(printf 'prune_paggr\tfraction\tauto\tplan\ttune')"
	assert_line "$(printf 'prune_bins\tint\t10\tplan\ttune')"
}

@test "warnings: keys the method, merge or engine does not use; exit 0, the records on stdout" {
	small c.campaign 'trajectories = 3' 'resamples = 10' 'levels = 3'
	sed -i 's/^method = moat/method = vbd/' c.campaign
	run --separate-stderr sa-campaign-conf c.campaign
	assert_success
	assert_equal "$(records c.campaign 2> /dev/null | grep -c '^trajectories=3$')" 1
	assert_equal "$stderr" "sa-campaign-conf: c.campaign:5: trajectories: not used by method = vbd (it concerns moat)
sa-campaign-conf: c.campaign:7: levels: not used by method = vbd (it concerns moat or grid)"
	small c.campaign 'merge = trtma' 'max_buckets = 2' 'bucket_size = 4'
	run --separate-stderr sa-campaign-conf c.campaign
	assert_success
	assert_equal "$stderr" "sa-campaign-conf: c.campaign:7: bucket_size: not used by merge = trtma (it concerns naive, sca or rtma)"
	small c.campaign 'partition = short' 'engine = local'
	run --separate-stderr sa-campaign-conf c.campaign
	assert_success
	assert_equal "$stderr" "sa-campaign-conf: c.campaign:5: partition: not used by engine = local (it concerns slurm)"
	small c.campaign 'engine = slurm' 'cores = 4'
	run --separate-stderr sa-campaign-conf c.campaign
	assert_equal "$stderr" "sa-campaign-conf: c.campaign:6: cores: not used by merge = rtma and engine = slurm (it concerns trtma or local)"
	# --no-warnings: the same records, nothing on stderr
	run --separate-stderr sa-campaign-conf --no-warnings c.campaign
	assert_success
	assert_equal "$stderr" ''
	assert_equal "$(records --no-warnings c.campaign 2>&1 | md5sum)" "$(records c.campaign 2> /dev/null | md5sum)"
}

@test "warnings: method = sobol is a correlation study (Sobol indices are vbd); not in a tune campaign" {
	small c.campaign 'samples = 16'
	sed -i 's/^method = moat/method = sobol/' c.campaign
	run --separate-stderr sa-campaign-conf c.campaign
	assert_success
	assert_equal "$stderr" "sa-campaign-conf: c.campaign:2: method: sobol plans a correlation study on Sobol points; Sobol (variance-based) indices are method = vbd"
	tune t.campaign 'samples = 16'
	sed -i 's/^method = random/method = sobol/' t.campaign
	run --separate-stderr sa-campaign-conf t.campaign
	assert_success
	assert_equal "$stderr" ''
}

@test "an unknown key: refused, with the key it likely misspells" {
	local v
	for v in 'trajectorys:trajectories' 'bucketsize:bucket_size' 'Seed:seed' \
	    'traj:trajectories' 'partiton:partition' 'second_ordre:second_order'; do
		small c.campaign "${v%%:*} = 2"
		run --separate-stderr sa-campaign-conf c.campaign
		assert_failure 1
		assert_output ''
		assert_equal "$stderr" "sa-campaign-conf: c.campaign:5: unknown key '${v%%:*}': did you mean '${v#*:}'?"
	done
	for v in foo cancel_ colour; do
		small c.campaign "$v = 2"
		run sa-campaign-conf c.campaign
		assert_failure 1
		assert_output "sa-campaign-conf: c.campaign:5: unknown key '$v'"
	done
}

@test "valid campaigns print nothing on stderr" {
	local c
	small c.campaign 'trajectories = 2' 'levels = 4' 'resamples = 5' 'fix = B=220' \
	    'bucket_size = 2' 'double_prune = yes' 'engine = slurm' 'partition = p' 'mem = 1G'
	small v.campaign 'samples = 8' 'second_order = yes' 'base = lhs' 'merge = trtma' \
	    'cores = 4' 'nodes = 2' 'engine = pbs' 'queue = q' 'pbs = torque'
	sed -i 's/^method = moat/method = vbd/' v.campaign
	small g.campaign 'levels = 2' 'engine = local' 'jobs = 2' 'cores = 2' 'merge = none'
	echo "fix = $GRIDFIX" >> g.campaign
	sed -i 's/^method = moat/method = grid/' g.campaign
	tune t.campaign 'cancel = wilcoxon' 'cancel_p = 0.2' 'samples = 8'
	for c in c v g t "$TOP"/examples/*/*.campaign; do
		run --separate-stderr sa-campaign-conf --share "$TOP/share" "${c%.campaign}.campaign"
		assert_success
		assert_equal "$stderr" ''
	done
}

@test "engine = slurm: an output with a backslash (which turns off sbatch's %A_%a in --output) is refused naming file and line, from the file or -o; other engines take it" {
	small c.campaign 'engine = slurm' 'output = a\b-out'
	run --separate-stderr sa-campaign-conf c.campaign
	assert_failure 1
	assert_output ''
	assert_equal "$stderr" "sa-campaign-conf: c.campaign:6: output: a backslash in the output directory turns off Slurm's %A_%a in the jobs' log names (sbatch --output): choose another output"
	small d.campaign 'engine = slurm'
	run --separate-stderr sa-campaign-conf -o 'x\y' d.campaign
	assert_failure 1
	assert_equal "$stderr" "sa-campaign-conf: d.campaign: output: a backslash in the output directory turns off Slurm's %A_%a in the jobs' log names (sbatch --output): choose another output"
	for e in local pbs; do
		small e.campaign "engine = $e" 'output = a\b-out'
		run sa-campaign-conf e.campaign
		assert_success
	done
	[ ! -e 'a\b-out' ]
}
