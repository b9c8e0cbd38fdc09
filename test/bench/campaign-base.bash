# campaign-base.bash - the part of test/bench/campaign that compares the
# code at SR_BASE (BASE_BIN, built by base_build) with the current one
# (SR_BIN) on the same campaigns (issue 17): the none and rtma plans, run
# alternately (old none, new none, old rtma, new rtma; SR_BENCH_ROUNDS
# rounds, 1 by default), each with its own sa-campaign and tools first on
# PATH. Runs per core-hour two ways: of the wall time on the campaign's
# slots (wall x jobs), and of the CPU time (user + system of the campaign
# and everything it ran), the steadier of the two on a shared machine.
# Sourced from the benchmark's scratch directory, with tiles.list and the
# PLAN.campaign files written.
rounds=${SR_BENCH_ROUNDS:-1}
jobs=$(awk -F' *= *' '$1 == "jobs" { print $2 }' none.campaign)

# campaign_with BIN SIDE PLAN: runs PLAN.campaign with BIN's sa-campaign
# into SIDE-PLAN-out; appends "SIDE WALL CPU" to PLAN.cmp
campaign_with() {
	local bin=$1 side=$2 plan=$3 s e
	rm -rf "$side-$plan-out"
	s=$EPOCHREALTIME
	PATH=$bin:$PATH /usr/bin/time -f '%U %S' -o "$side-$plan.cpu" \
	    "$bin/sa-campaign" -q -o "$side-$plan-out" run "$plan.campaign"
	e=$EPOCHREALTIME
	echo "$side $(awk -v s="$s" -v e="$e" 'BEGIN { printf "%.3f", e - s }') $(awk '{ printf "%.3f", $1 + $2 }' "$side-$plan.cpu")" >> "$plan.cmp"
}

echo
echo "Old ($SR_BASE) against new, the same campaigns, $rounds round(s), alternately"
for plan in none rtma; do : > $plan.cmp; done
for ((k = 0; k < rounds; k++)); do
	for plan in none rtma; do
		campaign_with "$BASE_BIN" old $plan
		campaign_with "$SR_BIN" new $plan
	done
done
runs=$(grep -v '^#' new-none-out/design.tsv | awk 'END { print NR - 1 }')
for plan in none rtma; do
	for side in old new; do
		[ "$(grep -v '^#' "$side-$plan-out/indices.tsv" | md5sum)" = \
		  "$(grep -v '^#' old-none-out/indices.tsv | md5sum)" ] ||
		    { echo "$side $plan: indices differ from old none's" >&2; exit 1; }
	done
done
echo "$runs runs each, $jobs buckets at a time; indices identical, old and new, every plan"
printf '%-6s %-5s %9s %9s %16s %16s\n' plan side wall cpu "runs/core-hour" "runs/CPU-hour"
for plan in none rtma; do
	awk -v p=$plan -v r="$runs" -v j="$jobs" "$base_median_awk"'
	    function med(k, col,   i, m, a) {
		m = 0
		for (i = 1; i <= n; i++) if (side[i] == k) a[++m] = v[i, col]
		return median(a, m)
	    }
	    { n++; side[n] = $1; v[n, 1] = $2; v[n, 2] = $3 }
	    END {
		for (s = 0; s < 2; s++) {
			k = s ? "new" : "old"
			w[k] = med(k, 1); c[k] = med(k, 2)
			printf "%-6s %-5s %8.1fs %8.1fs %16.0f %16.0f\n", p, k, w[k], c[k],
			    r * 3600 / (w[k] * j), r * 3600 / c[k]
		}
		printf "%-6s %-5s %9s %9s %15.2fx %15.2fx\n", p, "ratio", "", "",
		    w["old"] / w["new"], c["old"] / c["new"]
	    }' $plan.cmp
done
echo "(medians over the rounds; runs/core-hour: runs over wall x $jobs slots;"
echo " runs/CPU-hour: runs over the campaign's user + system seconds; ratio: new's"
echo " runs per hour over old's. Goal of issue 17: each plan >= 1.3x)"
