// The seam both transports (TLS in security/secureTransport, SSH tunnels in tunnel/tunnelTransport) replace:
// node-zookeeper-client creates its socket in one place, ConnectionManager.connect, so each transport swaps that
// method for the same steps around its own socket.

/** What a replaced connect() needs of the library's ConnectionManager (version 1.1.3). */
export interface TransportManager {
  socket?: unknown;
  connectTimeout: number;
  connectTimeoutHandler?: NodeJS.Timeout | null;
  setState(state: number): void;
  findNextServer(callback: (server: { host: string; port: string | number }) => void): void;
  onSocketConnectTimeout(): void;
  onSocketConnected(): void;
  onSocketData(chunk: Buffer): void;
  onSocketDrain(): void;
  onSocketClosed(hadError: boolean): void;
  onSocketError(error: Error): void;
  connect(): void;
}

/** The library's CONNECTING state, set before a server is picked. */
export const CONNECTING = 1;
