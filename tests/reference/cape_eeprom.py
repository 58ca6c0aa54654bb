#!/usr/bin/env python3
"""An independent reference for the BeagleBone cape ID EEPROM, for the tests.

Written from the SRM tables (kernel/Documentation/capebus/eeprom-format.rst
and /work/shared/reference/bone-cape-eeprom.md) and capetool's documented
definition format (schemas/cape.schema), never from capetool's or the
kernel's code: when this and they disagree, one of them is wrong, and the
tests say which field.

usage:
  cape_eeprom.py decode IMAGE            the fields as JSON
  cape_eeprom.py encode DEF.cape [--serial S] [--overlay DTBO]
                                         the image a definition describes
                                         (stdout); --overlay adds the ID CRC
                                         and overlay extension records
  cape_eeprom.py compare IMAGE JSON      IMAGE's fields against capetool
                                         decode --json's (JSON file or -);
                                         one line per differing field
  cape_eeprom.py sysfs IMAGE             what the kernel's cape attributes
                                         should read, as NAME=VALUE lines
                                         (pins and currents one line each)
"""
import json
import re
import struct
import sys
import zlib

MAGIC = b"\xaa\x55\x33\xee"

# (name, offset, size) of the text fields: the same in A1 and A0.
TEXT = [("board_name", 6, 32), ("version", 38, 4), ("manufacturer", 42, 16),
        ("part_number", 58, 16), ("serial", 76, 12)]
NUM_PINS = 74
PINS_AT = 88
# Per layout: number of pin words, offset of the currents, standard size.
LAYOUT = {"A1": (74, 236, 244), "A0": (70, 228, 236)}
RAILS = ["vdd-3v3b", "vdd-5v", "sys-5v", "dc-supplied"]

PIN_NAMES = """P9.22 P9.21 P9.18 P9.17 P9.42 P8.35 P8.33 P8.31 P8.32 P9.19
P9.20 P9.26 P9.24 P9.41 P8.19 P8.13 P8.14 P8.17 P9.11 P9.13
P8.25 P8.24 P8.5 P8.6 P8.23 P8.22 P8.3 P8.4 P8.12 P8.11
P8.16 P8.15 P9.15 P9.23 P9.14 P9.16 P9.12 P8.26 P8.21 P8.20
P8.18 P8.7 P8.9 P8.10 P8.8 P8.45 P8.46 P8.43 P8.44 P8.41
P8.42 P8.39 P8.40 P8.37 P8.38 P8.36 P8.34 P8.27 P8.29 P8.28
P8.30 P9.29 P9.30 P9.28 P9.27 P9.31 P9.25 P9.39 P9.40 P9.37
P9.38 P9.33 P9.36 P9.35""".split()
AIN_FIRST = 67          # indices 67-73 are AIN0-AIN6

# Pin word bits (the SRM's table).
USED = 1 << 15
DIR_SHIFT = 13
DIRS = {1: "in", 2: "out", 3: "bidir"}
RESERVED = 0x3f << 7
SLOW = 1 << 6
RX = 1 << 5
PULL_UP = 1 << 4
PULL_OFF = 1 << 3

EXT_MAGIC = b"CBUS"
EXT_ID_CRC, EXT_OVERLAY = 1, 2


class Invalid(Exception):
    pass


def crc32(b):
    return zlib.crc32(b) & 0xffffffff


def text(buf, name, off, size):
    raw = buf[off:off + size]
    s = raw.rstrip(b"\x00.\xff")
    for i, c in enumerate(s):
        if c < 0x20 or c > 0x7e:
            raise Invalid("%s: non-ASCII byte 0x%02x at offset %d" % (name.replace("_", " "), c, off + i))
    return s.decode("ascii")


def pin_text(index, word):
    """A used pin word as the kernel and capetool show it."""
    name = PIN_NAMES[index]
    if index >= AIN_FIRST:
        return name
    d = DIRS.get((word >> DIR_SHIFT) & 3, "none")
    if word & PULL_OFF:
        pull = "no-pull"
    else:
        pull = "pull-up" if word & PULL_UP else "pull-down"
    parts = [name, "mode%d" % (word & 7), d, pull]
    if word & RX:
        parts.append("rx")
    parts.append("slow" if word & SLOW else "fast")
    return " ".join(parts)


