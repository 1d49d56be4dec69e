// zkCli 3.8.0's commands: their usage strings (printed verbatim in errors and in the command list) and the flags
// each one declares. `ls2` and `rmr` are gone from 3.8 (it answers "Command not found"); the shell keeps them as
// the old spellings of `ls -s` and `deleteall` for old runbooks, outside the command list zkCli prints.
import type { OptionsSpec } from './zkCliOptions';

export interface CommandSpec {
  name: string;
  /** zkCli's option string: `getUsageStr()` is `name + " " + optionStr`. */
  optionStr: string;
  options: OptionsSpec;
  /** It changes the tree: a read-only shell refuses it (the executor checks this flag before any runner runs). */
  writes?: true;
}

const flag = (description: string) => ({ hasArg: false, description });
const valued = (description: string) => ({ hasArg: true, description });

const quotaGroup = (hasArg: boolean, required: boolean): OptionsSpec => ({
  options: {
    n: { hasArg, description: 'num soft quota' },
    b: { hasArg, description: 'bytes soft quota' },
    N: { hasArg, description: 'num hard quota' },
    B: { hasArg, description: 'bytes hard quota' },
  },
  group: { members: ['n', 'b', 'N', 'B'], required },
});

const none: OptionsSpec = { options: {} };

/** The commands zkCli runs through a CliCommand class (parsed with commons-cli). */
export const CLI_COMMANDS: readonly CommandSpec[] = [
  { name: 'close', optionStr: '', options: none },
  { name: 'create', writes: true, optionStr: '[-s] [-e] [-c] [-t ttl] path [data] [acl]',
    options: { options: { e: flag('ephemeral'), s: flag('sequential'), c: flag('container'), t: valued('ttl') } } },
  { name: 'delete', writes: true, optionStr: '[-v version] path', options: { options: { v: valued('version') } } },
  { name: 'deleteall', writes: true, optionStr: 'path [-b batch size]', options: { options: { b: valued('batch size') } } },
  { name: 'set', writes: true, optionStr: '[-s] [-v version] path data', options: { options: { s: flag('stats'), v: valued('version') } } },
  { name: 'get', optionStr: '[-s] [-w] path', options: { options: { s: flag('stats'), w: flag('watch') } } },
  { name: 'ls', optionStr: '[-s] [-w] [-R] path',
    options: { options: { '?': flag('help'), s: flag('stat'), w: flag('watch'), R: flag('recurse') } } },
  { name: 'getAcl', optionStr: '[-s] path', options: { options: { s: flag('stats') } } },
  { name: 'setAcl', writes: true, optionStr: '[-s] [-v version] [-R] path acl',
    options: { options: { s: flag('stats'), v: valued('version'), R: flag('recursive') } } },
  { name: 'stat', optionStr: '[-w] path', options: { options: { w: flag('watch') } } },
  { name: 'sync', optionStr: 'path', options: none },
  { name: 'setquota', writes: true, optionStr: '-n|-b|-N|-B val path', options: quotaGroup(true, true) },
  { name: 'listquota', optionStr: 'path', options: none },
  { name: 'delquota', writes: true, optionStr: '[-n|-b|-N|-B] path', options: quotaGroup(false, false) },
  { name: 'addauth', optionStr: 'scheme auth', options: none },
  { name: 'reconfig', writes: true, optionStr: '[-s] [-v version] [[-file path] | [-members serverID=host:port1:port2;port3[,...]*]] | [-add serverId=host:port1:port2;port3[,...]]* [-remove serverId[,...]*]', options: none },
  { name: 'config', optionStr: '[-c] [-w] [-s]', options: { options: { s: flag('stats'), w: flag('watch'), c: flag('client connection string') } } },
  { name: 'removewatches', optionStr: 'path [-c|-d|-a] [-l]',
    options: { options: { c: flag('child watcher type'), d: flag('data watcher type'), a: flag('any watcher type'), l: flag('remove locally when there is no server connection') } } },
  { name: 'getEphemerals', optionStr: 'path', options: none },
  { name: 'getAllChildrenNumber', optionStr: 'path', options: none },
  { name: 'version', optionStr: '', options: none },
  { name: 'addWatch', optionStr: '[-m mode] path # optional mode is one of [PERSISTENT, PERSISTENT_RECURSIVE] - default is PERSISTENT_RECURSIVE',
    options: { options: { m: valued('') } } },
  { name: 'whoami', optionStr: '', options: none },
];

/** The commands ZooKeeperMain handles itself, with the option strings its usage shows. */
export const MAIN_COMMANDS: Readonly<Record<string, string>> = {
  connect: 'host:port', history: '', redo: 'cmdno', printwatches: 'on|off', quit: '',
};

/** Old spellings the shell still understands (not in zkCli 3.8): word → the 3.8 command line it stands for. */
export const LEGACY_ALIASES: Readonly<Record<string, readonly string[]>> = {
  ls2: ['ls', '-s'],
  rmr: ['deleteall'],
};

export const cliCommand = (name: string): CommandSpec | undefined => CLI_COMMANDS.find((c) => c.name === name);

export const isKnownCommand = (name: string): boolean => name in MAIN_COMMANDS || cliCommand(name) !== undefined;

export const usageOf = (spec: CommandSpec): string => `${spec.name} ${spec.optionStr}`;

/** Java's String order (UTF-16 code units): `addWatch` before `addauth`. */
export const javaCompare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** ZooKeeperMain.usage(): what zkCli prints on stderr before "Command not found". */
export function commandListUsage(): string {
  const entries = new Map<string, string>(Object.entries(MAIN_COMMANDS));
  for (const spec of CLI_COMMANDS) entries.set(spec.name, spec.optionStr);
  const names = [...entries.keys()].sort(javaCompare);
  return ['ZooKeeper -server host:port -client-configuration properties-file cmd args', ...names.map((n) => `\t${n} ${entries.get(n)}`)].join('\n') + '\n';
}

/** Every command word the shell completes (zkCli's and the legacy ones). */
export function allCommandNames(): string[] {
  return [...new Set([...Object.keys(MAIN_COMMANDS), ...CLI_COMMANDS.map((c) => c.name), ...Object.keys(LEGACY_ALIASES)])].sort(javaCompare);
}
