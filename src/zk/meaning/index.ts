import { decodeMeaning } from './registry';
import { decodedDocument as documentWith } from './meaningJson';

export { decodeMeaning, decoders, mightHaveMeaning } from './registry';
export { meaningJson } from './meaningJson';
export type { MeaningJson } from './meaningJson';
export type { ElectionFlag, Meaning, MeaningDecoder, MeaningField, SystemId } from './types';

/** `get --decoded`'s document, decoded with every known system. */
export const decodedDocument = (path: string, data: Uint8Array | null) => documentWith(path, data, (p, d) => decodeMeaning(p, d));
