"""One kazoo session that takes a first lock, then (on "go" from stdin) waits for a second one: two of these in
opposite order are a real deadlock for ZooScope's analysis tests. Run with /usr/bin/python3 (python3-kazoo).
Usage: kazoo_two_locks.py <connectString> <first lock path> <second lock path> <id>
stdout, one JSON object per line: {"event":"holding","session":…,"node":…}, then {"event":"waiting"} after "go".
"""
import sys
import threading

sys.dont_write_bytecode = True  # no __pycache__ beside the test sources
from kazoo_session import emit, start_session  # noqa: E402 (after the line above)

connect, first, second, ident = sys.argv[1:5]
client, session = start_session(connect)
one = client.Lock(first, ident)
one.acquire()
emit("holding", session=session, node=first + "/" + one.node)
for line in sys.stdin:
    if line.strip() == "go":
        two = client.Lock(second, ident)
        threading.Thread(target=two.acquire, daemon=True).start()
        emit("waiting")
    elif line.strip() == "quit":
        break
client.stop()
client.close()
