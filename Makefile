# sareuse - parameter sensitivity analysis with computation reuse.
# make                 build every tool into bin/
# make check           install missing Debian packages (as root), build, run the tests
# make asan=1 check    the same with AddressSanitizer + UBSan (into bin-asan/)
# make valgrind=1 check  run the test suite with every tool under valgrind
# make demo           the main job: a MOAT campaign on bundled tiles (examples/moat)
# make bench           print the benchmark figures (test/bench); SALIB=DIR
#                      measures SALib beside sa-sample and sa-indices, and
#                      SR_BASE=REV the code of REV beside this one
# make check-stops     50 random stops of campaigns, each resumed (test/stops-random)
# make fuzz            libFuzzer on every reader, FUZZ_SECONDS each (clang; test/fuzz)
# make install         PREFIX, DESTDIR, BINDIR, MANDIR, SHAREDIR honoured

PREFIX   ?= /usr/local
BINDIR   ?= $(PREFIX)/bin
MANDIR   ?= $(PREFIX)/share/man
SHAREDIR ?= $(PREFIX)/share/sareuse
DESTDIR  ?=

CC       ?= cc
CFLAGS   ?= -O2 -g
STD       = -std=c11 -D_POSIX_C_SOURCE=200809L
WARN      = -Wall -Wextra -Werror
CXX      ?= c++
CXXFLAGS ?= -O2 -g
CVPKG     = opencv4
CV_CFLAGS := $(or $(shell pkg-config --cflags $(CVPKG) 2>/dev/null),-I/usr/include/opencv4)
# only the modules seg-run uses; --as-needed keeps the other tools free of them
CV_LIBS   = -lopencv_imgproc -lopencv_core
LDFLAGS  += -Wl,--as-needed
LDLIBS    = -ljansson -lfftw3 -ltiff -lpng $(CV_LIBS) -ldouble-conversion -lstdc++ -lgsl -lgslcblas -lm -lpthread -ldl
SHELL     = /bin/bash

ifeq ($(asan),1)
SAN       = -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
OUT       = build/asan
BIN       = bin-asan
else
SAN       =
OUT       = build/release
BIN       = bin
endif

TOOLS     = sa-sample sa-indices wf-compact reuse-merge seg-run seg-merge compare-dice \
            sim-runtime sa-campaign-conf sa-trials sa-report sa-prune wsi-tiles \
            sa-campaign-data
UNITS     = corr_test morris_select_test sca_test trtma_test morph_test image_test \
            compare_test simulate_test hash_test formats_test sa_test \
            compare_table_test campaign_test lock_test cancel_test ledger_test \
            num_test report_test prune_test geojson_test \
            distance_test bits_test watershed_test mem_test norm_test template_test \
            spawn_test owner_test search_test trust_test labels_test efast_test given_test
LIBSRC    = $(wildcard tools/lib/*/*.c)
LIBCXXSRC = $(wildcard tools/lib/*/*.cpp)
LIBOBJ    = $(LIBSRC:tools/lib/%.c=$(OUT)/lib/%.o) \
            $(LIBCXXSRC:tools/lib/%.cpp=$(OUT)/lib/%.o)
LIBA      = $(OUT)/libsareuse.a
ALL_CFLAGS = $(STD) $(WARN) $(CFLAGS) $(SAN) -Itools/lib -MMD -MP
ALL_CXXFLAGS = -std=c++17 $(WARN) $(CXXFLAGS) $(SAN) $(CV_CFLAGS) -Itools/lib -MMD -MP

.SECONDARY:
.PHONY: all deps demo check check-fast check-stops test testbins bench install uninstall clean lint
all: $(TOOLS:%=$(BIN)/%) $(BIN)/sa-campaign

# sa-campaign beside the tools, with the source tree's share/, engines
# (workflows/) and job scripts (slurm/); make install writes SHAREDIR's
$(BIN)/sa-campaign: workflows/sa-campaign Makefile
	@mkdir -p $(@D)
	sed -e 's|^sharedir=.*|sharedir=$(CURDIR)/share|' \
	    -e 's|^libdir=.*|libdir=$(CURDIR)/workflows|' \
	    -e 's|^jobsdir=.*|jobsdir=$(CURDIR)/slurm|' $< > $@.tmp
	chmod 755 $@.tmp
	mv -f $@.tmp $@

$(OUT)/lib/%.o: tools/lib/%.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -c $< -o $@

# the bootstrap draws' loops vectorized (at -O2 GCC vectorizes only loops
# that need no remainder): see sa/draws.c
$(OUT)/lib/sa/draws.o: ALL_CFLAGS += -ftree-vectorize -fvect-cost-model=dynamic

$(OUT)/lib/%.o: tools/lib/%.cpp
	@mkdir -p $(@D)
	$(CXX) $(ALL_CXXFLAGS) -c $< -o $@

$(OUT)/tools/%.o: tools/%.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -c $< -o $@

$(OUT)/test/%.o: test/%.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -c $< -o $@

$(LIBA): $(LIBOBJ)
	rm -f $@
	$(AR) rcs $@ $^

