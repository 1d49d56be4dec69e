// A saved connection as it stands in the `zooscope.connections` setting (the password is never part of it).
export interface SavedConnection {
  id: string;
  name: string;
  connectString: string;
  chroot?: string;
  sessionTimeoutMs?: number;
  readOnly?: boolean;
  digestUser?: string;
}
