// When the members of an ensemble do not agree: the rules that flag a member (unreachable, not serving, lagging
// the leader, disagreeing with it) and the ensemble (no leader, two leaders), from figures already read. Pure, so
// each rule is tested on plain values.
import type { MemberFigures, Zxid } from './memberFigures';

export interface AgreementThresholds {
  /**
   * A member whose zxid is more than this many transactions behind the leader's lags; in an older epoch, when the
   * leader has more than this many transactions in its own.
   */
  maxLagTransactions: number;
  /** With equal zxids, a znode count further than this from the leader's disagrees. */
  znodeTolerance: number;
  /** Each member must answer within this long; a frozen member keeps its socket open and answers nothing. */
  deadlineMs: number;
}

export const DEFAULT_THRESHOLDS: AgreementThresholds = { maxLagTransactions: 100, znodeTolerance: 0, deadlineMs: 5000 };

export type MemberFlag =
  | { kind: 'unreachable'; reason: string }
  | { kind: 'notServing' }
  | { kind: 'lagging'; behind: number; leaderZxid: Zxid }
  | { kind: 'epochDiffers'; epoch: number; leaderEpoch: number }
  | { kind: 'disagrees'; znodes: number; leaderZnodes: number };

export type EnsembleFlag = { kind: 'noLeader' } | { kind: 'twoLeaders'; leaders: string[] };

/** One member as asked: its figures when it answered, why not when it did not. */
export interface MemberAnswer {
  address: string;
  via: 'admin' | 'fourLetterWords' | 'none';
  /** Set when it did not answer within the deadline, refused the connection, or answered nothing usable. */
  unreachable?: string;
  /** It answered that it is not serving requests (no quorum, or still syncing). */
  notServing?: boolean;
  figures?: MemberFigures;
  /** Why the AdminServer was not used, when the words were asked instead. */
  adminError?: string;
}

export interface MemberVerdict extends MemberAnswer {
  flags: MemberFlag[];
  isLeader: boolean;
}

export interface AgreementResult {
  members: MemberVerdict[];
  flags: EnsembleFlag[];
  thresholds: AgreementThresholds;
  /** The leader's address, when there is exactly one. */
  leader?: string;
  /** No member and no ensemble flag. */
  agree: boolean;
}

/** A leader, or the one standalone server the connect string names (it is its own reference). */
function leads(answer: MemberAnswer, memberCount: number): boolean {
  const mode = answer.figures?.mode;
  return mode === 'leader' || (mode === 'standalone' && memberCount === 1);
}

function flagsOf(answer: MemberAnswer, leader: MemberAnswer | undefined, t: AgreementThresholds): MemberFlag[] {
  if (answer.unreachable !== undefined) return [{ kind: 'unreachable', reason: answer.unreachable }];
  if (answer.notServing) return [{ kind: 'notServing' }];
  const mine = answer.figures;
  const theirs = leader?.figures;
  if (!leader || leader === answer || !mine?.zxid || !theirs?.zxid) return [];
  // A serving follower synced with the leader when the epoch began, and its zxid moves into the new epoch only with
  // the epoch's first transaction: in an older epoch it lacks the leader's `counter` transactions of this one.
  const epochDiffers = { kind: 'epochDiffers', epoch: mine.zxid.epoch, leaderEpoch: theirs.zxid.epoch } as const;
  if (mine.zxid.epoch > theirs.zxid.epoch) return [epochDiffers];
  if (mine.zxid.epoch < theirs.zxid.epoch) return theirs.zxid.counter > t.maxLagTransactions ? [epochDiffers] : [];
  const behind = theirs.zxid.counter - mine.zxid.counter;
  if (behind > t.maxLagTransactions) return [{ kind: 'lagging', behind, leaderZxid: theirs.zxid }];
  if (behind === 0 && mine.znodes !== undefined && theirs.znodes !== undefined && Math.abs(mine.znodes - theirs.znodes) > t.znodeTolerance) {
    return [{ kind: 'disagrees', znodes: mine.znodes, leaderZnodes: theirs.znodes }];
  }
  return [];
}

/** Flags every member against the one leader (none are compared when there is no single leader). */
export function judgeAgreement(answers: readonly MemberAnswer[], thresholds: AgreementThresholds): AgreementResult {
  const leaders = answers.filter((a) => a.unreachable === undefined && !a.notServing && leads(a, answers.length));
  const flags: EnsembleFlag[] = [];
  if (leaders.length === 0) flags.push({ kind: 'noLeader' });
  if (leaders.length > 1) flags.push({ kind: 'twoLeaders', leaders: leaders.map((l) => l.address) });
  const leader = leaders.length === 1 ? leaders[0] : undefined;
  const members = answers.map((a) => ({ ...a, flags: flagsOf(a, leader, thresholds), isLeader: leaders.includes(a) }));
  return { members, flags, thresholds, leader: leader?.address, agree: flags.length === 0 && members.every((m) => m.flags.length === 0) };
}
