#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
# Hostile overlays, one per class of attack an outside review found
# (Documentation/capebus/threat-model.rst): from cape EEPROMs at boot (with
# capebus.eeprom_overlays=1: off by default) and through configfs.  Each is
# refused naming its rule, the live tree is unchanged, no device stays, and
# the kernel logs nothing (the harness fails a test on any Oops, BUG,
# KASAN, lockdep or kmemleak report).  Runs on both lanes: on the
# distribution lane's KASAN kernel too.  The overlays are written by
# fixtures/hostile-gen.py, with the test board's real phandles.

load ../../qemu/lib
load cfs-run
load slot-wait

FIX=$BATS_TEST_DIRNAME/fixtures
CTRL=/sys/class/capebus/capebus0

# boot ARGS...: boot the guest with the hostile overlays in /host/hostile.
boot() {
	guest_boot "$@" || return
	# On the distribution lane mdev loads capebus: wait for its group.
	guest_settle
	guest_run 'for i in $(seq 300); do [ -d /sys/kernel/config/capebus/capebus0 ] && exit 0; sleep 0.1; done; exit 1'
	[ "$status" -eq 0 ] || { echo "no capebus0 in configfs" >&2; return 1; }
	mkdir -p "$CB_RUN/share/hostile"
	cp "$BATS_FILE_TMPDIR"/blobs/*.dtbo "$CB_RUN/share/hostile/"
	guest_put "$FIX/configfs-lib.sh" cfs.sh
	guest_run '. /host/cfs.sh; dt_hash > /tmp/dt.base'
}

# One boot for the file: slots 0-2 hold EEPROMs whose overlays break the
# structure, confinement and the cell bounds (the last one, before the
# bounds, jumped to 0xdead0000 in of_irq_parse_raw()), with
# capebus.eeprom_overlays=1; the first test judges what they did at boot.
# Refused, they leave no device, no pin and nothing in the tree, so the
# configfs tests after it start from the board's own tree as before (each
# compares with the tree of this boot).
setup_file() {
	local d=$BATS_FILE_TMPDIR f i=0
	"$FIX/hostile-gen.py" "$d/blobs" "$CB_DTB"
	for f in nested-open raw-assigned-clocks irq-cells-100; do
		"$FIX/configfs-eeprom.py" "$d/slot$i.eeprom" "Hostile Cape $i" 00A0 \
			capebus-tests "EVIL-$i" "0000EVIL000$i" --overlay "$d/blobs/$f.dtbo"
		i=$((i + 1))
	done
	boot --append capebus.eeprom_overlays=1 --slot 0="$d/slot0.eeprom" \
		--slot 1="$d/slot1.eeprom" --slot 2="$d/slot2.eeprom"
}

teardown_file() {
	guest_shutdown
}

setup() {
	guest_setup
}

teardown() {
	guest_teardown
}

# refused NAME RULE [NAME RULE]...: each cape declared with hostile/NAME.dtbo
# is refused with EINVAL, its status names RULE and no device stays; after
# them all the tree is the boot's.  One guest command for all the pairs,
# and one hash of the tree (a change a refusal left would still be there:
# a refused overlay removes nothing).  Each status is left in $REFUSED[i].
refused() {
	local names=() rules=() i=0 line st err
	while [ $# -ge 2 ]; do names+=("$1") rules+=("$2"); shift 2; done
	cfs_run "for n in ${names[*]}; do
		rmdir \$CAPES/h 2>/dev/null
		if declare_cape h CFS-HOSTILE && cat /host/hostile/\$n.dtbo > \$CAPES/h/dtbo; then
			err=\$( (echo 1 > \$CAPES/h/enable) 2>&1 ); echo \"@ \$n \$?\"
			echo \"err \$err\" | head -n 1
			echo \"status \$(cat \$CAPES/h/status)\"
			d=\$(cape_devices | grep -v 'slot[0-3]\$' | tr '\\n' ' ')
			echo \"devices \${d:-none }\"
		else
			echo \"@ \$n setup-failed\"
		fi
		rmdir \$CAPES/h
	done; [ \"\$(dt_hash)\" = \"\$(cat /tmp/dt.base)\" ] && echo same-tree"
	[ "$status" -eq 0 ]
	REFUSED=()
	for i in "${!names[@]}"; do
		[ "${lines[i * 4]}" != "@ ${names[i]} 0" ] && [[ "${lines[i * 4]}" =~ ^@\ ${names[i]}\ [0-9]+$ ]] ||
			{ echo "${names[i]}: not refused (${lines[i * 4]})" >&2; return 1; }
		err=${lines[i * 4 + 1]} st=${lines[i * 4 + 2]#status } line=${lines[i * 4 + 3]}
		[[ "$err" == *"Invalid argument"* ]] || { echo "${names[i]}: $err" >&2; return 1; }
		[[ "$st" == "failed: "*"${rules[i]}"* ]] || { echo "${names[i]}: want: ${rules[i]}" >&2; return 1; }
		[ "$line" = "devices none " ] || { echo "${names[i]}: $line" >&2; return 1; }
		REFUSED[i]=$st
	done
	[ "${lines[${#names[@]} * 4]}" = same-tree ] || { echo "the tree changed (cases: ${names[*]})" >&2; return 1; }
}

@test "hostile EEPROMs at boot: each slot fails naming the rule, nothing of them is applied" {
	local i
	for i in 0 1 2; do
		wait_state "$i" failed
	done
	guest_run "for n in 0 1 2; do echo \"\$(cat $CTRL/slot\$n/state): \$(cat $CTRL/slot\$n/reason)\"; done; ls /sys/bus/capebus/devices | wc -l"
	[ "$status" -eq 0 ]
	[[ "${lines[0]}" == "failed: "*"overlay nests nodes deeper than 10" ]]
	[[ "${lines[1]}" == "failed: "*"references: property assigned-clocks of node dev names "*"sysctl@1000, which the connector does not export" ]]
	[[ "${lines[2]}" == "failed: "*"property #interrupt-cells of node ctl is not one cell of at most 8" ]]
	[ "${lines[3]}" = 0 ]
}

@test "structure: 17 nodes opened and never closed (136 bytes) are refused" {
	refused nested-open "overlay nests nodes deeper than 10"
}

@test "structure: a __local_fixups__ entry for a root property is refused" {
	refused local-fixup-root "__local_fixups__ patches property marker of /, which is not a node the overlay adds"
}

@test "phandles: linux,phandle is refused" {
	refused linux-phandle "node a has a property linux,phandle, which cape overlays may not have"
}

@test "phandles: an overlay phandle at the top of the space loads renumbered, colliding with no live node" {
	cfs_run 'declare_cape top CFS-TOP && cat /host/hostile/phandle-top.dtbo > $CAPES/top/dtbo && echo 1 > $CAPES/top/enable && cat $CAPES/top/status
		find /proc/device-tree -name phandle | xargs -n1 od -An -tx4 | sort | uniq -d | wc -l
		od -An -tx4 /proc/device-tree/cape-devices/top/phandle
		rmdir $CAPES/top; [ "$(dt_hash)" = "$(cat /tmp/dt.base)" ] && echo same-tree'
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = loaded ]
	[ "${lines[1]}" = 0 ]
	[ "${lines[2]// /}" != fffffffe ]
	[ "${lines[3]}" = same-tree ]
}

@test "references: raw board phandles in properties the kernel reads as references are refused" {
	local name pairs=() st
	for name in assigned-clocks:assigned-clocks assigned-parents:assigned-clock-parents \
		i2c-parent:i2c-parent regmap:regmap syscon:ti,ctrl-syscon nvmem:nvmem \
		supply:vcc-supply power-supplies:power-supplies \
		interrupt-parent:interrupt-parent irq-extended:interrupts-extended \
		iommu-map:iommu-map msi-map:msi-map msi-parent:msi-parent \
		odd-gpios:gpios odd-irq-extended:interrupts-extended nvmem-cells:nvmem-cells; do
		pairs+=("raw-${name%%:*}" "references: property ${name#*:} of node dev names /")
	done
	refused "${pairs[@]}"
	for st in "${REFUSED[@]}"; do
		[[ "$st" == *", which the connector does not export" ]] || { echo "$st" >&2; false; }
	done
}

@test "interrupts: no parent inherited from the board, none that is no interrupt provider" {
	refused irq-inherited "interrupts: node dev has interrupts but no interrupt-parent in the overlay" \
		irq-parent-not-provider "is not an interrupt provider" \
		irq-extended-cells-only "which is neither an interrupt controller of the overlay nor a nexus"
}

@test "interrupts: through the connector's interrupt nexus, an undeclared pin, a code that is no pin and a short specifier are refused; the bank behind it is not exported" {
	refused irq-nexus-undeclared "references: property interrupts of node key uses header pin P9.12, which the cape does not declare" \
		irq-nexus-no-pin "references: property interrupts-extended of node key names 999 on the connector, which is no header pin" \
		irq-nexus-short "interrupts: property interrupts-extended of node key does not match the cells of /capebus/interrupt-nexus" \
		raw-irq-gpio-bank "references: property interrupts-extended of node key names /gpio-sim/bank0, which the connector does not export"
}

@test "bounds: #interrupt-cells = <100> and #gpio-cells = <20> are refused before the kernel reads them" {
	refused irq-cells-100 "property #interrupt-cells of node ctl is not one cell of at most 8" \
		gpio-cells-20 "property #gpio-cells of node g is not one cell of at most 8"
}

@test "bus addresses: I2C flag bits on the slot EEPROM's address, and a clash one level down, are refused" {
	refused i2c-flag-address "bus addresses: node thief on i2c@16000: reg 0x40000054 is an address the adapter answers at itself (I2C_OWN_SLAVE_ADDRESS)" \
		deep-same-address "bus addresses: two nodes of the overlay use address 0x1 on"
}

@test "bus addresses: an i2c-bus wrapper, whose children the I2C core takes for the adapter's, is refused" {
	refused i2c-bus-wrapper "the I2C core takes the children of an i2c-bus node for the adapter's own" \
		i2c-bus-wrapper-reg "the I2C core takes the children of an i2c-bus node for the adapter's own"
}

@test "cost: 600 properties in a node, 300 nodes, a 1 MB overlay and 120 properties on nodes named alike are refused at once" {
	refused many-props "node wide has more than 32 properties" \
		many-nodes "overlay has more than 256 nodes" \
		huge "more than the 32768 a cape may have" \
		same-name "overlay's nodes share names so that the overlay code would compare 7146 pairs of their entries, more than the 1024 a cape may have"
}

@test "uevents: a 2100-character node name and 40 compatible strings are refused" {
	refused long-name "is longer than 64 characters" \
		many-compatibles "node dev has a compatible of more than 8 strings or 256 bytes"
}

@test "strings: an unterminated compatible, a 2100-byte device_type and label are refused" {
	refused unterminated "node x has a compatible that is no NUL-terminated string of at most 256 bytes" \
		long-device-type "node x has a device_type that is no NUL-terminated string of at most 64 bytes" \
		long-label "node keys has a label that is no NUL-terminated string of at most 64 bytes"
}

@test "structure: a strings block overlapping the structure is refused" {
	refused strings-overlap "overlay's blocks overlap"
}

@test "phandles: ibm,phandle is refused" {
	refused ibm-phandle "node a has a property ibm,phandle, which cape overlays may not have"
}

@test "add only: two fragments adding one node to one target are refused, and nothing stays" {
	refused dup-fragments "add only: fragment fragment@1 adds dup to /cape-devices, which another fragment adds too"
}

@test "a connector added by a cape overlay is refused: capes make no platform device the connector does not list" {
	refused nested-connector "platform devices: fragment fragment@0 adds evil to /cape-devices, a platform device of compatible beagle,bone-capebus, which capebus0 does not let capes make"
	# No controller came of it: the board's two (its BeagleBone and
	# Raspberry Pi headers) only.
	guest_run 'ls /sys/class/capebus | tr "\n" " "'
	[ "$output" = "capebus0 capebus1 " ]
}

@test "platform devices: a driver that trusts its parent (vexpress-osc) is no platform device capes may make" {
	refused vexpress-osc "platform devices: fragment fragment@0 adds osc to /cape-devices, a platform device of compatible arm,vexpress-osc"
}

# A header bus a cape enables holds its pins (bone_i2c_1: P9.17, P9.18).
@test "targets: enabling a header bus on pins another cape holds is refused, and the other way round" {
	cfs_run 'declare_cape hold CFS-HOLD && cat /host/hostile/holds-p9-17.dtbo > $CAPES/hold/dtbo && echo 1 > $CAPES/hold/enable && cat $CAPES/hold/status
		declare_cape en CFS-EN && cat /host/hostile/enable-i2c1.dtbo > $CAPES/en/dtbo; echo 1 > $CAPES/en/enable; cat $CAPES/en/status
		cat /proc/device-tree/i2c-header1/status; echo
		rmdir $CAPES/en $CAPES/hold; [ "$(dt_hash)" = "$(cat /tmp/dt.base)" ] && echo same-tree'
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = loaded ]
	[[ "${lines[1]}" == "failed: "*"targets: enabling bone_i2c_1: pin P9.17 is held by CFS-HOLD"* ]]
	[ "${lines[2]}" = disabled ]
	[ "${lines[3]}" = same-tree ]

	cfs_run 'declare_cape en CFS-EN && cat /host/hostile/enable-i2c1.dtbo > $CAPES/en/dtbo && echo 1 > $CAPES/en/enable && cat $CAPES/en/status
		declare_cape hold CFS-HOLD && cat /host/hostile/holds-p9-17.dtbo > $CAPES/hold/dtbo; echo 1 > $CAPES/hold/enable; cat $CAPES/hold/status
		rmdir $CAPES/hold $CAPES/en; [ "$(dt_hash)" = "$(cat /tmp/dt.base)" ] && echo same-tree'
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = loaded ]
	[[ "${lines[1]}" == "failed: "*"pin P9.17 is held by bus bone_i2c_1"* ]]
	[ "${lines[2]}" = same-tree ]
}

# A cape that would be the first to enable a bus whose pin another cape
# holds is refused before the connector muxes its pads (P9.17 is pad 0x15c:
# left as it was).
@test "targets: a bus on a held pin is refused before the cape's pads are muxed" {
	"$FIX/configfs-eeprom.py" "$CB_RUN/share/hostile/first.eeprom" "First Cape" 00A0 \
		capebus-tests FIRST 0000FIRST001 --pin P9.17=0x8002 \
		--overlay "$BATS_FILE_TMPDIR/blobs/enable-i2c1.dtbo"
	cfs_run 'mount -t debugfs none /sys/kernel/debug 2>/dev/null; pad() { grep -h "95c " /sys/kernel/debug/pinctrl/*/pins; }
		declare_cape hold CFS-HOLD && cat /host/hostile/holds-p9-17.dtbo > $CAPES/hold/dtbo && echo 1 > $CAPES/hold/enable && cat $CAPES/hold/status
		before=$(pad)
		mkdir $CAPES/first && cat /host/hostile/first.eeprom > $CAPES/first/eeprom; echo 1 > $CAPES/first/enable; cat $CAPES/first/status
		[ "$(pad)" = "$before" ] && echo pad-unchanged; echo "$before"
		rmdir $CAPES/first $CAPES/hold; [ "$(dt_hash)" = "$(cat /tmp/dt.base)" ] && echo same-tree'
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = loaded ]
	[[ "${lines[1]}" == "failed: "*"targets: enabling bone_i2c_1: pin P9.17 is held by CFS-HOLD"* ]]
	[ "${lines[2]}" = pad-unchanged ]
	[[ "${lines[3]}" == *95c* ]]
	[ "${lines[4]}" = same-tree ]
}

