// "$(lock) 2 held" in the status bar while the window holds locks or leads elections; hidden when it holds none.
import * as vscode from 'vscode';
import { HeldLocks, isHeld } from './heldLocks';

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

  private visible = false;

  private update(): void {
    const held = this.locks.heldCount;
    if (held === 0) {
      this.visible = false;
      this.item.hide();
      return;
    }
    const waiting = this.locks.waitingCount;
    this.item.text = waiting ? `$(lock) ${t('{0} held', held)} · ${t('{0} waiting', waiting)}` : `$(lock) ${t('{0} held', held)}`;
    const paths = this.locks.list().filter((e) => isHeld(e.snapshot)).map((e) => e.snapshot.path);
    this.item.tooltip = `${t('Locks and elections this window holds:')}\n${paths.join('\n')}`;
    this.item.accessibilityInformation = { label: t('{0} locks held by this window', held) };
    this.visible = true;
    this.item.show();
  }

  dispose(): void {
    this.subscription.dispose();
    this.item.dispose();
  }
}
