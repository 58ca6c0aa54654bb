# capebus: build, boot and test.  `make demo` and `make check` are the two
# commands; everything else is a step they take.  See README.md.

CAPEBUS_CACHE ?= $(HOME)/.cache/capebus
export CAPEBUS_CACHE
KSRC    := $(CAPEBUS_CACHE)/linux-6.12
KOBJ    := $(CAPEBUS_CACHE)/build/kernel
# The distribution-like lane: same tree, kernel/configs/distro/ on top.
KOBJ_DISTRO := $(CAPEBUS_CACHE)/build/kernel-distro
SYSROOT := $(CAPEBUS_CACHE)/sysroot-armhf
export CCACHE_DIR ?= $(CAPEBUS_CACHE)/ccache
B       := build
JOBS    ?= $(shell nproc)
export JOBS

ZIMAGE  := $(KOBJ)/arch/arm/boot/zImage
DTB     := $(B)/guest/board.dtb
# The Raspberry Pi 2 B (QEMU's raspi2b), booted by the same kernel.
DTB_RASPI2B := $(B)/guest/raspi2b.dtb
# The same board as its own tree leaves the header (raspi2b-board.bats).
DTB_RASPI2B_BOARD := $(B)/guest/raspi2b-board.dtb
INITRD  := $(B)/guest/initramfs.cpio.gz
ZIMAGE_DISTRO := $(KOBJ_DISTRO)/arch/arm/boot/zImage
INITRD_DISTRO := $(B)/guest-distro/initramfs.cpio.gz
FIRMWARE:= $(B)/firmware
CAPETOOL_HOST  := $(B)/capetool/host/capetool
CAPETOOL_ARMHF := $(B)/capetool/armhf/capetool

# The guest, for tests/qemu/boot.sh and the bats suites.
export CB_KERNEL := $(abspath $(ZIMAGE))
export CB_DTB    := $(abspath $(DTB))
export CB_RASPI2B_DTB := $(abspath $(DTB_RASPI2B))
export CB_RASPI2B_BOARD_DTB := $(abspath $(DTB_RASPI2B_BOARD))
export CB_INITRD := $(abspath $(INITRD))
export CB_FIRMWARE := $(abspath $(FIRMWARE))
export CB_CAPETOOL := $(abspath $(CAPETOOL_HOST))
# The distribution lane's, which boot.sh and lib.bash use when CB_LANE=distro.
export CB_DISTRO_KERNEL := $(abspath $(ZIMAGE_DISTRO))
export CB_DISTRO_INITRD := $(abspath $(INITRD_DISTRO))

.PHONY: all deps kernel guest kernel-distro guest-distro check-fast check-distro capetool capetool-armhf firmware check demo series-bisect \
	series checkpatch bench clean help

all: guest

help:
	@echo "make demo        boot the test board with two sample capes and show them working"
	@echo "make check       every test: host, kernel build, KUnit, guest suites"
	@echo "make deps        install the Debian packages capebus needs (apt-get)"
	@echo "make kernel      patched Linux 6.12 for the test board, in $(KOBJ)"
	@echo "make guest       kernel + board DTB + initramfs"
	@echo "make guest-distro  the distribution-like lane: PM, modules, mdev, KASAN (kernel in $(KOBJ_DISTRO))"
	@echo "make check-fast  make check without the distribution lane (the warm loop)"
	@echo "make check-distro  only the distribution lane's stages of make check"
	@echo "make capetool    the host capetool ($(CAPETOOL_HOST))"
	@echo "make series      the kernel series as git format-patch files in $(B)/series"
	@echo "make checkpatch  checkpatch.pl --strict on every patch of the series"
	@echo "make series-bisect  compile drivers/capebus at every patch (=y and =m)"
	@echo "make bench       the benchmarks under bench/"

# Implicit in the two main targets; cheap when all is installed.
deps:
	@scripts/deps.sh $(CAPEBUS_CACHE)

# The kernel tree and builds are shared by every clone using this cache.
# Bringing the tree to this clone's series takes kernel.lock exclusively;
# a build holds it shared (both lanes build at once, the tree still) and
# its own build directory's lock exclusively.
kernel: kernel-tree
	@mkdir -p $(dir $(KOBJ))
	@flock -s $(CAPEBUS_CACHE)/kernel.lock flock $(KOBJ).lock \
		scripts/kernel-build.sh $(KSRC) $(KOBJ)

guest: kernel $(DTB) $(DTB_RASPI2B) $(DTB_RASPI2B_BOARD) initramfs

