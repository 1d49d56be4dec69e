// The commands of "znode operations and data editing", registered by commands/registerCommands.ts.
import { compareWithServer, saveOverwriting } from '../editing/conflictCommands';
import { openData, openDataAsBase64, openDataAsHex, openDataAsText } from '../editing/openData';
import { search } from '../search/searchCommand';
import type { Services } from '../core/core';
import { exportTree } from '../transfer/exportCommand';
import { importTree } from '../transfer/importCommand';
import { addCredentials } from './addCredentialsCommand';
import { createNode } from './createNodeCommand';
import { deleteNodes } from './deleteCommand';
import { deleteRecursively } from './deleteRecursiveCommand';
import { editAcl } from './editAclCommand';

export const writeCommands: Record<string, (services: Services, ...args: never[]) => unknown> = {
  'zooscope.createNode': createNode,
  'zooscope.openData': (s, arg?: unknown) => openData(s, arg),
  'zooscope.openDataAsText': openDataAsText,
  'zooscope.openDataAsHex': openDataAsHex,
  'zooscope.openDataAsBase64': openDataAsBase64,
  'zooscope.compareWithServer': compareWithServer,
  'zooscope.saveOverwriting': saveOverwriting,
  'zooscope.delete': deleteNodes,
  'zooscope.deleteRecursive': deleteRecursively,
  'zooscope.editAcl': editAcl,
  'zooscope.addCredentials': addCredentials,
  'zooscope.search': search,
  'zooscope.clearSearchResults': (s) => s.searchResults.clear(),
  'zooscope.exportSubtree': exportTree,
  'zooscope.importSubtree': importTree,
};
