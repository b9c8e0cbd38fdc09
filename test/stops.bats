#!/usr/bin/env bats
# sa-campaign stopped at the wrong moment (issue 25): a stop as a bucket
# logs its end, records cut by a kill, a run killed with SIGKILL (its
# lock's heartbeat, another host), TERM and INT to the run and its group,
# cancel, a temporary left inside a lock. Each stop is injected where it
# hurts (SR_FAULT, sareuse(7)), never waited for.
load common
load campaign
bats_require_minimum_version 1.5.0

# started: waits (10 s at most) until the run has attempted a bucket
started() {
	local k
	for k in $(seq 200); do
		[ -s c-out/logs/attempts ] && return 0
		sleep 0.05
	done
	fail "no bucket started within 10 s"
}

@test "a stop as a bucket logs its end (SR_FAULT=finished, or a date killed by it): logs/finished stays whole, the campaign resumes to the same indices" {
	tiles 160
	campaign ref.campaign plot=no
	campaign c.campaign plot=no
	sa-campaign -q run ref.campaign
	# what a stop did to a driver that timed a bucket's end with date:
	# date killed (nothing printed), the bucket's own SIGTERM seen after
	mkdir fake
	cat > fake/date <<EOF
#!/bin/bash
if [ "\$*" = "+%s.%N" ] && [ -e "$BATS_TEST_TMPDIR/started.\$PPID" ]; then
	(sleep 0.3; kill -TERM "\$PPID") > /dev/null 2>&1 &
	kill -KILL \$\$
fi
[ "\$*" != "+%s.%N" ] || : > "$BATS_TEST_TMPDIR/started.\$PPID"
exec /bin/date "\$@"
EOF
	chmod +x fake/date
	SR_FAULT=finished PATH=$PWD/fake:$PATH run sa-campaign -q run c.campaign
	assert_failure 1
	assert_output --partial "failed or did not run"
	if [ -e c-out/logs/finished ]; then
		run awk 'NF != 4' c-out/logs/finished
		assert_output ''
	fi
	sa-campaign -q run c.campaign
	assert_equal "$(body c-out/indices.tsv)" "$(body ref-out/indices.tsv)"
	[ -s c-out/report.html ]
	gone "$PWD/c-out" || fail "processes left"
	run find c-out -name '.*.tmp*' -o -name '.lock*'
	assert_output ''
}

@test "records cut by a kill in logs/finished and logs/attempts: the merge and status warn once naming file and line, and go on" {
	tiles 160
	campaign c.campaign plot=no
	sa-campaign -q run c.campaign
	cp c-out/indices.tsv before.tsv
	n=$(($(wc -l < c-out/logs/finished) + 1))
	printf '0 1795877842.756188813  0\n3 1795877842.75 1795877843.1 0\n' >> c-out/logs/finished
	printf '3 node1\n' >> c-out/logs/attempts
	a=$(wc -l < c-out/logs/attempts)
	run sa-campaign merge c.campaign
	assert_success
	assert_output --partial "c-out/logs/finished:$n: '0 1795877842.756188813  0': expected 'I START END EXIT'"
	assert_output --partial "skipped (1 malformed line: a record cut by a kill)"
	assert_equal "$(grep -c 'logs/finished:' <<< "$output")" 1
	assert_equal "$(body c-out/indices.tsv)" "$(body before.tsv)"
	[ -s c-out/report.html ]
	run sa-campaign status c.campaign
	assert_success
	assert_output --partial "c-out/logs/attempts:$a: '3 node1': expected 'I HOST PID TIME'"
	assert_output --partial "tasks=8 done=8 running=0 pending=0 failed=0 waiting=0"
}

