// zkCli's setquota, listquota and delquota over src/zk/tree/quota.ts, with zkCli's messages and streams.
import { deleteQuota, formatStatsTrack, limitPath, QuotaKey, QuotaLimits, QuotaRefusal, readQuota, setQuota } from '../tree/quota';
import { CliError, validatePath, wrapError, zkCodeOf } from './zkCliErrors';
import { parse, Runner, usageError } from './context';
import { javaParseInt } from './javaFormat';

const KEYS: Record<string, QuotaKey> = { n: 'count', b: 'bytes', N: 'countHardLimit', B: 'byteHardLimit' };

const setquota: Runner = async (ctx, words, spec) => {
  const parsed = parse(spec, words);
  if (parsed.args.length < 2) throw usageError(spec);
  const path = parsed.args[1];
  if (path.startsWith('/zookeeper/quota')) {
    ctx.err('cannot set a quota under the path: /zookeeper/quota\n');
    return;
  }
  const limits: QuotaLimits = {};
  for (const flag of ['n', 'b', 'N', 'B']) {
    if (!parsed.values.has(flag)) continue;
    const isCount = flag === 'n' || flag === 'N';
    const value = javaParseInt(parsed.values.get(flag), isCount ? 32 : 64);
    if (value === undefined) {
      ctx.err('NumberFormatException happens when parsing the option value\n');
      return;
    }
    if (isCount ? value <= 0n : value < 0n) {
      ctx.err(isCount ? 'the num quota must be greater than zero\n' : 'the bytes quota must be greater than or equal to zero\n');
      return;
    }
    limits[KEYS[flag]] = value;
  }
  validatePath(path);
  try {
    const result = await setQuota(ctx.session, path, limits);
    for (const warning of result.warnings) ctx.out(warning + '\n');
  } catch (error) {
    if (error instanceof QuotaRefusal) throw new CliError(error.message);
    throw wrapError(error, path);
  }
};

const listquota: Runner = async (ctx, words, spec) => {
  const parsed = parse(spec, words);
  if (parsed.args.length < 2) throw usageError(spec);
  const path = parsed.args[1];
  ctx.err(`absolute path is ${limitPath(path)}\n`);
  let quota;
  try {
    quota = await readQuota(ctx.session, path);
  } catch (error) {
    throw wrapError(error, path);
  }
  if (!quota) {
    ctx.err(`quota for ${path} does not exist.\n`);
    return;
  }
  // zkCli 3.8 prints StatsTrack's storage form as is (`count=5,bytes=-1=;byteHardLimit=…`).
  ctx.out(`Output quota for ${path} ${formatStatsTrack(quota.limits)}\n`);
  ctx.out(`Output stat for ${path} ${formatStatsTrack(quota.usage)}\n`);
};

const delquota: Runner = async (ctx, words, spec) => {
  const parsed = parse(spec, words);
  if (parsed.args.length < 2) throw usageError(spec);
  const path = parsed.args[1];
  const which = ['n', 'b', 'N', 'B'].filter((f) => parsed.values.has(f)).map((f) => KEYS[f]);
  try {
    const result = await deleteQuota(ctx.session, path, which.length ? which : undefined);
    if (result === 'noQuota') ctx.out(`Quota does not exist for ${path}\n`);
  } catch (error) {
    if (zkCodeOf(error) === -101) {
      ctx.err(`quota for ${path} does not exist.\n`);
      return;
    }
    throw wrapError(error, path);
  }
};

export const QUOTA_RUNNERS: Record<string, Runner> = { setquota, listquota, delquota };
