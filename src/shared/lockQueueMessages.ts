// Every message between the lock-queue panel's host (src/vscode/lockQueue) and its webview front-end
// (src/webview/lockQueue), both ways, as discriminated unions on `type`. Imported by both sides; no vscode, no DOM.
import type { LockAnalysis } from './lockAnalysis';
import type { LockFigures, TimelineData } from './lockHistory';
import type { AnalysisDelta } from './lockQueueDelta';

export const LOCK_QUEUE_VIEW_TYPE = 'zooscope.lockQueue';

declare const jsonOf: unique symbol;
/**
 * JSON text of a `T`. Large models cross as text: a string crosses into the webview as one copy, and JSON.parse of
 * a 10,000-participant model takes about a third of the time a structured clone of the same objects does. The
 * type says what the text holds, so neither side casts: made by toJsonText, read back by parseJsonText.
 */
export type JsonText<T> = string & { readonly [jsonOf]: T };

export const toJsonText = <T>(value: T): JsonText<T> => JSON.stringify(value) as JsonText<T>;

export const parseJsonText = <T>(text: JsonText<T>): T => JSON.parse(text) as T;

/** What the panel keeps across a window reload (webview state and serializer): enough to open it again. */
export interface LockQueuePanelState {
  connectionId: string;
  /** The analysed path: one queue ("Show Lock Queue") or a subtree ("Show Locks Under…"). */
  root: string;
  mode: 'queue' | 'subtree';
}

/** Every text the webview shows, localized by the host (vscode.l10n) and sent once in `init`. */
export const STRING_KEYS = [
  'title', 'subtreeTitle', 'loading', 'live', 'disconnected', 'noQueues', 'emptyQueue',
  'holder', 'waiter', 'leader', 'heldFor', 'waitingFor', 'leadingFor', 'heldAtLeast', 'leadingAtLeast', 'session', 'client', 'persistentNode',
  'watches', 'waitsFor', 'ownNode', 'ownNodeWatch', 'seenOnServer', 'inferred', 'ours', 'position', 'holders', 'waiters', 'leases',
  'reveal', 'acquire', 'release', 'forceRelease', 'refresh', 'deadlock', 'deadlockStep', 'queueList',
  'kind.exclusive', 'kind.read', 'kind.write', 'kind.lease', 'kind.candidate',
  'unit.d', 'unit.h', 'unit.m', 'unit.s', 'serverWatches', 'serverWatchesNone', 'updated', 'anomalies',
  'via.admin', 'via.admin.secure', 'via.fourLetterWords', 'via.fourLetterWords.secure', 'truncated',
  // The lock history: timeline and contention figures.
  'timeline', 'timelineHelp', 'zoomIn', 'zoomOut', 'followNow', 'perSession', 'noHistory', 'replayTitle', 'unit.ms',
  'tl.hold', 'tl.wait', 'tl.span', 'tl.open', 'tl.exact', 'tl.startBound', 'tl.endBound', 'tl.ended', 'tl.gap', 'tl.unseen',
  'end.acquired', 'end.released', 'end.sessionEnded', 'end.gaveUp', 'end.unknown',
  'fig.title', 'fig.whole', 'fig.window', 'fig.who', 'fig.acquisitions', 'fig.hold', 'fig.wait', 'fig.spread', 'fig.longestQueue',
  'fig.perSecond', 'fig.heldLongest', 'fig.exact', 'fig.bound', 'fig.approximate', 'fig.gaveUp', 'fig.none',
] as const;
export type StringKey = typeof STRING_KEYS[number];
export type WebviewStrings = Record<StringKey, string>;

/** An anomaly explained in words (the host localizes; the model only carries facts). */
export interface AnomalyText {
  title: string;
  explanation: string;
}

/** Actions the host can carry out right now; the webview hides the others. */
export interface PanelCapabilities {
  /** `zooscope.acquireLock` is registered and the connection is writable. */
  canAcquire: boolean;
  /** `zooscope.releaseLock` is registered. */
  canRelease: boolean;
  /** Force-release (delete a holder's node): the connection is writable. */
  canForceRelease: boolean;
}

