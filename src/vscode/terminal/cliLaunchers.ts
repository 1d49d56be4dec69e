// The small `zooscope` launchers put on the integrated terminal's PATH (cliOnPath.ts). They run the extension's
// bundled CLI with the Node that runs the extension host: a remote or code-server host may have no `node` on PATH,
// and where that Node is VS Code's Electron binary, ELECTRON_RUN_AS_NODE=1 makes it run as plain Node (a real
// Node ignores it). No `vscode` import: unit tests write and run them.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { shellWord } from '../../zk/shellWords';

export interface LauncherTarget {
  /** The executable that runs the extension host: Node, or Electron. */
  readonly runtime: string;
  /** The bundled CLI (dist/cli.js of the installed extension). */
  readonly cli: string;
}

export function shellLauncher({ runtime, cli }: LauncherTarget): string {
  return [
    '#!/bin/sh',
    '# Written by ZooScope at each start: runs its bundled zooscope CLI with the Node of VS Code\'s extension host.',
    `ELECTRON_RUN_AS_NODE=1 exec ${shellWord(runtime)} ${shellWord(cli)} "$@"`,
    '',
  ].join('\n');
}

/** Windows: cmd.exe expands %…% even inside quotes, so a literal % is doubled. */
export function cmdLauncher({ runtime, cli }: LauncherTarget): string {
  const word = (text: string) => `"${text.replace(/%/g, '%%')}"`;
  return [
    '@echo off',
    'rem Written by ZooScope at each start: runs its bundled zooscope CLI with the Node of VS Code\'s extension host.',
    'setlocal',
    'set ELECTRON_RUN_AS_NODE=1',
    `${word(runtime)} ${word(cli)} %*`,
    '',
  ].join('\r\n');
}

/** The launcher's file name on this platform. */
export function launcherName(platform: NodeJS.Platform = process.platform): string {
  return platform === 'win32' ? 'zooscope.cmd' : 'zooscope';
}

/**
 * Writes this platform's launcher into `binDir` (created if missing) and returns its path. Unchanged content is
 * left alone; new content replaces the file in one rename, so a terminal running it meanwhile (another window)
 * never reads half a launcher.
 */
export function writeLauncher(binDir: string, target: LauncherTarget, platform: NodeJS.Platform = process.platform): string {
  const file = path.join(binDir, launcherName(platform));
  const content = platform === 'win32' ? cmdLauncher(target) : shellLauncher(target);
  fs.mkdirSync(binDir, { recursive: true });
  let current: string | undefined;
  try { current = fs.readFileSync(file, 'utf8'); } catch { /* not written yet */ }
  if (current !== content) {
    const part = `${file}.${process.pid}.part`;
    fs.writeFileSync(part, content, { mode: 0o755 });
    fs.renameSync(part, file);
  }
  fs.chmodSync(file, 0o755);
  return file;
}
