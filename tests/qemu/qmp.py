#!/usr/bin/env python3
"""Send one QMP command to a running QEMU and print its "return" as JSON.

usage: qmp.py SOCKET COMMAND [JSON-ARGUMENTS]
e.g.   qmp.py run/qmp.sock qom-set '{"path": "weather-temp", "property": "temperature", "value": 31250}'
Exit status 1 (and QEMU's error on stderr) if QEMU refuses the command.
"""
import json
import socket
import sys


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__)
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.settimeout(10)
    sock.connect(sys.argv[1])
    stream = sock.makefile("rw")

    def answer():
        while True:
            msg = json.loads(stream.readline())
            if "event" not in msg:
                return msg

    answer()  # greeting
    stream.write(json.dumps({"execute": "qmp_capabilities"}) + "\n")
    stream.flush()
    answer()
    cmd = {"execute": sys.argv[2]}
    if len(sys.argv) == 4:
        cmd["arguments"] = json.loads(sys.argv[3])
    stream.write(json.dumps(cmd) + "\n")
    stream.flush()
    msg = answer()
    if "error" in msg:
        print("qmp: %s: %s" % (sys.argv[2], msg["error"].get("desc")), file=sys.stderr)
        sys.exit(1)
    print(json.dumps(msg.get("return")))


if __name__ == "__main__":
    main()
