// Shared by the in-host suites: the activated extension's services and a test ZooKeeper client.
import * as assert from 'node:assert';
import * as vscode from 'vscode';
import type { TestApi } from '../../../src/vscode/testApi';
import type { TreeNode, ZnodeNode } from '../../../src/zk/tree/treeNodes';
import type { OtherClient } from '../../support/clients/zkClient';

export async function services(): Promise<TestApi> {
  const ext = vscode.extensions.getExtension<TestApi | undefined>('zooscope.zooscope');
  assert.ok(ext, 'extension not loaded');
  const api = await ext.activate();
  assert.ok(api, 'the extension exports its test API only in test mode');
  return api;
}

/** The explorer's element for an existing znode of a connection. */
export async function znodeAt(s: TestApi, connectionId: string, path: string): Promise<ZnodeNode> {
  const found = await s.tree.treeFor(connectionId)?.resolve(path);
  assert.ok(found?.kind === 'znode', `${path} not in the tree`);
  return found;
}

/** Whether a znode exists, asked through a test client of its own. */
export function existsVia(other: OtherClient, path: string): Promise<boolean> {
  return new Promise((resolve, reject) => other.client.exists(path, (e, stat) => (e ? reject(e) : resolve(!!stat))));
}

export function testZk(): string {
  const connectString = process.env.ZOOSCOPE_TEST_ZK;
  assert.ok(connectString, 'ZOOSCOPE_TEST_ZK is not set: run through scripts/host/run-ui-tests.sh');
  return connectString;
}

export function label(s: TestApi, node: TreeNode): string {
  const item = s.tree.getTreeItem(node);
  return typeof item.label === 'string' ? item.label : item.label?.label ?? '';
}

/** Resolves with the next tree change event whose element satisfies `match`. */
export function nextChange(s: TestApi, match: (node: TreeNode | undefined) => boolean, timeoutMs = 5000): Promise<number> {
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

/** Where the messages shown so far end. Their list keeps only the latest 30, so count by `seq`, never by length. */
export const messageMark = (s: TestApi): number => s.shownMessages.at(-1)?.seq ?? 0;

/** The messages shown after `mark` (still kept). */
export const shownSince = (s: TestApi, mark: number) => s.shownMessages.filter((m) => m.seq > mark);
