// API summary (placeholder; completed once the write API is tested).
export * from './aclFormat';
export * from './createNode';
export * from './deleteExecute';
export * from './deleteMany';
export * from './deletePlan';
export * from './guard';
export * from './outcome';
export * from './znodeWriter';
export type { AclEntry, AclReply } from '../protocol/writes';
export { OPEN_ACL } from '../protocol/writes';
