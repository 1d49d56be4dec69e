// What the shell's output may carry to a terminal: zkCli writes names and data raw, so a node holding an escape
// sequence or a bidi override could rewrite the screen. Everything visibleText marks is written out as [U+XXXX]
// except line feeds and tabs, which zkCli's own lines use and which cannot move the cursor backwards.
import { visibleText } from '../../shared/visibleText';

export function terminalText(text: string): string {
  return text.split('\n').map((line) => line.split('\t').map(visibleText).join('\t')).join('\n');
}
