#!/usr/bin/env bats
# sa-report and OUT/report.html: the pages of two small campaigns (a
# MOAT screen and a tuning) loaded in Debian's chromium, headless: every
# image decoded (the page's script marks its body), the tables there,
# nothing external; the measured makespan against known attempts; the
# report key; options and bad inputs.
load common

load campaign
bats_require_minimum_version 1.5.0

# Two small campaigns, run once for the file: c-out (MOAT, 32 runs, two
# 160-pixel tiles) and t-out (tune, 8 random sets).
setup_file() {
	cd "$BATS_FILE_TMPDIR" || return 1
	tiles 160
	# absolute paths: the tests run the campaigns from copies
	campaign c.campaign tiles="$PWD/tiles/list" reference="$PWD/tiles"
	campaign t.campaign tiles="$PWD/tiles/list" reference="$PWD/tiles" \
	    goal=tune method=random samples=8
	sed -i '/^trajectories/d' t.campaign
	sa-campaign -q run c.campaign
	sa-campaign -q run t.campaign
}

# copy NAME: the campaign NAME (c or t) and its output, here
copy() {
	cp -r "$BATS_FILE_TMPDIR/$1.campaign" "$BATS_FILE_TMPDIR/$1-out" .
}

# dom HTML: the page as chromium has it once its script ran (chromium's
# stderr, dbus and GPU noise, ignored)
dom() {
	chromium --headless --no-sandbox --disable-gpu --virtual-time-budget=5000 \
	    --dump-dom "file://$PWD/$1" 2> /dev/null
}

# external HTML: the src and href values that are not data: URIs or
# anchors, and any URL, one a line
external() {
	grep -Eo '(src|href)="[^"]*"' "$1" | grep -Ev '^(src="data:image/png;base64,|href="#)' || true
	grep -Eo '(https?|ftp)://[^ "<]*|//[a-z0-9.-]+\.[a-z]{2,}/' "$1" || true
}

# rows SECTION HTML: the body rows of the first table of the section
rows() {
	sed -n "/<section id=\"$1\">/,/<\/section>/p" "$2" |
	    sed -n '/<tbody>/,/<\/tbody>/p' | grep '^<tr'
}

@test "merge writes report.html (status names it); in chromium every image decodes; the indices and reuse tables; nothing external" {
	copy c
	[ -s c-out/report.html ]
	run sa-campaign status c.campaign
	assert_line "report: $PWD/c-out/report.html"
	run dom c-out/report.html
	assert_success
	assert_output --partial '<body data-images="decoded" data-image-count="2">'
	# and can fail: a page whose PNG signatures are spoilt is broken
	sed 's/base64,iVBORw0KGgo/base64,iVBORw0KGgpXXXX/' c-out/report.html > broken.html
	run dom broken.html
	assert_output --partial '<body data-images="broken" data-image-count="2">'
	# the indices: every parameter, sorted by mu*, its interval
	run rows results c-out/report.html
	assert_equal "${#lines[@]}" 15
	top=$(body c-out/indices.tsv | sort -t $'\t' -k 3,3gr | sed -n 1p | cut -f 1)
	assert_line --index 0 --partial "<tr><td>$top</td>"
	assert_line --index 0 --regexp ' ± [0-9.e-]+</td>'
	# the work saved: the #stats line's task nodes (per tile) times the
	# 2 tiles, the percentage saved; the merged stage's rows of
	# timings.tsv (Seg0 to Seg6), their seconds
	stats=$(sed -n 's/^#stats //p' c-out/buckets.tsv)
	statv() { tr ' ' '\n' <<< "$stats" | sed -n "s/^$1=//p"; }
	run rows reuse c-out/report.html
	assert_equal "${#lines[@]}" 4
	assert_line --index 0 --partial ">$(($(statv tasks_noreuse) * 2))</td><td class=\"n\">—</td><td class=\"n\">≈ "
	assert_line --index 2 --partial ">$(($(statv tasks_merged) * 2))</td><td class=\"n\">$(statv reuse_total_pct | sed 's/0*$//; s/\.$//') %</td><td class=\"n\">≈ "
	ran=$(grep -c -P '\tSeg[0-6]\t' c-out/timings.tsv)
	assert [ "$ran" -gt 0 ]
	assert_line --index 3 --partial "<td>run: the plan less what cancellation and stopped paths left out</td>"
	assert_line --index 3 --partial ">$ran</td>"
	secs=$(awk -F '\t' '$4 ~ /^Seg[0-6]$/ { s += $6 } END { printf "%.4g", s }' c-out/timings.tsv)
	assert_line --index 3 --partial "<td class=\"n\">$secs</td>"
	grep -q '<p class="note">Task nodes: one execution of a task of the merged stage on a tile, for 32 runs on 2 tiles' c-out/report.html
	# without --workflow, what ran is not known: said, no figure made up
	sa-report -o nowf.html c-out
	run rows reuse nowf.html
	assert_line --index 3 --partial '<td class="n">—</td><td class="n">—</td><td class="n">—</td><td class="n">—</td></tr>'
	grep -q 'what was run and its seconds need the workflow (<code>sa-report --workflow</code>)' nowf.html
	# the plots inlined byte for byte, in order
	grep -o 'src="data:image/png;base64,[^"]*"' c-out/report.html |
	    sed -n 1p | sed 's/^src="data:image\/png;base64,//; s/"$//' | base64 -d > first.png
	cmp first.png c-out/indices.png
	assert_equal "$(grep -c '<img ' c-out/report.html)" 2
	assert_equal "$(external c-out/report.html)" ''
	# timings per task: normalize from the reference step, every task
	run rows timings c-out/report.html
	assert_line --index 0 --partial '<td>normalize (reference step)</td><td class="n">2</td>'
	assert_line --partial '<td>Seg6</td>'
	assert_line --partial '<tr class="total"><td>all</td>'
	grep -q 'their own normalize rows time only that reuse' c-out/report.html
}

