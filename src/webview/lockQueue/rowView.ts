// Builds one row's DOM. Everything from ZooKeeper (names, paths, data, sessions) goes in as textContent or an
// attribute value, never as markup.
import type { AnomalyText, PanelCapabilities, WebviewStrings } from '../../shared/lockQueueMessages';
import type { Participant } from '../../shared/lockAnalysis';
import { fmt, participantTime } from './format';
import type { EdgeTarget, ParticipantRow, QueueRow, Row } from './rows';
import { visibleText } from '../../shared/visibleText';

export interface RenderContext {
  strings: WebviewStrings;
  capabilities: PanelCapabilities;
  anomalyTexts: Record<string, AnomalyText>;
  now: number;
}

export type RowAction = 'reveal' | 'acquire' | 'release' | 'forceRelease' | 'focusEdge';

export function el<K extends keyof HTMLElementTagNameMap>(tag: K, className?: string, text?: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = visibleText(text);
  return node;
}

export function icon(name: string): HTMLElement {
  const span = el('span', `codicon codicon-${name}`);
  span.setAttribute('aria-hidden', 'true');
  return span;
}

function button(action: RowAction, codicon: string, label: string, target: string): HTMLButtonElement {
  const b = el('button', `action action-${action}`);
  b.type = 'button';
  b.dataset.action = action;
  b.dataset.target = target;
  b.title = visibleText(label);
  b.setAttribute('aria-label', visibleText(label));
  b.tabIndex = -1;
  b.append(icon(codicon));
  return b;
}

const roleIcons: Record<Participant['role'], string> = { holder: 'lock', leader: 'star-full', waiter: 'watch' };

export function roleText(p: Participant, s: WebviewStrings): string {
  return s[p.role];
}

/** "held 3m 2s" / "waiting 12s" / "leading 1h 2m". */
/** How long it waited, or held: only what is known (a holder's node age is not its hold time). */
export function timeText(p: Participant, s: WebviewStrings, now: number): string {
  return participantTime(p, s, now);
}

function edgeText(e: EdgeTarget, s: WebviewStrings): string {
  if (e.own) return s.ownNode;
  return e.position !== undefined ? `#${e.position} ${e.name}` : e.name;
}

function edgeChip(e: EdgeTarget, s: WebviewStrings): HTMLElement {
  const how = e.source === 'server' ? s.seenOnServer : s.inferred;
  const verb = e.waitOnly ? s.waitsFor : s.watches;
  const chip = el('button', `edge edge-${e.source}${e.waitOnly ? ' edge-wait' : ''}${e.own ? ' edge-own' : ''}`);
  chip.type = 'button';
  chip.tabIndex = -1;
  chip.dataset.action = 'focusEdge';
  chip.dataset.target = e.path;
  chip.title = visibleText(e.own ? `${s.ownNodeWatch} (${how})` : `${verb} ${e.path} (${how})`);
  chip.setAttribute('aria-label', visibleText(edgeLabel(e, s)));
  chip.append(icon(e.own ? 'eye' : e.source === 'server' ? 'arrow-up' : 'arrow-small-up'), el('span', 'edge-name', edgeText(e, s)));
  return chip;
}

function participantDetails(p: Participant, s: WebviewStrings): string[] {
  const details = [p.session ? fmt(s.session, p.session) : s.persistentNode];
  if (p.clientAddress) details.push(fmt(s.client, p.clientAddress));
  return details;
}

function edgeLabel(e: EdgeTarget, s: WebviewStrings): string {
  const how = e.source === 'server' ? s.seenOnServer : s.inferred;
  return e.own ? `${s.ownNodeWatch} (${how})` : `${e.waitOnly ? s.waitsFor : s.watches} ${edgeText(e, s)} (${how})`;
}

/** The row's accessible name: everything it shows, in reading order. */
function participantLabel(row: ParticipantRow, ctx: RenderContext): string {
  const p = row.participant;
  const s = ctx.strings;
  const badgeTexts = row.anomalies.map((a) => ctx.anomalyTexts[a.key]?.title ?? a.kind);
  return [`#${p.position}`, roleText(p, s), p.name, s[`kind.${p.kind}`], p.ours ? s.ours : '', timeText(p, s, ctx.now), ...participantDetails(p, s),
    p.label ?? '', ...row.edges.map((e) => edgeLabel(e, s)), ...badgeTexts, row.deadlocked ? s.deadlock : ''].filter(Boolean).join(', ');
}

function participantContent(row: ParticipantRow, ctx: RenderContext): { children: HTMLElement[]; label: string } {
  const p = row.participant;
  const s = ctx.strings;
  const line1 = el('div', 'line line1');
  const role = el('span', `role role-${p.role}`);
  role.append(icon(roleIcons[p.role]), el('span', undefined, roleText(p, s)));
  line1.append(el('span', 'pos', `#${p.position}`), role, el('span', 'name', p.name), el('span', 'kind', s[`kind.${p.kind}`]));
  if (p.ours) line1.append(el('span', 'badge badge-ours', s.ours));
  for (const a of row.anomalies) {
    const text = ctx.anomalyTexts[a.key];
    const badge = el('span', `badge badge-anomaly severity-${a.severity}`);
    badge.append(icon(a.severity === 'error' ? 'error' : a.severity === 'warning' ? 'warning' : 'info'), el('span', undefined, text?.title ?? a.kind));
    if (text) badge.title = visibleText(`${text.title}: ${text.explanation}`);
    badge.setAttribute('role', 'note');
    badge.setAttribute('aria-label', visibleText(text ? `${text.title}: ${text.explanation}` : a.kind));
    line1.append(badge);
  }
  const time = el('span', 'time', timeText(p, s, ctx.now));
  line1.append(el('span', 'fill'), time, actionsFor(row, ctx));

  const line2 = el('div', 'line line2');
  line2.append(el('span', 'who', participantDetails(p, s).join(' · ')));
  if (p.label) line2.append(el('span', 'label', p.label));
  if (row.edges.length) {
    const edges = el('span', 'edges');
    for (const e of row.edges) edges.append(edgeChip(e, s));
    line2.append(edges);
  }
  return { children: [line1, line2], label: participantLabel(row, ctx) };
}

