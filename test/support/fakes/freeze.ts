// Freezes a ZooKeeper member with SIGSTOP: its process stops but its sockets stay open, so clients see a server
// that accepts connections and never answers (a hung JVM, or a partition that drops packets). The process is found
// by its zoo.cfg path, so ZkMember needs nothing new.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ZkMember } from '../servers/zkServer';

/** The pid of the java process started with `member`'s zoo.cfg. */
export function memberPid(member: ZkMember): number {
  const cfg = path.join(member.dir, 'zoo.cfg');
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let cmdline: string;
    try {
      cmdline = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8');
    } catch {
      continue;
    }
    const args = cmdline.split('\0');
    if (args.includes(cfg) && args.some((a) => a.endsWith('QuorumPeerMain'))) return Number(entry);
  }
  throw new Error(`no running process for ZooKeeper member ${member.id} (${cfg})`);
}

export interface Frozen {
  readonly member: ZkMember;
  /** SIGCONT; safe to call more than once (cleanup calls it again). */
  thaw(): void;
}

/** SIGSTOPs `member`; call thaw() (also in cleanup) to let it run again. */
export function freeze(member: ZkMember): Frozen {
  const pid = memberPid(member);
  process.kill(pid, 'SIGSTOP');
  let thawed = false;
  return {
    member,
    thaw() {
      if (thawed) return;
      thawed = true;
      try {
        process.kill(pid, 'SIGCONT');
      } catch {
        // Already gone.
      }
    },
  };
}