@test "indices not to be trusted: their warnings in a box above the table (vbd n = 8); none for the sound campaign; one MOAT effect a parameter: sigma 'undefined (one effect)', no '± NaN'" {
	copy c
	run -1 grep -c 'class="warn"' c-out/report.html
	assert_output 0
	# vbd indices of 8 base samples in place of the campaign's
	sa-sample -m vbd -n 8 -s 237 --base mc "$TOP/share/spaces/ishigami.tsv" > d.tsv
	sa-testfn ishigami d.tsv > y.tsv
	sa-indices -m vbd -o c-out/indices.tsv d.tsv y.tsv 2> /dev/null
	sa-report -o v.html c-out
	grep -q '<div class="warn"><p><strong>Not to be trusted as they are:</strong> sa-indices warned of 5 problems' v.html
	grep -q '^<li>S1 sums to 1.67 ± 0.63, above 1 beyond its interval: too few base samples (n = 8); about n = 2048 would narrow the intervals to ± 0.05</li>$' v.html
	# the box comes before the table
	run sed -n '/<section id="results">/,/<\/section>/{/class="warn"\|<table/p}' v.html
	assert_line --index 0 --partial 'class="warn"'
	# the second trajectory's runs all missing: one effect a parameter
	# left, sigma undefined
	k=$(sed -n 's/^#method=moat .* k=\([0-9]*\) .*/\1/p' c-out/design.tsv)
	awk -F'\t' -v k="$k" '/^#/ || $1 == "run" || $1 + 0 <= k' c-out/results.tsv > one.tsv
	run -0 --separate-stderr sa-indices -m moat --allow-missing --metric dice -o c-out/indices.tsv c-out/design.tsv one.tsv
	assert_regex "$stderr" 'sa-indices: warning: sigma is undefined with one trajectory'
	sa-report -o m.html c-out
	grep -q '<li>sigma is undefined with one trajectory' m.html
	grep -q 'undefined (one effect)</td>' m.html
	run -1 grep -c '± NaN' m.html
}