export type PanelStatus = 'loading' | 'live' | 'disconnected' | 'error';

// ---- host → webview ----

export type HostMessage =
  | {
    type: 'init';
    state: LockQueuePanelState;
    connectionName: string;
    strings: WebviewStrings;
    capabilities: PanelCapabilities;
    /** A recorded history opened from a file: no connection, no queue list, only its timeline and figures. */
    replay?: { file: string };
  }
  /** The whole model: on a new `ready`, on `resync`, and when a delta would not be smaller. */
  | {
    type: 'model';
    /** Increases with every model or delta the host sends; echoed by `rendered`. */
    seq: number;
    /** The analysis as JSON text (see JsonText). */
    analysisJson: JsonText<LockAnalysis>;
    /** Explanations by `anomalyKey(anomaly)`. */
    anomalyTexts: Record<string, AnomalyText>;
  }
  /** What changed since the message `baseSeq` (src/shared/lockQueueDelta.ts); a webview at another seq asks `resync`. */
  | {
    type: 'delta';
    seq: number;
    baseSeq: number;
    delta: AnalysisDelta;
    /** Explanations that are new or changed, and the keys of those gone. */
    anomalyTexts?: { set?: Record<string, AnomalyText>; remove?: string[] };
  }
  | { type: 'status'; status: PanelStatus; message?: string }
  | { type: 'capabilities'; capabilities: PanelCapabilities }
  /** Answer to an action request. */
  | { type: 'reply'; requestId: number; ok: boolean; message?: string }
  /** Moves the keyboard focus to a participant's row (and scrolls to it). */
  | { type: 'focusPath'; path: string }
  /**
   * The lock history so far (as JSON text: 100,000 intervals are a few flat arrays). `live`: still recording (the
   * view may follow now); `now`: the host's clock when it was taken.
   */
  | { type: 'timeline'; seq: number; timelineJson: JsonText<TimelineData>; live: boolean; now: number; anomalies?: AnomalyMark[] }
  /** Contention figures over the whole history or `window`. */
  | {
    type: 'figures'; figuresJson: JsonText<LockFigures[]>; window?: HistoryWindow;
    /** Per participant (`lock` NUL `who`, as ParticipantFigures.who): true when its figures are bounds, not exact. */
    participantBounds?: Record<string, boolean>;
  };

/** An anomaly as it first appeared while the panel watched (ms since the epoch), on a lock or the whole analysis. */
export interface AnomalyMark {
  at: number;
  lock?: string;
  severity: 'info' | 'warning' | 'error';
  /** Localized by the host; may hold names from ZooKeeper (shown through visibleText). */
  title: string;
}

/** A stretch of the history, ms since the epoch. */
export interface HistoryWindow {
  from: number;
  to: number;
}

// ---- webview → host ----

export type ActionRequest =
  | { type: 'reveal'; path: string }
  | { type: 'acquire'; queuePath: string }
  | { type: 'release'; path: string }
  | { type: 'forceRelease'; path: string }
  | { type: 'refresh' };

export type WebviewMessage =
  | { type: 'ready' }
  /** A delta did not follow the model it holds (`seq`: the last it applied): the host sends the whole model. */
  | { type: 'resync'; seq: number }
  /**
   * A model or delta was rendered (`seq` of its message; `ms` from receipt to painted DOM): how many rows, how many
   * of them are in the DOM, and `shown`, the text of those, top to bottom (the list is virtualized: a screenful).
   */
  | { type: 'rendered'; seq: number; rows: number; domRows: number; ms: number; shown: string[] }
  | ({ requestId: number } & ActionRequest)
  /** Something failed inside the webview: the host logs it. */
  | { type: 'error'; message: string }
  /** The figures wanted: over the timeline's visible `window`, or (without) the whole history. */
  | { type: 'figuresWindow'; window?: HistoryWindow };
