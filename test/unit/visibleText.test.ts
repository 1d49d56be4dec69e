// Hidden characters are written out, links and icons made inert per surface, Markdown escaped, and document URIs
// carry visible names that map back to the exact znode path.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { hasHiddenCharacters, shortened, visibleText } from '../../src/shared/visibleText';
import { iconSafe, linkSafe, markdownSafe, promptSafe, withIcons } from '../../src/vscode/common/untrustedText';
import { parseLocation, uriPathFor, visiblePath, znodePathOf } from '../../src/vscode/common/znodeUriPath';
import { ANSI_TEXT, HOSTILE_NAMES, LONG_NAME, RAW_HIDDEN, UNESCAPED_ICON, VSCODE_LINK } from '../support/fixtures/hostileFixture';

test('bidi, zero-width, format and control characters are written out as [U+XXXX]', () => {
  assert.equal(visibleText(HOSTILE_NAMES.rtlOverride), 'invoice-[U+202E]gnp.exe');
  assert.equal(visibleText(HOSTILE_NAMES.zeroWidth), 'adm[U+200B]in[U+200D][U+FEFF]');
  assert.equal(visibleText(HOSTILE_NAMES.isolates), 'a[U+2066]b[U+2067]c[U+2068]d[U+2069]e[U+202A]f[U+202B]g[U+202C]h[U+202D]i');
  assert.equal(visibleText(ANSI_TEXT), 'red[U+001B][31mALERT[U+001B][0m');
  assert.equal(visibleText('tab\there\nnbsp\u00a0tag\u{E0041}pua\uE000'), 'tab[U+0009]here[U+000A]nbsp[U+00A0]tag[U+E0041]pua[U+E000]');
  for (const name of Object.values(HOSTILE_NAMES)) assert.doesNotMatch(visibleText(name), RAW_HIDDEN);
});

test('ordinary text, Chinese and accents pass unchanged', () => {
  for (const text of ['lock-0000000001', '配置 节点', 'café', 'Ωmega', 'a b']) {
    assert.equal(visibleText(text), text);
    assert.equal(hasHiddenCharacters(text), false);
  }
  assert.equal(hasHiddenCharacters(HOSTILE_NAMES.rtlOverride), true);
  assert.equal(hasHiddenCharacters(HOSTILE_NAMES.rtlOverride), true, 'no regex state left behind');
});

test('notification text: VS Code finds no link in it, and it still reads the same', () => {
  for (const name of [HOSTILE_NAMES.commandLink, HOSTILE_NAMES.fileLink, `Deleted /a/${HOSTILE_NAMES.commandLink} and everything below it`]) {
    assert.match(name, VSCODE_LINK, 'the fixture is a link to begin with');
    const safe = linkSafe(name);
    assert.doesNotMatch(safe, VSCODE_LINK);
    assert.equal(safe.replace(/\u2060/g, ''), name, 'only an invisible word joiner was added');
    assert.doesNotMatch(safe, RAW_HIDDEN);
  }
});

test('icon surfaces: $(name) from ZooKeeper is escaped, our own icons in a template stay', () => {
  assert.match(HOSTILE_NAMES.icons, UNESCAPED_ICON);
  assert.doesNotMatch(iconSafe(HOSTILE_NAMES.icons), UNESCAPED_ICON);
  assert.equal(iconSafe('\\$(x)'), '\\\\$(x)', 'a backslash of the name stays visible');
  const label = withIcons`$(lock) ${HOSTILE_NAMES.icons}`;
  assert.ok(label.startsWith('$(lock) '));
  assert.doesNotMatch(label.slice('$(lock) '.length), UNESCAPED_ICON);
  const prompt = promptSafe(`Name ${HOSTILE_NAMES.commandLink} ${HOSTILE_NAMES.icons}`);
  assert.doesNotMatch(prompt, VSCODE_LINK);
  assert.doesNotMatch(prompt, UNESCAPED_ICON);
});

test('Markdown: markup, links, autolinks and icons from ZooKeeper are escaped; hidden characters visible', () => {
  const md = markdownSafe(`${HOSTILE_NAMES.markup} ${HOSTILE_NAMES.commandLink} https://example.invalid ${HOSTILE_NAMES.rtlOverride}`);
  assert.doesNotMatch(md, /(?<!\\)[<>[\]()]/, 'every bracket escaped');
  assert.doesNotMatch(md, /(?<!\\):\/\//, 'no autolink');
  assert.match(md, /\\\[U\\\+202E\\\]/);
});

test('shortened keeps both ends', () => {
  const short = shortened(LONG_NAME, 41);
  assert.equal([...short].length, 41);
  assert.ok(short.startsWith('long-') && short.endsWith('-end') && short.includes('…'));
  assert.equal(shortened('abc', 10), 'abc');
});

test('document URIs hold visible names and map back to the exact path, also for a literal "[U+"', () => {
  for (const name of [...Object.values(HOSTILE_NAMES), LONG_NAME, 'literal[U+202E]', '[U+', 'x[U+005B]U+y']) {
    const path = `/app/${name}`;
    assert.doesNotMatch(visiblePath(path), RAW_HIDDEN);
    assert.equal(znodePathOf(visiblePath(path)), path);
    const location = parseLocation(uriPathFor('conn/1', path), '');
    assert.deepEqual(location, { connectionId: 'conn/1', path, view: 'text' });
  }
  assert.notEqual(visiblePath('/a\u202Eb'), visiblePath('/a[U+202E]b'), 'a real U+202E and the text "[U+202E]" stay apart');
});
