import type { Core } from '../core/core';
import type { ZnodeFileSystem } from './znodeFileSystem';

/** What the editing commands work with: the core and the znode file system. */
export interface EditingContext extends Core {
  readonly znodeFs: ZnodeFileSystem;
}
