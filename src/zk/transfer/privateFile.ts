// Export files may hold ACL-protected data (issue 24), so they are written readable by their owner only, never
// through a symbolic link at the chosen name, and an existing file is replaced whole rather than rewritten in place.
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';

export class SymlinkRefusedError extends Error {
  constructor(readonly file: string) {
    super(`${file} is a symbolic link; not writing through it`);
    this.name = 'SymlinkRefusedError';
  }
}

export interface PrivateFile {
  write(chunk: string): void;
  /** Puts the finished file at its name (replacing what was there). */
  commit(): void;
  /** Drops what was written; whatever was at the name stays as it was. */
  discard(): void;
}

const WRITE_CHARS = 256 * 1024;

function refuseSymlink(file: string): void {
  try {
    if (fs.lstatSync(file).isSymbolicLink()) throw new SymlinkRefusedError(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

/**
 * Opens a 0600 file to be put at `file` on commit: written as a fresh temporary file in the same folder (O_EXCL,
 * O_NOFOLLOW) and renamed over the name, so an existing file is replaced with the new mode, not kept with its own.
 */
export function createPrivateFile(file: string): PrivateFile {
  refuseSymlink(file);
  const temporary = path.join(path.dirname(file), `.${path.basename(file)}.${crypto.randomBytes(6).toString('hex')}.tmp`);
  const { O_WRONLY, O_CREAT, O_EXCL, O_NOFOLLOW } = fs.constants;
  const fd = fs.openSync(temporary, O_WRONLY | O_CREAT | O_EXCL | (O_NOFOLLOW ?? 0), 0o600);
  let open = true;
  const close = () => {
    if (open) fs.closeSync(fd);
    open = false;
  };
  try {
    // The umask may only take bits away, but say it outright in case the file system ignores the open mode.
    fs.fchmodSync(fd, 0o600);
  } catch (error) {
    close();
    fs.rmSync(temporary, { force: true });
    throw error;
  }
  // An export is written a node at a time: the chunks are gathered into writes of about WRITE_BYTES each.
  let pending: string[] = [];
  let pendingLength = 0;
  const flush = () => {
    if (pending.length > 0) fs.writeSync(fd, pending.join(''));
    pending = [];
    pendingLength = 0;
  };
  return {
    write: (chunk) => {
      pending.push(chunk);
      pendingLength += chunk.length;
      if (pendingLength >= WRITE_CHARS) flush();
    },
    commit: () => {
      try {
        flush();
        fs.fsyncSync(fd);
        close();
        refuseSymlink(file);
        fs.renameSync(temporary, file);
      } catch (error) {
        close();
        fs.rmSync(temporary, { force: true });
        throw error;
      }
    },
    discard: () => {
      close();
      fs.rmSync(temporary, { force: true });
    },
  };
}

/** Writes a private file whole or not at all: `fill` writes its chunks; a throw leaves what was at the name as it was. */
export async function writePrivateFile<T>(file: string, fill: (write: (chunk: string) => void) => T | Promise<T>): Promise<T> {
  const target = createPrivateFile(file);
  try {
    const result = await fill((chunk) => target.write(chunk));
    target.commit();
    return result;
  } catch (error) {
    target.discard();
    throw error;
  }
}