$(BIN)/%: $(OUT)/tools/%.o $(LIBA)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(SAN) $(LDFLAGS) $^ $(LDLIBS) -o $@

# test helpers: test functions and unit tests of tools/lib
$(OUT)/testbin/%: $(OUT)/test/unit/%.o $(LIBA)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(SAN) $(LDFLAGS) $^ $(LDLIBS) -o $@
$(OUT)/testbin/sa-testfn: $(OUT)/test/testfn.o $(LIBA)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(SAN) $(LDFLAGS) $^ $(LDLIBS) -o $@
$(OUT)/testbin/sa-testimg: $(OUT)/test/testimg.o $(OUT)/test/testslide.o $(LIBA)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(SAN) $(LDFLAGS) $^ $(LDLIBS) -o $@
$(OUT)/testbin/sa-prunefn: $(OUT)/test/prunefn.o $(LIBA)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(SAN) $(LDFLAGS) $^ $(LDLIBS) -o $@
$(OUT)/testbin/sa-spawnbench: $(OUT)/test/spawnbench.o $(LIBA)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(SAN) $(LDFLAGS) $^ $(LDLIBS) -o $@

testbins: all $(OUT)/testbin/sa-testfn $(OUT)/testbin/sa-testimg \
    $(OUT)/testbin/sa-prunefn $(OUT)/testbin/sa-spawnbench \
    $(UNITS:%=$(OUT)/testbin/%)

deps:
	@tools/install-deps

# the build of check and check-fast on every core (a fresh clone's
# compile takes 4 minutes on one)
NPROC    := $(shell nproc 2>/dev/null || echo 1)

check: deps
	$(MAKE) lint
	$(MAKE) -j$(NPROC) testbins
	SR_BIN=$(CURDIR)/$(BIN) SR_TESTBIN=$(CURDIR)/$(OUT)/testbin \
	    VALGRIND=$(valgrind) test/run

test: check

# the inner loop, under a minute on 2 cores: lint, then the tests tagged
# fast (the unit tests among them, their stress loops a tenth), 2 at a time
check-fast: deps
	$(MAKE) lint
	$(MAKE) -j$(NPROC) testbins
	SR_BIN=$(CURDIR)/$(BIN) SR_TESTBIN=$(CURDIR)/$(OUT)/testbin test/run --fast

# slow, outside check: random kills of campaigns, each resumed
check-stops: testbins
	SR_BIN=$(CURDIR)/$(BIN) SR_TESTBIN=$(CURDIR)/$(OUT)/testbin test/stops-random

# the main job: a MOAT screen of the nuclei workflow end to end (examples/moat)
demo: deps
	$(MAKE) all
	examples/moat/run $(or $(OUT_DIR),moat-out)

# man pages, and the library's layout (tools/check-layers: its layers, no
# include cycle, no file over 900 lines; docs/ARCHITECTURE.md), and the
# driver's shell (tools/check-shell: no format read in awk, sed or cut;
# shellcheck clean)
lint:
	mandoc -Tlint -W warning man/man*/*.[157]
	tools/check-layers tools/lib
	tools/check-shell

bench: all $(OUT)/testbin/sa-testfn $(OUT)/testbin/sa-testimg $(OUT)/testbin/sa-prunefn \
    $(OUT)/testbin/sa-spawnbench
	SR_BIN=$(CURDIR)/$(BIN) SR_TESTBIN=$(CURDIR)/$(OUT)/testbin test/bench/run
	SR_BIN=$(CURDIR)/$(BIN) SR_TESTBIN=$(CURDIR)/$(OUT)/testbin test/bench/salib
	SR_BIN=$(CURDIR)/$(BIN) SR_TESTBIN=$(CURDIR)/$(OUT)/testbin test/bench/salib-methods
	SR_BIN=$(CURDIR)/$(BIN) test/bench/reuse
	SR_BIN=$(CURDIR)/$(BIN) SR_TESTBIN=$(CURDIR)/$(OUT)/testbin test/bench/segrun
	SR_BIN=$(CURDIR)/$(BIN) SR_TESTBIN=$(CURDIR)/$(OUT)/testbin test/bench/compare
	SR_BIN=$(CURDIR)/$(BIN) SR_TESTBIN=$(CURDIR)/$(OUT)/testbin test/bench/simruntime
	SR_BIN=$(CURDIR)/$(BIN) SR_TESTBIN=$(CURDIR)/$(OUT)/testbin test/bench/campaign
	SR_BIN=$(CURDIR)/$(BIN) test/bench/tune
	SR_BIN=$(CURDIR)/$(BIN) SR_TESTBIN=$(CURDIR)/$(OUT)/testbin test/bench/prune
	SR_BIN=$(CURDIR)/$(BIN) test/bench/prune-monuseg
	SR_BIN=$(CURDIR)/$(BIN) test/bench/search
	SR_BIN=$(CURDIR)/$(BIN) test/bench/search-live
	SR_BIN=$(CURDIR)/$(BIN) SR_TESTBIN=$(CURDIR)/$(OUT)/testbin test/bench/wsi
	SR_BIN=$(CURDIR)/$(BIN) SR_TESTBIN=$(CURDIR)/$(OUT)/testbin test/bench/commands
	SR_BIN=$(CURDIR)/$(BIN) test/bench/own-workflow

install: all
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 \
	    $(DESTDIR)$(MANDIR)/man5 $(DESTDIR)$(MANDIR)/man7 \
	    $(DESTDIR)$(SHAREDIR)/spaces $(DESTDIR)$(SHAREDIR)/workflows \
	    $(DESTDIR)$(SHAREDIR)/lib $(DESTDIR)$(SHAREDIR)/slurm/pbs
	install -m 755 $(TOOLS:%=$(BIN)/%) $(DESTDIR)$(BINDIR)
	sed -e 's|^sharedir=.*|sharedir=$(SHAREDIR)|' \
	    -e 's|^libdir=.*|libdir=$(SHAREDIR)/lib|' \
	    -e 's|^jobsdir=.*|jobsdir=$(SHAREDIR)/slurm|' workflows/sa-campaign \
	    > $(DESTDIR)$(BINDIR)/sa-campaign
	chmod 755 $(DESTDIR)$(BINDIR)/sa-campaign
	install -m 644 workflows/engines.sh workflows/chunks.sh workflows/batches.sh workflows/evaluate.sh $(DESTDIR)$(SHAREDIR)/lib
	install -m 755 slurm/*.sbatch $(DESTDIR)$(SHAREDIR)/slurm
	install -m 755 slurm/pbs/*.pbs $(DESTDIR)$(SHAREDIR)/slurm/pbs
	install -m 644 man/man1/*.1 $(DESTDIR)$(MANDIR)/man1
	install -m 644 man/man5/*.5 $(DESTDIR)$(MANDIR)/man5
	install -m 644 man/man7/*.7 $(DESTDIR)$(MANDIR)/man7
	install -m 644 share/spaces/*.tsv $(DESTDIR)$(SHAREDIR)/spaces
	install -m 644 share/workflows/*.wf $(DESTDIR)$(SHAREDIR)/workflows

uninstall:
	rm -f $(TOOLS:%=$(DESTDIR)$(BINDIR)/%) $(DESTDIR)$(BINDIR)/sa-campaign
	cd man && for f in man*/*.[157]; do rm -f $(DESTDIR)$(MANDIR)/$$f; done
	rm -rf $(DESTDIR)$(SHAREDIR)

