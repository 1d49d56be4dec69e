// A snapshot file's bytes, decompressed by its extension as SnapStream.getStreamMode picks it: ".gz" is gzip,
// ".snappy" is snappy-java's stream format, anything else is plain.
import * as fs from 'node:fs';
import * as zlib from 'node:zlib';

export type SnapshotCompression = 'gz' | 'snappy' | 'none';

export function snapshotCompression(fileName: string): SnapshotCompression {
  const parts = fileName.split('.');
  const last = parts.length > 1 ? parts[parts.length - 1].toLowerCase() : '';
  return last === 'gz' ? 'gz' : last === 'snappy' ? 'snappy' : 'none';
}

export class UnsupportedCompression extends Error {}

/** The uncompressed bytes of a snapshot file, streamed. */
export function snapshotBytes(file: string, chunkBytes = 256 * 1024): AsyncIterable<Buffer> {
  const compression = snapshotCompression(file);
  if (compression === 'snappy') {
    throw new UnsupportedCompression('snappy-compressed snapshots are not read yet (snappy-java stream format)');
  }
  const raw = fs.createReadStream(file, { highWaterMark: chunkBytes });
  if (compression === 'none') return raw;
  const gunzip = zlib.createGunzip({ chunkSize: chunkBytes });
  raw.on('error', (error) => gunzip.destroy(error));
  return raw.pipe(gunzip);
}
