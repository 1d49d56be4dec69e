// Which file runs when ZooScope starts `ssh` (or `ssh-keygen`): an absolute path, found once through PATH. A bare
// name would be looked up at each start, and on Windows it runs `ssh.exe` from the current folder first (a cloned
// repository's); so are relative PATH entries (`.`, or an empty one) here: they are skipped.
import * as fs from 'node:fs';
import * as path from 'node:path';

const found = new Map<string, string>();

function isProgram(file: string): boolean {
  try {
    if (!fs.statSync(file).isFile()) return false;
    if (process.platform !== 'win32') fs.accessSync(file, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The file `name` names on PATH (absolute folders only); undefined when there is none. */
function searchPath(name: string, env: NodeJS.ProcessEnv): string | undefined {
  const windows = process.platform === 'win32';
  const extensions = windows && path.extname(name) === '' ? (env.PATHEXT ?? '.EXE;.CMD;.BAT;.COM').split(';').filter(Boolean) : [''];
  for (const folder of (env.PATH ?? env.Path ?? '').split(path.delimiter)) {
    if (!path.isAbsolute(folder)) continue;
    for (const extension of extensions) {
      const file = path.join(folder, name + extension.toLowerCase());
      if (isProgram(file)) return file;
    }
  }
  return undefined;
}

/**
 * The absolute path of `program`: itself when absolute, else (a bare name) the first match on PATH, remembered.
 * A relative path with a folder in it is refused (it would depend on the current folder). Throws a one-line Error
 * when there is no such program.
 */
export function resolveProgram(program: string, env: NodeJS.ProcessEnv = process.env): string {
  if (path.isAbsolute(program)) return program;
  if (program.includes('/') || program.includes('\\')) throw new Error(`${program} is not an absolute path or a program name on PATH`);
  const key = `${program}\0${env.PATH ?? env.Path ?? ''}`;
  const known = found.get(key);
  if (known !== undefined) return known;
  const file = searchPath(program, env);
  if (file === undefined) throw new Error(`${program} was not found on PATH`);
  found.set(key, file);
  return file;
}
