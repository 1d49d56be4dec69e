// Every command the extension contributes, by name. Features register and run commands through these constants
// (checked against package.json by test/unit/commandIds.test.ts), never through string literals.
export const Command = {
  addConnection: 'zooscope.addConnection',
  editConnection: 'zooscope.editConnection',
  removeConnection: 'zooscope.removeConnection',
  connect: 'zooscope.connect',
  disconnect: 'zooscope.disconnect',
  refresh: 'zooscope.refresh',
  refreshAll: 'zooscope.refreshAll',
  copyPath: 'zooscope.copyPath',
  goToPath: 'zooscope.goToPath',
  filterChildren: 'zooscope.filterChildren',
  clearFilter: 'zooscope.clearFilter',
  showDetails: 'zooscope.showDetails',
  showMore: 'zooscope.showMore',
  showLog: 'zooscope.showLog',
  showLockQueue: 'zooscope.showLockQueue',
  showLocksUnder: 'zooscope.showLocksUnder',
  refreshEnsemble: 'zooscope.refreshEnsemble',
  acquireLock: 'zooscope.acquireLock',
  acquireReadLock: 'zooscope.acquireReadLock',
  acquireWriteLock: 'zooscope.acquireWriteLock',
  joinElection: 'zooscope.joinElection',
  releaseLock: 'zooscope.releaseLock',
  releaseAllLocks: 'zooscope.releaseAllLocks',
  revealHeldLock: 'zooscope.revealHeldLock',
  clearHeldLocks: 'zooscope.clearHeldLocks',
  createNode: 'zooscope.createNode',
  openData: 'zooscope.openData',
  openDataAsText: 'zooscope.openDataAsText',
  openDataAsHex: 'zooscope.openDataAsHex',
  openDataAsBase64: 'zooscope.openDataAsBase64',
  compareWithServer: 'zooscope.compareWithServer',
  saveOverwriting: 'zooscope.saveOverwriting',
  delete: 'zooscope.delete',
  deleteRecursive: 'zooscope.deleteRecursive',
  editAcl: 'zooscope.editAcl',
  addCredentials: 'zooscope.addCredentials',
  search: 'zooscope.search',
  clearSearchResults: 'zooscope.clearSearchResults',
  exportSubtree: 'zooscope.exportSubtree',
  importSubtree: 'zooscope.importSubtree',
} as const;

export type CommandId = (typeof Command)[keyof typeof Command];

/** Commands VS Code itself provides for our views. */
export const ViewCommand = {
  focusHeldLocks: 'zooscope.heldLocks.focus',
  focusSearchResults: 'zooscope.searchResults.focus',
} as const;
