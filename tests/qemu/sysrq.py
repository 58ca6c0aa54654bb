#!/usr/bin/env python3
"""Send the guest kernel Magic SysRq keys over its serial console.

usage: sysrq.py RUNDIR KEYS      e.g. sysrq.py run/guest tw

For each key: a break on the console UART (QMP chardev-send-break), then the
key on the console socket (tests/qemu/boot.sh), then a wait until the
kernel's answer is in RUNDIR/console.log (with the rest of the console).
Needs CONFIG_MAGIC_SYSRQ_SERIAL in the guest.
"""
import os
import socket
import subprocess
import sys
import time


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    run, keys = sys.argv[1], sys.argv[2]
    qmp = os.path.join(os.path.dirname(os.path.abspath(__file__)), "qmp.py")
    log = os.path.join(run, "console.log")
    for key in keys:
        subprocess.run([qmp, os.path.join(run, "qmp.sock"), "chardev-send-break",
                        '{"id": "con"}'], check=True, stdout=subprocess.DEVNULL)
        # Connected, the socket would get the console output too, and QEMU
        # would stall the guest when nobody reads it: in, key, out.
        con = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        con.settimeout(10)
        con.connect(os.path.join(run, "console.sock"))
        con.sendall(key.encode())
        con.close()
        # The kernel's answer is done when the log stops growing for 1 s.
        size, still, deadline = -1, 0, time.monotonic() + 60
        while still < 5 and time.monotonic() < deadline:
            time.sleep(0.2)
            now = os.path.getsize(log)
            still = still + 1 if now == size else 0
            size = now


if __name__ == "__main__":
    main()
