// The SSH_ASKPASS helper: a tiny script that prints the secret from its own environment, so a passphrase or
// password reaches ssh without ever being in argv, a file or a log. Written once per process, readable by the user
// only.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { SECRET_ENV } from './sshCommand';

let helperPath: string | undefined;

export function askpassHelper(): string {
  if (helperPath && fs.existsSync(helperPath)) return helperPath;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zooscope-askpass-'));
  const file = path.join(dir, 'askpass.sh');
  fs.writeFileSync(file, `#!/bin/sh\nprintf '%s\\n' "$${SECRET_ENV}"\n`, { mode: 0o700 });
  helperPath = file;
  return file;
}