@test "the makespan: logs/finished has every bucket's attempt; the prediction is sim-runtime's on the concurrency seen" {
	copy c
	nb=$(body c-out/buckets.tsv | tail -n +2 | wc -l)
	# one line per bucket, I START END EXIT, in seconds since the epoch
	assert_equal "$(awk '$4 == 0 && NF == 4 && $3 >= $2 { print $1 }' c-out/logs/finished | sort -n | paste -sd' ')" \
	    "$(seq 0 $((nb - 1)) | paste -sd' ')"
	slots=$(sa-report --concurrency c-out)
	[ "$slots" -ge 1 ] && [ "$slots" -le 2 ]	# jobs = cores / active paths on 2 cores
	assert_equal "$(body c-out/makespan.tsv | awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i } NR == 2 { print $c["slots"] }')" "$slots"
	grep -q "<tr><th>Buckets timed</th><td>$nb of $nb</td></tr>" c-out/report.html
	grep -q "<tr><th>Predicted</th><td>.* on $slots slots (sim-runtime" c-out/report.html
	# a bucket run again (the step with results done: no new attempt
	# timed), and again after its results went: a new line
	n=$(wc -l < c-out/logs/finished)
	sa-campaign -q bucket c.campaign 1
	assert_equal "$(wc -l < c-out/logs/finished)" "$n"
	rm c-out/results/00001-0000.tsv
	sa-campaign -q bucket c.campaign 1
	assert_equal "$(wc -l < c-out/logs/finished)" "$((n + 1))"
}

@test "measured makespan and concurrency: the last successful attempt of each bucket, against known answers" {
	copy c
	# bucket 1 failed then ran; bucket 3 ran twice (the later one counts);
	# bucket 2 starts as bucket 0 ends; bucket 4 within 0 and 1
	printf '%s\n' '1 1000 1001 1' '0 1000 1010 0' '1 1005 1015 0' \
	    '2 1010 1020 0' '3 1002 1003 0' '4 1006 1009 0' '3 1030 1031 0' \
	    '5 1040 1050 3' > c-out/logs/finished
	run sa-report --concurrency c-out
	assert_success
	assert_output 3
	sa-report -o r.html c-out
	grep -q '<tr><th>Measured</th><td>31 s: from the first start to the last end</td></tr>' r.html
	grep -q '<tr><th>Concurrency</th><td>3 bucket(s) at once at most; 34 s of bucket time in all</td></tr>' r.html
	grep -q '<tr><th>Predicted</th><td>no prediction' r.html
	# a prediction with moved and added columns, h:mm:ss
	printf 'plan\tmakespan_hms\tslots\tmakespan\textra\nbaseline\t0:00:46\t3\t46.5\tx\n' > m.tsv
	sa-report --makespan m.tsv -o r.html c-out
	grep -q '<tr><th>Predicted</th><td>46.5 s on 3 slots' r.html
	grep -q '<tr><th>Prediction error</th><td>+50.0 % of the measured</td></tr>' r.html
	printf 'plan\tmakespan\nbaseline\t1:02:05\n' > m.tsv
	sa-report --makespan m.tsv -o r.html c-out
	grep -q '<tr><th>Predicted</th><td>1:02:05 (3725 s) on ? slots' r.html
	# no record: 0, and the page says so
	rm c-out/logs/finished
	assert_equal "$(sa-report --concurrency c-out)" 0
	sa-report c-out | grep -q 'no bucket.*s attempt is recorded (logs/finished)'
}

