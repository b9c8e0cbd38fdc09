#!/usr/bin/env bats
# sa-campaign: a local run interrupted and resumed (kill -9 of its group,
# a bucket killed, cancel), its status meanwhile, the output's lock, and a
# bucket's retry of an I/O failure. (campaign.bats: the rest of
# sa-campaign.)
load common

load campaign
bats_require_minimum_version 1.5.0

@test "killed midway and resumed: the same indices, nothing half-written read" {
	tiles 400
	campaign c.campaign bucket_size=2
	campaign ref.campaign bucket_size=2
	sa-campaign -q run ref.campaign
	setsid sa-campaign -q run c.campaign > log 2>&1 &
	pid=$!
	# wait until some buckets are done, then kill the whole job
	for k in $(seq 100); do
		[ "$(ls c-out/results 2>/dev/null | wc -l)" -lt 2 ] || break
		sleep 0.1
	done
	kill -TERM -- -"$pid"
	wait "$pid" || true
	nb=$(body c-out/buckets.tsv | awk 'NR > 1' | wc -l)
	done=$(ls c-out/results | wc -l)
	assert [ "$done" -lt "$nb" ]
	run find c-out -name '.*.tmp.*'
	assert_output ''
	# merge refuses and names the missing buckets
	run sa-campaign merge c.campaign
	assert_failure 1
	assert_output --partial "array tasks without results:"
	assert [ ! -e c-out/indices.tsv ]
	# the killed buckets count as failed, none as running (once their
	# processes, killed too, are gone)
	killed=$(awk '{ print $1 }' c-out/logs/attempts | sort -u | wc -l)
	for k in $(seq 50); do
		sa-campaign status c.campaign | grep -q 'running=0' && break
		sleep 0.1
	done
	run sa-campaign status c.campaign
	assert_output --partial "done=$done running=0 pending=0 failed=$((killed - done)) waiting=$((nb - killed))"
	# resume
	sa-campaign -q run c.campaign
	assert_equal "$(body c-out/indices.tsv)" "$(body ref-out/indices.tsv)"
}

@test "a bucket whose run is gone before it starts (GNU parallel can start one as it stops): it stops, leaving no chunk list and no temporary" {
	tiles 400
	campaign c.campaign bucket_size=2
	sa-campaign -q plan c.campaign
	sa-campaign -q reference c.campaign
	sleep 0 &
	dead=$!
	wait "$dead"
	# its own process group, as GNU parallel's jobs: the bucket's
	# watchdog kills the group once it has cleaned up
	# (SR_FAULT=bucket-slow: the bucket goes on slowly once seg-run has
	# stopped; its watchdog acts first)
	SA_CAMPAIGN_PARENT=$dead SR_FAULT=bucket-slow run setsid -w sa-campaign -q bucket c.campaign 3
	assert_failure
	assert [ ! -e c-out/results/00003.tsv ]
	run find c-out -name '.*.tmp.*'
	assert_output ''
}

@test "status (local engine): a bucket in progress is running, a killed one failed" {
	tiles 400
	campaign c.campaign bucket_size=2
	sa-campaign -q plan c.campaign
	sa-campaign -q reference c.campaign
	setsid sa-campaign -q bucket c.campaign 3 > log 2>&1 &
	pid=$!
	for k in $(seq 100); do
		[ ! -s c-out/logs/attempts ] || break
		sleep 0.05
	done
	kill -STOP -- -"$pid"	# held, alive: running
	run sa-campaign status c.campaign
	assert_output --partial 'done=0 running=1 pending=0 failed=0 waiting=15'
	kill -KILL -- -"$pid"
	wait "$pid" || true
	run sa-campaign status c.campaign
	assert_output --partial 'done=0 running=0 pending=0 failed=1 waiting=15'
	# the attempt of another host is not looked for here: not running
	sed -i 's/^3 [^ ]* /3 elsewhere.example /' c-out/logs/attempts
	run sa-campaign status c.campaign
	assert_output --partial 'running=0 pending=0 failed=1'
	# done once it has results
	sa-campaign -q bucket c.campaign 3
	run sa-campaign status c.campaign
	assert_output --partial 'done=1 running=0 pending=0 failed=0 waiting=15'
}

