# engines.sh - the cluster engines of sa-campaign, sourced by it: Slurm job
# arrays (sbatch) and PBS job arrays (qsub: PBS Pro's -J or Torque's -t).
# Each submission is: the reference step (unless done), the arrays over
# the unfinished array tasks after it (one, or several where the plan has
# more tasks than the scheduler's largest array: split_arrays), and the
# merge after the arrays, each job depending on the previous ones
# succeeding.
# shellcheck shell=bash

# The directory of the job scripts: jobsdir (set by make), or the source
# tree's slurm/ beside this script's directory.
job_scripts() {
	local d=${jobsdir:-$here/../slurm}
	[ -d "$d" ] || die "cannot find the job scripts (looked in $d)"
	(cd "$d" && pwd)
}

# task_mem OUT: memory per bucket in MiB, for the largest tile of
# OUT/tiles.list with the campaign's active paths, as seg-run
# --estimate-memory gives it (estimate_memory); reading every tile's header, it also refuses a campaign whose
# tiles cannot all be read, before anything is submitted (also when mem
# is set)
task_mem() {
	local out=$1 mem st=0 log=$1/logs/.estimate-memory.$$
	mem=$(estimate_memory "$out" 2> "$log") || st=$?
	case $st in
	0) printf '%s\n' "$mem" ;;
	*) cat "$log" >&2
		rm -f "$log"
		die "$out/tiles.list: a tile cannot be read or is too large for a job (seg-run --estimate-memory, above): nothing submitted" ;;
	esac
	rm -f "$log"
}

# Starts a new record of submitted jobs (the last one kept as jobs.prev);
# every job is appended as soon as it is submitted.
new_jobs() {
	[ ! -e "$out/logs/jobs" ] || mv -f "$out/logs/jobs" "$out/logs/jobs.prev"
	: > "$out/logs/jobs"
}

# engine_submit OUT NBUCKETS: submits the campaign's jobs (the reference
# step unless done, the unfinished buckets, the merge) to its engine
engine_submit() {
	local out=$1 nbuckets=$2 active
	if [ -s "$out/logs/jobs" ] && active=$(engine_active) && [ -n "$active" ]; then
		die "jobs of this campaign are still queued or running ($active): wait for them or cancel them first: sa-campaign cancel $campaign"
	fi
	clean_temps "$out"	# of killed jobs; none runs now
	case ${conf[engine]} in
	slurm) slurm_submit ;;
	pbs) pbs_submit ;;
	esac
}

# engine_failures OUT: the campaign's recorded reference and merge jobs
# that ended without doing their work, each with the exit marker of its
# log ("sa-campaign job: exit N", the job scripts' last line) and the
# log's last lines, or, without a marker, with what the scheduler says of
# it (Slurm) or as cancelled or killed (a job whose dependency failed
# never runs); and, on Slurm, every array task that the scheduler ended
# (killed, timed out, out of memory, cancelled) before its bucket had
# results or a failure record, as "failed: bucket N ...", and a bucket
# array that never ran.
engine_failures() {
	local out=$1 active what id log mark states='' jobids=()
	active=" $(engine_active) "
	while read -r what id _; do jobids+=("$id"); done < "$out/logs/jobs"
	[ "${conf[engine]}" != slurm ] ||
	    states=$(slurm_states "${jobids[@]}")
	while read -r what id offset; do
		if [ "$what" = buckets ]; then
			[ -z "$states" ] || array_failures "$out" "$id" "$states" "${offset:-0}"
			continue
		fi
		case $active in *" $id "* | *" ${id}_"*) continue ;; esac
		case $what in
		reference) [ ! -s "$out/ref/results.tsv" ] || continue ;;
		merge) [ ! -s "$out/trials.tsv" ] || continue ;;
		validate) [ ! -s "$out/validation.tsv" ] || continue ;;
		*) continue ;;
		esac
		case ${conf[engine]} in
		slurm) log=$out/logs/$what-$id.log ;;
		pbs) log=$out/logs/$what.log ;;
		esac
		mark=$(grep -a '^sa-campaign job: exit ' "$log" 2> /dev/null | tail -n 1 || true)
		if [ -n "$mark" ]; then
			echo "failed: the $what job $id (${mark#sa-campaign job: }); the end of $log:"
			log_tail 5 "$log"
		else
			echo "failed: the $what job $id $(job_ending "$id" "$states")"
		fi
	done < "$out/logs/jobs"
}

