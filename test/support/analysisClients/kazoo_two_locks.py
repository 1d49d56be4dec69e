"""One kazoo session that takes a first lock, then (on "go" from stdin) waits for a second one: two of these in
opposite order are a real deadlock for ZooScope's analysis tests. Run with /usr/bin/python3 (python3-kazoo).
Usage: kazoo_two_locks.py <connectString> <first lock path> <second lock path> <id>
stdout, one JSON object per line: {"event":"holding","session":…,"node":…}, then {"event":"waiting"} after "go".
"""
import json
import sys
import threading

from kazoo.client import KazooClient

connect, first, second, ident = sys.argv[1:5]


def emit(event, **fields):
    fields["event"] = event
    sys.stdout.write(json.dumps(fields) + "\n")
    sys.stdout.flush()


client = KazooClient(hosts=connect, timeout=20.0)
client.start(timeout=20)
one = client.Lock(first, ident)
one.acquire()
emit("holding", session="0x%x" % client.client_id[0], node=first + "/" + one.node)
for line in sys.stdin:
    if line.strip() == "go":
        two = client.Lock(second, ident)
        threading.Thread(target=two.acquire, daemon=True).start()
        emit("waiting")
    elif line.strip() == "quit":
        break
client.stop()
client.close()
