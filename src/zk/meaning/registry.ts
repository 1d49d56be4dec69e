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
import { Meaning, MeaningDecoder, plainTranslate, Translate } from './types';

export const decoders: readonly MeaningDecoder[] = [
  kafkaDecoder, clickhouseDecoder, patroniDecoder, hbaseDecoder, hadoopDecoder, solrDecoder, dubboDecoder, curatorDiscoveryDecoder,
];

/** Whether the path alone looks like a known system's node: worth reading its data to decode it. */
export function mightHaveMeaning(path: string): boolean {
  return decoders.some((d) => d.claims(path));
}

/**
 * What the node means, or undefined when no system recognises it. A decoded answer beats a `raw` one (the path
 * looked right to one system, the bytes fit another). Never throws.
 */
export function decodeMeaning(path: string, data: Uint8Array, t: Translate = plainTranslate): Meaning | undefined {
  let raw: Meaning | undefined;
  for (const decoder of decoders) {
    let meaning: Meaning | undefined;
    try {
      meaning = decoder.decode(path, data, t);
    } catch (error) {
      // A decoder bug must not break the tree: the node is shown raw, with the reason.
      meaning = { system: decoder.system, systemName: decoder.system, role: decoder.system, summary: '', fields: [], icon: 'file-binary',
        raw: { reason: error instanceof Error ? error.message : String(error) } };
    }
    if (meaning && !meaning.raw) return meaning;
    raw ??= meaning;
  }
  return raw;
}
