# common.bash - loaded by every Bats suite.
# bats-support and bats-assert, their files sourced here: their load.bash
# runs dirname once per file, 15 processes for every test (half a second
# of each test on a 2-core machine)
for f in /usr/lib/bats/bats-support/src/*.bash /usr/lib/bats/bats-assert/src/*.bash; do
	# shellcheck source=/dev/null
	source "$f"
done
unset f

# the source tree (BATS_TEST_DIRNAME is absolute)
TOP=${BATS_TEST_DIRNAME%/*}
export PATH="$SR_BIN:$SR_TESTBIN:$PATH"
SPACE=$TOP/share/spaces/nuclei.tsv
FINE=$TOP/share/spaces/nuclei-fine.tsv
MONUSEG=$TOP/test/data/monuseg

setup() {
	cd "$BATS_TEST_TMPDIR" || return 1
}

# body FILE: the non-comment lines of a TSV file
body() {
	grep -v '^#' "$1"
}

# no_temp_files DIR: fails if an output temporary was left behind
no_temp_files() {
	run find "${1:-.}" -name '.*.tmp.*'
	assert_output ''
}

# refuse_run TOOL CODE MESSAGE ARGS...: TOOL ARGS fails with CODE and
# MESSAGE; with -o it leaves no file (nor an s2.out), no temporary, and an
# existing file untouched. Afterwards $output is that of the first run
# (without -o), for more checks.
refuse_run() {
	local tool=$1 code=$2 msg=$3 first
	shift 3
	run "$tool" "$@"
	assert_failure "$code"
	assert_output --partial "$msg"
	first=$output
	rm -f new.tsv s2.out
	run "$tool" -o new.tsv "$@"
	assert_failure "$code"
	assert_output --partial "$msg"
	assert [ ! -e new.tsv ]
	assert [ ! -e s2.out ]
	printf 'keep\n' > old.tsv
	run "$tool" -o old.tsv "$@"
	assert_failure "$code"
	assert_equal "$(cat old.tsv)" keep
	no_temp_files
	output=$first
}

# crops N SIZE: tiles/t1.png ... the top-left SIZE x SIZE of the first N
# MoNuSeg tiles, their masks as tiles/tK.mask.png, and tiles/list
crops() {
	local n=$1 size=$2 k=0 f
	mkdir -p tiles
	: > tiles/list
	for f in "$MONUSEG"/*-DX1.png "$MONUSEG"/*-TS1.png; do
		case $f in *.mask.png | *.labels.png) continue ;; esac
		k=$((k + 1))
		[ $k -le "$n" ] || break
		sa-testimg crop "$f" 0 0 "$size" "$size" tiles/t$k.png
		sa-testimg crop --mask "${f%.png}.mask.png" 0 0 "$size" "$size" \
		    tiles/t$k.mask.png
		echo "t$k.png" >> tiles/list
	done
}
