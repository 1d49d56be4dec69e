// `zooscope lock`: being written (see the open issue); exits with an error until then.
export async function runLock(_args: string[]): Promise<number> {
  process.stderr.write('zooscope lock: not available yet\n');
  return 1;
}