def decode(buf):
    if len(buf) < 6:
        raise Invalid("short read")
    std = buf[:244]
    if all(b == 0xff for b in std) or all(b == 0 for b in std):
        raise Invalid("blank EEPROM")
    if buf[:4] != MAGIC:
        raise Invalid("bad magic")
    fmt = buf[4:6].decode("latin-1")
    if fmt not in LAYOUT:
        raise Invalid("unknown revision")
    nwords, cur_at, std_size = LAYOUT[fmt]
    if len(buf) < std_size:
        raise Invalid("short read")
    out = {"format": fmt}
    for name, off, size in TEXT:
        out[name] = text(buf, name, off, size)
    for k in ("part_number", "version"):
        # Together they name the overlay file <part number>-<version>.dtbo.
        if not out[k] or "/" in out[k]:
            raise Invalid("%s %r names no file" % (k, out[k]))
    out["num_pins"] = struct.unpack_from(">H", buf, NUM_PINS)[0]
    pins = []
    for i in range(nwords):
        w = struct.unpack_from(">H", buf, PINS_AT + 2 * i)[0]
        if not w & USED:
            continue
        if i < AIN_FIRST and w & RESERVED:
            raise Invalid("%s: reserved bits set" % PIN_NAMES[i])
        pins.append({"pin": PIN_NAMES[i], "index": i, "word": w, "words": pin_text(i, w)})
    out["pins"] = pins
    out["power"] = dict(zip(RAILS, struct.unpack_from(">4H", buf, cur_at)))
    out["extension"] = decode_ext(buf, std_size)
    return out


def decode_ext(buf, at):
    if buf[at:at + 4] != EXT_MAGIC:
        return None
    version, count, length = struct.unpack_from(">BBH", buf, at + 4)
    if version == 0:
        raise Invalid("extension version 0")
    ext = {"version": version, "records": []}
    if version != 1:
        return ext
    p, end = at + 8, at + 8 + length
    if end > len(buf) or end > 32768:
        raise Invalid("extension runs past the image")
    for _ in range(count):
        if p + 8 > end:
            raise Invalid("record header past the area")
        rtype, flags, rlen = struct.unpack_from(">HHI", buf, p)
        payload = buf[p + 8:p + 8 + rlen]
        if p + 8 + rlen > end:
            raise Invalid("record payload past the area")
        rec = {"type": rtype, "length": rlen}
        if rtype in (EXT_ID_CRC, EXT_OVERLAY) and any(r["type"] == rtype for r in ext["records"]):
            raise Invalid("a second record of type %d" % rtype)
        if rtype == EXT_ID_CRC:
            if rlen != 4:
                raise Invalid("ID CRC record of %d bytes" % rlen)
            stored = struct.unpack(">I", payload)[0]
            if stored != crc32(buf[:at]):
                raise Invalid("ID CRC mismatch")
            rec["crc"] = stored
        elif rtype == EXT_OVERLAY:
            if rlen <= 4:
                raise Invalid("overlay record of %d bytes" % rlen)
            stored = struct.unpack(">I", payload[:4])[0]
            dtbo = payload[4:]
            if stored != crc32(dtbo):
                raise Invalid("overlay CRC mismatch")
            rec["crc"] = stored
            rec["overlay"] = dtbo.hex()
        ext["records"].append(rec)
        p += 8 + rlen
    if p != end:
        raise Invalid("bytes left over after the records")
    return ext


# --- definitions (libconfig, the subset cape definitions use) ---

TOKEN = re.compile(r'\s+|#[^\n]*|//[^\n]*|/\*.*?\*/|"((?:[^"\\]|\\.)*)"|(0x[0-9a-fA-F]+|-?\d+)|'
                   r'(true|false)|([A-Za-z][-A-Za-z0-9_]*)|([=:;,{}()\[\]])', re.S)


def parse_cape(src):
    toks = []
    pos = 0
    while pos < len(src):
        m = TOKEN.match(src, pos)
        if not m:
            raise ValueError("cannot parse at %r" % src[pos:pos + 20])
        pos = m.end()
        if m.group(1) is not None:
            toks.append(("v", m.group(1).encode().decode("unicode_escape")))
        elif m.group(2):
            toks.append(("v", int(m.group(2), 0)))
        elif m.group(3):
            toks.append(("v", m.group(3) == "true"))
        elif m.group(4):
            toks.append(("n", m.group(4)))
        elif m.group(5):
            toks.append(("p", m.group(5)))
    i = 0

    def value():
        nonlocal i
        kind, v = toks[i]
        i += 1
        if kind == "v":
            if i < len(toks) and toks[i] == ("v", v):
                pass
            # adjacent strings concatenate
            while kind == "v" and isinstance(v, str) and i < len(toks) and toks[i][0] == "v" \
                    and isinstance(toks[i][1], str):
                v += toks[i][1]
                i += 1
            return v
        if v == "{":
            g = settings("}")
            return g
        if v in "([":
            close = ")" if v == "(" else "]"
            items = []
            while toks[i] != ("p", close):
                items.append(value())
                if toks[i] == ("p", ","):
                    i += 1
            i += 1
            return items
        raise ValueError("unexpected %r" % (v,))

    def settings(close):
        nonlocal i
        g = {}
        while i < len(toks) and toks[i] != ("p", close):
            name = toks[i][1]
            i += 2          # name, = or :
            g[name] = value()
            while i < len(toks) and toks[i] in (("p", ";"), ("p", ",")):
                i += 1
        i += 1
        return g
    return settings(None)


