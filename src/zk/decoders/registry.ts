// Every system ZooScope knows: adding one is adding its decoder file and a line here. Order matters only where two
// could claim a path; the bytes decide between them.
import { clickhouseDecoder } from './clickhouse';
import { curatorDiscoveryDecoder } from './curatorDiscovery';
import { dubboDecoder } from './dubbo';
import { hadoopDecoder } from './hadoop';
import { hbaseDecoder } from './hbase';
import { kafkaDecoder } from './kafka';
import { patroniDecoder } from './patroni';
import { solrDecoder } from './solr';
import { Decoded, DecodeContext, SystemDecoder, plainTranslate, Translate } from './types';

export const decoders: readonly SystemDecoder[] = [
  kafkaDecoder, clickhouseDecoder, patroniDecoder, hbaseDecoder, hadoopDecoder, solrDecoder, dubboDecoder, curatorDiscoveryDecoder,
];

/** Whether the path alone looks like a known system's node: worth reading its data to decode it. */
export function mightDecode(path: string): boolean {
  return decoders.some((d) => d.claims(path));
}

/** The related nodes whose data the decoders that claim `path` would use with it (see MeaningDecoder.contextPaths). */
export function decodeContextPaths(path: string): string[] {
  const paths = new Set<string>();
  for (const decoder of decoders) {
    if (!decoder.contextPaths || !decoder.claims(path)) continue;
    try {
      for (const p of decoder.contextPaths(path)) paths.add(p);
    } catch {
      // A decoder bug costs its context, not the tree.
    }
  }
  return [...paths];
}

/**
 * What the node means, or undefined when no system recognises it. A decoded answer beats a `raw` one (the path
 * looked right to one system, the bytes fit another). Never throws.
 */
export function decodeNode(path: string, data: Uint8Array, t: Translate = plainTranslate, context?: DecodeContext): Decoded | undefined {
  let raw: Decoded | undefined;
  for (const decoder of decoders) {
    let decoded: Decoded | undefined;
    try {
      decoded = decoder.decode(path, data, t, context);
    } catch (error) {
      // A decoder bug must not break the tree: the node is shown raw, with the reason.
      decoded = { system: decoder.system, systemName: decoder.system, role: decoder.system, summary: '', fields: [], icon: 'file-binary',
        raw: { reason: error instanceof Error ? error.message : String(error) } };
    }
    if (decoded && !decoded.raw) return decoded;
    raw ??= decoded;
  }
  return raw;
}
