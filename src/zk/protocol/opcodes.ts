/** ZooDefs.OpCode values used here (the full list is in zookeeper-jute's zookeeper.jute). */
export const OpCode = {
  create: 1,
  delete: 2,
  exists: 3,
  getData: 4,
  setData: 5,
  getACL: 6,
  setACL: 7,
  getChildren: 8,
  sync: 9,
  ping: 11,
  sasl: 102,
  getChildren2: 12,
  check: 13,
  multi: 14,
  create2: 15,
  removeWatches: 18,
  createContainer: 19,
  createTTL: 21,
  multiRead: 22,
  getEphemerals: 103,
  getAllChildrenNumber: 104,
  addWatch: 106,
  whoAmI: 107,
} as const;

/** Reply xids the server uses for frames that answer no request. */
export const Xid = { notification: -1, ping: -2, auth: -4, setWatches: -8 } as const;

/** AddWatchMode. */
export const AddWatchMode = { persistent: 0, persistentRecursive: 1 } as const;

/** WatcherType, as removeWatches takes it. */
export const WatcherType = { children: 1, data: 2, any: 3, persistent: 4, persistentRecursive: 5 } as const;

/** Watcher.Event.EventType. */
export const EventType = { none: -1, created: 1, deleted: 2, dataChanged: 3, childrenChanged: 4 } as const;