@test "a tune campaign's page: the top sets best first, the best set, tune.png decoded in chromium" {
	copy t
	[ -s t-out/report.html ]
	run dom t-out/report.html
	assert_success
	assert_output --partial '<body data-images="decoded" data-image-count="1">'
	grep -q '<h2>The best sets</h2>' t-out/report.html
	run ! grep -q 'id="results">.*<h2>The indices' t-out/report.html
	# the sets in trials.tsv's order, the best first
	best=$(sed -n 's/^#best run=\([0-9]*\) .*/\1/p' t-out/best.tsv)
	run rows results t-out/report.html
	# 8 sets; the defaults and the best against them; 15 parameters of the best
	assert_equal "${#lines[@]}" "$((8 + 2 + 15))"
	assert_line --regexp '^<tr><td>defaults</td><td class="n">-</td><td class="n">0\.[0-9]+</td><td class="n">—</td></tr>$'
	assert_line --regexp "^<tr><td>best</td><td class=\"n\">$best</td><td class=\"n\">0\.[0-9]+</td><td class=\"n\">[-+]0\.[0-9]+</td></tr>\$"
	grep -q 'Add <code>validate = LIST</code> to the campaign' t-out/report.html
	assert_line --index 0 --partial "<tr class=\"best\"><td class=\"n\">1</td><td class=\"n\">$best</td><td>complete</td>"
	for i in 1 2 3; do
		run_i=$(body t-out/trials.tsv | awk -v i=$((i + 1)) 'NR == i { print $1 }')
		assert_line --index $((i - 1)) --regexp "<td class=\"n\">$i</td><td class=\"n\">$run_i</td>"
	done
	# --top: 3 sets
	sa-report --top 3 -o top.html t-out
	assert_equal "$(rows results top.html | grep -c '<td>complete</td>')" 3
	grep -q 'The 3 best of them' top.html
	# the best set: every parameter with its value
	grep -q "Run $best: mean dice " t-out/report.html
	assert_equal "$(external t-out/report.html)" ''
}

@test "a tune campaign's page at 1280 px: the best sets' table scrolls sideways within its box, not the page; the rank and run stay in sight" {
	copy t
	# a probe: once loaded, the table's box scrolled to its right end,
	# what the test reads is written on the body
	sed 's#</body>#<script>window.addEventListener("load", function () {\
var w = document.querySelector("\#results .wide"), t = w.querySelector("table.trials"),\
m = document.querySelector("main").getBoundingClientRect(), r, c;\
w.scrollLeft = w.scrollWidth; r = w.getBoundingClientRect();\
c = t.querySelector("tbody tr td:nth-child(2)").getBoundingClientRect();\
document.body.setAttribute("data-fit", [\
"page=" + (document.documentElement.scrollWidth <= window.innerWidth ? "fits" : "wider"),\
"box=" + (r.right <= m.right ? "fits" : "wider"), "overflow=" + getComputedStyle(w).overflowX,\
"scrolls=" + (t.scrollWidth > w.clientWidth ? "yes" : "no"),\
"run=" + (c.left >= r.left \&\& c.right <= r.right ? "in sight" : "hidden")].join(" "));\
});</script></body>#' t-out/report.html > probe.html
	run chromium --headless --no-sandbox --disable-gpu --window-size=1280,2000 \
	    --virtual-time-budget=5000 --dump-dom "file://$PWD/probe.html"
	assert_success
	assert_output --partial 'data-fit="page=fits box=fits overflow=auto scrolls=yes run=in sight"'
}

@test "report = no: no report, an old one removed; plot = no: a page without images, old plots removed; only analysis keys changed, no bucket runs" {
	copy c
	n=$(wc -l < c-out/logs/attempts)
	echo 'report = no' >> c.campaign
	run sa-campaign merge c.campaign
	assert_success
	refute_output --partial 'report:'
	assert [ ! -e c-out/report.html ] && assert [ ! -e c-out/makespan.tsv ]
	sed -i 's/^report = no$/plot = no/' c.campaign
	run sa-campaign merge c.campaign
	assert_success
	assert_output --partial "report: $PWD/c-out/report.html"
	assert [ ! -e c-out/indices.png ] && assert [ ! -e c-out/indices-plane.png ]
	assert_equal "$(grep -c '<img' c-out/report.html)" 0
	grep -q '<p>None: the campaign has <code>plot = no</code>.</p>' c-out/report.html
	assert_equal "$(wc -l < c-out/logs/attempts)" "$n"
	run sa-campaign-conf --keys
	assert_line "$(printf 'report\tyes/no\tyes\tanalysis\tall')"
}

