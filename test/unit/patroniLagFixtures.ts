// A Patroni 3.0.2 cluster's keys as its own code writes them (Debian's /usr/lib/python3/dist-packages/patroni):
// members/<name> from ha.py touch_member (xlog_location: the member's WAL position in bytes), `status` from
// dcs/__init__.py update_leader → write_status (json.dumps({"optime": last_lsn}, separators=(',', ':'))), and the
// legacy `optime/leader` from _write_leader_optime (str(last_lsn)), still written while a member older than 2.1 is seen.
import { bytes } from './meaningFixtures';

export const MIB = 1024 * 1024;
export const LEADER_LSN = 83886080; // 80 MiB

export const memberPath = (name: string) => `/service/pg/members/${name}`;
export const statusPath = '/service/pg/status';
export const legacyOptimePath = '/service/pg/optime/leader';

/** ha.py touch_member's record for a member at `xlog_location`. */
export const touchMemberRecord = (role: string, state: string, xlogLocation: unknown, name = 'pg2') => bytes(JSON.stringify({
  conn_url: `postgres://10.0.0.2:5432/postgres`, api_url: `http://10.0.0.2:8008/patroni`, state, role, version: '3.0.2',
  xlog_location: xlogLocation, timeline: 1, tags: { name },
}));

/** write_status's value: the leader's last LSN (and, with permanent logical slots, their confirmed_flush_lsn). */
export const writeStatusValue = (optime: unknown) => bytes(JSON.stringify({ optime, slots: { logical_slot: 1000 } }));

/** _write_leader_optime's value. */
export const writeLeaderOptimeValue = (optime: string) => bytes(optime);
