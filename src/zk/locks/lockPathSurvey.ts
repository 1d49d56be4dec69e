// What a lock path holds before ZooScope adds a node to it: the library whose queue it is, and, when some of its
// children are no lock nodes, the lock queues found below them. Taking a lock on a folder of queues would create
// a node no client of those queues ever sees, and the user would believe they block the workers.
import { discoverQueues } from '../analysis/discover';
import { isZkError } from '../errors';
import type { ZkSession } from '../session/session';
import { parseName } from '../analysis/recipes';
import { ConventionDetection, detectConvention } from './conventionDetection';

export interface LockPathSurvey {
  detection: ConventionDetection;
  /** Children that are no lock nodes of any library (folders, config nodes), at most SAMPLE of them. */
  otherChildren: string[];
  /** How many such children there are. */
  otherCount: number;
  /** Lock queues below the path (not the path itself), at most MAX_QUEUES_BELOW. */
  queuesBelow: string[];
}

const SAMPLE = 5;
const MAX_QUEUES_BELOW = 20;
/** Nodes listed at most while looking for queues below: the question must come quickly, even on a big folder. */
const MAX_NODES_LISTED = 2000;

export async function surveyLockPath(session: ZkSession, path: string): Promise<LockPathSurvey> {
  let children: string[];
  try {
    children = (await session.getChildren(path)).children;
  } catch (error) {
    if (isZkError(error, 'noNode')) return { detection: { status: 'empty', others: 0 }, otherChildren: [], otherCount: 0, queuesBelow: [] };
    throw error;
  }
  const detection = detectConvention(children);
  const others = children.filter((name) => !parseName(name));
  if (others.length === 0) return { detection, otherChildren: [], otherCount: 0, queuesBelow: [] };
  const below = await discoverQueues(session, path, { maxQueues: MAX_QUEUES_BELOW, maxNodes: MAX_NODES_LISTED });
  return {
    detection,
    otherChildren: others.slice(0, SAMPLE),
    otherCount: others.length,
    queuesBelow: below.specs.map((spec) => spec.path).filter((p) => p !== path),
  };
}
