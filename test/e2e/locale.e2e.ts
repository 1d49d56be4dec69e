// A person whose VS Code speaks Simplified Chinese: ZooScope's views, actions, menus and node tooltips are in
// Chinese (l10n/bundle.l10n.zh-cn.json, package.nls.zh-cn.json) and dates are in Chinese format.
// VS Code switches its display language only with a language pack installed (without one, `--locale zh-cn` leaves the
// workbench, `vscode.env.language` and every extension in English). Microsoft's pack comes from the marketplace,
// out of reach here, so the test installs a minimal one (test/e2e/fixtures/zh-cn-language-pack: it translates
// nothing of VS Code itself, hence VS Code's own words stay English in the screenshots).
import * as assert from 'node:assert';
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { connectOtherClient } from '../support/clients/zkClient';
import { E2eTest, repoRoot, Workbench } from './workbench';

const CONNECTION = 'E2E ZooKeeper';
const FIXTURE = path.join(repoRoot, 'test', 'e2e', 'fixtures', 'zh-cn-language-pack');

/** Packages the fixture language pack into a temporary vsix (vsce, ≈ 2 s). */
function packageLanguagePack(dir: string): string {
  const out = path.join(dir, 'zh-cn-language-pack.vsix');
  const vsce = path.join(repoRoot, 'node_modules', '@vscode', 'vsce', 'vsce');
  const r = spawnSync(process.execPath, [vsce, 'package', '--allow-missing-repository', '--skip-license', '--no-dependencies', '--out', out],
    { cwd: FIXTURE, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`vsce package (language pack) failed: ${r.error?.message ?? `exit ${r.status}`}\n${r.stdout}${r.stderr}`);
  return out;
}

/** Whether the machine has a font for Chinese; without one Chromium draws boxes (the DOM, which the test reads, is right). */
function hasChineseFont(): boolean {
  try {
    return execFileSync('fc-list', [':lang=zh', 'family'], { encoding: 'utf8' }).trim() !== '';
  } catch {
    return false;
  }
}

/** A title-bar action of a side-bar view, by its (localised) title. */
const viewAction = (wb: Workbench, title: string) => wb.page.locator(`.part.sidebar .pane-header .actions .action-label[aria-label="${title}"]`).first();

export const tests: E2eTest[] = [
  {
    name: 'zh-cn: with the UI language Simplified Chinese, views, actions, menus and a node\'s tooltip (its dates too) are in Chinese',
    timeoutMs: 180000,
    async run(ctx) {
      assert.ok(ctx.zk, 'no test ZooKeeper');
      if (!hasChineseFont()) console.log('  note: no Chinese font (apt-get install fonts-wqy-microhei): the screenshots show boxes for Chinese text');
      const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'zooscope-e2e-zh-'));
      const BASE = `/e2e-zh-${Date.now().toString(36)}`;
      const other = await connectOtherClient(ctx.zk);
      try {
        await other.mkdirp(`${BASE}/config`);
        await other.create(`${BASE}/config/app.json`, '{"replicas": 3}');
        const wb = await ctx.open({
          locale: 'zh-cn',
          extraVsixPaths: [packageLanguagePack(tmp)],
          settings: { 'zooscope.connections': [{ id: 'e2e', name: CONNECTION, connectString: ctx.zk }] },
        });
        const language = await wb.page.evaluate(() => (globalThis as { _VSCODE_NLS_LANGUAGE?: string })._VSCODE_NLS_LANGUAGE);
        assert.strictEqual(language, 'zh-cn', 'the workbench did not start in zh-cn (is the language pack registered?)');
        await wb.openZooScope();

        // Views and their actions (package.nls.zh-cn.json), a view's text (bundle.l10n.zh-cn.json).
        const sideBar = wb.page.locator('.part.sidebar');
        await sideBar.locator('.pane-header', { hasText: '持有的锁' }).first().waitFor({ timeout: 20000 });
        await sideBar.getByText('此窗口没有参与任何锁或选举。').first().waitFor({ timeout: 20000 });
        for (const title of ['添加连接…', '转到路径…', '全部刷新']) await viewAction(wb, title).waitFor({ state: 'attached', timeout: 20000 });
        await wb.explorerRow(CONNECTION).locator('.label-description', { hasText: '未连接' }).waitFor({ timeout: 20000 });

        await wb.connectRow(CONNECTION);
        await wb.expandRow(BASE.slice(1));
        await wb.expandRow('config');
        const node = wb.explorerRow('app.json');

        // The context menu's entries (package.nls.zh-cn.json).
        await node.click({ button: 'right' });
        const menu = wb.page.locator('.monaco-menu');
        for (const entry of ['显示详情', '复制路径', '导出子树…']) {
          await menu.locator('.action-label', { hasText: new RegExp(`^${entry}$`) }).first().waitFor({ timeout: 10000 });
        }
        await wb.screenshot('zh-cn-context-menu');
        await wb.page.keyboard.press('Escape');
        await menu.first().waitFor({ state: 'hidden', timeout: 10000 });

        // The tooltip: Chinese headings and kind, the modified time in Chinese format (2026年11月23日 19:43:13).
        await wb.page.mouse.move(900, 500);
        await node.hover();
        const hover = wb.page.locator('.monaco-hover, .workbench-hover').filter({ hasText: 'mtime' }).first();
        await hover.waitFor({ timeout: 15000 });
        const text = await hover.innerText();
        for (const word of ['字段', '值', '持久']) assert.ok(text.includes(word), `tooltip lacks "${word}":\n${text}`);
        const mtime = /mtime\s+(\S.*)/.exec(text)?.[1] ?? '';
        assert.match(mtime, /^\d{4}年\d{1,2}月\d{1,2}日 \d{1,2}:\d{2}:\d{2} \(\d{4}-\d{2}-\d{2}T[\d:.]+Z\)$/, `mtime not in Chinese format: "${mtime}"`);
        assert.doesNotMatch(text, /\d{1,2}\/\d{1,2}\/\d{4}, \d{1,2}:\d{2}:\d{2}\s?[AP]M/, 'a date in US format');
        await wb.screenshot('zh-cn-explorer');
      } finally {
        await other.removeRecursive(BASE).catch(() => undefined);
        other.close();
        fs.rmSync(tmp, { recursive: true, force: true });
      }
    },
  },
];