# job_ending ID STATES: how job ID ended without its exit marker, from
# its line of STATES (slurm_states) when the scheduler still knows it
job_ending() {
	local id=$1 job st exit reason
	# (at the end of STATES, read has emptied them all)
	while read -r job st exit reason; do
		[ "$job" != "$id" ] || break
	done <<< "$2"
	case ${st:-}:${reason:-} in
	:) echo "ended without its exit line: cancelled, killed, or it never ran because a job before it failed" ;;
	*:DependencyNeverSatisfied) echo "never ran: a job it depends on failed (Slurm: $st, $reason)" ;;
	*) echo "ended without its exit line (Slurm: $st, exit $exit${reason:+, $reason})" ;;
	esac
}

# array_failures OUT ID STATES OFFSET: the array ID's tasks (array task
# I being the campaign's task OFFSET + I) that Slurm ended without their
# results or failure record (bucket_failures names those), with the end
# of their logs, and the array's tasks that never ran
array_failures() {
	local out=$1 id=$2 offset=$4 task st exit reason b log
	while read -r task st exit reason; do
		[[ $task == "${id}_"* ]] || continue
		task=${task#"${id}_"}
		task=${task//[\[\]]/}
		case $st in
		FAILED | CANCELLED | TIMEOUT | OUT_OF_MEMORY | NODE_FAIL | PREEMPTED | BOOT_FAIL | DEADLINE) ;;
		*) continue ;;
		esac
		if ! is_uint "$task"; then	# a range of tasks that never started
			case $reason in
			DependencyNeverSatisfied) reason="a job it depends on failed (Slurm: $st, $reason)" ;;
			*) reason="Slurm: $st${reason:+, $reason}" ;;
			esac
			echo "failed: the bucket array $id never ran (tasks $task): $reason"
			continue
		fi
		b=$(bucket_name $((task + offset)))
		{ [ ! -s "$out/results/$b.tsv" ] && [ ! -e "$out/logs/failed/$b" ]; } || continue
		log=$out/logs/bucket-$b.log
		echo "failed: $(task_label $((task + offset))) (array task ${id}_$task, Slurm: $st, exit $exit${reason:+, $reason}); the end of $log:"
		log_tail 3 "$log"
		# what Slurm wrote of it (a kill, a limit): the array task's output
		log=$out/logs/buckets-${id}_$task.log
		[ ! -s "$log" ] || { echo "  and of $log:"; tail -n 3 "$log" | indent; }
	done <<< "$3"
}

# slurm_states IDS...: "ID STATE EXIT REASON" for each of the jobs IDS and
# their array tasks that Slurm still knows: from sacct where the cluster
# keeps accounting, else from scontrol (a finished job's record lasts
# MinJobAge seconds). ID is JOB or JOB_TASK, or JOB_FIRST-LAST for array
# tasks not started; EXIT is rc:signal; REASON is empty when there is none.
slurm_states() {
	local lines id st exit
	[ $# -gt 0 ] || return 0
	if lines=$(sacct -n -P -X -j "$(IFS=,; echo "$*")" -o JobID,State,ExitCode 2> /dev/null) &&
	    [ -n "$lines" ]; then
		# a state's first word: "CANCELLED by 1000" is CANCELLED
		while IFS='|' read -r id st exit; do
			printf '%s %s %s\n' "$id" "${st%% *}" "$exit"
		done <<< "$lines"
		return 0
	fi
	for id; do
		scontrol -o show job "$id" 2> /dev/null || true
	done | while read -r -a fields; do
		scontrol_state "${fields[@]}"
	done
}

# scontrol_state KEY=VALUE...: "ID STATE EXIT REASON" of a job's line of
# scontrol -o show job (the last of a key counts)
scontrol_state() {
	local kv job='' array='' task='' st='' exit='' reason=''
	for kv; do
		case $kv in
		JobId=*) job=${kv#*=} ;;
		ArrayJobId=*) array=${kv#*=} ;;
		ArrayTaskId=*) task=${kv#*=} ;;
		JobState=*) st=${kv#*=} ;;
		ExitCode=*) exit=${kv#*=} ;;
		Reason=*) reason=${kv#*=} ;;
		esac
	done
	[ "$reason" != None ] || reason=
	[ -z "$task" ] || job=${array}_$task
	echo "$job $st $exit $reason"
}

# engine_cancel IDS...: cancels the campaign's jobs IDS (scancel, qdel)
engine_cancel() {
	case ${conf[engine]} in
	slurm) scancel "$@" ;;
	pbs) qdel "$@" ;;
	esac
}

