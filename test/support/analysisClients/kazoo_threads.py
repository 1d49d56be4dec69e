"""One kazoo session whose threads each take a lock with a Lock object of their own (several on one path is
normal use of a multi-threaded client). Run with /usr/bin/python3 (python3-kazoo).
Usage: kazoo_threads.py <connectString> <id>
stdin, one command a line: `acquire <path>` (a new Lock object in a new thread), `quit`.
stdout, one JSON object per line: {"event":"ready","session":…}, then per acquire {"event":"queued","node":…}
once its node exists, and {"event":"acquired","node":…} when that thread holds the lock.
"""
import sys
import threading
import time

sys.dont_write_bytecode = True  # no __pycache__ beside the test sources
from kazoo_session import emit, start_session  # noqa: E402 (after the line above)

connect, ident = sys.argv[1:3]
client, session = start_session(connect)
emit("ready", session=session)


def take(path):
    lock = client.Lock(path, ident)
    threading.Thread(target=lambda: lock.acquire() and emit("acquired", node=path + "/" + lock.node), daemon=True).start()
    # kazoo sets lock.node right after its create returns.
    while lock.node is None:
        time.sleep(0.005)
    emit("queued", node=path + "/" + lock.node)


for line in sys.stdin:
    words = line.split()
    if words[:1] == ["acquire"]:
        take(words[1])
    elif words[:1] == ["quit"]:
        break
client.stop()
client.close()
