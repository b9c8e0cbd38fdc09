#!/usr/bin/env bats
# make install: GNU directory variables and DESTDIR; what is installed.
load common

@test "make install honours DESTDIR, PREFIX, BINDIR, MANDIR and SHAREDIR" {
	run make -s -C "$TOP" install DESTDIR="$PWD/root" PREFIX=/opt/sr \
	    BINDIR=/opt/sr/xbin MANDIR=/opt/sr/xman SHAREDIR=/opt/sr/xshare
	assert_success
	for t in sa-sample sa-indices; do
		[ -x root/opt/sr/xbin/$t ] || fail "no $t in BINDIR"
		[ -f root/opt/sr/xman/man1/$t.1 ] || fail "no $t.1 in MANDIR"
	done
	[ -f root/opt/sr/xman/man5/space.5 ] || fail "no space.5"
	[ -f root/opt/sr/xman/man7/sareuse.7 ] || fail "no sareuse.7"
	[ -f root/opt/sr/xshare/spaces/nuclei.tsv ] || fail "no nuclei.tsv"
	[ -f root/opt/sr/xshare/spaces/nuclei-fine.tsv ] || fail "no nuclei-fine.tsv"
}

@test "make install copies no test data (the MoNuSeg licence is non-commercial)" {
	run make -s -C "$TOP" install DESTDIR="$PWD/root" PREFIX=/usr
	assert_success
	run find root -path '*test*' -o -name '*.png'
	assert_output ''
}

@test "installed tools run from DESTDIR and find nothing of the build tree" {
	make -s -C "$TOP" install DESTDIR="$PWD/root" PREFIX=/usr
	run root/usr/bin/sa-sample --version
	assert_success
	assert_output --partial "sa-sample (sareuse)"
	run root/usr/bin/sa-sample -m lhs -n 4 root/usr/share/sareuse/spaces/nuclei.tsv
	assert_success
}

@test "make uninstall removes what install put there" {
	make -s -C "$TOP" install DESTDIR="$PWD/root" PREFIX=/usr
	run make -s -C "$TOP" uninstall DESTDIR="$PWD/root" PREFIX=/usr
	assert_success
	run find root -type f
	assert_output ''
}

@test "the installed sa-campaign finds its engines and job scripts in SHAREDIR" {
	make -s -C "$TOP" install DESTDIR="$PWD/root" PREFIX=/opt/sr SHAREDIR=/opt/sr/xshare
	grep -qx 'sharedir=/opt/sr/xshare' root/opt/sr/bin/sa-campaign
	[ -f root/opt/sr/xshare/lib/engines.sh ]
	[ -f root/opt/sr/xshare/lib/batches.sh ]
	[ -f root/opt/sr/xshare/lib/evaluate.sh ]
	[ -x root/opt/sr/xshare/slurm/sa-bucket.sbatch ]
	[ -x root/opt/sr/xshare/slurm/sa-validate.sbatch ]
	[ -x root/opt/sr/xshare/slurm/pbs/sa-bucket.pbs ]
	[ -x root/opt/sr/xshare/slurm/pbs/sa-validate.pbs ]
	[ -x root/opt/sr/bin/seg-run ]
	run root/opt/sr/bin/sa-campaign --version
	assert_success
	assert_output --partial "sa-campaign (sareuse)"
}

@test "an installed sa-campaign plans from PREFIX alone: its helper, engines and default workflow" {
	make -s -C "$TOP" install PREFIX="$PWD/inst"
	[ -x inst/bin/sa-campaign-conf ]
	grep -qx "libdir=$PWD/inst/share/sareuse/lib" inst/bin/sa-campaign
	grep -qx "jobsdir=$PWD/inst/share/sareuse/slurm" inst/bin/sa-campaign
	mkdir tiles
	sa-testimg solid 64 64 200 120 160 tiles/a.png
	echo a.png > tiles/list
	printf '%s\n' "space = $PWD/inst/share/sareuse/spaces/nuclei.tsv" \
	    'method = moat' 'trajectories = 2' 'tiles = tiles/list' > c.campaign
	PATH=$PWD/inst/bin:/usr/bin:/bin run sa-campaign -q plan c.campaign
	assert_success
	grep -q "^workflow $(cksum < inst/share/sareuse/workflows/nuclei.wf)\$" c-out/inputs
}
