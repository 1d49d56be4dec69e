// The lock-queue webview: renders the models the host sends (whole, or what changed since the last one), asks the
// host to act, and saves its state so the panel comes back after a window reload. No framework: a header and a
// virtualized list (listView.ts), then the lock history: a timeline (timelineView.ts) and contention figures
// (figuresView.ts). A replay (a recording opened from a file) shows only the history.
import {
  parseJsonText,
  type ActionRequest, type HostMessage, type LockQueuePanelState, type PanelCapabilities, type PanelStatus, type StringKey, type WebviewMessage,
  type WebviewStrings,
} from '../../shared/lockQueueMessages';
import type { LockAnalysis } from '../../shared/lockAnalysis';
import { DeltaMessage, ModelMessage, ModelReceiver } from '../../shared/lockQueueSync';
import { fmt } from './format';
import { ActionEvent, LockListView } from './listView';
import { RowModel } from './rowModel';
import { el, icon } from './rowView';
import { visibleText } from '../../shared/visibleText';
import { TimelineView } from './timelineView';
import { FiguresView } from './figuresView';

interface VsCodeApi {
  postMessage(message: WebviewMessage): void;
  setState(state: LockQueuePanelState): void;
  getState(): LockQueuePanelState | undefined;
}
declare function acquireVsCodeApi(): VsCodeApi;

const vscode = acquireVsCodeApi();
let strings: WebviewStrings | undefined;
let capabilities: PanelCapabilities = { canAcquire: false, canRelease: false, canForceRelease: false };
const model = new ModelReceiver();
let rows: RowModel | undefined;
let state: LockQueuePanelState | undefined = vscode.getState();
let connectionName = '';
let status: { status: PanelStatus; message?: string } = { status: 'loading' };
let nextRequestId = 1;
let replay: { file: string } | undefined;
let timeline: TimelineView | undefined;
let figures: FiguresView | undefined;
let windowTimer: ReturnType<typeof setTimeout> | undefined;

const header = el('header', 'header');
const title = el('h1', 'title');
const statusLine = el('div', 'status');
statusLine.setAttribute('role', 'status');
statusLine.setAttribute('aria-live', 'polite');
const servers = el('div', 'servers');
const refresh = el('button', 'action action-refresh');
refresh.type = 'button';
refresh.append(icon('refresh'));
refresh.addEventListener('click', () => send({ type: 'refresh' }));
const titleRow = el('div', 'title-row');
titleRow.append(title, el('span', 'fill'), refresh);
header.append(titleRow, statusLine, servers);
const scroller = el('div', 'scroller');
scroller.setAttribute('role', 'list');
const historyPane = el('div', 'history');
document.body.append(header, scroller, historyPane);

const list = new LockListView(scroller, () => ({ strings: strings!, capabilities, anomalyTexts: model.anomalyTexts, now: Date.now() }), onAction);

function send(request: ActionRequest): void {
  vscode.postMessage({ ...request, requestId: nextRequestId++ });
}

function onAction(event: ActionEvent): void {
  switch (event.action) {
    case 'reveal': return send({ type: 'reveal', path: event.target });
    case 'acquire': return send({ type: 'acquire', queuePath: event.target });
    case 'release': return send({ type: 'release', path: event.target });
    case 'forceRelease': return send({ type: 'forceRelease', path: event.target });
    case 'focusEdge': return;
  }
}

/** The history's views, made once the strings are known. */
function showHistory(s: WebviewStrings): void {
  if (timeline && figures) {
    timeline.setStrings(s);
    figures.setStrings(s);
    return;
  }
  timeline = new TimelineView(s, {
    reveal: (path) => {
      list.focusKey(`p:${path}`);
      if (!replay) send({ type: 'reveal', path });
    },
    windowChanged: () => {
      if (!figures?.visibleWindowChosen) return;
      clearTimeout(windowTimer);
      windowTimer = setTimeout(askFigures, 300);
    },
  });
  figures = new FiguresView(s, askFigures);
  historyPane.append(timeline.element, figures.element);
}

function askFigures(): void {
  const window = figures?.visibleWindowChosen ? timeline?.visibleWindow : undefined;
  vscode.postMessage(window ? { type: 'figuresWindow', window } : { type: 'figuresWindow' });
}

