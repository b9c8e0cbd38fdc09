# base.bash - the code before a change, built beside the current one, for
# the benchmarks that compare old and new in one run (issue 17): absolute
# seconds on a shared machine drift, ratios measured alternately in one run
# do not.
#
# Usage, in a benchmark that has set top (the checkout) and tmp (its
# scratch directory, removed on exit):
#   . "$top/test/bench/base.bash"
#   base_build            # SR_BASE=REV: builds REV; sets BASE_BIN and
#                         # BASE_TESTBIN, or returns 1 when SR_BASE is unset
# The worktree is made with `git worktree add --detach` under $tmp and
# removed (with its registration) by base_clean, which the caller's EXIT
# trap should run.

BASE_BIN=
BASE_TESTBIN=
base_dir=

# base_build: build $SR_BASE in $tmp/base (a detached worktree); a
# failure to build is fatal, an unset SR_BASE is not
base_build() {
	[ -n "${SR_BASE:-}" ] || return 1
	local rev
	rev=$(git -C "$top" rev-parse --verify "$SR_BASE^{commit}") ||
		{ echo "base.bash: SR_BASE=$SR_BASE is not a revision of $top" >&2; exit 2; }
	base_dir=$tmp/base
	git -C "$top" worktree add --detach -q "$base_dir" "$rev"
	echo "building the base $SR_BASE ($rev) in $base_dir" >&2
	make -C "$base_dir" -s -j2 all testbins >/dev/null
	BASE_BIN=$base_dir/bin
	BASE_TESTBIN=$base_dir/build/release/testbin
	echo "base: $(git -C "$top" log -1 --format='%h %s' "$rev" | cut -c1-70)"
}

# base_clean: remove the base's worktree (for the caller's EXIT trap)
base_clean() {
	[ -n "$base_dir" ] || return 0
	git -C "$top" worktree remove --force "$base_dir" 2>/dev/null || true
	git -C "$top" worktree prune 2>/dev/null || true
}

# alternate N CMD_OLD CMD_NEW: run the two commands N times each,
# alternately (old, new, old, new, ...), printing "old|new SECONDS" per run
# from bash's clock; the commands are strings evaluated by eval
alternate() {
	local n=$1 old=$2 new=$3 i t0 t1
	for ((i = 0; i < n; i++)); do
		t0=$EPOCHREALTIME; eval "$old"; t1=$EPOCHREALTIME
		echo "old $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.4f", b - a }')"
		t0=$EPOCHREALTIME; eval "$new"; t1=$EPOCHREALTIME
		echo "new $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.4f", b - a }')"
	done
}

# awk functions the benchmarks' summaries share: v[1..n] sorted in
# place, and its median
base_median_awk='function sort(v, n,   i, j, t) {
	for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++)
		if (v[j] < v[i]) { t = v[i]; v[i] = v[j]; v[j] = t } }
function median(v, n) {
	sort(v, n); return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2 }'

# ratio: read "old|new SECONDS" lines; print the medians and old/new
ratio() {
	awk "$base_median_awk"'{ v[$1, ++n[$1]] = $2 }
	    function med(k,   i, a) {
		for (i = 1; i <= n[k]; i++) a[i] = v[k, i]
		return median(a, n[k])
	    }
	    END { o = med("old"); w = med("new")
		printf "median old %.3f s, new %.3f s, old/new %.2fx (%d runs each)\n", o, w, o / w, n["new"] }'
}
