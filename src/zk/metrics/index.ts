export { LockMetrics, DEFAULT_MAX_LOCKS, DURATION_BUCKETS, OTHER_LOCKS, type LockMetricsOptions } from './lockMetrics';
export { CONTENT_TYPES, escapeLabelValue, formatFor, render, type ExpositionFormat, type Family } from './exposition';
export { CensusMetrics, DEFAULT_METRICS_TOP } from './censusMetrics';
