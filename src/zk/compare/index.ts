// Compare, copy and mirror subtrees: live on the same or another session, or an export file, on either side.
//   compareSubtrees(left, right, { ignoreEphemeral, ignoreAcls, ignoreData: globs, signal, onProgress })
//     → differences (onlyLeft | onlyRight | data | acl | mode | changed), equal, complete, limits
//   planCopy(source, targetSession, targetRoot, { mirror, acls }) → creates, data changes, ACL changes, deletes
//   executeCopy(targetSession, plan, guard) → counts, failed, remaining (plan and run again to finish)
export * from './compareSubtrees';
export * from './copyExecute';
export * from './copyPlan';
export * from './differences';
export * from './overlap';
export * from '../pathGlob';
export * from './snapshot';
