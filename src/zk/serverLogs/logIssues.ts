// What can be wrong in a server's log or snapshot file, each said in one line, with where it is.

export type LogIssueKind =
  /** The file is not a transaction log or snapshot (magic number), or too short for its header. */
  | 'badHeader'
  /** The file ends inside an entry: the server stopped mid-write (or the copy was cut short). */
  | 'tornEntry'
  /** An entry whose checksum does not match its bytes: skipped, the next one read. */
  | 'badChecksum'
  /** A length no entry can have (negative, or above the limit): the rest of the file cannot be framed. */
  | 'badLength'
  /** An entry not followed by its end byte 0x42: the rest of the file cannot be framed. */
  | 'badEndByte'
  /** An entry that is framed and checksummed but does not parse as a transaction: skipped. */
  | 'undecodable'
  /** A snapshot seal (checksum so far) that does not match, or that is missing. */
  | 'badSeal'
  /** More items than the reader's limit (a snapshot that never ends, an ACL cache bomb). */
  | 'tooMany'
  /** Transactions that no log given holds, between two that some log does (one source or several merged). */
  | 'gap'
  /** A log file that changed while it was read: a running server is writing it. */
  | 'beingWritten'
  /** An audit log line that cannot be taken (cut, too long, a value that splits two ways, no time). */
  | 'badAuditLine';

export interface LogIssue {
  kind: LogIssueKind;
  /** The file, as the caller named it ('' for a gap, which is between files). */
  file: string;
  /** Byte offset in the (uncompressed) stream where the trouble starts. */
  offset: number;
  /** One line of English saying what and what was done about it. */
  message: string;
}

export function logIssue(kind: LogIssueKind, file: string, offset: number, message: string): LogIssue {
  return { kind, file, offset, message: `${file} at byte ${offset}: ${message}` };
}
