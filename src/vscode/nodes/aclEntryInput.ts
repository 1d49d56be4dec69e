// Building one ACL entry with quick inputs: the scheme, its id (a digest id from user + password), the permissions.
import * as vscode from 'vscode';
import { AclEntry, digestId, isAclEntryProblem, isPermissionsProblem, parseAclEntry, parsePermissions } from '../../zk/write';
import { input, pickItem } from '../common/quickInput';

const t = vscode.l10n.t;

export function describePermissionsProblem(text: string): string | undefined {
  const parsed = parsePermissions(text);
  if (!isPermissionsProblem(parsed)) return undefined;
  return t('"{0}" is not a permission letter: use c (create), d (delete), r (read), w (write), a (admin), or - for none.', parsed.letter);
}

export async function askPermissions(value: string, entry: string): Promise<number | undefined> {
  const text = await input({
    title: t('Permissions for {0}', entry), prompt: t('Letters of cdrwa: c create, d delete, r read, w write, a admin'), value,
    validateInput: describePermissionsProblem,
  });
  if (text === undefined) return undefined;
  const perms = parsePermissions(text);
  return isPermissionsProblem(perms) ? undefined : perms;
}

function askText(title: string, prompt: string, validate: (v: string) => string | undefined, password = false): Thenable<string | undefined> {
  return input({ title, prompt, password, validateInput: validate });
}

const userProblem = (v: string) => (v === '' ? t('Enter a user name.') : v.includes(':') ? t('A digest user name cannot contain ":".') : undefined);

interface SchemeItem extends vscode.QuickPickItem { scheme: 'world' | 'digestPassword' | 'digest' | 'ip' | 'auth' | 'sasl' | 'x509' | 'other' }

export async function askAclEntry(): Promise<AclEntry | undefined> {
  const items: SchemeItem[] = [
    { scheme: 'world', label: 'world:anyone', description: t('everyone') },
    { scheme: 'digestPassword', label: 'digest', description: t('a user and password (the id is computed here; the password is not kept)') },
    { scheme: 'digest', label: 'digest', description: t('an existing id user:base64(sha1)') },
    { scheme: 'ip', label: 'ip', description: t('a client address or network, e.g. 10.0.0.0/8') },
    { scheme: 'auth', label: 'auth', description: t('whoever this session is authenticated as') },
    { scheme: 'sasl', label: 'sasl', description: t('a SASL (Kerberos) principal') },
    { scheme: 'x509', label: 'x509', description: t('a client certificate\'s distinguished name') },
    { scheme: 'other', label: t('Other…'), description: t('type scheme:id:perms') },
  ];
  const pick = await pickItem(items, { title: t('Add ACL Entry'), placeHolder: t('Who gets permissions?') });
  if (!pick) return undefined;
  const title = t('Add ACL Entry');
  let scheme: string = pick.scheme;
  let id: string | undefined;
  switch (pick.scheme) {
    case 'world': id = 'anyone'; break;
    case 'auth': id = ''; break;
    case 'digestPassword': {
      const user = await askText(title, t('Digest user name'), userProblem);
      if (user === undefined) return undefined;
      const password = await askText(title, t('Password of {0} (used only to compute the id)', user), () => undefined, true);
      if (password === undefined) return undefined;
      scheme = 'digest';
      id = digestId(user, password);
      break;
    }
    case 'digest':
      id = await askText(title, t('Digest id as user:base64(sha1(user:password))'), (v) => (/^[^:]+:[A-Za-z0-9+/]{27}=$/.test(v) ? undefined : t('A digest id looks like alice:XyZ…= (28 base64 characters after the colon).')));
      break;
    case 'other': {
      const text = await askText(title, t('scheme:id:perms, e.g. ip:10.0.0.1:r'), (v) => (isAclEntryProblem(parseAclEntry(v)) ? t('Write the entry as scheme:id:perms, e.g. ip:10.0.0.1:r or digest:alice:XyZ…=:cdrwa.') : undefined));
      if (text === undefined) return undefined;
      const entry = parseAclEntry(text);
      return isAclEntryProblem(entry) ? undefined : entry;
    }
    default:
      id = await askText(title, t('Id for the {0} scheme', pick.scheme), (v) => (v === '' ? t('Enter an id.') : undefined));
  }
  if (id === undefined) return undefined;
  const perms = await askPermissions('cdrwa', `${scheme}:${id}`);
  return perms === undefined ? undefined : { scheme, id, perms };
}