# A cape asking for a bus another cape enabled may not mux the bus's pads
# again from its pin words (P9.17 in mode 7 would take the running bus's SCL).
@test "targets: a cape enabling a bus another cape enabled may not remux its pins" {
	"$FIX/configfs-eeprom.py" "$CB_RUN/share/hostile/remux.eeprom" "Remux Cape" 00A0 \
		capebus-tests REMUX 0000REMUX01 --pin P9.17=0x8007 \
		--overlay "$BATS_FILE_TMPDIR/blobs/enable-i2c1.dtbo"
	cfs_run 'declare_cape en CFS-EN && cat /host/hostile/enable-i2c1.dtbo > $CAPES/en/dtbo && echo 1 > $CAPES/en/enable && cat $CAPES/en/status
		mkdir $CAPES/rm && cat /host/hostile/remux.eeprom > $CAPES/rm/eeprom; echo 1 > $CAPES/rm/enable; cat $CAPES/rm/status
		rmdir $CAPES/rm $CAPES/en; [ "$(dt_hash)" = "$(cat /tmp/dt.base)" ] && echo same-tree'
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = loaded ]
	[[ "${lines[1]}" == "failed: "*"pin P9.17 is held by bus bone_i2c_1, which another cape enabled"* ]]
	[ "${lines[2]}" = same-tree ]
}

