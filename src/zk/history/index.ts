export * from './model';
export { LockHistory, DEFAULT_MAX_INTERVALS } from './history';
export { LockRecorder, type HistoryEvent } from './recorder';
export * from './figures';
export * from './recordingFile';
export { writeTrace, type TraceOptions } from './traceExport';
export { DurationSketch } from './sketch';
export { followMonitor } from './follow';
export { writeTraceFromRecording, type StreamedTrace } from './traceStream';