@test "two live runs of one output: the second is refused (lock), whatever the campaign; a dead holder's lock is broken" {
	tiles 160
	campaign c.campaign
	campaign d.campaign seed=4
	setsid sa-campaign -q run c.campaign > log 2>&1 &
	pid=$!
	for k in $(seq 100); do [ -e c-out/.lock ] && break; sleep 0.05; done
	run sa-campaign run c.campaign
	assert_failure 1
	assert_output --partial "c-out/.lock: held by pid $pid on "
	assert_output --partial "another sa-campaign works on this output"
	run sa-campaign -o c-out plan d.campaign
	assert_failure 1
	assert_output --partial "held by pid $pid"
	wait "$pid"
	[ ! -e c-out/.lock ]
	# the other campaign, once the first is done: refused, never mixed
	run sa-campaign -o c-out run d.campaign
	assert_failure 1
	assert_output --partial "holds another campaign (planned with seed = 3, d.campaign has seed = 4)"
	# a lock left by a dead process of this host is stale
	sh -c 'echo "$(hostname) $$ 1" > c-out/.lock'
	sa-campaign -q run c.campaign
	[ ! -e c-out/.lock ]
}

@test "cancel: stops a local run (its buckets too, its lock removed); nothing to cancel then; run again resumes to the same indices" {
	tiles 500
	campaign ref.campaign bucket_size=4 plot=no trajectories=1
	campaign c.campaign bucket_size=4 plot=no trajectories=1 jobs=1
	sa-campaign -q run ref.campaign
	setsid sa-campaign -q run c.campaign > log 2>&1 &
	for _ in $(seq 100); do	# a bucket started
		[ -s c-out/logs/attempts ] && break
		sleep 0.1
	done
	run sa-campaign cancel c.campaign
	assert_success
	assert_output --regexp '^stopped: the local run \(pid [0-9]+, since '
	wait || true
	gone "$PWD/c-out" || fail "processes left"
	assert [ ! -e c-out/.lock ]
	run find c-out -name '.*.tmp*'
	assert_output ''
	run sa-campaign cancel c.campaign
	assert_success
	assert_output "nothing to cancel: no run or job of $PWD/c-out is active"
	sa-campaign -q run c.campaign
	assert_equal "$(body c-out/indices.tsv)" "$(body ref-out/indices.tsv)"
	run sa-campaign cancel c.campaign extra
	assert_failure 2
}

@test "kill -9 of the run's process group at 6 seeded moments, each resumed: same indices, no process, no temporary left" {
	# one bucket of the 16 runs on two 500x500 tiles: it runs for about
	# 0.6 s, so some kills find it running with more than 0.3 s to go
	tiles 500
	campaign ref.campaign bucket_size=16 plot=no trajectories=1
	campaign c.campaign bucket_size=16 plot=no trajectories=1
	sa-campaign -q run ref.campaign
	# (make check-stops: 50 random stops of sensitivity and tune
	# campaigns, pid and group, KILL, TERM and INT)
	n=6
	[ -z "${VALGRIND:-}" ] || n=3
	RANDOM=12	# the moments: seeded, printed
	for ((k = 0; k < n; k++)); do
		ms=$((RANDOM % 800))
		echo "kill $k at ${ms} ms" >&3
		rm -rf c-out
		setsid sa-campaign -q run c.campaign > log 2>&1 &
		pid=$!
		sleep "$(printf '0.%03d' "$ms")"
		kill -KILL -- -"$pid" 2> /dev/null || true
		wait "$pid" || true
		# the buckets' watchdogs poll every 0.1 s: after a second (ten
		# polls, on a loaded machine) nothing of the run may start,
		# finish or write any more
		sleep 1
		touch stop
		tried=$(cat c-out/logs/attempts 2> /dev/null | wc -l)
		gone "$PWD/c-out" || fail "kill $k at $ms ms: processes left"
		# killed before it made c-out (a loaded machine): nothing written
		if [ -e c-out ]; then
			run find c-out -newer stop ! -name '.*.tmp.*' ! -type d
			[ -z "$output" ] || fail "kill $k at $ms ms: written after the kill: $output"
		fi
		assert_equal "$(cat c-out/logs/attempts 2> /dev/null | wc -l)" "$tried"
		sa-campaign -q run c.campaign || fail "kill $k at $ms ms: the resume failed"
		assert_equal "$(body c-out/indices.tsv)" "$(body ref-out/indices.tsv)"
		run find c-out -name '.*.tmp*' -o -name '.lock*'
		assert_output ''
		gone "$PWD/c-out" || fail "kill $k at $ms ms: processes left after the resume"
	done
}

