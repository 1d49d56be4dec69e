// Writing to ZooKeeper, safe by construction: the API the VS Code layer uses (no vscode import here).
//
// Every call answers an Outcome — `{ ok: true, ...facts }` or `{ ok: false, failure }` — and never throws for a
// ZooKeeper error. A WriteFailure always has `code`, `operation` (ZooKeeper's name: create, setData, delete,
// setACL, getACL, getData, addAuth) and `path`; describe it in words with describeWriteFailure (src/vscode/common/failureTexts.ts).
//   Refused before sending: readOnly | invalidPath {problem: PathProblem} | protectedPath (/, /zookeeper/**) |
//     dataTooLarge {bytes, limit} | invalidTtl {ttlMs, max} | invalidCredentials | incompletePlan |
//     childNotDeleted {child}.
//   From the server: any ErrorName of src/zk/errors.ts (nodeExists, noNode, notEmpty, badVersion,
//     noChildrenForEphemerals, invalidAcl, connectionLoss, sessionExpired, clientTimeout, ...), plus
//     extendedTypesDisabled (TTL on a server without zookeeper.extendedTypesEnabled=true; 3.8.0 says unimplemented).
//     noAuth carries `needs: { anyOf: ['w'], on: path }`: the permission and the node whose ACL decides (the parent
//     for create/delete). notEmpty in a recursive delete carries `newChildren` (created after the preview).
//
// const writer = new ZnodeWriter(session, { readOnly: connection.readOnly, maxRequestBytes?: jute.maxbuffer })
//   ZnodeWriter.childPath(parent, name)      validates ONE node name → { ok, path } | { ok: false, refusal }
//   writer.create({ path, data?, mode?, ttlMs?, acl?, createParents? })
//       mode: persistent | persistentSequential | ephemeral | ephemeralSequential | container | ttl | ttlSequential
//       → { path (real, with sequence number), stat, mode, createdParents }
//   writer.getData(path)                       → { data, stat }
//   writer.setData(path, data, expectedVersion) → { stat }        (-1: any version; badVersion is a failure)
//   writer.maxDataBytes(path, 'setData'|'create') the most data that fits in one request for that path
//   writer.delete(path, expectedVersion)       → {}               (a node without children)
//   writer.deleteMany([{ path, version? }])     → { deleted, alreadyGone, failed: WriteFailure[] }
//   writer.getAcl(path)                        → { acl: AclEntry[] {scheme, id, perms}, stat }
//   writer.setAcl(path, acl, expectedAversion) → { stat }
//   writer.addDigestAuth(user, password)       → { identities }   (allowed on read-only connections)
//   formatPermissions(31) = 'cdrwa'; parsePermissions('rw') = 3; parseAclEntry('digest:u:hash:rw');
//   digestId(user, password) = 'user:base64(sha1)' for digest ACL entries.
//
// Recursive delete, in two steps so the user confirms exactly what goes:
//   planRecursiveDelete(session, root, { signal, onProgress, window }) → { ok, plan } with plan.count,
//     plan.samples, plan.foreignEphemerals [{ path, owner }] (ephemerals of OTHER sessions), plan.complete.
//   executeDeletePlan(session, plan, { readOnly }, { signal, onProgress, batchSize }) → { ok, report } with
//     report.deleted, report.alreadyGone, report.notDeleted (WriteFailure[]), report.remaining,
//     report.cancelled, report.interrupted (connection lost: run the same plan again to finish).
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
