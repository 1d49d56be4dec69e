// Holds a session's own requests at the client: from the first request `matches` picks, that one and every later
// one wait until `meanwhile()` has settled, then go out in the order they were asked for, as the server would see
// them had the event happened while they were on the way. Tests use it to put another client's change exactly
// between two of ours.
import type { RawChannel } from '../../../src/zk/protocol/rawChannel';

export interface RequestGate {
  /** The requests as the session saw them: `send <op>`, then `answer <op>` or `error <op>`. */
  wire: string[];
  /** Sends go straight out again. */
  restore(): void;
}

/** `after`: the matched request goes out at once, only the later ones wait (to hold what follows a watch being set). */
export function holdRequestsFrom(channel: RawChannel, matches: (operation: string, path?: string, body?: Buffer) => boolean, meanwhile: () => Promise<unknown>,
  options: { after?: boolean } = {}): RequestGate {
  const wire: string[] = [];
  const send = channel.send.bind(channel);
  let gate: Promise<unknown> | undefined;
  channel.send = (opCode, body, operation, path, sendOptions) => {
    let wait = gate;
    if (!gate && matches(operation, path, body)) {
      gate = meanwhile();
      wait = options.after ? undefined : gate;
    }
    const sent = wait ? wait.then(() => send(opCode, body, operation, path, sendOptions)) : send(opCode, body, operation, path, sendOptions);
    wire.push(`send ${operation}`);
    sent.then(() => wire.push(`answer ${operation}`), () => wire.push(`error ${operation}`));
    return sent;
  };
  return { wire, restore: () => { Reflect.deleteProperty(channel, 'send'); } };
}
