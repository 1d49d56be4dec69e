// Context-menu entries inside a submenu (the explorer's "Locks" submenu): open the menu, focus the submenu's entry,
// open it with the keyboard and activate the wanted entry by hover + Enter (a click racing a menu's opening is lost).
import type { Locator } from 'playwright-core';
import { escapeRegExp, Workbench } from './workbench';

export async function contextSubmenu(wb: Workbench, row: Locator, submenu: string, entry: string, screenshot?: string): Promise<void> {
  await row.click({ button: 'right' });
  const parent = wb.page.locator('.monaco-menu .action-label', { hasText: new RegExp(`^${escapeRegExp(submenu)}$`) }).first();
  await parent.waitFor({ timeout: 10000 });
  await parent.hover();
  await wb.page.keyboard.press('ArrowRight');
  const item = wb.page.locator('.monaco-menu .action-label', { hasText: new RegExp(`^${escapeRegExp(entry)}$`) }).first();
  await item.waitFor({ timeout: 10000 });
  if (screenshot) await wb.screenshot(screenshot);
  await item.hover();
  await wb.page.keyboard.press('Enter');
}