# The campaign's recorded jobs that the scheduler still knows as active.
engine_active() {
	local ids='' id
	while read -r _ id _; do
		ids+=${ids:+,}$id
	done < "$out/logs/jobs"
	case ${conf[engine]} in
	slurm) squeue -h -j "$ids" -o '%i' 2>/dev/null | paste -sd' ' - ;;
	pbs) local id
		for id in ${ids//,/ }; do
			qstat "$id" > /dev/null 2>&1 && printf '%s ' "$id"
		done ;;
	esac
}

# engine_queue OUT: prints "RUNNING PENDING", the campaign's array tasks
# by state
engine_queue() {
	local out=$1 id='' what job name user st me r=0 p=0
	while read -r what job _; do
		[ "$what" != buckets ] || id+=${id:+,}$job
	done < "$out/logs/jobs"
	[ -n "$id" ] || { echo "0 0"; return; }
	case ${conf[engine]} in
	slurm) while read -r st _; do
			case $st in
			RUNNING | COMPLETING) r=$((r + 1)) ;;
			PENDING | CONFIGURING) p=$((p + 1)) ;;
			esac
		done < <(squeue -h -r -j "$id" -o '%T' 2>/dev/null) ;;
	pbs) # array tasks are listed under ids of their own (Slurm's qstat)
		# or the array's (Torque, PBS Pro): count this user's jobs
		# named for this campaign's output (qstat truncates the user)
		name=$(pbs_bucket_name) me=$(id -un)
		while read -r _ job user _ st _; do
			{ [ "$job" = "$name" ] && [ -n "$user" ] && [[ $me == "$user"* ]]; } || continue
			case $st in
			R) r=$((r + 1)) ;;
			Q | H) p=$((p + 1)) ;;
			esac
		done < <(qstat 2>/dev/null) ;;
	esac
	echo "$r $p"
}

# Options every Slurm job of the campaign gets.
slurm_opts() {
	local x=()
	sopts=()
	[ -z "${conf[partition]}" ] || sopts+=(--partition="${conf[partition]}")
	[ -z "${conf[account]}" ] || sopts+=(--account="${conf[account]}")
	[ -z "${conf[qos]}" ] || sopts+=(--qos="${conf[qos]}")
	[ -z "${conf[time]}" ] || sopts+=(--time="${conf[time]}")
	read -ra x <<< "${conf[sbatch_options]}"
	sopts+=(${x[@]+"${x[@]}"})
}

# slurm_sub WHAT SCRIPT SBATCH-OPTIONS... [OFFSET]: submits one of the
# campaign's job scripts from OUT (the job's working directory), an
# array's OFFSET its argument: the job reads the sa-campaign command and
# the campaign file from OUT/jobs/settings; prints the job id
slurm_sub() {
	local what=$1 s=$2 id arg=()
	shift 2
	! is_uint "${!#}" || { arg=("${!#}"); set -- "${@:1:$#-1}"; }
	id=$(cd -- "${top:-$out}" && sbatch --parsable "${sopts[@]}" "$@" "$s" ${arg[@]+"${arg[@]}"}) ||
	    die "sbatch refused the $what job"
	printf '%s\n' "${id%%;*}"
}

# submitted: what was submitted (from $ref, $arr, $n, $list and $mrg)
submitted() {
	echo "reference: ${ref:-done}"
	echo "buckets:   ${arr:-none left} (${n:-0} of $nbuckets${nchunks:+ array tasks}: ${list:-})"
	echo "merge:     $mrg"
	if [ -n "$top" ]; then
		say "batch ${out##*/batch-} of ${conf[batches]}: its merge job plans and submits the next batch; sa-campaign status $campaign"
	else
		say "when the merge job has run: $out/indices.tsv; sa-campaign status $campaign"
	fi
}

