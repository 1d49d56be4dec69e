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
