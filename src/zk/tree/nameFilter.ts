// Filters a node's children by name: a glob (`lock-*`, `item-?[0-9]`) or a regular expression written `/…/flags`.

export type NameFilter = { text: string; test(name: string): boolean };
export type NameFilterProblem = { code: 'badRegex'; message: string };

function globToRegExp(glob: string): RegExp {
  let source = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === '*') source += '.*';
    else if (c === '?') source += '.';
    else if (c === '[') {
      const close = glob.indexOf(']', i + 2);
      if (close < 0) { source += '\\['; continue; }
      let body = glob.slice(i + 1, close).replace(/\\/g, '\\\\');
      if (body.startsWith('!')) body = '^' + body.slice(1);
      source += `[${body}]`;
      i = close;
    } else source += c.replace(/[.+^${}()|\\/]/g, '\\$&');
  }
  return new RegExp(`^${source}$`, 'u');
}

export function parseNameFilter(text: string): NameFilter | NameFilterProblem {
  const regex = /^\/(.*)\/([a-z]*)$/s.exec(text);
  let re: RegExp;
  try {
    re = regex ? new RegExp(regex[1], regex[2].replace(/[gy]/g, '')) : globToRegExp(text);
  } catch (error) {
    return { code: 'badRegex', message: (error as Error).message };
  }
  return { text, test: (name) => re.test(name) };
}

export function isNameFilterProblem(v: NameFilter | NameFilterProblem): v is NameFilterProblem {
  return 'code' in v;
}
