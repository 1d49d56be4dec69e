// What a registered command is handed of the arguments it was run with (see core/commands.ts): its target and the
// selection, nothing else. Without VS Code, so unit tests check it.

/** The target and the selection of what a command was run with; the selection only as a plain copy of an array. */
export function vscodeArguments(args: readonly unknown[]): [unknown, readonly unknown[] | undefined] {
  const selection = Array.isArray(args[1]) ? [...(args[1] as unknown[])] : undefined;
  return [args[0], selection];
}

/** How many of `args` a registered command does not get (to say so in the log). */
export function droppedArguments(args: readonly unknown[]): number {
  return Math.max(0, args.length - 2) + (args.length > 1 && args[1] !== undefined && !Array.isArray(args[1]) ? 1 : 0);
}
