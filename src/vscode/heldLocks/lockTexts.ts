// The lock layer's facts (states, modes, positions, reasons, conventions) in the user's language.
import * as vscode from 'vscode';
import { ZkError } from '../../zk/errors';
import type { ConventionDetection, ConventionId, LockMode, LockSnapshot, LockState, LostReason, QueuePosition } from '../../zk/locks';
import { baseName } from '../../zk/paths';
import { describeZkError } from '../common/failureTexts';

const t = vscode.l10n.t;

export function modeLabel(mode: LockMode): string {
  switch (mode) {
    case 'exclusive': return t('exclusive lock');
    case 'read': return t('read lock');
    case 'write': return t('write lock');
    case 'election': return t('election');
    case 'unfairElection': return t('election (one node)');
  }
}

export function stateLabel(state: LockState): string {
  switch (state) {
    case 'acquiring': return t('acquiring');
    case 'waiting': return t('waiting');
    case 'held': return t('held');
    case 'leader': return t('leader');
    case 'suspended': return t('suspended (connection lost, unsure)');
    case 'lost': return t('lost');
    case 'released': return t('released');
    case 'cancelled': return t('cancelled');
    case 'timedOut': return t('timed out');
    case 'failed': return t('failed');
  }
}

/** "3rd of 7": the place in the library's queue order (1 = the holder). */
export function positionText(p: QueuePosition): string {
  const n = p.index;
  const teen = n % 100 >= 11 && n % 100 <= 13;
  if (!teen && n % 10 === 1) return t('{0}st of {1}', n, p.of);
  if (!teen && n % 10 === 2) return t('{0}nd of {1}', n, p.of);
  if (!teen && n % 10 === 3) return t('{0}rd of {1}', n, p.of);
  return t('{0}th of {1}', n, p.of);
}

/** While waiting: "3rd of 7, waiting for lock-0000000004" (the node watched, by name). */
export function waitingText(s: LockSnapshot): string {
  if (s.state === 'suspended') return t('connection lost, reconnecting…');
  if (s.state === 'acquiring') return t('joining the queue…');
  const position = s.position ? positionText(s.position) : undefined;
  const waitingFor = s.waitingFor ? baseName(s.waitingFor) : undefined;
  if (position && waitingFor) return t('{0}, waiting for {1}', position, waitingFor);
  return position ?? (waitingFor ? t('waiting for {0}', waitingFor) : stateLabel(s.state));
}

export function lostReasonText(s: LockSnapshot): string {
  const reason: LostReason | undefined = s.lostReason;
  switch (reason) {
    case 'sessionExpired': return t('the lock session expired');
    case 'sessionLost': return t('no contact with ZooKeeper for a whole session timeout');
    case 'nodeDeleted': return t('its node {0} was deleted by someone else', baseName(s.node ?? s.path));
    case 'notOwner': return t('its node {0} now belongs to another session', baseName(s.node ?? s.path));
    default: return t('unknown reason');
  }
}

export function lostMessage(s: LockSnapshot, connectionName: string): string {
  return s.mode === 'election' || s.mode === 'unfairElection'
    ? t('Lost the place in the election {0} on "{1}": {2}. Do not act as its leader any more.', s.path, connectionName, lostReasonText(s))
    : t('Lost the lock {0} on "{1}": {2}. Do not act as its holder any more.', s.path, connectionName, lostReasonText(s));
}

/** Why an attempt ended as `failed`. */
export function failureText(s: LockSnapshot): string {
  switch (s.error) {
    case 'conventionUnknown':
      return t('{0} holds nodes of no known lock library, or of several: choose the naming rules to join it with.', s.path);
    case 'conventionMismatch':
      return t('The queue at {0} follows {1}, which has no {2}.', s.path, s.convention, modeLabel(s.mode));
    case undefined: return t('Taking the lock {0} failed.', s.path);
    default: return describeZkError(new ZkError(s.error as ZkError['code'], 'lock', s.path));
  }
}

export function conventionDescription(id: ConventionId): string {
  switch (id) {
    case 'plain': return t('ZooScope\'s own recipe: <guid>-lock- / read- / write-<seq>');
    case 'curator-mutex': return t('Apache Curator InterProcessMutex, LeaderSelector: _c_<uuid>-lock-<seq>');
    case 'curator-rwlock': return t('Apache Curator InterProcessReadWriteLock: _c_<uuid>-__READ__ / __WRIT__<seq>');
    case 'curator-latch': return t('Apache Curator LeaderLatch: _c_<uuid>-latch-<seq>');
    case 'kazoo': return t('kazoo Lock, ReadLock, WriteLock, Election: <hex>__lock__ / __rlock__<seq>');
    case 'zk-write-lock': return t('ZooKeeper recipes WriteLock: x-<session>-<seq>');
    case 'zk-election': return t('ZooKeeper recipes LeaderElectionSupport: n_<seq>');
  }
}

/** Why the queue needs the user's choice before joining (unknown or mixed names). */
export function detectionWarning(path: string, d: ConventionDetection): string {
  if (d.status === 'mixed') {
    return t('{0} holds nodes of several lock libraries ({1}) that do not exclude each other. Your node only excludes the clients of the rules you choose.',
      path, [...d.conventions, ...(d.unrecognised.length ? [t('{0} unrecognised', d.unrecognised.length)] : [])].join(', '));
  }
  const sample = d.status === 'unknown' ? d.unrecognised.slice(0, 3).join(', ') : '';
  return t('{0} holds sequential nodes of no known lock library ({1}). Their clients will not see your node as a contender.', path, sample);
}
