// Drives the real VS Code workbench (code-server) with the packaged ZooScope installed, from headless Debian
// Chromium through playwright-core. Used by the e2e specs (test/e2e/*.e2e.ts) via test/e2e/run.ts.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { CodeServerHandle, startCodeServer } from '../support/servers/codeServer';
import { launchChromium } from '../support/servers/chromium';

export const repoRoot = path.resolve(__dirname, '../../..');
export const screenshotDir = process.env.ZOOSCOPE_SCREENSHOTS || path.join(repoRoot, 'test-results', 'screenshots');
const defaultVsix = () => process.env.ZOOSCOPE_VSIX || path.join(repoRoot, '.tmp', 'zooscope.vsix');

export interface WorkbenchOptions {
  /** Settings merged into User/settings.json, e.g. `{ 'zooscope.connections': [...] }`. */
  settings?: Record<string, unknown>;
  /** Extra environment for code-server and its extension host. */
  env?: Record<string, string>;
  /** Default: $ZOOSCOPE_VSIX or .tmp/zooscope.vsix (npm run package). */
  vsixPath?: string;
  /** Default: a fresh empty folder. */
  workspaceFolder?: string;
  /** VS Code's display language, e.g. `zh-cn` (code-server `--locale`, and the browser's language); needs a
   *  language pack among `extraVsixPaths` to take effect. */
  locale?: string;
  /** Extensions installed besides ZooScope, e.g. a language pack. */
  extraVsixPaths?: string[];
  /** Workspace trust on: the folder opens in Restricted Mode (with `security.workspace.trust.*` settings). */
  workspaceTrust?: boolean;
}

/** One test's view of the world; run.ts closes whatever a test opened. */
export interface E2eContext {
  open(options?: WorkbenchOptions): Promise<Workbench>;
  /** Connect string of the test ZooKeeper ($ZOOSCOPE_TEST_ZK), when one runs. */
  readonly zk?: string;
}

export interface E2eTest {
  name: string;
  run(ctx: E2eContext): Promise<void>;
  timeoutMs?: number;
  /** Overrides the spec module's `shareWorkbench` for this test (see run.ts). */
  shareWorkbench?: boolean;
}

export const ZOOSCOPE_TITLE = 'ZooScope';