function renderHeader(): void {
  if (!strings || !state) return;
  if (replay) {
    title.textContent = visibleText(fmt(strings.replayTitle, replay.file));
    statusLine.textContent = '';
    return;
  }
  title.textContent = visibleText(fmt(state.mode === 'queue' ? strings.title : strings.subtreeTitle, state.root, connectionName));
  refresh.title = visibleText(strings.refresh);
  refresh.setAttribute('aria-label', visibleText(strings.refresh));
  scroller.setAttribute('aria-label', visibleText(fmt(strings.queueList, state.root)));
  const analysis = model.analysis;
  const parts = [status.message ?? strings[status.status === 'error' ? 'disconnected' : status.status]];
  if (analysis) parts.push(fmt(strings.updated, new Date(analysis.takenAt).toLocaleTimeString()));
  statusLine.textContent = visibleText(parts.join(' · '));
  statusLine.className = `status status-${status.status}`;
  servers.textContent = visibleText(analysis ? serverSummary(analysis, strings) : '');
}

function serverSummary(a: LockAnalysis, s: WebviewStrings): string {
  return a.servers.map((server) => server.via === 'none'
    ? fmt(s.serverWatchesNone, server.server, server.reason ?? '')
    : fmt(s.serverWatches, server.server, server.dataWatches ?? '?', server.childWatches ?? '?', s[viaKey(server)])).join(' · ');
}

function viaKey(server: LockAnalysis['servers'][number]): StringKey {
  const via = server.via === 'admin' ? 'via.admin' : 'via.fourLetterWords';
  return server.secure ? `${via}.secure` : via;
}

function onModel(message: ModelMessage | DeltaMessage, received: number): void {
  const result = model.receive(message);
  if (!result.applied) {
    if (result.askResync) vscode.postMessage({ type: 'resync', seq: model.seq });
    return;
  }
  rows = RowModel.build(result.analysis, rows);
  // New explanations show in rows whose signature did not change: render the rows on screen again.
  list.setRows(rows, result.textsChanged);
  renderHeader();
  // Layout is part of the cost: read a size so the browser lays out before the time is taken.
  void scroller.offsetHeight;
  const ms = performance.now() - received;
  vscode.postMessage({ type: 'rendered', seq: message.seq, rows: list.rowCount, domRows: list.domRowCount, ms, shown: list.shownText() });
}

function onMessage(message: HostMessage): void {
  const received = performance.now();
  switch (message.type) {
    case 'init':
      strings = message.strings;
      capabilities = message.capabilities;
      state = message.state;
      connectionName = message.connectionName;
      replay = message.replay;
      document.body.classList.toggle('replay', replay !== undefined);
      // A replay is not a panel to restore after a reload: it saves nothing.
      if (!replay) vscode.setState(state);
      showHistory(message.strings);
      renderHeader();
      list.refreshAll();
      break;
    case 'model':
    case 'delta':
      // Before `init` nothing can be shown; a delta after an ignored model finds a gap and asks for the model.
      if (strings) onModel(message, received);
      break;
    case 'status':
      status = { status: message.status, message: message.message };
      renderHeader();
      break;
    case 'capabilities':
      capabilities = message.capabilities;
      list.refreshAll();
      break;
    case 'reply':
      if (!message.ok && message.message) statusLine.textContent = visibleText(message.message);
      break;
    case 'focusPath':
      list.focusKey(`p:${message.path}`);
      break;
    case 'timeline':
      timeline?.setData(parseJsonText(message.timelineJson), message.live, message.now, message.anomalies);
      break;
    case 'figures':
      figures?.setFigures(parseJsonText(message.figuresJson), message.participantBounds);
      break;
  }
}

window.addEventListener('message', (event: MessageEvent<HostMessage>) => {
  try {
    onMessage(event.data);
  } catch (error) {
    vscode.postMessage({ type: 'error', message: error instanceof Error ? `${error.message}\n${error.stack ?? ''}` : String(error) });
  }
});
setInterval(() => {
  if (!strings) return;
  list.tick();
  timeline?.tick();
}, 1000);
vscode.postMessage({ type: 'ready' });
