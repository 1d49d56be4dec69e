// The consistency check's thresholds as the user set them (`zooscope.ensemble.*`), read fresh for every check.
import * as vscode from 'vscode';
import { AgreementThresholds, DEFAULT_THRESHOLDS } from '../../zk/servers/agreementRules';

/** A setting's number when it is one within [min, max] (hand-written settings may hold anything), else the default. */
function bounded(value: unknown, min: number, max: number, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) && value >= min && value <= max ? value : fallback;
}

export function agreementThresholds(): AgreementThresholds {
  const config = vscode.workspace.getConfiguration('zooscope.ensemble');
  return {
    maxLagTransactions: Math.floor(bounded(config.get('maxLagTransactions'), 0, 0xffffffff, DEFAULT_THRESHOLDS.maxLagTransactions)),
    znodeTolerance: Math.floor(bounded(config.get('znodeTolerance'), 0, Number.MAX_SAFE_INTEGER, DEFAULT_THRESHOLDS.znodeTolerance)),
    deadlineMs: Math.round(1000 * bounded(config.get('memberDeadlineSeconds'), 0.1, 600, DEFAULT_THRESHOLDS.deadlineMs / 1000)),
  };
}