export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** What every e2e workbench runs with (a test's own settings come on top). */
const TEST_SETTINGS: Readonly<Record<string, unknown>> = { 'workbench.reduceMotion': 'on' };

export class Workbench {
  /** Uncaught errors of the workbench page, for diagnostics. */
  readonly pageErrors: string[] = [];

  private constructor(
    private currentPage: Page,
    readonly server: CodeServerHandle,
    private readonly browser: Browser,
    private readonly tempWorkspace: string | undefined,
  ) {
    currentPage.on('pageerror', (e) => this.pageErrors.push(e.message));
  }

  /** The workbench's browser tab (a new one after reopenTab). */
  get page(): Page {
    return this.currentPage;
  }

  /** Closes the browser tab (code-server and its extension host go on, as when a user closes the tab). */
  async closeTab(): Promise<void> {
    await this.currentPage.close();
  }

  /** Opens the workbench again in a new tab of the same browser (at `url`, e.g. through a proxy the test cuts). */
  async reopenTab(url = this.server.url): Promise<void> {
    const page = await this.browser.newPage({ viewport: { width: 1400, height: 900 } });
    page.on('pageerror', (e) => this.pageErrors.push(e.message));
    this.currentPage = page;
    await page.goto(url);
    await page.locator('.monaco-workbench .part.activitybar').waitFor({ timeout: 60000 });
  }

  static async open(o: WorkbenchOptions = {}): Promise<Workbench> {
    const tempWorkspace = o.workspaceFolder ? undefined : fs.mkdtempSync(path.join(os.tmpdir(), 'zooscope-e2e-ws-'));
    const server = await startCodeServer({
      workspaceFolder: o.workspaceFolder ?? tempWorkspace!,
      vsixPath: o.vsixPath ?? defaultVsix(),
      // No close animations: while one runs, VS Code makes the quick input inert, and a fresh run once found an input
      // box left inert (then hidden) that way for 30 s, with nothing on screen to explain it.
      settings: { ...TEST_SETTINGS, ...o.settings },
      env: o.env,
      locale: o.locale,
      extraVsixPaths: o.extraVsixPaths,
      workspaceTrust: o.workspaceTrust,
    });
    let browser: Browser | undefined;
    try {
      browser = await launchChromium();
      const page = await browser.newPage({ viewport: { width: 1400, height: 900 }, ...(o.locale ? { locale: o.locale } : {}) });
      const wb = new Workbench(page, server, browser, tempWorkspace);
      await page.goto(server.url);
      await page.locator('.monaco-workbench .part.activitybar').waitFor({ timeout: 60000 });
      return wb;
    } catch (error) {
      await browser?.close().catch(() => undefined);
      await server.stop();
      throw error;
    }
  }

  /** The activity-bar entry (`li`, with aria-expanded) of a view container, by its title. */
  activityBarEntry(title = ZOOSCOPE_TITLE): Locator {
    return this.page.locator(`.activitybar li.action-item:has(> a.action-label[aria-label^="${title}"])`).first();
  }

  /** Clicks the ZooScope activity-bar entry (unless already open) and waits for its side bar, whose title is
   *  "ZooScope" or, with a single view, "ZooScope: <view name>". */
  async openZooScope(): Promise<void> {
    const entry = this.activityBarEntry();
    await entry.waitFor({ timeout: 60000 });
    if ((await entry.getAttribute('aria-expanded')) !== 'true') await entry.click();
    await this.sideBarTitle().filter({ hasText: new RegExp(`^${ZOOSCOPE_TITLE}\\b`, 'i') }).waitFor({ timeout: 30000 });
    await this.waitForSideBarReady();
  }

  /** Waits until the side bar's views have data providers (their extension activated) and stopped loading. */
  async waitForSideBarReady(timeoutMs = 30000): Promise<void> {
    const sideBar = this.page.locator('.part.sidebar');
    try {
      await sideBar.getByText('There is no data provider registered').first().waitFor({ state: 'hidden', timeout: timeoutMs });
    } catch {
      throw new Error('side bar: a view still has no data provider (did the extension activate?)');
    }
    await sideBar.locator('.monaco-progress-container.active').first().waitFor({ state: 'hidden', timeout: timeoutMs });
  }

  sideBarTitle(): Locator {
    return this.page.locator('.part.sidebar .composite.title .title-label h2');
  }

  /** Tree rows (any tree in the workbench) whose label is exactly `label` (or matches it). */
  treeRow(label: string | RegExp): Locator {
    return this.page.getByRole('treeitem', { name: label, exact: typeof label === 'string' });
  }

  async waitForTreeRow(label: string | RegExp, timeoutMs = 30000): Promise<Locator> {
    const row = this.treeRow(label).first();
    await row.waitFor({ timeout: timeoutMs });
    return row;
  }

  /** A row of the side bar's tree whose label is exactly `name` (first match). */
  explorerRow(name: string): Locator {
    return this.page.locator('.part.sidebar .monaco-list-row')
      .filter({ has: this.page.locator('.label-name', { hasText: new RegExp(`^${escapeRegExp(name)}$`) }) }).first();
  }

  /** Right-clicks a row and activates the context-menu entry `entry` (by hover + Enter, as a click racing the
   *  menu's opening can be lost). */
  async contextMenu(row: Locator, entry: string): Promise<void> {
    const item = this.page.locator('.monaco-menu .action-label', { hasText: new RegExp(`^${escapeRegExp(entry)}$`) }).first();
    // A fresh run found no menu after a right click on a row just revealed by an expand, only the row's hover open:
    // the click is repeated (after Escape closes whatever opened) up to 3 times.
    for (let attempt = 1; ; attempt++) {
      await row.click({ button: 'right' });
      try {
        await item.waitFor({ timeout: 5000 });
        break;
      } catch (error) {
        if (attempt === 3) throw error;
        await this.page.keyboard.press('Escape');
      }
    }
    await item.hover();
    await this.page.keyboard.press('Enter');
  }

  /** Expands the side-bar tree row `name` (clicking it unless already expanded) and waits until it is. */
  async expandRow(name: string): Promise<void> {
    const row = this.explorerRow(name);
    await row.waitFor({ timeout: 30000 });
    if ((await row.getAttribute('aria-expanded')) !== 'true') {
      await row.click();
      // The pointer left resting on the row opens its tooltip, which covers the rows below it: a fresh run found the
      // next click intercepted for 30 s. Move it to the empty editor area.
      await this.page.mouse.move(900, 600);
    }
    // Re-query each time: the tree's rows are virtualized and re-rendered, so a held element handle goes stale.
    await this.page.locator('.part.sidebar .monaco-list-row[aria-expanded="true"]')
      .filter({ has: this.page.locator('.label-name', { hasText: new RegExp(`^${escapeRegExp(name)}$`) }) })
      .first().waitFor({ timeout: 30000 });
  }

  /**
   * Expands a connection's row and waits until the row shows it connected. The connection connects as it expands,
   * and its row is redrawn then: VS Code forgets its children's handles until it has them again, and a menu chosen
   * on one of them meanwhile does nothing (fresh run F: Search… said "the tree was redrawn" and asked nothing).
   */
  async connectRow(name: string): Promise<void> {
    await this.expandRow(name);
    await this.explorerRow(name).locator('.codicon-vm-running').waitFor({ timeout: 30000 });
  }

  /** Answers the input box whose prompt matches `prompt`: replaces its value with `value` and presses Enter. */
  async answerInput(prompt: RegExp, value: string): Promise<void> {
    const widget = this.page.locator('.quick-input-widget').filter({ hasText: prompt });
    await widget.waitFor({ timeout: 15000 });
    const input = widget.locator('input').first();
    await input.fill(value);
    await input.press('Enter');
    // The same widget is reused by the next step: wait until this prompt is gone so the next answer lands there.
    await widget.waitFor({ state: 'hidden', timeout: 15000 });
  }

  /** Answers VS Code's simple file dialog (a quick input holding a path): types `file` and accepts it. */
  async answerFileDialog(title: RegExp, file: string): Promise<void> {
    // Found by its title alone: a form may show its next step in the same widget the moment the dialog closes, and
    // that step must not receive the path or an Enter.
    const widget = this.page.locator('.quick-input-widget').filter({ has: this.page.locator('.quick-input-title', { hasText: title }) });
    await widget.waitFor({ timeout: 15000 });
    const input = widget.locator('input').first();
    // Once it has listed its starting folder (`..` at least): it rewrites the box with that folder when it has.
    await widget.locator('.quick-input-list .monaco-list-row').first().waitFor({ timeout: 15000 });
    // It reads folders as a path is typed, and Enter while it is busy is ignored: type again and press again until
    // it closes. Under load it can stay busy with a folder read that never settles (run T1: the box held the path,
    // the list its folder, and 30 s of Enter did nothing); a list item picked by hand is accepted even then, so once
    // the file's own row is listed, it is clicked.
    const row = widget.locator('.quick-input-list .monaco-list-row')
      .filter({ has: this.page.locator('.label-name', { hasText: new RegExp(`^${escapeRegExp(path.basename(file))}$`) }) });
    const deadline = Date.now() + 30000;
    for (let attempt = 0; ; attempt++) {
      if (attempt > 0 && await row.count().catch(() => 0) === 1) await row.click({ timeout: 3000 }).catch(() => undefined);
      else {
        if (await input.inputValue().catch(() => file) !== file) await input.fill(file).catch(() => undefined);
        await input.press('Enter').catch(() => undefined);
      }
      try {
        await widget.waitFor({ state: 'hidden', timeout: 3000 });
        return;
      } catch {
        if (Date.now() > deadline) throw new Error(`file dialog ${title}: ${file} not accepted: ${await widget.innerText().catch(() => '?')}`);
      }
    }
  }

  /** Picks the quick-pick item whose label starts with `label`. */
  async pickItem(label: string): Promise<void> {
    const item = this.page.locator('.quick-input-widget .quick-input-list .monaco-list-row', { hasText: label }).first();
    await item.waitFor({ timeout: 15000 });
    await item.click();
  }

  /** The notification toast whose message matches `text`. */
  notification(text: RegExp): Locator {
    return this.page.locator('.notifications-toasts .notification-toast').filter({ hasText: text }).first();
  }

  /** Waits until `toast` is shown fully opaque (a screenshot taken during a fade shows it half transparent). */
  async settled(toast: Locator): Promise<void> {
    await toast.waitFor({ timeout: 5000 });
    await this.page.waitForFunction((el) => !!el && getComputedStyle(el).opacity === '1', await toast.elementHandle(), { timeout: 5000 });
  }

  /** Clicks `button` on the notification matching `text` (waiting for it). */
  async clickNotificationButton(text: RegExp, button: string): Promise<void> {
    const toast = this.notification(text);
    await toast.waitFor({ timeout: 30000 });
    // By keyboard: a hover left over another toast would intercept a pointer click.
    const action = toast.locator('a.monaco-button', { hasText: button }).first();
    await action.focus();
    await action.press('Enter');
  }

  /** The ZooScope status bar entry of connection `name`. */
  statusBarItem(name: string): Locator {
    return this.page.locator('.statusbar-item', { hasText: name }).first();
  }

  /** Runs a command from the command palette by its full title, e.g. "ZooScope: Refresh". */
  async runCommand(title: string): Promise<void> {
    const widget = this.page.locator('.quick-input-widget');
    if (await widget.isVisible()) {
      // A picker left open (or closing) by a previous step: dismiss it so F1 opens a fresh palette.
      await this.page.keyboard.press('Escape');
      await widget.waitFor({ state: 'hidden', timeout: 5000 });
    }
    await this.page.keyboard.press('F1');
    const input = widget.locator('input');
    await input.waitFor({ timeout: 10000 });
    await input.fill(`>${title}`, { timeout: 10000 }).catch(async () => {
      // Seen once right after start-up: the whole workbench inert (as while a dialog is open) for 30 s. Keep the
      // evidence, then open the palette afresh; a second failure fails the test.
      const dialog = this.page.locator('.monaco-dialog-box');
      console.log(`  command palette inert${await dialog.isVisible() ? `; dialog: ${await dialog.innerText()}` : ''}`);
      await this.screenshot(`palette-inert-${Date.now()}`);
      await this.page.keyboard.press('Escape');
      await this.page.keyboard.press('F1');
      await input.fill(`>${title}`);
    });
    const row = this.page.locator('.quick-input-list .monaco-list-row', { hasText: title }).first();
    await row.waitFor({ timeout: 10000 }).catch(() => {
      throw new Error(`command palette: no command "${title}"`);
    });
    const label = (await row.getAttribute('aria-label')) ?? '';
    if (!label.startsWith(title)) throw new Error(`command palette: first match for "${title}" is "${label}"`);
    await row.click();
  }

  /**
   * Undoes what a test leaves on screen, so the next test of its file can use this workbench as if fresh: closes
   * menus, pickers, hovers, editors and notifications, and collapses the ZooScope explorer (its connections stay
   * connected). Throws when it cannot (e.g. an unsaved editor asks to be saved): the runner then opens a fresh one.
   */
  async resetForNextTest(): Promise<void> {
    for (let i = 0; i < 3; i++) await this.page.keyboard.press('Escape');
    await this.page.mouse.move(900, 600);
    await this.page.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: 5000 }).catch(() => undefined);
    await this.runCommand('View: Close All Editors');
    await this.page.locator('.editor-group-container .tabs-container .tab').first().waitFor({ state: 'detached', timeout: 10000 });
    await this.runCommand('Notifications: Clear All Notifications');
    await this.page.locator('.notifications-toasts .notification-toast').first().waitFor({ state: 'detached', timeout: 10000 });
    await this.collapseExplorer();
  }

  /** Clicks the ZooScope explorer's Collapse All (shown on its header while hovered), when its side bar is open. */
  private async collapseExplorer(): Promise<void> {
    const collapseAll = this.page.locator('.actions .action-label[aria-label="Collapse All"]');
    const pane = this.page.locator('.part.sidebar .pane').filter({ has: this.page.locator('.pane-header').filter({ has: collapseAll }) }).first();
    if (!(await pane.isVisible())) return;
    await pane.locator('.pane-header').hover();
    await pane.locator('.pane-header').locator(collapseAll).click();
    await pane.locator('.monaco-list-row[aria-expanded="true"]').first().waitFor({ state: 'detached', timeout: 10000 });
    await this.page.mouse.move(900, 600);
  }

  /** Drags the sash at the side bar's right edge so the tree's names and descriptions fit. */
  async widenSideBar(width: number): Promise<void> {
    const box = await this.page.locator('.part.sidebar').boundingBox();
    if (!box) throw new Error('the side bar is not shown');
    const edge = box.x + box.width;
    await this.page.mouse.move(edge + 1, box.y + box.height / 2);
    await this.page.mouse.down();
    await this.page.mouse.move(box.x + width, box.y + box.height / 2, { steps: 8 });
    await this.page.mouse.up();
    await this.page.waitForFunction((w) => (document.querySelector('.part.sidebar')?.getBoundingClientRect().width ?? 0) >= w - 10, width);
  }

  /** Saves test-results/screenshots/<name>.png and returns its path. */
  async screenshot(name: string): Promise<string> {
    const file = path.join(screenshotDir, name.endsWith('.png') ? name : `${name}.png`);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    await this.page.screenshot({ path: file });
    return file;
  }

  async close(): Promise<void> {
    await this.browser.close().catch(() => undefined);
    await this.server.stop();
    if (this.tempWorkspace) fs.rmSync(this.tempWorkspace, { recursive: true, force: true });
  }
}
