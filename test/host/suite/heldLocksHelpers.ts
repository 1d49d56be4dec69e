// For the held-locks suite: what the extension shows through vscode.window (messages, the waiting notification,
// quick picks, input boxes), captured by replacing the API for one step, and settings writes retried while the previous one is pending.
import * as vscode from 'vscode';

type WindowApi = 'showInformationMessage' | 'showWarningMessage' | 'showErrorMessage' | 'withProgress' | 'showQuickPick' | 'showInputBox';

export interface Capture {
  /** Message texts (show*Message). */
  messages: string[];
  /** Notification progress: titles, every reported message, whether the task finished, and its cancel. */
  titles: string[];
  reports: string[];
  done: boolean;
  cancel(): void;
  /** Quick picks: the items' labels and the placeholder, per call. */
  labels: string[][];
  placeHolders: string[];
  /** Input boxes: their validateInput functions, per call. */
  validators: ((value: string) => unknown)[];
  restore(): void;
}

/** Replaces `vscode.window[api]` until `restore()`; `answer` decides what a quick pick or input box returns. */
export function captureWindow(api: WindowApi, answer: (items: unknown[]) => unknown = () => undefined): Capture {
  const win = vscode.window as unknown as Record<string, unknown>;
  const original = win[api] as (...args: unknown[]) => unknown;
  const cancellation = new vscode.CancellationTokenSource();
  const capture: Capture = {
    messages: [], titles: [], reports: [], done: false, labels: [], placeHolders: [], validators: [],
    cancel: () => cancellation.cancel(),
    restore: () => { win[api] = original; },
  };
  win[api] = (...args: unknown[]): unknown => {
    switch (api) {
      case 'withProgress': {
        const [options, task] = args as [vscode.ProgressOptions, (p: vscode.Progress<{ message?: string }>, t: vscode.CancellationToken) => Thenable<unknown>];
        if (options.location !== vscode.ProgressLocation.Notification) return original.apply(vscode.window, args);
        capture.titles.push(options.title ?? '');
        const running = Promise.resolve(task({ report: (v) => { if (v.message) capture.reports.push(v.message); } }, cancellation.token));
        void running.then(() => { capture.done = true; });
        return running;
      }
      case 'showQuickPick': {
        const [items, options] = args as [{ label: string }[], vscode.QuickPickOptions | undefined];
        capture.labels.push(items.map((i) => i.label));
        capture.placeHolders.push(options?.placeHolder ?? '');
        return Promise.resolve(answer(items));
      }
      case 'showInputBox': {
        const [options] = args as [vscode.InputBoxOptions];
        if (options.validateInput) capture.validators.push(options.validateInput as (v: string) => unknown);
        return Promise.resolve(answer([]));
      }
      default:
        capture.messages.push(String(args[0]));
        return Promise.resolve(undefined);
    }
  };
  return capture;
}

/**
 * Runs a command that writes the user settings (add/remove connection), again when the workbench refuses because
 * its settings model is still dirty from the previous write (seen under heavy load in code-server).
 */
export async function writingSettings<T>(run: () => Thenable<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run();
    } catch (error) {
      if (attempt >= 5 || !/unsaved changes/.test(String(error))) throw error;
      await new Promise((r) => setTimeout(r, 200 * attempt));
    }
  }
}
