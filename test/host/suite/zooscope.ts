// Shared by the in-host suites: the activated extension's services and a test ZooKeeper client.
import * as assert from 'node:assert';
import * as vscode from 'vscode';
import type { Services } from '../../../src/vscode/services';
import type { TreeNode } from '../../../src/vscode/tree/treeNodes';

export async function services(): Promise<Services> {
  const ext = vscode.extensions.getExtension<Services>('zooscope.zooscope');
  assert.ok(ext, 'extension not loaded');
  return ext.activate();
}

export function testZk(): string {
  const connectString = process.env.ZOOSCOPE_TEST_ZK;
  assert.ok(connectString, 'ZOOSCOPE_TEST_ZK is not set: run through scripts/host/run-ui-tests.sh');
  return connectString;
}

export function label(s: Services, node: TreeNode): string {
  const item = s.tree.getTreeItem(node);
  return typeof item.label === 'string' ? item.label : item.label?.label ?? '';
}

/** Resolves with the next tree change event whose element satisfies `match`. */
export function nextChange(s: Services, match: (node: TreeNode | undefined) => boolean, timeoutMs = 5000): Promise<number> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => { sub.dispose(); reject(new Error('no tree change event')); }, timeoutMs);
    const sub = s.tree.onDidChangeTreeData((node) => {
      if (!match(node ?? undefined)) return;
      clearTimeout(timer);
      sub.dispose();
      resolve(Date.now() - started);
    });
  });
}
