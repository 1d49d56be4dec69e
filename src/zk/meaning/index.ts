export { decodeMeaning, decoders, mightHaveMeaning } from './registry';
export { meaningJson } from './meaningJson';
export type { ElectionFlag, Meaning, MeaningDecoder, MeaningField, SystemId } from './types';
