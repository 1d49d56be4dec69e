"""Test driver for kazoo 2.8.0 (Debian's python3-kazoo; run with /usr/bin/python3), used by ZooScope's
interoperability tests and benchmarks. Started by kazoo.ts; the line protocol is the one of CuratorDriver.java
(see driver.ts):
  stdin:  one command per line, words separated by spaces, trailing `key=value` options.
  stdout: one JSON object per line with an "event" field (`ready` first).
Commands: acquire <id> <kind> <path> [n] [timeout=<s>] [lease=<name>] (kinds: mutex, read, write, semaphore <n>,
election; `lease` names a semaphore's lease node instead of kazoo's random uuid),
release <id>, cycles <path> <n> <logFile> [id=] [kind=] [hold=<ms>], handoff <path> <contenders> [rounds=], quit.
Every contender id gets a session of its own; node data is the id.
"""
import json
import os
import sys
import threading
import time

from kazoo.client import KazooClient
from kazoo.exceptions import CancelledError, LockTimeout, NoNodeError

CONNECT = sys.argv[1]
SESSION_TIMEOUT = float(sys.argv[2]) / 1000 if len(sys.argv) > 2 else 15.0
OUT = threading.Lock()
CONTENDERS = {}


def emit(event, ident=None, **fields):
    record = {"event": event}
    if ident is not None:
        record["id"] = ident
    record["t"] = round(time.time() * 1000, 3)
    record.update(fields)
    with OUT:
        sys.stdout.write(json.dumps(record) + "\n")
        sys.stdout.flush()


def security_options():
    """TLS and SASL DIGEST-MD5 from the environment (set by kazoo.ts; never on the command line)."""
    options = {}
    if os.environ.get("KAZOO_TLS_CA"):
        options.update(use_ssl=True, verify_certs=True, ca=os.environ["KAZOO_TLS_CA"],
                       certfile=os.environ["KAZOO_TLS_CERT"], keyfile=os.environ["KAZOO_TLS_KEY"])
    if os.environ.get("KAZOO_SASL_USER"):
        options["sasl_options"] = {"mechanism": "DIGEST-MD5", "username": os.environ["KAZOO_SASL_USER"],
                                   "password": os.environ["KAZOO_SASL_PASSWORD"]}
    return options


def new_client():
    client = KazooClient(hosts=CONNECT, timeout=SESSION_TIMEOUT, **security_options())
    client.start(timeout=20)
    return client


def session_hex(client):
    return "0x%x" % client.client_id[0]


def find_by_data(client, parent, data):
    try:
        for child in client.get_children(parent):
            try:
                if client.get(parent + "/" + child)[0] == data:
                    return parent + "/" + child
            except NoNodeError:
                pass
    except NoNodeError:
        pass
    return None


class Contender:
    def __init__(self, ident, kind, path, leases, lease_name=None):
        self.ident, self.kind, self.path = ident, kind, path
        self.client = new_client()
        self.held = False
        self.done = threading.Event()
        self.release_now = threading.Event()
        self.guard = threading.Lock()
        self.waiting_sent = False
        if kind == "mutex":
            self.recipe = self.client.Lock(path, ident)
        elif kind == "read":
            self.recipe = self.client.ReadLock(path, ident)
        elif kind == "write":
            self.recipe = self.client.WriteLock(path, ident)
        elif kind == "election":
            self.recipe = self.client.Lock(path, ident)  # kazoo's Election is a Lock run until cancelled
        elif kind == "semaphore":
            self.recipe = self.client.Semaphore(path, ident, max_leases=leases)
            if lease_name:
                self.recipe.create_path = path + "/" + lease_name
        else:
            self.client.stop()
            raise ValueError("unsupported kind " + kind)

    def node(self):
        if self.kind == "semaphore":
            return find_by_data(self.client, self.path, self.ident.encode())
        node = getattr(self.recipe, "node", None)
        return self.path + "/" + node if node else None

    def run(self, timeout):
        threading.Thread(target=self.poll_waiting, daemon=True).start()
        try:
            got = self.recipe.acquire(timeout=timeout)
        except CancelledError:
            return self.finish("cancelled")
        except LockTimeout:
            return self.finish("timeout")
        except Exception as error:  # noqa: BLE001 - reported to the test
            return self.finish("failed", message=repr(error))
        if not got:
            return self.finish("timeout" if timeout is not None else "cancelled")
        with self.guard:
            self.held = True
            emit("acquired", self.ident, kind=self.kind, node=self.node(), session=session_hex(self.client))
        self.release_now.wait()
        self.recipe.release()
        self.finish("released")

    def poll_waiting(self):
        while not self.done.is_set():
            node = self.node()
            with self.guard:
                if self.held:
                    return
                if node and not self.waiting_sent:
                    self.waiting_sent = True
                    emit("waiting", self.ident, kind=self.kind, node=node, session=session_hex(self.client))
                    return
            time.sleep(0.01)

    def release(self):
        with self.guard:
            held = self.held
        if held:
            self.release_now.set()
        else:
            self.recipe.cancel()

    def finish(self, event, **fields):
        self.done.set()
        CONTENDERS.pop(self.ident, None)
        emit(event, self.ident, **fields)
        self.client.stop()
        self.client.close()


