// How the Java side of zkCli turns values into text: Date.toString(), Long.toHexString, List.toString, and jute's
// Record.toString (an ACL's Id prints as `'world,'anyone` and a newline), so the shell's lines match zkCli's.
import type { ZnodeStat } from '../stat';

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const pad2 = (n: number) => String(n).padStart(2, '0');

/** The zone's short name as Java prints it; `UTC` for UTC (ICU names other zones `GMT+1` where Java says `CET`). */
function zoneName(date: Date, timeZone: string | undefined): string {
  const part = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'short' }).formatToParts(date)
    .find((p) => p.type === 'timeZoneName')?.value ?? 'UTC';
  return part === 'GMT' && (timeZone ?? process.env.TZ ?? '').match(/^(Etc\/)?(UTC|UCT|Universal|Zulu)$|^$/) ? 'UTC' : part;
}

/** java.util.Date#toString: `Mon Nov 23 22:01:21 UTC 2026`, in the process's time zone (as the JVM's). */
export function javaDateString(ms: number, timeZone?: string): string {
  const date = new Date(ms);
  const parts = Object.fromEntries(new Intl.DateTimeFormat('en-US', {
    timeZone, year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric',
    weekday: 'short', hourCycle: 'h23',
  }).formatToParts(date).map((p) => [p.type, p.value]));
  const weekday = DAYS.indexOf(parts.weekday);
  return `${DAYS[weekday]} ${MONTHS[Number(parts.month) - 1]} ${pad2(Number(parts.day))} ${pad2(Number(parts.hour))}:` +
    `${pad2(Number(parts.minute))}:${pad2(Number(parts.second))} ${zoneName(date, timeZone)} ${parts.year}`;
}

/** Long.toHexString: two's complement for negative values, no padding. */
export function javaHex(value: bigint): string {
  return BigInt.asUintN(64, value).toString(16);
}

/** StatPrinter.print: the 11 lines `ls -s`, `get -s`, `stat`… print. */
export function statLines(stat: ZnodeStat, timeZone?: string): string {
  return [
    `cZxid = 0x${javaHex(stat.czxid)}`,
    `ctime = ${javaDateString(stat.ctime, timeZone)}`,
    `mZxid = 0x${javaHex(stat.mzxid)}`,
    `mtime = ${javaDateString(stat.mtime, timeZone)}`,
    `pZxid = 0x${javaHex(stat.pzxid)}`,
    `cversion = ${stat.cversion}`,
    `dataVersion = ${stat.version}`,
    `aclVersion = ${stat.aversion}`,
    `ephemeralOwner = 0x${javaHex(stat.ephemeralOwner)}`,
    `dataLength = ${stat.dataLength}`,
    `numChildren = ${stat.numChildren}`,
  ].join('\n') + '\n';
}

/** AbstractCollection.toString: `[a, b]`. */
export function javaList(items: readonly string[]): string {
  return `[${items.join(', ')}]`;
}

/** jute's string escaping in Record.toString. */
function juteString(s: string): string {
  const escapes: Record<string, string> = { '\0': '%00', '\n': '%0A', '\r': '%0D', ',': '%2C', '}': '%7D', '%': '%25' };
  return `'${s.replace(/[\0\n\r,}%]/g, (c) => escapes[c])}`;
}

/** Id.toString(): `'scheme,'id` and a newline. */
export function juteId(scheme: string, id: string): string {
  return `${juteString(scheme)},${juteString(id)}\n`;
}

/** ZKUtil.getPermString: the letters in cdrwa order. */
export function permString(perms: number): string {
  return [[4, 'c'], [8, 'd'], [1, 'r'], [2, 'w'], [16, 'a']].filter(([bit]) => (perms & (bit as number)) !== 0).map(([, l]) => l).join('');
}

/** Integer.decode: decimal, 0x/0X/# hex, 0-prefixed octal, with a sign; undefined when Java would throw. */
export function javaDecodeInt(text: string): number | undefined {
  const m = /^([+-]?)(0[xX]|#|0(?=[0-7]))?([0-9a-fA-F]+)$/.exec(text);
  if (!m) return undefined;
  const radix = m[2] === undefined ? 10 : m[2] === '0' ? 8 : 16;
  const digits = m[3];
  if (![...digits].every((c) => !Number.isNaN(parseInt(c, radix)))) return undefined;
  const value = parseInt(m[1] + digits, radix);
  return value >= -(2 ** 31) && value < 2 ** 31 ? value : undefined;
}

/** Integer.parseInt / Long.parseLong: an optional sign and decimal digits only. */
export function javaParseInt(text: string | undefined, bits: 32 | 64): bigint | undefined {
  if (text === undefined || !/^[+-]?\d+$/.test(text)) return undefined;
  const value = BigInt(text);
  const max = 2n ** BigInt(bits - 1);
  return value >= -max && value < max ? value : undefined;
}
