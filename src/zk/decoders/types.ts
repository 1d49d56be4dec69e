// What a znode means to the system that wrote it: a decoder's answer, as plain data for the tree, the tooltip,
// Show Details, the decoded view and the CLI.
import type { Translate } from '../tree/znodePresentation';

export type { Translate };

export type SystemId = 'kafka' | 'clickhouse' | 'patroni' | 'hbase' | 'hadoop' | 'solr' | 'dubbo' | 'curator';

/** One label/value row; `children` nests a group (a broker's endpoints, a URL's parameters). */
export interface DecodedField {
  label: string;
  value: string;
  children?: DecodedField[];
}

/** The node is (or holds) an election's leader or a lock of the system: the lock-queue panel names it by system. */
export type ElectionFlag = 'leader' | 'lock' | 'candidate';

export interface Decoded {
  system: SystemId;
  /** The system's own name ("Kafka"), not translated. */
  systemName: string;
  /** What the node is to the system: "Kafka broker", "Patroni leader". */
  role: string;
  /** One short line for the tree's description: host:port, role and lag, replica state. */
  summary: string;
  fields: DecodedField[];
  /** A codicon name. */
  icon: string;
  election?: ElectionFlag;
  /** Set when the path says which system but the bytes do not parse: the node is shown raw, with this reason. */
  raw?: { reason: string };
}

/**
 * Data of related nodes a decoder asked for (`contextPaths`), by absolute path: the bytes, null when the node does
 * not exist. A path missing from the map was not read (over budget, not readable): the decoder says nothing it
 * would need it for.
 */
export type DecodeContext = ReadonlyMap<string, Uint8Array | null>;

/** One system's decoder: `claims` is the path pattern alone (cheap, used to bound reads); `decode` also checks the bytes. */
export interface SystemDecoder {
  system: SystemId;
  claims(path: string): boolean;
  /**
   * Other nodes whose data completes this node's meaning (a Patroni member's lag needs the leader's position), as
   * absolute paths. The path alone decides, so a reader can read them once for all the children of one parent.
   */
  contextPaths?(path: string): string[];
  /** Never throws: bytes that do not parse give a `raw` result or undefined; so does hostile context data. */
  decode(path: string, data: Uint8Array, t: Translate, context?: DecodeContext): Decoded | undefined;
}

/** `{0}`-style substitution without translation, for the CLI and tests. */
export const plainTranslate: Translate = (message, ...args) =>
  message.replace(/\{(\d+)\}/g, (whole, index: string) => (Number(index) < args.length ? String(args[Number(index)]) : whole));
