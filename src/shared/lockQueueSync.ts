// Keeps the lock-queue webview's model in step with the host's: the host side remembers what it last sent and
// sends what changed (or the whole model), the webview side applies it and notices a gap in the sequence.
// No vscode, no DOM: the panel, the front-end, the tests and the benchmark all go through these two classes.
import type { LockAnalysis } from './lockAnalysis';
import { applyAnalysisDelta, diffAnalysis } from './lockQueueDelta';
import { AnomalyText, HostMessage, parseJsonText, toJsonText } from './lockQueueMessages';

export type ModelMessage = Extract<HostMessage, { type: 'model' }>;
export type DeltaMessage = Extract<HostMessage, { type: 'delta' }>;
type Texts = Record<string, AnomalyText>;

function diffTexts(prev: Texts, next: Texts): DeltaMessage['anomalyTexts'] {
  const set: Texts = {};
  const remove = Object.keys(prev).filter((key) => !(key in next));
  for (const [key, text] of Object.entries(next)) {
    const before = prev[key];
    if (!before || before.title !== text.title || before.explanation !== text.explanation) set[key] = text;
  }
  const changed = Object.keys(set).length > 0;
  return changed || remove.length ? { ...(changed ? { set } : {}), ...(remove.length ? { remove } : {}) } : undefined;
}

/** The host's side, one per webview. Analyses handed to it must not change afterwards (it keeps the last one). */
export class ModelSender {
  private seq = 0;
  private sent: { seq: number; analysis: LockAnalysis; texts: Texts } | undefined;

  /** The webview holds no model of ours any more (new `ready`, `resync`, or a message that may be lost). */
  forget(): void {
    this.sent = undefined;
  }

  /** The message that brings the webview to `analysis`: a delta if it holds our last one and that is smaller. */
  next(analysis: LockAnalysis, texts: Texts): ModelMessage | DeltaMessage {
    const seq = ++this.seq;
    const base = this.sent;
    this.sent = { seq, analysis, texts };
    const delta = base && diffAnalysis(base.analysis, analysis);
    if (base && delta) {
      const textChanges = diffTexts(base.texts, texts);
      return { type: 'delta', seq, baseSeq: base.seq, delta, ...(textChanges ? { anomalyTexts: textChanges } : {}) };
    }
    return { type: 'model', seq, analysisJson: toJsonText(analysis), anomalyTexts: texts };
  }
}

export type Received =
  | { applied: true; analysis: LockAnalysis; textsChanged: boolean }
  /** A delta that does not follow what we hold: ask for the whole model (`resync`), once per gap. */
  | { applied: false; askResync: boolean };

/** The webview's side: the model it shows, its anomaly texts, and the seq of the last message applied. */
export class ModelReceiver {
  analysis: LockAnalysis | undefined;
  anomalyTexts: Texts = {};
  seq = 0;
  private resyncAsked = false;

  receive(message: ModelMessage | DeltaMessage): Received {
    if (message.type === 'model') {
      const textsChanged = JSON.stringify(this.anomalyTexts) !== JSON.stringify(message.anomalyTexts);
      this.analysis = parseJsonText(message.analysisJson);
      this.anomalyTexts = message.anomalyTexts;
      this.seq = message.seq;
      this.resyncAsked = false;
      return { applied: true, analysis: this.analysis, textsChanged };
    }
    if (!this.analysis || message.baseSeq !== this.seq) {
      const askResync = !this.resyncAsked;
      this.resyncAsked = true;
      return { applied: false, askResync };
    }
    this.analysis = applyAnalysisDelta(this.analysis, message.delta);
    this.seq = message.seq;
    const texts = message.anomalyTexts;
    if (texts) {
      const next = { ...this.anomalyTexts, ...texts.set };
      for (const key of texts.remove ?? []) delete next[key];
      this.anomalyTexts = next;
    }
    return { applied: true, analysis: this.analysis, textsChanged: texts !== undefined };
  }
}
