#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Is every reference fw_devlink knows one capebus's verifier checks?

usage: of-refs-check.py LINUX_TREE CAPEBUS_OVERLAY_C

fw_devlink's bindings (drivers/of/property.c) are the kernel's own list of
properties that hold phandles.  capebus's notifier (capebus-overlay.c)
checks a raw reference in a property (1) named for what the node it names
provides ("#<stem>-cells": "<stem>s", "...-<stem>s", "<stem>", "...-<stem>"),
or (2) in its table of phandle properties without a cell count.  Every
binding fw_devlink has must fall under one of them, or be one the verifier
handles by name (interrupts, interrupts-extended, interrupt-map, gpio-map).
The same for gpiolib's legacy GPIO property names (drivers/gpio/gpiolib-of.c,
of_find_gpio_rename()), which no stem rule matches.  Prints one line per
binding and what covers it; exits 1 if one is not.
"""
import re
import sys


def stem_matches(prop, stem):
    """capebus_prop_names_stem(), in Python."""
    if prop.startswith("assigned-" + stem):
        return True
    for plural in ("", "s", "es"):
        if not prop.endswith(stem + plural):
            continue
        head = prop[:len(prop) - len(stem + plural)]
        if head == "" or head.endswith("-"):
            return True
    return False


def main():
    linux, overlay_c = sys.argv[1], sys.argv[2]
    src = open(linux + "/drivers/of/property.c").read()
    ours = open(overlay_c).read()
    table = ours[ours.index("capebus_plain_refs[] = {"):]
    table = table[:table.index("};")]
    plain = re.findall(r'\{ "([^"]+)", \'(.)\'', table)

    def in_plain(name, suffix):
        for p, match in plain:
            if match == "=" and not suffix and p == name:
                return True
            if match == ">" and name.endswith(p):
                return True
            if match == "<" and not suffix and name.startswith(p) and \
                    name[len(p):].isdigit():
                return True
        return False

    bad = 0
    for kind, args in re.findall(r'^DEFINE_(SIMPLE|SUFFIX)_PROP\(([^)]*)\)', src, re.M):
        _, name, cells = [a.strip() for a in args.split(",")]
        name = name.strip('"')
        suffix = kind == "SUFFIX"
        if cells != "NULL":
            stem = cells.strip('"')[1:-len("-cells")]
            probe = ("x" + name) if suffix else name
            ok = stem_matches(probe, stem) or in_plain(name, suffix)
            how = f"named for {cells}, or capebus_plain_refs[]"
        else:
            ok = in_plain(name, suffix)
            how = "capebus_plain_refs[]"
        print(f"{'ok' if ok else 'NOT COVERED'}: {kind.lower()} {name} ({how})")
        bad += not ok
    # The bindings fw_devlink parses with functions of their own.
    special = {
        "parse_gpios": ("gpios", "#gpio-cells"),
        "parse_gpio_compat": ("gpio", "#gpio-cells"),
        "parse_iommu_maps": ("iommu-map", None),
        "parse_interrupts": ("interrupts", None),
        "parse_interrupt_map": ("interrupt-map", None),
        "parse_remote_endpoint": ("remote-endpoint", None),
    }
    for fn in re.findall(r'\.parse_prop = (parse_\w+)', src):
        if re.search(r'DEFINE_(SIMPLE|SUFFIX)_PROP\(' + fn[len("parse_"):] + ',', src):
            continue
        if fn not in special:
            print(f"NOT COVERED: {fn} (a binding capebus does not know)")
            bad += 1
            continue
        name, cells = special[fn]
        if cells:
            ok = stem_matches(name, cells[1:-len("-cells")])
        else:
            ok = in_plain(name, False) or f'"{name}"' in ours
        print(f"{'ok' if ok else 'NOT COVERED'}: {fn} {name}")
        bad += not ok
    # gpiolib's legacy GPIO property names (of_find_gpio_rename()): each
    # entry's legacy_id, or its con_id where that is NULL.
    gsrc = open(linux + "/drivers/gpio/gpiolib-of.c").read()
    body = gsrc[gsrc.index("of_find_gpio_rename("):]
    body = body[:body.index("\n}\n")]
    for con_id, legacy in re.findall(r'\{\s*"([^"]+)",\s*("[^"]*"|NULL)', body):
        name = con_id if legacy == "NULL" else legacy.strip('"')
        ok = stem_matches(name, "gpio") or in_plain(name, False)
        print(f"{'ok' if ok else 'NOT COVERED'}: gpiolib legacy name {name}")
        bad += not ok
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