def word_of(pin):
    """A definition's pin entry as its pin-usage word (schema defaults)."""
    idx = PIN_NAMES.index(pin["pin"])
    if idx >= AIN_FIRST:
        return idx, USED
    d = {v: k for k, v in DIRS.items()}[pin["direction"]]
    pull = pin.get("pull", "none")
    rx = pin.get("rx", d in (1, 3))
    w = USED | d << DIR_SHIFT | (pin["mode"] & 7)
    w |= {"none": PULL_OFF, "up": PULL_UP, "down": 0}[pull]
    w |= RX if rx else 0
    w |= SLOW if pin.get("slew", "fast") == "slow" else 0
    return idx, w


def encode(defn, serial=None, overlay=None):
    e = defn["eeprom"]
    fmt = e.get("format", "A1")
    nwords, cur_at, std_size = LAYOUT[fmt]
    buf = bytearray(std_size)
    buf[0:4] = MAGIC
    buf[4:6] = fmt.encode()
    vals = {"board_name": e["board-name"], "version": e["version"], "manufacturer": e["manufacturer"],
            "part_number": e["part-number"], "serial": serial if serial is not None else e.get("serial", "")}
    for name, off, size in TEXT:
        b = vals[name].encode("ascii")
        assert len(b) <= size
        buf[off:off + len(b)] = b
    words = {}
    for p in defn.get("pins", []):
        idx, w = word_of(p)
        assert idx < nwords, "%s has no word in %s" % (p["pin"], fmt)
        words[idx] = w
    struct.pack_into(">H", buf, NUM_PINS, len(words))
    for idx, w in words.items():
        struct.pack_into(">H", buf, PINS_AT + 2 * idx, w)
    power = defn.get("power", {})
    struct.pack_into(">4H", buf, cur_at, *[power.get(r, 0) for r in RAILS])
    if overlay is not None:
        recs = struct.pack(">HHI", EXT_ID_CRC, 0, 4) + struct.pack(">I", crc32(bytes(buf)))
        recs += struct.pack(">HHI", EXT_OVERLAY, 0, 4 + len(overlay)) + struct.pack(">I", crc32(overlay)) + overlay
        buf += EXT_MAGIC + struct.pack(">BBH", 1, 2, len(recs)) + recs
    return bytes(buf)


def expected_sysfs(img):
    """The kernel's cape attributes for a decoded image."""
    lines = ["%s=%s" % (k, img[k]) for k in ("board_name", "version", "manufacturer", "part_number",
                                             "serial", "format")]
    lines += ["pins=" + p["words"] for p in img["pins"]]
    lines += ["currents=%s %d" % (r, img["power"][r]) for r in RAILS]
    return lines


def compare(img, ct):
    """Field-by-field differences between the reference and capetool's JSON."""
    diffs = []
    for k in ("format", "board_name", "version", "manufacturer", "part_number", "serial", "num_pins"):
        if img[k] != ct.get(k):
            diffs.append("%s: reference %r, capetool %r" % (k, img[k], ct.get(k)))
    ref_pins = [(p["pin"], p["index"], p["word"], p["words"]) for p in img["pins"]]
    ct_pins = [(p.get("pin"), p.get("index"), p.get("word"), p.get("words")) for p in ct.get("pins", [])]
    if ref_pins != ct_pins:
        diffs.append("pins: reference %r, capetool %r" % (ref_pins, ct_pins))
    for r in RAILS:
        if img["power"][r] != ct.get("power", {}).get(r):
            diffs.append("power %s: reference %r, capetool %r" % (r, img["power"][r], ct.get("power", {}).get(r)))
    if (img["extension"] is None) != (ct.get("extension") is None):
        diffs.append("extension: reference %r, capetool %r" % (img["extension"] is not None,
                                                               ct.get("extension") is not None))
    return diffs


def main(argv):
    cmd = argv[1] if len(argv) > 1 else ""
    try:
        if cmd == "decode":
            print(json.dumps(decode(open(argv[2], "rb").read())))
        elif cmd == "encode":
            defn = parse_cape(open(argv[2]).read())
            opts = dict(zip(argv[3::2], argv[4::2]))
            ov = open(opts["--overlay"], "rb").read() if "--overlay" in opts else None
            sys.stdout.buffer.write(encode(defn, opts.get("--serial"), ov))
        elif cmd == "compare":
            img = decode(open(argv[2], "rb").read())
            ct = json.load(sys.stdin if argv[3] == "-" else open(argv[3]))
            diffs = compare(img, ct)
            if diffs:
                print("\n".join(diffs))
            return 1 if diffs else 0
        elif cmd == "sysfs":
            print("\n".join(expected_sysfs(decode(open(argv[2], "rb").read()))))
        else:
            print(__doc__, file=sys.stderr)
            return 2
    except Invalid as e:
        print("invalid: %s" % e, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
