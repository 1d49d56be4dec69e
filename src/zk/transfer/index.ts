// Moving data: export a subtree to JSON (format documented in exportFormat.ts). Importing one is copying from it:
// src/zk/compare's copy plan takes an export as its source (relocated to any target root, with a dry run).
//   exportSubtree(session, root, write, { signal, onProgress }) → { nodes, ephemeral, crawl, complete }
//   parseExport(text) → { ok, doc } | { ok: false, problem: notJson | notAnExport | unsupportedVersion | badNode }
export * from './exportFormat';
export * from './exportTree';
