// What the lock-queue webview sends is checked field by field before the host acts on it: the webview renders
// untrusted names and data, and its messages are the one way into the host's writes (force-release, acquire). A
// message that fails is ignored (the channel logs why); one that passes is rebuilt from its known fields only.
import type { ActionRequest, HistoryWindow, WebviewMessage } from '../../shared/lockQueueMessages';
import { checkPath } from '../../zk/paths';

/** Longest path accepted: far beyond any lock's, short enough to log and compare cheaply. */
export const MAX_PATH_LENGTH = 4096;
/** The `rendered` report's rows (a screenful of a virtualized list) and their texts. */
export const MAX_SHOWN_ROWS = 1000;
export const MAX_TEXT_LENGTH = 10000;

export type Checked<T> = { ok: true; value: T } | { ok: false; problem: string };

type Fields = Record<string, unknown>;

class Problem extends Error {}

function count(fields: Fields, name: string): number {
  const value = fields[name];
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) throw new Problem(`${name} is not a count`);
  return value;
}

function duration(fields: Fields, name: string): number {
  const value = fields[name];
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) throw new Problem(`${name} is not a duration`);
  return value;
}

function text(fields: Fields, name: string): string {
  const value = fields[name];
  if (typeof value !== 'string') throw new Problem(`${name} is not a text`);
  if (value.length > MAX_TEXT_LENGTH) throw new Problem(`${name} is longer than ${MAX_TEXT_LENGTH} characters`);
  return value;
}

function texts(fields: Fields, name: string): string[] {
  const value = fields[name];
  if (!Array.isArray(value) || value.length > MAX_SHOWN_ROWS) throw new Problem(`${name} is not a list of at most ${MAX_SHOWN_ROWS} texts`);
  return value.map((_, i) => text(value as unknown as Fields, String(i)));
}

function znodePath(fields: Fields, name: string): string {
  const value = fields[name];
  if (typeof value !== 'string' || value.length > MAX_PATH_LENGTH) throw new Problem(`${name} is not a path of at most ${MAX_PATH_LENGTH} characters`);
  const problem = checkPath(value);
  if (problem) throw new Problem(`${name} is not a valid ZooKeeper path (${problem.code})`);
  return value;
}

/** A time as ms since the epoch: a whole number between 1970 and the year 275760 (what a Date can hold). */
function epochMs(fields: Fields, name: string): number {
  const value = fields[name];
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0 || value > 8.64e15) throw new Problem(`${name} is not a time`);
  return value;
}

/** Absent (the whole history) or a window with its start not after its end. */
function historyWindow(fields: Fields, name: string): HistoryWindow | undefined {
  const value = fields[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Problem(`${name} is not a window`);
  const window = { from: epochMs(value as Fields, 'from'), to: epochMs(value as Fields, 'to') };
  if (window.from > window.to) throw new Problem(`${name} ends before it starts`);
  return window;
}

function actionRequest(fields: Fields, type: string): ActionRequest {
  switch (type) {
    case 'reveal': return { type, path: znodePath(fields, 'path') };
    case 'acquire': return { type, queuePath: znodePath(fields, 'queuePath') };
    case 'release': return { type, path: znodePath(fields, 'path') };
    case 'forceRelease': return { type, path: znodePath(fields, 'path') };
    case 'refresh': return { type };
    default: throw new Problem(`unknown type "${type.slice(0, 40)}"`);
  }
}

function typeOf(value: unknown): { fields: Fields; type: string } {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Problem('not an object');
  const fields = value as Fields;
  if (typeof fields.type !== 'string') throw new Problem('no type');
  return { fields, type: fields.type };
}

function check<T>(read: () => T): Checked<T> {
  try {
    return { ok: true, value: read() };
  } catch (error) {
    if (error instanceof Problem) return { ok: false, problem: error.message };
    throw error;
  }
}

/** An action the panel is asked for (by its webview, or a test as the webview would), checked. */
export function checkActionRequest(value: unknown): Checked<ActionRequest> {
  return check(() => {
    const { fields, type } = typeOf(value);
    return actionRequest(fields, type);
  });
}

/** A message from the webview, checked. */
export function checkWebviewMessage(value: unknown): Checked<WebviewMessage> {
  return check((): WebviewMessage => {
    const { fields, type } = typeOf(value);
    switch (type) {
      case 'ready': return { type };
      case 'resync': return { type, seq: count(fields, 'seq') };
      case 'rendered':
        return { type, seq: count(fields, 'seq'), rows: count(fields, 'rows'), domRows: count(fields, 'domRows'), ms: duration(fields, 'ms'), shown: texts(fields, 'shown') };
      // Kept even when long (a stack trace): only logged, and cut to a length the log takes.
      case 'error': return { type, message: String(fields.message).slice(0, MAX_TEXT_LENGTH) };
      case 'figuresWindow': {
        const window = historyWindow(fields, 'window');
        return window ? { type, window } : { type };
      }
      default: return { requestId: count(fields, 'requestId'), ...actionRequest(fields, type) };
    }
  });
}
