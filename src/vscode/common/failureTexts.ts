// Every failure the ZooKeeper layer reports, explained in the user's language.
import * as vscode from 'vscode';
import type { ConnectStringProblem } from '../../zk/connectString';
import { ZkError } from '../../zk/errors';
import { characterInWords, PathProblem } from '../../zk/paths';
import { visibleText } from '../../shared/visibleText';
import type { ProbeResult } from '../../zk/probes/serverProbe';
import { ConnectFailure } from '../../zk/session/session';
import type { Permission, WriteFailure } from '../../zk/write/outcome';
import type { SearchProblem } from '../../zk/search/search';
import type { ExportProblem } from '../../zk/transfer/exportFormat';

const t = vscode.l10n.t;

export function describePathProblem(problem: PathProblem): string {
  switch (problem.code) {
    case 'empty': return t('The path is empty.');
    case 'notAbsolute': return t('A path must start with "/".');
    case 'trailingSlash': return t('A path must not end with "/".');
    case 'emptySegment': return t('The path has an empty name at position {0} ("//").', problem.index + 1);
    case 'relativeSegment': return t('"{0}" is not allowed as a node name (position {1}): ZooKeeper paths are absolute.', problem.segment, problem.index + 1);
    case 'invalidCharacter': {
      const named = characterInWords(problem.codePoint);
      return 'shown' in named
        ? t('The character "{0}" at position {1} is not allowed in a ZooKeeper path.', named.shown, problem.index + 1)
        : t('The invisible character {0} at position {1} is not allowed in a ZooKeeper path.', named.code, problem.index + 1);
    }
  }
}

export function describeConnectStringProblem(problem: ConnectStringProblem): string {
  switch (problem.code) {
    case 'noServers': return t('Give at least one server, e.g. 127.0.0.1:2181.');
    case 'badServer': return t('"{0}" is not a host:port pair.', problem.server);
    case 'badChroot': return t('Invalid chroot: {0}', describePathProblem(problem.problem));
    case 'hiddenCharacter': return t('"{0}" holds the hidden character {1}: a host name cannot hold control, direction or invisible characters.', visibleText(problem.server), problem.character);
  }
}

export function describeProbe(probe: ProbeResult): string {
  switch (probe.outcome) {
    case 'zookeeper': return t('{0}: ZooKeeper {1} answers', probe.server, probe.detail ?? '');
    case 'notServing': return t('{0}: ZooKeeper is running but not serving requests (no quorum?)', probe.server);
    case 'refused': return t('{0}: connection refused (nothing listens on that port)', probe.server);
    case 'unresolved': return t('{0}: host name cannot be resolved', probe.server);
    case 'timedOut': return t('{0}: no answer (timed out)', probe.server);
    case 'notZooKeeper': return t('{0}: the service on this port is not ZooKeeper', probe.server);
    case 'error': return t('{0}: {1}', probe.server, probe.detail ?? '');
  }
}

export function describeConnectFailure(name: string, failure: ConnectFailure): string {
  const reasons = failure.probes.map(describeProbe).join('; ');
  switch (failure.reason) {
    case 'timedOut': return t('Could not connect to "{0}" within the session timeout. {1}', name, reasons);
    case 'unreachable': return t('Could not connect to "{0}". {1}', name, reasons);
    case 'expired': return t('The session of "{0}" expired while connecting.', name);
    case 'authFailed': return t('ZooKeeper rejected the credentials of "{0}".', name);
    case 'cancelled': return t('Connecting to "{0}" was cancelled.', name);
    case 'invalid': return failure.settingsProblem
      ? t('"{0}" cannot connect with its security settings: {1}', name, failure.settingsProblem)
      : t('The connect string of "{0}" is not valid.', name);
    // A reason this layer does not know yet (the ZooKeeper layer's own sentence, in English).
    default: return t('Could not connect to "{0}": {1}', name, failure.message);
  }
}