@test "kill -9 of a run: its lock's heartbeat stops, another host takes it after the grace period; cancel on another host names the holder" {
	tiles 300
	campaign c.campaign bucket_size=4 plot=no trajectories=1 jobs=1
	SA_CAMPAIGN_LOCK_GRACE=3 setsid sa-campaign -q run "$PWD/c.campaign" > log 2>&1 &
	pid=$!
	started
	# from a login node while it runs: named, not stopped, not taken
	SR_FAULT_HOST=login.example run sa-campaign cancel c.campaign
	assert_failure 1
	assert_output --partial "not stopped: the run (pid $pid) on $(hostname) holds $PWD/c-out/.lock (last touched "
	SR_FAULT_HOST=login.example run sa-campaign-conf --lock c-out/.lock --pid 4242 --grace 3
	assert_failure 1
	assert_output --partial "held by pid $pid on $(hostname)"
	kill -KILL "$pid"
	wait "$pid" || true
	# the refresher (every second with a grace of 3 s) stops with it
	sleep 0.5
	before=$(stat -c %.9Y c-out/.lock)
	sleep 2.5
	assert_equal "$(stat -c %.9Y c-out/.lock)" "$before"
	gone "$PWD/c.campaign" || fail "the run's refresher is left"
	gone "$PWD/c-out" || fail "processes left"
	# another host: its lock is stale once untouched for the grace period
	sleep 1
	SR_FAULT_HOST=login.example run sa-campaign-conf --lock c-out/.lock --pid 4242 --grace 3
	assert_success
	assert_equal "$(cut -d' ' -f1-2 c-out/.lock)" "login.example 4242"
	SR_FAULT_HOST=login.example sa-campaign-conf --unlock c-out/.lock --pid 4242
	sa-campaign -q run c.campaign
	[ -s c-out/indices.tsv ]
}

@test "TERM to the run, TERM and INT to its group, cancel: exit 143 (130 for INT), the lock released, nothing left running" {
	tiles 300
	campaign c.campaign bucket_size=4 plot=no trajectories=1 jobs=1
	for how in pid-TERM group-TERM group-INT cancel; do
		rm -rf c-out
		# started from a script, a command ignores SIGINT (POSIX: an
		# asynchronous list without job control); a terminal's does not
		setsid env --default-signal=INT sa-campaign -q run "$PWD/c.campaign" > log 2>&1 &
		pid=$!
		started
		case $how in
		pid-TERM) kill -TERM "$pid" ;;
		group-*) kill -"${how#group-}" -- -"$pid" ;;
		cancel) run sa-campaign cancel c.campaign
			assert_success
			assert_output --partial "stopped: the local run (pid $pid, since " ;;
		esac
		st=0
		wait "$pid" || st=$?
		want=143
		[ "$how" != group-INT ] || want=130
		[ "$st" = "$want" ] || fail "$how: exit $st, not $want: $(cat log)"
		assert [ ! -e c-out/.lock ]
		gone "$PWD/c-out" || fail "$how: processes left"
		gone "$PWD/c.campaign" || fail "$how: the run's refresher is left"
		run find c-out -name '.*.tmp*'
		assert_output ''
	done
}

@test "a lock's temporary left by a kill inside it (SR_FAULT=lock-temp) is hidden, .NAME.tmp.*, and the merge removes it holding the output's lock" {
	tiles 160
	campaign c.campaign plot=no report=no
	sa-campaign -q run c.campaign
	SR_FAULT=lock-temp run sa-campaign-conf --lock c-out/ledger.tsv.lock --pid 77
	assert_failure 137
	run ls -A c-out
	assert_output --partial ".ledger.tsv.lock.tmp.$(hostname).77"
	: > c-out/.lock.tmp.break	# a breaker's, killed
	sa-campaign -q merge c.campaign
	run find c-out -name '*.tmp*' -o -name '*.lock'
	assert_output ''
}

@test "a bucket killed by GNU parallel before its exit trap ends (SR_FAULT=stop-slow): the stopped run removes the chunk list it left" {
	tiles 300
	campaign c.campaign bucket_size=4 plot=no trajectories=1 jobs=1 tiles_per_task=1
	SR_FAULT=stop-slow setsid sa-campaign -q run "$PWD/c.campaign" > log 2>&1 &
	pid=$!
	# the bucket holds its chunk list (stop-slow: for 10 s before its
	# attempt is logged): wait for the list itself, not for the attempt
	# (logged after the hold, when a bucket may be between two lists)
	local k
	for k in $(seq 200); do
		[ -z "$(find c-out -name '.chunk-*.tmp.*' 2> /dev/null)" ] || break
		sleep 0.05
	done
	run find c-out -name '.chunk-*.tmp.*'
	assert_output --partial .chunk-
	kill -TERM "$pid"
	st=0
	wait "$pid" || st=$?
	assert_equal "$st" 143
	gone "$PWD/c-out" || fail "processes left"
	run find c-out -name '.*.tmp*'
	assert_output ''
}

@test "a stop between an output's temporary and its record (SR_FAULT=out-temp-stop): exit 143, the temporary removed" {
	printf 'name\ttype\tvalues\tdefault\nx\treal\t0..1\t0.5\n' > s.tsv
	SR_FAULT=out-temp-stop run sa-sample -m mc -n 3 -o d.tsv s.tsv
	assert_failure 143
	run ls -A
	assert_output s.tsv
}