slurm_submit() {
	local todo list='' mem dir ref='' arr='' mrg dep=() n sout=${out//%/%%} off idx id prev='' lim=''
	# sout: the output for --output, where Slurm expands %j, %a... (also
	# in a relative path, which it makes absolute first)
	dir=$(job_scripts)
	todo=$(unfinished "$out" "$nbuckets")
	mem=$(task_mem "$out")M
	mem=${conf[mem]:-$mem}
	slurm_opts
	mkdir -p "$out/logs"
	job_settings
	new_jobs
	if ! reference_done "$out"; then
		ref=$(slurm_sub reference "$dir/sa-reference.sbatch" \
		    --job-name=sa-reference --cpus-per-task="$((conf[active_paths] * conf[threads_per_path]))" \
		    --mem="$mem" --output="$sout/logs/reference-%j.log")
		echo "reference $ref" >> "$out/logs/jobs"
	fi
	[ -z "${conf[array_limit]}" ] || lim=%${conf[array_limit]}
	if [ -n "$todo" ]; then
		n=$(wc -l <<< "$todo")
		list=$(ranges <<< "$todo")$lim
		# an array per MaxArraySize tasks, each task OFFSET + its index
		# (the script's argument); with array_limit, each array after
		# the one before it, so that the limit holds for the whole plan
		while read -r off idx; do
			dep=()
			[ -z "$ref" ] && [ -z "$prev" ] || dep=(--dependency="${ref:+afterok:$ref}${ref:+${prev:+,}}${prev:+afterany:$prev}" --kill-on-invalid-dep=yes)
			id=$(slurm_sub array "$dir/sa-bucket.sbatch" ${dep[@]+"${dep[@]}"} \
			    --job-name=sa-bucket --array="$idx$lim" \
			    --cpus-per-task="$((conf[active_paths] * conf[threads_per_path]))" --mem="$mem" \
			    --output="$sout/logs/buckets-%A_%a.log" "$off")
			echo "buckets $id $off" >> "$out/logs/jobs"
			arr=${arr:+$arr,}$id
			[ -z "$lim" ] || prev=$id
		done < <(split_arrays "$todo")
	fi
	dep=()
	[ -z "$arr$ref" ] || dep=(--dependency=afterok:"$(tr , : <<< "${arr:-$ref}")" --kill-on-invalid-dep=yes)
	mrg=$(slurm_sub merge "$dir/sa-merge.sbatch" ${dep[@]+"${dep[@]}"} \
	    --job-name=sa-merge --cpus-per-task=1 --mem=1G \
	    --output="$sout/logs/merge-%j.log")
	echo "merge $mrg" >> "$out/logs/jobs"
	submitted
}

# qsub's options for every PBS job of the campaign.
pbs_opts() {
	local x=()
	popts=()
	[ -z "${conf[queue]}" ] || popts+=(-q "${conf[queue]}")
	[ -z "${conf[account]}" ] || popts+=(-A "${conf[account]}")
	read -ra x <<< "${conf[qsub_options]}"
	popts+=(${x[@]+"${x[@]}"})
}

# The name of the campaign's PBS bucket jobs: sa-b and 8 digits of the
# checksum of the output directory's path, so that status counts this
# campaign's array tasks only (15 characters at most, as Torque wants).
pbs_bucket_name() {
	local sum
	read -r sum _ < <(printf '%s' "$out" | cksum)
	printf 'sa-b%08d' $((sum % 100000000))
}

# pbs_sub SCRIPT [QSUB ARGS]: submits OUT/jobs/SCRIPT from OUT, every
# path relative (some qsub front ends, slurm-wlm-torque's among them, pass
# their arguments through a shell): the job reads the sa-campaign command
# and the campaign file from OUT/jobs/settings; prints the job id
pbs_sub() {
	local s=$1 id
	shift
	id=$(cd -- "${top:-$out}" && qsub ${popts[@]+"${popts[@]}"} "$@" "jobs/$s") ||
	    die "qsub refused $s"
	printf '%s\n' "${id%%[[:space:]]*}"
}

# job_settings: OUT/jobs/settings, what every job of the campaign reads
# (no -v list, environment string or argument carries a path): the
# sa-campaign command, then the campaign file, a line each (no newline in
# them: refused up front), and in a batched campaign the batch that the
# jobs work on. The jobs run in OUT (top, in a batched campaign).
job_settings() {
	local d=${top:-$out}
	mkdir -p -- "$d/jobs"
	printf '%s\n%s\n' "$self" "${conf[campaign]}" > "$d/jobs/.settings.tmp.$$"
	[ -z "$top" ] || printf '%s\n' "${out##*/batch-}" >> "$d/jobs/.settings.tmp.$$"
	commit "$d/jobs/.settings.tmp.$$" "$d/jobs/settings"
}

pbs_submit() {
	local todo mem dir ref='' arr='' mrg dep=() n arrayopt res lp='' off idx id lo hi
	dir=$(job_scripts)/pbs
	todo=$(unfinished "$out" "$nbuckets")
	mem=$(task_mem "$out")M
	mem=${conf[mem]:-$mem}
	[[ $mem =~ [KMGT]$ ]] || mem=${mem}M	# a bare number is MiB, as for Slurm
	mem=$(tr 'KMGT' 'kmgt' <<< "$mem")b
	# one -l: some qsub front ends keep only the last
	res=nodes=1:ppn=$((conf[active_paths] * conf[threads_per_path])),mem=$mem${conf[walltime]:+,walltime=${conf[walltime]}}
	pbs_opts
	mkdir -p "$out/logs"
	job_settings
	cp -- "$dir"/*.pbs "${top:-$out}/jobs/"
	# the logs' paths, from OUT: the batch's logs in a batched campaign
	[ -z "$top" ] || lp=${out##*/}/
	new_jobs
	if ! reference_done "$out"; then
		ref=$(pbs_sub sa-reference.pbs -N sa-reference -l "$res" \
		    -o "${lp}logs/reference.log" -j oe)
		echo "reference $ref" >> "$out/logs/jobs"
		dep=(-W depend=afterok:"$ref")
	fi
	if [ -n "$todo" ]; then
		n=$(wc -l <<< "$todo")
		list=$(ranges <<< "$todo")
		# an array per max_array_size tasks (split_arrays), each task
		# SA_TASK_OFFSET + its index
		while read -r off idx; do
			case ${conf[pbs]} in
			pro)	# -J takes X-Y only (and two subjobs at least): the
				# span of the unfinished tasks; finished ones inside it
				# exit at once (seg-run keeps complete buckets)
				lo=${idx%%[-,]*}
				hi=${idx##*[-,]}
				arrayopt=(-J "$lo-$hi${conf[array_limit]:+%${conf[array_limit]}}") ;;
			torque) arrayopt=(-t "$idx${conf[array_limit]:+%${conf[array_limit]}}") ;;
			esac
			if [[ $idx =~ ^[0-9]+$ ]]; then	# a single task: a plain job
				arrayopt=(-v "SA_BUCKET=$((off + idx))")
			else
				arrayopt+=(-v "SA_TASK_OFFSET=$off")
			fi
			id=$(pbs_sub sa-bucket.pbs ${dep[@]+"${dep[@]}"} -N "$(pbs_bucket_name)" \
			    ${arrayopt[@]+"${arrayopt[@]}"} -l "$res" -o "${lp}logs/pbs-buckets.log" -j oe)
			echo "buckets $id $off" >> "$out/logs/jobs"
			arr=${arr:+$arr:}$id
		done < <(split_arrays "$todo")
		case ${conf[pbs]} in
		pro) dep=(-W depend=afterok:"$arr") ;;
		torque) dep=(-W depend=afterokarray:"$arr") ;;
		esac
	fi
	mrg=$(pbs_sub sa-merge.pbs ${dep[@]+"${dep[@]}"} -N sa-merge \
	    -l "walltime=${conf[walltime]:-01:00:00}" -o "${lp}logs/merge.log" -j oe)
	echo "merge $mrg" >> "$out/logs/jobs"
	submitted
}

