// ConfigUtils.getClientConfigStr: `config -c` prints the config's version and the servers' client addresses.

/** `version host:port,host:port` from the dynamic config text (properties: `server.N=…;clientHost:clientPort`). */
export function clientConfigString(configText: string): string {
  let version = '';
  const servers: string[] = [];
  for (const raw of configText.split(/\r?\n/)) {
    const line = raw.trim();
    if (!line || line.startsWith('#') || line.startsWith('!')) continue;
    const eq = line.search(/[=:]/);
    if (eq < 0) continue;
    const key = line.slice(0, eq).trim();
    const value = line.slice(eq + 1).trim();
    if (key === 'version') version = value;
    if (!key.startsWith('server.')) continue;
    const client = value.split(';')[1];
    if (!client) continue;
    const address = client.includes(':') ? client : `0.0.0.0:${client}`;
    servers.push(address);
  }
  return `${version} ${servers.join(',')}`;
}
