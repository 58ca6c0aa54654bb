#!/bin/bash
# Regenerate the committed seed corpora of the kernel-parser fuzzers
# (tests/fuzz/kernel/corpus/<target>/) from their sources.  Not run by
# scripts/fuzz-kernel.sh: run it by hand after a format change, and review
# and commit the result.
#
# usage: tests/fuzz/kernel/mk-corpus.sh [CAPETOOL]
#   CAPETOOL: a host capetool (default: build it into build/capetool).
#
# fdt-fuzz:
#   dts-*.dtb       seeds/fdt-fuzz/*.dts, by dtc -I dts -O dtb (no -@: the
#                   overlays have __fixups__ and __local_fixups__, no
#                   __symbols__)
#   capetool-*.dtbo capetool create's overlays for cape-defs/ (board
#                   qemu-vexpress) and cape-defs/bone/ (beaglebone-black)
#   wrap-*, prog-*  three of the above in the harness's wrapped form
#                   (strings length, strings, structure) and as token
#                   programs (see fdt-fuzz.c)
# bone-eeprom-fuzz:
#   capetool-*.eeprom          capetool create's images (A1), bare
#   capetool-*.embedded.eeprom the same with --embed-overlay (id CRC and
#                              overlay records)
#   a0-*.eeprom                A0 images of cape-defs/weather.cape
#   ref-*.eeprom               tests/reference/cape_eeprom.py's encoding
#   ext-*.eeprom               other shapes of extension area (below)
# rpi-eeprom-fuzz:
#   eepmake-*.eep              Raspberry Pi eepmake's images, the HAT and HAT+
#                              fixtures of tests/bats/host/fixtures/hat/
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../../.." && pwd)
ct=${1:-}
if [ -z "$ct" ]; then
	make -s -C "$top/capetool" O="$top/build/capetool" >/dev/null
	ct=$top/build/capetool/host/capetool
fi

fdt=$here/corpus/fdt-fuzz
ee=$here/corpus/bone-eeprom-fuzz
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
rpi=$here/corpus/rpi-eeprom-fuzz
rm -rf "$fdt" "$ee" "$rpi"
mkdir -p "$fdt" "$ee"

for src in "$here"/seeds/fdt-fuzz/*.dts; do
	dtc -q -I dts -O dtb -o "$fdt/dts-$(basename "$src" .dts).dtb" "$src"
done

serial=4512EXLB0001
create() {	# DEF BOARD DIR [create options]
	local def=$1 board=$2 dir=$3
	shift 3
	"$ct" create "$def" --board "$board" --serial "$serial" -o "$dir" "$@" >/dev/null
}
for def in "$top"/cape-defs/*.cape; do
	case $def in *-conflict.cape) continue ;; esac
	create "$def" qemu-vexpress "$tmp/bare"
	create "$def" qemu-vexpress "$tmp/embedded" --embed-overlay
done
for def in "$top"/cape-defs/bone/*.cape; do
	create "$def" beaglebone-black "$tmp/bare"
	create "$def" beaglebone-black "$tmp/embedded" --embed-overlay
done
for f in "$tmp"/bare/*.dtbo; do
	cp "$f" "$fdt/capetool-$(basename "$f")"
done
for f in "$tmp"/bare/*.eeprom; do
	cp "$f" "$ee/capetool-$(basename "$f")"
done
# Embedded images: the three smallest, to keep the corpus small.
for f in $(ls -S "$tmp"/embedded/*.eeprom | tail -n 3); do
	cp "$f" "$ee/capetool-$(basename "$f" .eeprom).embedded.eeprom"
done

# A0: the weather cape in the original layout, bare and with its overlay.
sed 's/format *= *"A1"/format = "A0"/' "$top/cape-defs/weather.cape" > "$tmp/a0.cape"
create "$tmp/a0.cape" qemu-vexpress "$tmp/a0"
create "$tmp/a0.cape" qemu-vexpress "$tmp/a0e" --embed-overlay
cp "$tmp"/a0/*.eeprom "$ee/a0-weather.eeprom"
cp "$tmp"/a0e/*.eeprom "$ee/a0-weather.embedded.eeprom"

# The independent encoder's images (A1 and A0, with records).
python3 "$top/tests/reference/cape_eeprom.py" encode "$top/cape-defs/rtc.cape" \
	--serial "$serial" --overlay "$fdt/dts-i2c-tmp105.dtb" > "$ee/ref-rtc.eeprom"
python3 "$top/tests/reference/cape_eeprom.py" encode "$tmp/a0.cape" \
	--serial "$serial" > "$ee/ref-a0-weather.eeprom"

# Extension areas of other shapes, from one embedded image: a record of a
# type this kernel does not know (skipped: valid), the id CRC record twice
# (refused), and a length that leaves bytes after the last record (refused).
python3 - "$ee" <<'EOF'
import struct, sys, pathlib
d = pathlib.Path(sys.argv[1])
img = (d / "capetool-EXL-RTC-01-00A0.embedded.eeprom").read_bytes()
std, hdr, recs = img[:244], img[244:252], img[252:]
magic, ver, count, length = struct.unpack(">4sBBH", hdr)
assert magic == b"CBUS" and length == len(recs)
idcrc = recs[:12]
assert struct.unpack(">H", idcrc[:2])[0] == 1
def image(count, records):
    return std + struct.pack(">4sBBH", magic, ver, count, len(records)) + records
unknown = struct.pack(">HHI", 0x7f, 0, 4) + b"v2.0"
(d / "ext-unknown-record.eeprom").write_bytes(image(count + 1, idcrc + unknown + recs[12:]))
(d / "ext-two-id-crc.eeprom").write_bytes(image(2, idcrc + idcrc))
(d / "ext-bytes-after-records.eeprom").write_bytes(image(1, idcrc + b"\0\0\0\0"))
EOF

# Wrapped forms ([be16 strings length][strings][structure]) and token
# programs (literal names only; opcodes in fdt-fuzz.c) of three overlays.
python3 - "$fdt" <<'EOF'
import struct, sys, pathlib
d = pathlib.Path(sys.argv[1])
for name in ["dts-i2c-tmp105.dtb", "dts-local-fixups.dtb", "dts-enable-target-path.dtb"]:
    b = (d / name).read_bytes()
    _, _, ost, ostr, _, _, _, _, sstr, sst = struct.unpack(">10I", b[:40])
    strings, structure = b[ostr:ostr + sstr], b[ost:ost + sst]
    stem = name[4:-4]
    (d / ("wrap-" + stem)).write_bytes(struct.pack(">H", len(strings)) + strings + structure)
    prog, off = bytearray([0x80]), 0
    while off < len(structure):
        tag, = struct.unpack_from(">I", structure, off)
        off += 4
        if tag == 1:
            end = structure.index(0, off)
            nm = structure[off:end]
            prog += bytes([0x70, len(nm)]) + nm
            off = (end + 4) & ~3
        elif tag == 3:
            vlen, noff = struct.unpack_from(">II", structure, off)
            nm = strings[noff:strings.index(0, noff)]
            val = structure[off + 8:off + 8 + vlen]
            prog += bytes([0xc0, len(nm)]) + nm + bytes([vlen]) + val
            off += 8 + ((vlen + 3) & ~3)
        else:
            prog.append({2: 0x40, 4: 0x50, 9: 0x60}[tag])
    (d / ("prog-" + stem)).write_bytes(bytes(prog))
EOF

mkdir -p "$rpi"
for f in "$top"/tests/bats/host/fixtures/hat/*.eep; do
	cp "$f" "$rpi/eepmake-$(basename "$f")"
done

ls -l "$fdt" "$ee" "$rpi"