kernel-distro: kernel-tree
	@mkdir -p $(dir $(KOBJ_DISTRO))
	@flock -s $(CAPEBUS_CACHE)/kernel.lock flock $(KOBJ_DISTRO).lock \
		scripts/kernel-build.sh $(KSRC) $(KOBJ_DISTRO) distro

guest-distro: kernel-distro $(DTB) initramfs-distro

# Needs only the patched tree, shared by both lanes.
.PHONY: kernel-tree
kernel-tree: deps
	@mkdir -p $(CAPEBUS_CACHE)
	@scripts/kernel-tree.sh $(KSRC)

$(DTB): tests/qemu/capebus-vexpress-a9.dts kernel-tree
	@mkdir -p $(@D)
	@echo "  DTB     $@"
	@scripts/mk-dtb.sh $(KSRC) $< $@

$(DTB_RASPI2B): tests/qemu/capebus-raspi2b.dts kernel-tree
	@mkdir -p $(@D)
	@echo "  DTB     $@"
	@scripts/mk-dtb.sh $(KSRC) $< $@

$(DTB_RASPI2B_BOARD): tests/qemu/capebus-raspi2b-board.dts tests/qemu/capebus-raspi2b.dts kernel-tree
	@mkdir -p $(@D)
	@echo "  DTB     $@"
	@scripts/mk-dtb.sh $(KSRC) $< $@

capetool: deps
	@$(MAKE) -s -C capetool O=$(abspath $(B))/capetool

capetool-armhf: deps
	@$(MAKE) -s -C capetool O=$(abspath $(B))/capetool armhf ARMHF_SYSROOT=$(SYSROOT)

# Cape overlays the guest finds as firmware: <part>-<version>.dtbo, compiled
# from cape-defs/ by capetool for the test board; and the sample HAT+s'
# images (<name>.eep, from eepmake settings) and the overlays they name
# (<name>.dtbo, from cape-defs/hats/*.dtso).
# Written beside and moved in file by file, only what changed: guests may
# be reading it while another build runs.
firmware: capetool
	@rm -rf $(FIRMWARE).new && mkdir -p $(FIRMWARE).new $(FIRMWARE)
	@for def in cape-defs/*.cape; do \
		$(CAPETOOL_HOST) create "$$def" --board qemu-vexpress -o $(FIRMWARE).new >/dev/null || exit 1; \
	done
	@for hat in cape-defs/hats/*.txt; do \
		$(CAPETOOL_HOST) create "$$hat" -o $(FIRMWARE).new >/dev/null || exit 1; \
	done
	@for ov in cape-defs/hats/*.dtso; do \
		dtc -q -@ -I dts -O dtb -o $(FIRMWARE).new/$$(basename $$ov .dtso).dtbo $$ov || exit 1; \
	done
	@rsync -a --checksum --delete $(FIRMWARE).new/ $(FIRMWARE)/ && rm -rf $(FIRMWARE).new
	@echo "  FW      $$(ls $(FIRMWARE) | grep -c dtbo) overlays in $(FIRMWARE)"

.PHONY: initramfs
initramfs: kernel firmware capetool-armhf
	@mkdir -p $(B)/guest
	@echo "  INITRD  $(INITRD)"
	@scripts/mk-initramfs.sh $(INITRD) $(SYSROOT)/bin/busybox $(KOBJ)/modules-install \
		$(FIRMWARE) $(CAPETOOL_ARMHF)

.PHONY: initramfs-distro
initramfs-distro: kernel-distro firmware capetool-armhf
	@mkdir -p $(B)/guest-distro
	@echo "  INITRD  $(INITRD_DISTRO)"
	@scripts/mk-initramfs.sh $(INITRD_DISTRO) $(SYSROOT)/bin/busybox $(KOBJ_DISTRO)/modules-install \
		$(FIRMWARE) $(CAPETOOL_ARMHF)

check: deps
	@scripts/check.sh

check-fast: deps
	@scripts/check.sh --lane fast

check-distro: deps
	@scripts/check.sh --lane distro

demo: guest
	@scripts/demo.sh

series: kernel-tree
	@scripts/kernel-series.sh export $(KSRC) $(B)/series

checkpatch: series
	@scripts/checkpatch.sh $(KSRC) $(B)/series

bench: guest
	@for b in bench/*.sh; do echo "== $$b"; $$b || exit 1; done

clean:
	rm -rf $(B)
	-$(MAKE) -s -C capetool O=$(abspath $(B))/capetool clean 2>/dev/null

series-bisect: series
	@scripts/series-bisect.sh $(KSRC) $(KOBJ) $(B)/series
