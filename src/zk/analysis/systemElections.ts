// The elections of systems that keep their leader in ZooKeeper, named by system in the lock-queue panel instead
// of as a generic fixed leader or unknown queue: Patroni's leader key, HBase's active master, Hadoop HA's elector
// lock, Kafka's controller (single ephemeral nodes whose bytes the meaning decoders confirm, src/zk/decoders),
// ClickHouse's leader_election queue and Solr's Overseer election (queues told by their path and child names).
import type { RecipeId } from '../../shared/lockAnalysis';
import { decodeNode, SystemId } from '../decoders';
import type { Family } from './families';

const FIXED_BY_SYSTEM: Partial<Record<SystemId, RecipeId>> = {
  patroni: 'patroni-leader', hbase: 'hbase-master', hadoop: 'hadoop-ha-elector', kafka: 'kafka-controller',
};

/** A single leader node: the system's election when its bytes decode as that system's leader or lock. */
export function fixedLeaderRecipe(path: string, data: Uint8Array | undefined): RecipeId {
  const decoded = data ? decodeNode(path, data) : undefined;
  const decodedLeader = decoded && !decoded.raw && (decoded.election === 'leader' || decoded.election === 'lock');
  return (decodedLeader && FIXED_BY_SYSTEM[decoded.system]) || 'fixed-leader';
}

const CLICKHOUSE_ELECTION = /\/leader_election$/;
const SOLR_OVERSEER = /(?:^|\/)overseer_elect\/election$/;

/** A queue recognised from its children that is a known system's election, told by its path and names. */
export function systemQueueRecipe(path: string, recipe: RecipeId, family: Family, markers: ReadonlySet<string>): RecipeId | undefined {
  // ClickHouse (ReplicatedMergeTree): ephemeral sequential leader_election-N nodes holding the replica's name.
  if (family === 'unknown' && CLICKHOUSE_ELECTION.test(path) && markers.size === 1 && markers.has('leader_election-')) return 'clickhouse-leader-election';
  // Solr's Overseer: the solr-election shape under overseer_elect/election (shard leaders use it elsewhere).
  if (recipe === 'solr-election' && SOLR_OVERSEER.test(path)) return 'solr-overseer';
  return undefined;
}
