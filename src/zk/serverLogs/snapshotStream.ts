// A snapshot file's bytes, decompressed by its extension as SnapStream.getStreamMode picks it: ".gz" is gzip,
// ".snappy" is snappy-java's stream format, anything else is plain.
import * as fs from 'node:fs';
import * as zlib from 'node:zlib';
import { snappyJavaBlocks } from './snappyJavaStream';

export type SnapshotCompression = 'gz' | 'snappy' | 'none';

export function snapshotCompression(fileName: string): SnapshotCompression {
  const parts = fileName.split('.');
  const last = parts.length > 1 ? parts[parts.length - 1].toLowerCase() : '';
  return last === 'gz' ? 'gz' : last === 'snappy' ? 'snappy' : 'none';
}

/** The uncompressed bytes of a snapshot file, streamed. */
export function snapshotBytes(file: string, chunkBytes = 256 * 1024): AsyncIterable<Buffer> {
  const compression = snapshotCompression(file);
  const raw = fs.createReadStream(file, { highWaterMark: chunkBytes });
  if (compression === 'none') return raw;
  if (compression === 'snappy') return snappyJavaBlocks(raw);
  const gunzip = zlib.createGunzip({ chunkSize: chunkBytes });
  raw.on('error', (error) => gunzip.destroy(error));
  return raw.pipe(gunzip);
}