@test "bucket: seg-run exiting 3 (I/O or system failure) is tried again once, in place; exiting 3 twice, or 1, fails the bucket" {
	tiles 160
	campaign c.campaign
	sa-campaign -q reference c.campaign
	# a seg-run first on PATH that exits with the codes queued in
	# $PWD/codes, one per call, then runs the real one
	mkdir wrap
	cat > wrap/seg-run <<EOF
#!/bin/bash
echo call >> "$PWD/calls"
code=\$(head -n 1 "$PWD/codes" 2> /dev/null)
if [ -n "\$code" ]; then
	sed -i 1d "$PWD/codes"
	echo "seg-run: results.tsv: No space left on device" >&2
	exit "\$code"
fi
exec "$(command -v seg-run)" "\$@"
EOF
	chmod +x wrap/seg-run
	echo 3 > codes
	PATH=$PWD/wrap:$PATH run sa-campaign -q bucket c.campaign 0
	assert_success
	assert_output --partial "sa-campaign: task 0 (bucket 0, chunk 0): seg-run exited 3 (I/O or system failure): trying again once"
	[ -s c-out/results/00000-0000.tsv ]
	[ ! -e c-out/logs/failed/00000-0000 ]
	assert_equal "$(wc -l < calls)" 2
	assert_equal "$(awk '$1 == 0' c-out/logs/attempts | wc -l)" 1
	# twice 3: one retry only, then the bucket fails
	rm calls
	printf '3\n3\n' > codes
	PATH=$PWD/wrap:$PATH run sa-campaign -q bucket c.campaign 1
	assert_failure 1
	assert_output --partial "sa-campaign: task 1 (bucket 1, chunk 0) failed"
	assert_equal "$(wc -l < calls)" 2
	[ -e c-out/logs/failed/00001-0000 ] && [ ! -e c-out/results/00001-0000.tsv ]
	# 1, bad data: not tried again
	rm calls
	echo 1 > codes
	PATH=$PWD/wrap:$PATH run sa-campaign -q bucket c.campaign 1
	assert_failure 1
	refute_output --partial "trying again"
	assert_equal "$(wc -l < calls)" 1
	[ -e c-out/logs/failed/00001-0000 ]
	# status names the failed bucket (its log: a local run's bucket's)
	run sa-campaign status c.campaign
	assert_output --partial "failed: task 1 (bucket 1, chunk 0); the end of $PWD/c-out/logs/bucket-00001-0000.log:"
	echo 1 > codes
	PATH=$PWD/wrap:$PATH SA_CAMPAIGN_PARENT=$$ run sa-campaign -q bucket c.campaign 1
	assert_failure 1
	run sa-campaign status c.campaign
	assert_line "  seg-run: results.tsv: No space left on device"
	# the same bucket, nothing queued: done, its failure record removed
	PATH=$PWD/wrap:$PATH sa-campaign -q bucket c.campaign 1
	[ -s c-out/results/00001-0000.tsv ] && [ ! -e c-out/logs/failed/00001-0000 ]
	run sa-campaign status c.campaign
	assert_output --partial 'done=2 running=0 pending=0 failed=0'
}
