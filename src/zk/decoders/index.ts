import { decodeNode } from './registry';
import { decodedDocument as documentWith } from './decodedJson';
import type { DecodeContext } from './types';

export { decodeNode, decoders, decodeContextPaths, mightDecode } from './registry';
export { readDecodeContext, sessionContextRead } from './readContext';
export type { ContextRead } from './readContext';
export { decodedJson } from './decodedJson';
export type { DecodedJson } from './decodedJson';
export type { ElectionFlag, Decoded, DecodeContext, SystemDecoder, DecodedField, SystemId } from './types';

/** `get --decoded`'s document, decoded with every known system (and the related nodes' data, readDecodeContext). */
export const decodedDocument = (path: string, data: Uint8Array | null, context?: DecodeContext) =>
  documentWith(path, data, (p, d) => decodeNode(p, d, undefined, context));