@test "options: stdout by default, -o atomically, --campaign shown escaped, --help, --version" {
	copy c
	run sa-report --help
	assert_success
	assert_output --partial 'Usage: sa-report'
	assert_output --partial '--top N              the best sets of a tune campaign shown [10]'
	run sa-report --version
	assert_output 'sa-report (sareuse) 0.1.0'
	sa-report c-out > out.html
	sa-report -o o.html c-out
	# the same page, but for its date and command line
	assert_equal "$(grep -v 'report of\|<footer>' out.html)" "$(grep -v 'report of\|<footer>' o.html)"
	no_temp_files
	# the campaign file as written, escaped; its engine
	printf '# <b>bold</b> & "quoted" <script>alert(1)</script>\n' >> c.campaign
	sa-report --campaign c.campaign -o o.html c-out
	grep -qF '# &lt;b&gt;bold&lt;/b&gt; &amp; &quot;quoted&quot; &lt;script&gt;alert(1)&lt;/script&gt;' o.html
	run ! grep -q '<script>alert' o.html
	grep -q '<tr><th>Engine</th><td>local, 1 active path(s) a bucket</td></tr>' o.html
	grep -q '<title>c.campaign: campaign report</title>' o.html
	assert_equal "$(grep -c '<script>' o.html)" 1
}

@test "bad inputs: usage errors; not a campaign's directory; not merged; a broken plot or makespan; nothing left behind; a cut logs/finished warned of" {
	copy c
	run sa-report
	assert_failure 2
	assert_output --partial 'expected OUTDIR'
	run sa-report c-out c-out
	assert_failure 2
	run sa-report --top 0 c-out
	assert_failure 2
	assert_output --partial "--top '0'"
	run sa-report --bogus c-out
	assert_failure 2
	run sa-report --concurrency -o x.html c-out
	assert_failure 2
	assert_output --partial '--concurrency prints a number'
	run sa-report --campaign c.campaign -o c.campaign c-out
	assert_failure 2
	refuse_run sa-report 1 'none: No such file or directory' none
	touch afile
	refuse_run sa-report 1 'afile: not a directory' afile
	mkdir empty
	refuse_run sa-report 1 "empty: no buckets.tsv: not a campaign's output directory" empty
	mkdir planned
	cp c-out/buckets.tsv c-out/design.tsv c-out/tiles.list planned/
	refuse_run sa-report 1 'planned: no trials.tsv: the campaign is not merged (sa-campaign merge)' planned
	# a plot cut short, and one that is not a PNG
	cp -r c-out cut
	head -c 2000 c-out/indices.png > cut/indices.png
	refuse_run sa-report 1 'cut/indices.png: truncated PNG' cut
	cp -r c-out text
	echo 'not an image' > text/indices-plane.png
	refuse_run sa-report 1 'text/indices-plane.png: not a PNG image' text
	printf 'plan\tspan\nbaseline\t3\n' > m.tsv
	refuse_run sa-report 1 "m.tsv: no column 'makespan' in the header" --makespan m.tsv c-out
	printf 'makespan\nsoon\n' > m.tsv
	refuse_run sa-report 1 "m.tsv:2: column makespan: 'soon' is not a duration (seconds, or h:mm:ss)" --makespan m.tsv c-out
	run sa-report --concurrency --workflow "$TOP/share/workflows/nuclei.wf" c-out
	assert_failure 2
	assert_output --partial '--concurrency prints a number'
	run sa-report --workflow - c-out
	assert_failure 2
	assert_output --partial '--workflow: a file, not stdin'
	refuse_run sa-report 1 'no.wf: No such file or directory' --workflow no.wf c-out
	printf 'stage\ttask\tparams\tcost\nsegment\tSeg0\tB\tcheap\n' > bad.wf
	refuse_run sa-report 1 "bad.wf:2: column cost: 'cheap' is not a number" --workflow bad.wf c-out
	echo 'bucket_sise = 4' > bad.campaign
	refuse_run sa-report 1 "bad.campaign:1: unknown key 'bucket_sise'" --campaign bad.campaign c-out
	# a record of logs/finished cut by a kill: warned of, skipped (the
	# page warns, --concurrency, which the merge runs first, is quiet)
	echo '3 10 x 0' >> c-out/logs/finished
	run --separate-stderr sa-report -o page.html c-out
	assert_success
	assert_equal "$stderr" "sa-report: c-out/logs/finished:$(wc -l < c-out/logs/finished): '3 10 x 0': a time is not a number of seconds from 0; skipped (1 malformed line: a record cut by a kill)"
	[ -s page.html ]
	run --separate-stderr sa-report --concurrency c-out
	assert_success
	assert_equal "$stderr" ''
}
