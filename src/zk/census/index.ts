// The watch census: who watches what on every member, the hidden child watches, herd risk per lock queue, leaks.
export type * from './model';
export { takeCensus, DEFAULT_TOP, DEFAULT_ANSWER_MS, DEFAULT_LISTING_MS, type CensusOptions, type MemberCost } from './census';
export { censusOfSession, DEFAULT_ADMIN_PORT, type SessionCensusOptions } from './sessionCensus';
export { compareCensuses, readSavedCensus, CensusFormatError, type CensusComparison, type SessionGrowth, type PathGrowth, type ServerGrowth } from './compare';
export { herdRisk, herdRisks } from './herd';
