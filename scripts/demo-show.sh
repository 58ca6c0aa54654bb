#!/bin/bash
# The body of `make demo`: ask the running guest (RUNDIR) what capebus found
# and prove the capes' devices work.  Prints plain words; exit 1 if a cape
# that should work does not.
set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
export CB_RUN=$1
# shellcheck source=../tests/qemu/lib.bash
. "$top/tests/qemu/lib.bash"

say() { printf '%s\r\n' "$*"; }	# \r: the terminal may be in raw mode under QEMU
g() { guest_run "$@"; printf '%s' "$output"; }

# Wait for the guest's agent (the interactive demo boots it elsewhere).
for _ in $(seq 300); do
	[ -f "$CB_RUN/qemu.pid" ] && CB_RUN_TIMEOUT=2 CB_DIAGNOSE=0 guest_run true 2>/dev/null && [ "$status" = 0 ] && break
	sleep 0.2
done
# Capes are detected asynchronously: wait until no slot is still probing.
for _ in $(seq 100); do
	guest_run 'cat /sys/class/capebus/*/slot*/state 2>/dev/null'
	[ -n "$output" ] && ! grep -qvE '^(empty|loaded|failed|disabled)$' <<< "$output" && break
	sleep 0.2
done

rc=0
say "== What capebus found"
guest_run 'for s in /sys/class/capebus/*/slot*; do
	c=${s%/slot*}; [ "$c" = "$last" ] || echo "  $(basename $c): the $(cat $c/family) header"; last=$c
	n=${s##*slot}; st=$(cat $s/state); cape=$(readlink $s/cape | sed "s,.*/,,")
	if [ -n "$cape" ]; then
		d=/sys/bus/capebus/devices/$cape
		id="serial $(cat $d/serial)"; [ -n "$(cat $d/serial)" ] || id="uuid $(cat $d/uuid 2>/dev/null)"
		echo "  slot $n: $st: $(cat $d/board_name), part $(cat $d/part_number) version $(cat $d/version) by $(cat $d/manufacturer), $id"
		p=$(tr "\n" "," < $d/pins | sed "s/,$//; s/,/, /g")
		echo "          overlay from $(cat $d/overlay) $(cat $d/overlay_file); pins: ${p:-none in its ID (an overlay names its own)}"
	else
		r=$(cat $s/reason); echo "  slot $n: $st${r:+ ($r)}"
	fi
done'
say "$output"
[ "$status" = 0 ] || rc=1
say ""

say "== Weather cape: its tmp105 sensor, through hwmon"
hw='for h in /sys/bus/i2c/devices/*-0048/hwmon/hwmon*; do [ "$(cat $h/name)" = tmp105 ] && echo $h; done'
guest_run "$hw"
hwmon=$output
if [ -z "$hwmon" ]; then
	say "  no tmp105 hwmon device: the weather cape's overlay did not work"
	rc=1
else
	for mc in 23500 31250; do
		guest_qmp qom-set "{\"path\": \"weather-temp\", \"property\": \"temperature\", \"value\": $mc}" >/dev/null
		guest_run "cat $hwmon/temp1_input"
		say "  QEMU sets the sensor to $((mc / 1000)).$(printf '%03d' $((mc % 1000))) C; Linux reads $hwmon/temp1_input = $output m°C"
	done
fi
guest_run 'for l in /sys/class/leds/*; do case $(basename $l) in weather*) echo $l;; esac; done'
if [ -n "$output" ]; then
	led=$output
	guest_run "echo 1 > $led/brightness; cat $led/brightness"
	say "  status LED $(basename "$led") (a header GPIO): brightness set to 1, reads $output"
fi
say ""

say "== Sensor HAT+: its tmp105 on the Raspberry Pi header's I2C1"
guest_run 'for t in /sys/bus/i2c/devices/*-0049/hwmon/hwmon*/temp1_input; do [ -e $t ] && echo $t; done'
hat_temp=$output
if [ -z "$hat_temp" ]; then
	say "  no tmp105 at 0x49: the Sensor HAT+'s overlay did not work"
	rc=1
else
	guest_qmp qom-set '{"path": "hat-temp", "property": "temperature", "value": 19750}' >/dev/null
	guest_run "cat $hat_temp"
	say "  QEMU sets the HAT's sensor to 19.750 C; Linux reads $hat_temp = $output m°C"
fi
for led in sensor-hat:green led-hat:red; do
	guest_run "echo 1 > /sys/class/leds/$led/brightness && cat /sys/class/leds/$led/brightness"
	if [ "$status" = 0 ]; then
		say "  LED $led (a HAT's GPIO, through the header's nexus): brightness set to 1, reads $output"
	else
		say "  no LED $led: a HAT+'s overlay did not work"
		rc=1
	fi
done
say ""

say "== RTC cape: its ds1338 clock"
guest_run 'for r in /sys/class/rtc/rtc*; do [ "$(cat $r/name)" != "" ] && echo "$(basename $r) $(cat $r/name)"; done'
if [ -z "$output" ]; then
	say "  no RTC device: the RTC cape's overlay did not work"
	rc=1
else
	say "  RTC device: $output"
	# The guest has no clock of its own worth keeping: give it the host's.
	now=$(date +%s)
	guest_run "date -u -s @$now >/dev/null && hwclock -f /dev/rtc0 -w -u && sleep 2 && hwclock -f /dev/rtc0 -r -u"
	say "  set the cape's clock to $(date -u -d "@$now" '+%F %T') UTC (the host's time);"
	say "  2 s later the cape's clock reads: $output"
fi
say ""
say "== Kernel log (capebus)"
guest_run 'dmesg | grep -E "capebus[-0-9]|capebus: " | tail -n 12'
say "$output"
if grep -q 'module verification failed' <<< "$output"; then
	say "  (\"module verification failed ... tainting kernel\": the kernel has lockdown built in,"
	say "  which brings module signing with it, and these test builds' modules are unsigned.)"
fi
exit $rc
