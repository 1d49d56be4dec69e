// The helpers ssh runs on ZooScope's behalf (askpass, the proxy bridge) are small scripts run by this process's own
// program (node, or VS Code's Electron as node), in a fresh folder only the user can open. Their stdout is ssh's
// input (a secret, a member's bytes): no NODE_OPTIONS (a debugger's preload) may add to it.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { shellWord } from '../shellWords';

export interface NodeScript {
  /** The 0700 folder holding the script and its launcher (and whatever the caller puts beside them). */
  dir: string;
  /** The sh launcher ssh is given; it passes its arguments on to the script. */
  launcher: string;
}

/** Writes `source` as `<name>.js` and its launcher `<name>.sh` into a fresh private folder named `<prefix>…`. */
export function privateNodeScript(prefix: string, name: string, source: string): NodeScript {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  fs.chmodSync(dir, 0o700);
  const script = path.join(dir, `${name}.js`);
  const launcher = path.join(dir, `${name}.sh`);
  fs.writeFileSync(script, source, { mode: 0o600 });
  fs.writeFileSync(launcher, `#!/bin/sh\nNODE_OPTIONS= ELECTRON_RUN_AS_NODE=1 exec ${shellWord(process.execPath)} ${shellWord(script)} "$@"\n`, { mode: 0o700 });
  return { dir, launcher };
}