# validate_submit OUT: the validation step of a tune campaign as a job of
# its own, submitted by the merge that ends the search (a merge job): the
# defaults and the best sets on the validate tiles (sa-campaign validate,
# which also writes the report again), recorded in OUT/logs/jobs
validate_submit() {
	local out=$1 mem id cpus=$((conf[active_paths] * conf[threads_per_path])) top=''
	mem=$(seg-run --estimate-memory --tiles "${conf[validate]}" --active-paths "${conf[active_paths]}" \
	    --workflow "${conf[workflow]}") ||
	    die "${conf[validate]}: a tile cannot be read (seg-run --estimate-memory, above): the validation job is not submitted"
	mkdir -p "$out/logs"
	job_settings
	case ${conf[engine]} in
	slurm)
		slurm_opts
		id=$(slurm_sub validate "$(job_scripts)/sa-validate.sbatch" --job-name=sa-validate \
		    --cpus-per-task="$cpus" --mem="${conf[mem]:-${mem}M}" --output="${out//%/%%}/logs/validate-%j.log") ;;
	pbs)
		pbs_opts
		mem=${conf[mem]:-$mem}
		[[ $mem =~ [KMGT]$ ]] || mem=${mem}M
		cp -- "$(job_scripts)/pbs/sa-validate.pbs" "$out/jobs/"
		id=$(pbs_sub sa-validate.pbs -N sa-validate \
		    -l "nodes=1:ppn=$cpus,mem=$(tr 'KMGT' 'kmgt' <<< "$mem")b${conf[walltime]:+,walltime=${conf[walltime]}}" \
		    -o logs/validate.log -j oe) ;;
	esac
	echo "validate $id" >> "$out/logs/jobs"
	say "validate: job $id, the defaults and the best set(s) on the tiles of ${conf[validate]}: then $out/validation.tsv"
}
