// zkCli 3.8's command language over a ZkSession (no vscode import): the CLI's `zooscope shell` and, later, a VS Code
// pseudoterminal run the same ZkShell and only decide how its output reaches a screen (terminalText).
export { ZkShell } from './executor';
export type { ShellOptions, ShellSink } from './executor';
export { tokenizeLine } from './tokenize';
export { parseOptions, OptionParseError } from './zkCliOptions';
export { allCommandNames, cliCommand, commandListUsage } from './commands';
export { terminalText } from './terminalText';
export { javaDateString, statLines } from './javaFormat';
