// `zooscope locks`: being written (see the open issue); exits with an error until then.
export async function runLocks(_args: string[]): Promise<number> {
  process.stderr.write('zooscope locks: not available yet\n');
  return 1;
}
