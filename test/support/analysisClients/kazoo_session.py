"""What the analysis clients share: one started kazoo session, and JSON lines on stdout that threads may write
at once (one lock keeps lines whole)."""
import json
import sys
import threading

from kazoo.client import KazooClient

_OUT = threading.Lock()


def emit(event, **fields):
    fields["event"] = event
    with _OUT:
        sys.stdout.write(json.dumps(fields) + "\n")
        sys.stdout.flush()


def start_session(connect):
    """A started KazooClient and its session id as 0x-hex."""
    client = KazooClient(hosts=connect, timeout=20.0)
    client.start(timeout=20)
    return client, "0x%x" % client.client_id[0]