export function describeZkError(error: ZkError): string {
  const path = error.path ?? '';
  switch (error.code) {
    case 'noNode': return t('{0} no longer exists.', path);
    case 'noAuth': return t('Not authorized to {0} {1}: add credentials with the needed permission.', error.operation, path);
    case 'badVersion': return t('{0} was changed by someone else meanwhile.', path);
    case 'nodeExists': return t('{0} already exists.', path);
    case 'notEmpty': return t('{0} has children.', path);
    case 'connectionLoss': return t('The connection was lost during {0} {1}; it is being re-established.', error.operation, path);
    case 'sessionExpired': return t('The session expired during {0} {1}.', error.operation, path);
    case 'clientTimeout': return t('ZooKeeper did not answer {0} {1} in time.', error.operation, path);
    case 'unimplemented': return t('This ZooKeeper server does not support {0}.', error.operation);
    case 'quotaExceeded': return t('{0} {1} was refused: it would exceed a hard quota (remove or raise the quota with Set Quota…).', error.operation, path);
    case 'closed': return t('The connection is closed.');
    case 'replyTooLarge': return t('The answer to {0} {1} was larger than ZooScope accepts in one reply.', error.operation, path);
    case 'subtreeTooLarge': return t('The subtree at {0} holds more nodes or data than ZooScope reads at once (2,000,000 nodes, 1 GiB of data): reading stopped.', path);
    default: return t('{0} {1} failed: {2}', error.operation, path, error.code);
  }
}

/** Any error as one line for a notification. */
export function describeError(error: unknown): string {
  if (error instanceof ZkError) return describeZkError(error);
  if (error instanceof ConnectFailure) return describeConnectFailure('', error);
  return error instanceof Error ? error.message : String(error);
}

function describePermission(letter: Permission): string {
  switch (letter) {
    case 'c': return t('create (c)');
    case 'd': return t('delete (d)');
    case 'r': return t('read (r)');
    case 'w': return t('write (w)');
    case 'a': return t('admin (a)');
  }
}

/** A failed or refused write (src/zk/write) as one sentence naming the path. */
export function describeWriteFailure(failure: WriteFailure): string {
  const path = failure.path;
  switch (failure.code) {
    case 'readOnly': return t('{0} was not changed: this connection is read-only.', path);
    case 'invalidPath': return t('{0} is not a valid node path: {1}', path, describePathProblem(failure.problem));
    case 'protectedPath': return t('{0} is protected: ZooScope never changes or deletes "/" or /zookeeper.', path);
    case 'dataTooLarge': return t('The data for {0} is {1} bytes; the server accepts at most {2} bytes for this node.', path, failure.bytes, failure.limit);
    case 'invalidTtl': return t('The time to live for {0} must be between 1 and {1} milliseconds.', path, failure.max);
    case 'invalidCredentials': return t('Digest credentials need a user name without ":" and a password.');
    case 'incompletePlan': return t('The preview of {0} did not see the whole subtree (cancelled or failed): preview it again before deleting.', path);
    case 'childNotDeleted': return t('{0} was kept because {1} below it could not be deleted.', path, failure.child);
    case 'extendedTypesDisabled': return t('The server does not allow TTL nodes ({0}): it needs zookeeper.extendedTypesEnabled=true.', path);
    case 'noAuth':
      if ('needs' in failure && failure.needs) {
        return t('Not authorized to {0} {1}: the ACL of {2} does not grant {3} to your credentials.', failure.operation, path,
          failure.needs.on, failure.needs.anyOf.map(describePermission).join(t(' or ')));
      }
      break;
    case 'notEmpty':
      if ('newChildren' in failure && failure.newChildren?.length) {
        return t('{0} was kept: it gained children after the preview ({1}), which were left alone.', path, failure.newChildren.join(', '));
      }
      break;
    case 'noChildrenForEphemerals': return t('{0} cannot be created: its parent is an ephemeral node, which cannot have children.', path);
    case 'invalidAcl': return t('The server rejected the ACL for {0} as invalid.', path);
    case 'badArguments': return t('The server rejected the arguments of {0} {1}.', failure.operation, path);
  }
  const zkCode = 'zkCode' in failure ? failure.zkCode : undefined;
  return describeZkError(new ZkError(failure.code as ZkError['code'], failure.operation, path, zkCode));
}

/** A search query that cannot run, for the input box's validation message. */
export function describeSearchProblem(problem: SearchProblem): string {
  if (problem.code === 'emptyQuery') return t('Enter a path pattern, a text to find in the data, or both.');
  return problem.field === 'path'
    ? t('The path pattern is not a valid regular expression: {0}', problem.message)
    : t('The content pattern is not a valid regular expression: {0}', problem.message);
}

/** Why a file cannot be imported. */
export function describeExportProblem(file: string, problem: ExportProblem): string {
  switch (problem.code) {
    case 'notJson': return t('{0} is not valid JSON: {1}', file, problem.message);
    case 'notAnExport': return t('{0} is not a ZooScope export.', file);
    case 'unsupportedVersion': return t('{0} is a ZooScope export of version {1}, which this version cannot read.', file, String(problem.version));
    case 'badNode': return t('{0}: node {1} has an invalid "{2}".', file, problem.index + 1, problem.field);
  }
}

/** Why the import's dry run will leave a node out. */
