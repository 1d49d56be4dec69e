import * as vscode from 'vscode';

let channel: vscode.LogOutputChannel | undefined;

/** The one ZooScope log (Output ▸ ZooScope). Never log secrets: only names, paths and session ids. */
export function log(): vscode.LogOutputChannel {
  channel ??= vscode.window.createOutputChannel('ZooScope', { log: true });
  return channel;
}