# nested NAME: the cape with hostile/NAME.dtbo loads; the vexpress-reboot
# device below its simple-pm-bus has no driver, and the kernel says why.
nested() {
	cfs_run "declare_cape n CFS-NEST && cat /host/hostile/$1.dtbo > \$CAPES/n/dtbo && echo 1 > \$CAPES/n/enable && cat \$CAPES/n/status
		d=\$(ls -d /sys/bus/platform/devices/*rst); ls \$d/driver 2>/dev/null | wc -l; cat \$d/driver_override
		dmesg | grep -c 'no driver for .*rst: its parent device .*pmbus is a cape.s'
		rmdir \$CAPES/n; [ \"\$(dt_hash)\" = \"\$(cat /tmp/dt.base)\" ] && echo same-tree"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = loaded ]
	[ "${lines[1]}" = 0 ]
	[ "${lines[2]}" = capebus:nested-in-a-cape ]
	[ "${lines[3]}" -ge 1 ]
	[ "${lines[4]}" = same-tree ]
}

@test "parents: a device below a cape's own simple-pm-bus binds no driver (a vexpress child would take the bus's data for its bridge)" {
	nested nested-platform
}

@test "parents: the same with cape bytes where the bridge's operations would be read" {
	nested nested-platform-clk
}

@test "parents: AMBA devices below a cape's bus that cannot be made leave no node reference behind" {
	cfs_run 'declare_cape am CFS-AMBA && cat /host/hostile/nested-amba.dtbo > $CAPES/am/dtbo && echo 1 > $CAPES/am/enable && cat $CAPES/am/status
		rmdir $CAPES/am; [ "$(dt_hash)" = "$(cat /tmp/dt.base)" ] && echo same-tree'
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = loaded ]
	[ "${lines[1]}" = same-tree ]
	# Removal freed the nodes: no "OF: ERROR: memory leak", no refcount
	# underflow (guest_teardown judges the log).
}

@test "references: gpiolib's legacy gpio-sck through the nexus names an undeclared pin, and is refused" {
	refused legacy-gpio-name "references: property gpio-sck of node x uses header pin P8.7, which the cape does not declare"
}

@test "after every refusal a good cape still loads and the tree comes back" {
	cfs_run 'declare_cape ok CFS-OK && cat /host/hostile/phandle-top.dtbo > $CAPES/ok/dtbo && echo 1 > $CAPES/ok/enable && cat $CAPES/ok/status;
		rmdir $CAPES/ok; [ "$(dt_hash)" = "$(cat /tmp/dt.base)" ] && echo same-tree'
	[ "$status" -eq 0 ]
	[ "${lines[*]}" = "loaded same-tree" ]
}
