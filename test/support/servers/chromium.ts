// Headless Debian Chromium through playwright-core (no browser download): shared by the e2e harness and the
// code-server shim that runs the in-host tests.
import * as fs from 'node:fs';
import { Browser, chromium } from 'playwright-core';

export function chromiumPath(): string {
  const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'];
  const found = candidates.find((p): p is string => !!p && fs.existsSync(p));
  if (!found) throw new Error('Chromium not found: run scripts/host/ensure-host.sh or set CHROMIUM_PATH');
  return found;
}

export const chromiumArgs = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: chromiumPath(), headless: true, args: chromiumArgs });
}
