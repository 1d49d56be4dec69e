// The typed command ids are the manifest's: a command contributed but never named in code (or named but not
// contributed) fails here instead of in a user's hands.
import * as assert from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { Command } from '../../src/vscode/core/commandIds';

const manifest = JSON.parse(fs.readFileSync(path.join(__dirname, '../../../package.json'), 'utf8')) as {
  contributes: { commands: { command: string }[] };
};

test('every contributed command has a typed id, and every typed id is contributed', () => {
  const contributed = manifest.contributes.commands.map((c) => c.command).sort();
  assert.deepStrictEqual(Object.values(Command).sort(), contributed);
});
