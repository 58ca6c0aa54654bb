#!/bin/bash
# Boot the capebus test board in QEMU, or (CB_MACHINE=raspi2b) the
# Raspberry Pi 2 B.
#
# usage: boot.sh RUNDIR [--slot N=IMAGE]... [--blank N]... [--hat N=IMAGE]...
#                [--keep] [--interactive] [--append ARGS] [--qemu ARG]...
#
#   --slot N=IMAGE  slot N (0-3) gets a 24C256 EEPROM holding IMAGE (padded
#                   with 0xff to 32 KiB) in RUNDIR/slotN.eeprom; guest
#                   writes land in that file
#   --blank N       slot N gets a blank (all 0xff) EEPROM
#   --hat N=IMAGE   the 40-pin header's slot N (0-3) gets a 24C32 EEPROM at
#                   0x50 + N on its ID bus (segment 0 of the PCA9548 switch
#                   at 0x70) holding IMAGE, in RUNDIR/hatN.eeprom
#   --keep          reuse the RUNDIR/slot*.eeprom and hat*.eeprom files of an
#                   earlier boot
#   --interactive   console on this terminal (the demo); default: console
#                   to RUNDIR/console.log and QEMU in the background
#
# Kernel, DTB and initramfs come from $CB_KERNEL, $CB_DTB, $CB_INITRD; with
# CB_LANE=distro, kernel and initramfs are the distribution lane's,
# $CB_DISTRO_KERNEL and $CB_DISTRO_INITRD (make guest-distro).
#
# CB_MACHINE picks the machine: "vexpress" (default), the test board
# (QEMU's vexpress-a9, tests/qemu/capebus-vexpress-a9.dts), or "raspi2b",
# QEMU's Raspberry Pi 2 B with $CB_RASPI2B_DTB (capebus-raspi2b.dts), the
# same kernel and initramfs.  QEMU's raspi2b has no I2C controller, no
# virtio and a fixed 1 GiB and four cores: no EEPROM options (HATs are
# declared through configfs), no share (lib.bash's guest_put writes
# through the agent), and the command channel is the mini UART (ttyS1).
# RUNDIR gets: console.log (and console.sock, the console's input),
# agent.in/agent.out (the command channel FIFOs),
# qmp.sock, share/ (mounted at /host in the guest over 9p), qemu.pid.
set -euo pipefail

EEPROM_SIZE=32768
HAT_EEPROM_SIZE=4096
run=$1
shift
declare -A slots=() hats=()
keep=0 interactive=0 append="" extra=()
while [ $# -gt 0 ]; do
	case $1 in
	--slot) slots[${2%%=*}]=${2#*=}; shift ;;
	--blank) slots[$2]=blank; shift ;;
	--hat) hats[${2%%=*}]=${2#*=}; shift ;;
	--keep) keep=1 ;;
	--interactive) interactive=1 ;;
	--append) append="$append $2"; shift ;;
	--qemu) extra+=("$2"); shift ;;
	*) echo "boot.sh: unknown option $1" >&2; exit 2 ;;
	esac
	shift
done
case ${CB_LANE:-fast} in
fast) ;;
distro) CB_KERNEL=${CB_DISTRO_KERNEL:-} CB_INITRD=${CB_DISTRO_INITRD:-} ;;
*) echo "boot.sh: unknown CB_LANE $CB_LANE (fast or distro)" >&2; exit 2 ;;
esac
machine=${CB_MACHINE:-vexpress}
case $machine in
vexpress) ;;
raspi2b)
	CB_DTB=${CB_RASPI2B_DTB:-}
	[ ${#slots[@]} = 0 ] && [ ${#hats[@]} = 0 ] ||
		{ echo "boot.sh: raspi2b has no I2C bus for --slot, --blank or --hat" >&2; exit 2; } ;;
*) echo "boot.sh: unknown CB_MACHINE $machine (vexpress or raspi2b)" >&2; exit 2 ;;
esac
for f in CB_KERNEL CB_DTB CB_INITRD; do
	[ -f "${!f:-}" ] || { echo "boot.sh: \$$f (${!f:-unset}) is not a file" >&2; exit 1; }
done

mkdir -p "$run/share"
rm -f "$run/agent.in" "$run/agent.out" "$run/qmp.sock" "$run/console.sock" "$run/qemu.pid"
mkfifo "$run/agent.in" "$run/agent.out"

# serial0 (ttyAMA0) is the console, serial1 (ttyAMA1) the command channel.
if [ $interactive = 1 ]; then
	console=(-nographic -serial mon:stdio)
	append="capebus.shell $append"
else
	: > "$run/console.log"
	# A socket nobody needs to read (output goes to the log either way),
	# so that lib.bash can send the kernel a break and a SysRq key when a
	# command hangs.
	console=(-display none -monitor none
		 -chardev socket,id=con,path="$run/console.sock",server=on,wait=off,logfile="$run/console.log"
		 -serial chardev:con)
fi
case $machine in
vexpress) args=(-M vexpress-a9 -smp 2 -m 256) ;;
raspi2b) args=(-M raspi2b) append="capebus.agent=ttyS1 $append" ;;
esac
args+=(-no-reboot
      -kernel "$CB_KERNEL" -dtb "$CB_DTB" -initrd "$CB_INITRD"
      -append "console=ttyAMA0 panic=-1 $append"
      "${console[@]}" -serial pipe:"$run/agent"
      -qmp unix:"$run/qmp.sock",server=on,wait=off)