# ---- fuzzing (test/fuzz): a libFuzzer harness per reader, built with clang
# against a sanitized copy of the library in build/fuzz; make fuzz runs each
# for FUZZ_SECONDS on one core, test/fuzz.bats (make check) a few seconds.
FUZZ_CC      ?= clang
FUZZ_CXX     ?= clang++
FUZZ_SECONDS ?= 600
FUZZ_OUT      = build/fuzz
FUZZ_NAMES    = space design metrics workflow instances buckets results \
                timings model pairs tiles campaign png tiff ledger \
                tiletable slide georef
FUZZ_SAN      = -fsanitize=address,undefined -fno-sanitize-recover=all \
                -fno-omit-frame-pointer
FUZZ_CFLAGS   = $(STD) -Wall -Wextra -O1 -g $(FUZZ_SAN) -Itools/lib
FUZZ_WRAP     = malloc calloc realloc free strdup strndup getline fopen fdopen \
                fclose open close
FUZZ_LIBA     = $(FUZZ_OUT)/libsareuse.a

$(FUZZ_OUT)/lib/%.o: tools/lib/%.c
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -MMD -MP -fsanitize=fuzzer-no-link -c $< -o $@

$(FUZZ_OUT)/lib/%.o: tools/lib/%.cpp
	@mkdir -p $(@D)
	$(FUZZ_CXX) $(subst $(STD),-std=c++17,$(FUZZ_CFLAGS)) $(CV_CFLAGS) \
	    -MMD -MP -fsanitize=fuzzer-no-link -fno-sanitize=vptr -c $< -o $@

$(FUZZ_LIBA): $(LIBSRC:tools/lib/%.c=$(FUZZ_OUT)/lib/%.o) \
    $(LIBCXXSRC:tools/lib/%.cpp=$(FUZZ_OUT)/lib/%.o)
	rm -f $@
	$(AR) rcs $@ $^

$(FUZZ_OUT)/fuzz-%: test/fuzz/harness.c test/fuzz/track.c test/fuzz/fuzz.h $(FUZZ_LIBA) \
    $(wildcard tools/lib/*/*.h)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer -DFUZZ_READER=fuzz_$* \
	    -DFUZZ_SRCDIR='"$(CURDIR)"' test/fuzz/harness.c test/fuzz/track.c \
	    $(FUZZ_LIBA) $(FUZZ_WRAP:%=-Wl,--wrap=%) -Wl,--as-needed $(LDLIBS) \
	    -o $@

.PHONY: fuzz fuzzbins
fuzzbins: $(FUZZ_NAMES:%=$(FUZZ_OUT)/fuzz-%)
fuzz: fuzzbins
	test/fuzz/run $(FUZZ_SECONDS) $(FUZZ_NAMES)

clean:
	rm -rf build bin bin-asan

-include $(shell find build -name '*.d' 2>/dev/null)
