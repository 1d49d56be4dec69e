import { decodeMeaning } from './registry';
import { decodedDocument as documentWith } from './meaningJson';
import type { MeaningContext } from './types';

export { decodeMeaning, decoders, meaningContextPaths, mightHaveMeaning } from './registry';
export { readMeaningContext, sessionContextRead } from './readContext';
export type { ContextRead } from './readContext';
export { meaningJson } from './meaningJson';
export type { MeaningJson } from './meaningJson';
export type { ElectionFlag, Meaning, MeaningContext, MeaningDecoder, MeaningField, SystemId } from './types';

/** `get --decoded`'s document, decoded with every known system (and the related nodes' data, readMeaningContext). */
export const decodedDocument = (path: string, data: Uint8Array | null, context?: MeaningContext) =>
  documentWith(path, data, (p, d) => decodeMeaning(p, d, undefined, context));