def acquire(words, opts):
    ident, kind, path = words[1], words[2], words[3]
    if ident in CONTENDERS:
        return emit("error", ident, message="id in use")
    leases = int(words[4]) if len(words) > 4 else 1
    contender = Contender(ident, kind, path, leases, opts.get("lease"))
    CONTENDERS[ident] = contender
    timeout = float(opts["timeout"]) if "timeout" in opts else None
    contender.run(timeout)


def release(words, _opts):
    contender = CONTENDERS.get(words[1])
    if contender is None:
        return emit("error", words[1], message="unknown id")
    contender.release()


def append(log, line):
    fd = os.open(log, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        os.write(fd, (line + "\n").encode())
    finally:
        os.close(fd)


def cycles(words, opts):
    path, n, log = words[1], int(words[2]), words[3]
    name = opts.get("id", "kazoo-%d" % os.getpid())
    kind = opts.get("kind", "mutex")
    hold = float(opts.get("hold", "2")) / 1000
    client = new_client()
    try:
        make = {"mutex": client.Lock, "read": client.ReadLock, "write": client.WriteLock}[kind]
        lock = make(path, name)
        for i in range(n):
            lock.acquire()
            try:
                append(log, "enter %s %s %d" % (kind, name, i))
                if hold > 0:
                    time.sleep(hold)
                append(log, "exit %s %s %d" % (kind, name, i))
            finally:
                lock.release()
        emit("cycles-done", name, path=path, n=n)
    finally:
        client.stop()
        client.close()


def handoff(words, opts):
    path, count = words[1], int(words[2])
    rounds = int(opts.get("rounds", "1"))
    clients = [new_client() for _ in range(count)]
    try:
        for round_index in range(rounds):
            handoff_round(path, clients, round_index)
    finally:
        for client in clients:
            client.stop()
            client.close()


def handoff_round(path, clients, round_index):
    count = len(clients)
    first = clients[0].Lock(path)
    first.acquire()
    acquired_at = [0.0] * count

    def contend(index):
        lock = clients[index].Lock(path)
        lock.acquire()
        acquired_at[index] = time.time() * 1000
        lock.release()

    threads = [threading.Thread(target=contend, args=(i,), daemon=True) for i in range(1, count)]
    for thread in threads:
        thread.start()
    while len(clients[0].get_children(path)) < count:
        time.sleep(0.005)
    released_at = time.time() * 1000
    first.release()
    for thread in threads:
        thread.join(120)
    last = max(acquired_at)
    emit("handoff", path=path, round=round_index, contenders=count, handoffs=count - 1,
         totalMs=last - released_at, perHandoffMs=(last - released_at) / (count - 1))


COMMANDS = {"acquire": acquire, "release": release, "cycles": cycles, "handoff": handoff}


def run(line):
    words, opts = [], {}
    for word in line.split():
        if "=" in word[1:]:
            key, value = word.split("=", 1)
            opts[key] = value
        else:
            words.append(word)
    ident = words[1] if len(words) > 1 else None
    command = COMMANDS.get(words[0])
    if command is None:
        return emit("error", ident, command=line, message="unknown command")
    try:
        command(words, opts)
    except Exception as error:  # noqa: BLE001 - reported to the test
        emit("error", ident, command=line, message=repr(error))


def main():
    emit("ready", pid=os.getpid())
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        if line == "quit":
            break
        threading.Thread(target=run, args=(line,), daemon=True).start()
    for contender in list(CONTENDERS.values()):
        contender.client.stop()
    os._exit(0)


if __name__ == "__main__":
    main()
