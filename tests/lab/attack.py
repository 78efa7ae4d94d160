#!/usr/bin/env python3
# An ordinary user attacking topoplace-nodefeed's placement service (issue 17 findings 1, 3,
# 4), run by tests/lab/t-spank.sh as an unprivileged user created by the test:
#   attack.py SOCKET SNAPSHOT HEALTH SECONDS
# For SECONDS it keeps SILENT connections open that never send a byte (reopened when the
# service closes them: slowloris), and sends in a loop a memory bomb (exclude= a 60 KB
# hostlist of a million names) and a CPU bomb (nodes=1-1000000, segment=1) for the service's
# own snapshot, so both reach the decision, and a request for every node of the lab, which is
# "busy" while one node is taken (each busy answer may make the root daemon re-read
# slurmctld's node table: at most once a second), and the same CPU bomb and a whole-pod request
# under policy=cost (several full searches each, and the running jobs' uplinks re-recorded:
# issue 32 point 4, which the service's per-uid budget bounds). Prints one line of counts.
import socket
import sys
import time

SILENT = 40
path, snap, health, seconds = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4])


def request(**kv):
    fields = {"snapshot": snap, "health": health, "nodes": "2", "gpus_per_node": "", "gres": "",
              "gpus": "", "exclusive": "exclusive", "nodelist": "", "exclude": "", "mode": "pack",
              "max_tier": "-1", "nvl": "0", "segment": "0", "wait": "300"}
    fields.update(kv)
    return ("topoplace-service 1\n" + "".join(f"{k}={v}\n" for k, v in fields.items())).encode()


MEMORY = request(exclude="A" * 60000 + "[0-999999]")
CPU = request(nodes="1-1000000", segment="1")
BUSY = request(nodes="64")
COST_CPU = request(nodes="1-1000000", segment="1", policy="cost")
COST = request(nodes="16", policy="cost")


def connect():
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.settimeout(2)
    s.connect(path)
    return s


def bomb(data):
    """True when answered; busy answers counted."""
    global busy
    try:
        s = connect()
        s.sendall(data)
        s.shutdown(socket.SHUT_WR)
        reply = b""
        while True:
            b = s.recv(65536)
            if not b:
                break
            reply += b
        s.close()
        if b"kind=busy" in reply:
            busy += 1
        return b"kind=" in reply
    except OSError:
        return False


silent, reopened, answered, unanswered, busy = [], 0, 0, 0, 0
end = time.monotonic() + seconds
while time.monotonic() < end:
    # keep SILENT connections open, replacing those the service closed
    alive = []
    for s in silent:
        try:
            s.setblocking(False)
            closed = s.recv(1) == b""
        except BlockingIOError:
            closed = False
        except OSError:
            closed = True
        if closed:
            s.close()
        else:
            alive.append(s)
    while len(alive) < SILENT:
        try:
            alive.append(connect())
            reopened += 1
        except OSError:
            break
    silent = alive
    for data in (MEMORY, CPU, BUSY, COST_CPU, COST):
        if bomb(data):
            answered += 1
        else:
            unanswered += 1
print(f"attack: {reopened} silent connections opened, {answered} bombs answered ({busy} busy), {unanswered} not")
