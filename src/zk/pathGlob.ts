// Globs over relative paths ("/" is the compared root): `*` matches within one name, `**` any number of whole
// names (including none), `?` one character. `/services/*/config`, `/**/cache`, `/tmp/**`.
export type PathGlob = (relativePath: string) => boolean;

function escapeRegExp(text: string): string {
  return text.replace(/[.+^${}()|[\]\\]/g, '\\$&');
}

export function parsePathGlob(glob: string): PathGlob {
  const pattern = glob.startsWith('/') ? glob : `/${glob}`;
  let source = '';
  for (let i = 0; i < pattern.length; i++) {
    const char = pattern[i];
    if (char === '*' && pattern[i + 1] === '*') {
      // After a slash, `**` may also match no names: `/a/**/b` matches `/a/b`, `/tmp/**` matches `/tmp`.
      source = source.endsWith('/') ? `${source.slice(0, -1)}(?:/.*)?` : `${source}.*`;
      i++;
    } else if (char === '*') source += '[^/]*';
    else if (char === '?') source += '[^/]';
    else source += escapeRegExp(char);
  }
  const regex = new RegExp(`^${source}$`, 'u');
  return (path) => regex.test(path);
}

/** Whether any of the globs matches. */
export function anyGlob(globs: readonly PathGlob[]): PathGlob {
  return (path) => globs.some((glob) => glob(path));
}
