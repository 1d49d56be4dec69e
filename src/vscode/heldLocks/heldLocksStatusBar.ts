// "$(lock) 2 held" in the status bar while the window holds locks or leads elections ("1 unsure", on a warning
// background, while a held lock's session has lost its connection); hidden when it holds none.
import * as vscode from 'vscode';
import { HeldLocks, isHeld, isUnsure } from './heldLocks';
import { shownLines } from '../common/untrustedText';

const t = vscode.l10n.t;

export class HeldLocksStatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('zooscope.heldLocks', vscode.StatusBarAlignment.Left, 49);
  private readonly subscription: vscode.Disposable;

  constructor(private readonly locks: HeldLocks) {
    this.item.name = t('ZooScope Held Locks');
    this.item.command = 'zooscope.heldLocks.focus';
    this.subscription = locks.onDidChange(() => this.update());
    this.update();
  }

  /** What the item shows ('' while hidden), for tests. */
  get text(): string {
    return this.visible ? this.item.text : '';
  }

  /** Its tooltip ('' while hidden), for tests. */
  get tooltip(): string {
    return this.visible && typeof this.item.tooltip === 'string' ? this.item.tooltip : '';
  }

  /** What a screen reader says for the item ('' while hidden), for tests. */
  get accessibleLabel(): string {
    return this.visible ? this.item.accessibilityInformation?.label ?? '' : '';
  }

  private visible = false;

  private update(): void {
    const entries = this.locks.list();
    const held = entries.filter((e) => isHeld(e.snapshot)).map((e) => e.snapshot.path);
    const unsure = entries.filter((e) => isUnsure(e.snapshot)).map((e) => e.snapshot.path);
    if (held.length === 0 && unsure.length === 0) {
      this.visible = false;
      this.item.hide();
      return;
    }
    const waiting = this.locks.waitingCount;
    const parts = [
      held.length ? t('{0} held', held.length) : '',
      unsure.length ? t('{0} unsure', unsure.length) : '',
      waiting ? t('{0} waiting', waiting) : '',
    ].filter(Boolean);
    this.item.text = `$(lock) ${parts.join(' · ')}`;
    const tooltip = held.length ? [t('Locks and elections this window holds:'), ...held] : [];
    // A lock whose session lost its connection may be gone by now: the user must not act on it until it is back.
    if (unsure.length) tooltip.push(t('Connection lost, maybe no longer held (do not act on them until they are back):'), ...unsure);
    this.item.tooltip = shownLines(tooltip);
    this.item.backgroundColor = unsure.length ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
    const heldWords = held.length === 1 ? t('1 lock held by this window') : t('{0} locks held by this window', held.length);
    this.item.accessibilityInformation = { label: unsure.length ? `${heldWords}, ${t('{0} unsure', unsure.length)}` : heldWords };
    this.visible = true;
    this.item.show();
  }

  dispose(): void {
    this.subscription.dispose();
    this.item.dispose();
  }
}