# eeprom_file FILE IMAGE SIZE: IMAGE padded with 0xff to SIZE bytes, or blank.
eeprom_file() {
	local size
	if [ $keep = 1 ] && [ -f "$1" ]; then
		return 0
	fi
	if [ "$2" = blank ]; then
		head -c "$3" /dev/zero | tr '\0' '\377' > "$1"
		return 0
	fi
	[ -f "$2" ] || { echo "boot.sh: no such image $2" >&2; exit 1; }
	size=$(stat -c %s "$2")
	[ "$size" -le "$3" ] || { echo "boot.sh: $2 is larger than $3 bytes" >&2; exit 1; }
	{ cat "$2"; head -c $(($3 - size)) /dev/zero | tr '\0' '\377'; } > "$1"
}
for n in 0 1 2 3; do
	[ -n "${slots[$n]:-}" ] || continue
	eeprom_file "$run/slot$n.eeprom" "${slots[$n]}" $EEPROM_SIZE
	args+=(-drive "if=none,id=ee$n,file=$run/slot$n.eeprom,format=raw"
	       -device "at24c-eeprom,bus=i2c,address=0x5$((4 + n)),drive=ee$n,rom-size=$EEPROM_SIZE")
done
# The 40-pin header: its ID bus and its I2C1 are segments 0 and 1 of a
# PCA9548 switch on the same SBCon bus (a bus of their own, as on a Pi,
# where the ID EEPROMs' 0x50-0x53 would meet the DVI's DDC at 0x50).
[ "$machine" != vexpress ] || args+=(-device pca9548,bus=i2c,address=0x70,id=hat-mux)
for n in 0 1 2 3; do
	[ -n "${hats[$n]:-}" ] || continue
	eeprom_file "$run/hat$n.eeprom" "${hats[$n]}" $HAT_EEPROM_SIZE
	args+=(-drive "if=none,id=hat$n,file=$run/hat$n.eeprom,format=raw"
	       -device "at24c-eeprom,bus=i2c.0,address=0x5$n,drive=hat$n,rom-size=$HAT_EEPROM_SIZE")
done
# The cape devices themselves: always on the bus (QEMU cannot hot-plug I2C),
# visible to Linux only once a cape's overlay describes them.
if [ "$machine" = vexpress ]; then
	args+=(-device tmp105,bus=i2c,address=0x48,id=weather-temp
	       -device ds1338,bus=i2c,address=0x68,id=rtc-clock
	       -device tmp105,bus=i2c.1,address=0x49,id=hat-temp
	       -fsdev local,id=share,path="$run/share",security_model=none
	       -device virtio-9p-device,fsdev=share,mount_tag=host)
fi
args+=("${extra[@]}")

export QEMU_AUDIO_DRV=none
if [ $interactive = 1 ]; then
	exec qemu-system-arm "${args[@]}" -pidfile "$run/qemu.pid" 2>"$run/qemu.err"
fi
# 3>&-: bats waits on fd 3; a QEMU holding it would hang the suite.
qemu-system-arm "${args[@]}" </dev/null >"$run/qemu.err" 2>&1 3>&- &
echo $! > "$run/qemu.pid"
