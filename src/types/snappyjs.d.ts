// snappyjs ships no types: what the snapshot reader (uncompress) and its tests' fixtures (compress) use.
declare module 'snappyjs' {
  /** Raw snappy decompression; throws when the block says it expands past maxLength. */
  export function compress(uncompressed: Uint8Array): Uint8Array;
  export function uncompress(compressed: Uint8Array, maxLength?: number): Uint8Array;
}
