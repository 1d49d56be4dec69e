// The one way to ask through VS Code's quick input. Item labels, descriptions and details render `$(name)` as icons;
// prompts and validation messages render links as well; titles are plain text (seen in the e2e tests). Names, paths
// and ACL ids in them are untrusted, so everything is made literal here; an item's own icon goes in `icon`.
import * as vscode from 'vscode';
import { iconSafe, promptSafe, shown } from './untrustedText';

export interface PickItem extends vscode.QuickPickItem {
  /** A codicon shown before the label (the label itself never renders icons). */
  icon?: string;
}

function safeItem<T extends PickItem>(item: T): vscode.QuickPickItem {
  return {
    ...item,
    label: (item.icon ? `$(${item.icon}) ` : '') + iconSafe(item.label),
    description: item.description === undefined ? undefined : iconSafe(item.description),
    detail: item.detail === undefined ? undefined : iconSafe(item.detail),
  };
}

/** showQuickPick with literal text; resolves to the item given (not a copy). */
export async function pickItem<T extends PickItem>(items: readonly T[], options: vscode.QuickPickOptions = {}): Promise<T | undefined> {
  const shownItems = items.map(safeItem);
  const chosen = await vscode.window.showQuickPick(shownItems, {
    ...options, title: options.title === undefined ? undefined : shown(options.title), canPickMany: false,
  });
  return chosen === undefined ? undefined : items[shownItems.indexOf(chosen)];
}

type ValidationAnswer = string | vscode.InputBoxValidationMessage | undefined | null;

function safeValidation(message: ValidationAnswer): ValidationAnswer {
  if (message === undefined || message === null) return message;
  return typeof message === 'string' ? promptSafe(message) : { ...message, message: promptSafe(message.message) };
}

/** showInputBox with a literal title, prompt and validation message. */
export function input(options: vscode.InputBoxOptions): Thenable<string | undefined> {
  const validate = options.validateInput;
  return vscode.window.showInputBox({
    ...options,
    title: options.title === undefined ? undefined : shown(options.title),
    prompt: options.prompt === undefined ? undefined : promptSafe(options.prompt),
    validateInput: validate && ((value) => {
      const answer = validate(value);
      // Synchronous validators stay synchronous (VS Code shows their message without a round trip).
      return answer instanceof Promise || (answer && typeof (answer as Thenable<unknown>).then === 'function')
        ? Promise.resolve(answer).then(safeValidation) : safeValidation(answer as ValidationAnswer);
    }),
  });
}

/** A row of pickOrType: its `value` is the answer; a row without one (saying why typed text is no answer) is not taken. */
export interface AnswerItem<T> extends PickItem {
  value?: T;
}

/**
 * A quick pick that also takes typed text: `typed` makes the row for what is typed (shown first), every row stays
 * shown whatever is typed; resolves to the chosen row's value, undefined when the user cancels.
 */
export function pickOrType<T>(items: readonly AnswerItem<T>[], options: { title?: string; placeholder?: string },
  typed: (text: string) => AnswerItem<T> | undefined): Promise<T | undefined> {
  const pick = vscode.window.createQuickPick<vscode.QuickPickItem & { answer: AnswerItem<T> }>();
  const rows = (list: readonly AnswerItem<T>[]) => list.map((item) => ({ ...safeItem(item), alwaysShow: true, answer: item }));
  const fixed = rows(items);
  pick.title = options.title === undefined ? undefined : shown(options.title);
  pick.placeholder = options.placeholder;
  pick.items = fixed;
  return new Promise<T | undefined>((resolve) => {
    let done = false;
    const finish = (value: T | undefined) => {
      if (done) return;
      done = true;
      resolve(value);
      pick.dispose();
    };
    pick.onDidChangeValue((value) => {
      const row = typed(value);
      pick.items = row ? [...rows([row]), ...fixed] : fixed;
    });
    pick.onDidAccept(() => {
      const value = pick.activeItems[0]?.answer.value;
      if (value !== undefined) finish(value);
    });
    pick.onDidHide(() => finish(undefined));
    pick.show();
  });
}