/**
 * Brings a rendered participant row whose positions alone changed (its own, its edges' targets') up to date in
 * place: the holder leaving changes every row on screen, and rebuilding them all would cost a new layout of each.
 */
export function updatePositions(node: HTMLElement, row: ParticipantRow, ctx: RenderContext): void {
  const pos = node.querySelector('.pos');
  const chips = node.querySelectorAll<HTMLElement>('.edge');
  if (!pos || chips.length !== row.edges.length) {
    renderRow(node, row, ctx);
    return;
  }
  pos.textContent = visibleText(`#${row.participant.position}`);
  row.edges.forEach((e, k) => {
    chips[k].setAttribute('aria-label', visibleText(edgeLabel(e, ctx.strings)));
    const name = chips[k].querySelector('.edge-name');
    if (name) name.textContent = visibleText(edgeText(e, ctx.strings));
  });
  node.setAttribute('aria-label', visibleText(participantLabel(row, ctx)));
}

function actionsFor(row: ParticipantRow, ctx: RenderContext): HTMLElement {
  const p = row.participant;
  const s = ctx.strings;
  const box = el('span', 'actions');
  box.append(button('reveal', 'go-to-file', s.reveal, p.path));
  if (p.ours && ctx.capabilities.canRelease) box.append(button('release', 'unlock', s.release, p.path));
  if (p.role !== 'waiter' && !p.ours && ctx.capabilities.canForceRelease) box.append(button('forceRelease', 'trash', s.forceRelease, p.path));
  return box;
}

function queueContent(row: QueueRow, ctx: RenderContext): { children: HTMLElement[]; label: string } {
  const s = ctx.strings;
  const q = row.queue;
  const line = el('div', 'line');
  const counts = [fmt(s.holders, row.holders), fmt(s.waiters, row.waiters)];
  if (q.leases !== undefined && q.leases > 1) counts.push(fmt(s.leases, q.leases));
  line.append(icon(row.deadlocked ? 'error' : 'list-ordered'), el('span', 'queue-path', q.path), el('span', 'recipe', q.recipe),
    el('span', 'counts', counts.join(' · ')), el('span', 'fill'));
  const box = el('span', 'actions');
  if (ctx.capabilities.canAcquire) box.append(button('acquire', 'lock', s.acquire, q.path));
  box.append(button('reveal', 'go-to-file', s.reveal, q.path));
  line.append(box);
  return { children: [line], label: [q.path, q.recipe, ...counts, row.deadlocked ? s.deadlock : ''].filter(Boolean).join(', ') };
}

/** Fills `node` (the row's element, kept across updates) with the row's content. */
export function renderRow(node: HTMLElement, row: Row, ctx: RenderContext): void {
  const s = ctx.strings;
  let content: { children: HTMLElement[]; label: string };
  let classes = `row row-${row.kind}`;
  switch (row.kind) {
    case 'participant': {
      content = participantContent(row, ctx);
      classes += ` role-${row.participant.role}${row.participant.ours ? ' ours' : ''}${row.deadlocked ? ' deadlocked' : ''}`;
      if (row.watchesRowAbove) classes += ` edge-above edge-above-${row.watchesRowAbove}`;
      break;
    }
    case 'queue':
      content = queueContent(row, ctx);
      if (row.deadlocked) classes += ' deadlocked';
      break;
    case 'deadlock': {
      const { sessions, locks, clients } = row.cycle;
      const who = (i: number) => (clients?.[i] ? `${sessions[i]} (${clients[i]})` : sessions[i]);
      const steps = sessions.map((_, i) => fmt(s.deadlockStep, who(i), who((i + 1) % sessions.length), locks[i] ?? ''));
      const line = el('div', 'line');
      line.append(icon('error'), el('span', 'title', s.deadlock));
      const text = el('div', 'line explanation', steps.join(' · '));
      content = { children: [line, text], label: `${s.deadlock}: ${steps.join('; ')}` };
      classes += ' severity-error';
      break;
    }
    case 'anomaly': {
      const text = ctx.anomalyTexts[row.anomalyKey];
      const line = el('div', 'line');
      line.append(icon(row.anomaly.severity === 'error' ? 'error' : row.anomaly.severity === 'warning' ? 'warning' : 'info'),
        el('span', 'title', text?.title ?? row.anomaly.kind));
      const explanation = el('div', 'line explanation', text?.explanation ?? row.anomaly.paths.join(', '));
      explanation.title = visibleText(text?.explanation ?? '');
      content = { children: [line, explanation], label: `${text?.title ?? row.anomaly.kind}: ${text?.explanation ?? ''}` };
      classes += ` severity-${row.anomaly.severity}`;
      break;
    }
    case 'note':
      content = { children: [el('div', 'line', s[row.note])], label: s[row.note] };
      break;
  }
  node.className = classes;
  node.setAttribute('aria-label', visibleText(content.label));
  node.replaceChildren(...content.children);
}

/** Updates the ticking time of a rendered participant row in place. */
export function updateTime(node: HTMLElement, row: Row, ctx: RenderContext): void {
  if (row.kind !== 'participant') return;
  const time = node.querySelector('.time');
  if (time) time.textContent = visibleText(timeText(row.participant, ctx.strings, ctx.now));
}
