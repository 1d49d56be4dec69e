#!/usr/bin/env node
/* eslint-disable @typescript-eslint/no-require-imports */
// A stand-in "VS Code executable" for @vscode/test-electron's runTests({ vscodeExecutablePath }) on machines
// without an Electron VS Code. It accepts the Electron-style arguments test-electron passes, starts a private
// code-server with the smoke-test driver, opens the workbench with the extension-test payload in headless Debian
// Chromium, streams the extension host's console and exits with the tests' exit code.
// Needs `npx tsc -p tsconfig.test.json` (uses out/test/support/servers) and scripts/host/ensure-host.sh.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const util = require('node:util');

const support = path.resolve(__dirname, '../../out/test/support/servers');
const { startCodeServer } = require(path.join(support, 'codeServer.js'));
const { launchChromium } = require(path.join(support, 'chromium.js'));

const TIMEOUT_MS = Number(process.env.ZOOSCOPE_SHIM_TIMEOUT_MS || 300000);
// Workbench chatter that is not the tests' output (start-up, closed network, cancelled requests);
// ZOOSCOPE_SHIM_VERBOSE=1 shows it all.
const NOISE = process.env.ZOOSCOPE_SHIM_VERBOSE ? /(?!)/ : new RegExp([
  'workbench\\.js:\\d', 'ENOTFOUND', 'EAI_AGAIN', 'Canceled', 'open-vsx', 'marketplace',
  '^Resolv(ing|ed) connection token', '^Creating a socket', '^\\[(reconnection-grace-time|Service Worker|AgentHost|AccountPolicyGate)',
  '^Updating additional builtin extensions cache',
].join('|'));

function parseArgs(argv) {
  const o = { devPaths: [], folders: [] };
  for (const arg of argv) {
    const m = /^--([^=]+)(?:=(.*))?$/.exec(arg);
    if (!m) { o.folders.push(path.resolve(arg)); continue; }
    const [, key, value] = m;
    if (key === 'extensionDevelopmentPath') o.devPaths.push(path.resolve(value));
    else if (key === 'extensionTestsPath') o.testsPath = path.resolve(value);
    else if (key === 'user-data-dir') o.userDataDir = path.resolve(value);
    else if (key === 'extensions-dir') o.extensionsDir = path.resolve(value);
    // Electron-only flags (--no-sandbox, --disable-updates, --skip-welcome, ...) mean nothing here.
  }
  return o;
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  if (!args.testsPath) throw new Error('code-shim: --extensionTestsPath is required');
  const workspaceFolder = args.folders[0] || fs.mkdtempSync(path.join(os.tmpdir(), 'zooscope-ws-'));
  const server = await startCodeServer({
    workspaceFolder, smokeTestDriver: true, userDataDir: args.userDataDir, extensionsDir: args.extensionsDir,
  });
  let browser;
  try {
    const remote = (p) => `vscode-remote://127.0.0.1:${server.port}${p}`;
    const payload = [...args.devPaths.map((p) => ['extensionDevelopmentPath', remote(p)]),
      ['extensionTestsPath', remote(args.testsPath)]];
    browser = await launchChromium();
    const page = await browser.newPage();
    let finish;
    const exited = new Promise((resolve) => (finish = resolve));
    // A guard against a run that hangs, not a limit on a slow one: it fires only after TIMEOUT_MS without a line of
    // output (mocha reports every test), however long the whole run takes on a busy machine.
    let timer;
    let giveUp;
    const stalled = new Promise((resolve) => (giveUp = resolve));
    const rearm = () => {
      clearTimeout(timer);
      timer = setTimeout(() => giveUp('timeout'), TIMEOUT_MS);
    };
    await page.exposeFunction('codeAutomationExit', (code) => finish(code));
    await page.exposeFunction('codeAutomationLog', (type, logArgs) => {
      rearm();
      if (type === 'trace' || type === 'debug') return;
      const line = util.format(...logArgs);
      if (NOISE.test(line)) return;
      (type === 'error' ? process.stderr : process.stdout).write(line + '\n');
    });
    // Playwright's 30 s default is too short for a workbench load on a machine shared by several runs; a guard only.
    await page.goto(`${server.url}&payload=${encodeURIComponent(JSON.stringify(payload))}`, { timeout: 180000 });
    rearm();
    const code = await Promise.race([exited, stalled]);
    clearTimeout(timer);
    if (code === 'timeout') console.error(`code-shim: no output and no test result for ${TIMEOUT_MS} ms (logs: ${server.logsDir})`);
    return typeof code === 'number' ? code : 1;
  } finally {
    if (browser) await browser.close().catch(() => undefined);
    await server.stop();
  }
}

main().then((code) => process.exit(code), (error) => {
  console.error(error instanceof Error ? error.stack : error);
  process.exit(1);
});
