# SPDX-License-Identifier: GPL-2.0
# build_test_module NAME: build tests/modules/NAME against the guest
# kernel's build tree into $BATS_FILE_TMPDIR/mod (its .ko lands there).
build_test_module() {
	local kobj
	kobj=$(cd "$(dirname "$CB_KERNEL")/../../.." && pwd)
	mkdir -p "$BATS_FILE_TMPDIR/mod"
	cp "$BATS_TEST_DIRNAME/../../modules/$1/"* "$BATS_FILE_TMPDIR/mod/"
	make -s -C "$kobj" ARCH=arm CROSS_COMPILE=arm-linux-gnueabihf- \
		M="$BATS_FILE_TMPDIR/mod" modules >/dev/null
}
