// Moving data: export a subtree to JSON (format documented in exportFormat.ts) and import it back, with a dry run.
//   exportSubtree(session, root, write, { signal, onProgress }) → { nodes, ephemeral, crawl, complete }
//   parseExport(text) → { ok, doc } | { ok: false, problem: notJson | notAnExport | unsupportedVersion | badNode }
//   planImport(session, doc, { targetRoot?, signal, onProgress, guard }) → plan: entries (create | update |
//     unchanged | skip with reason) and counts; nothing is written.
//   executeImport(session, plan, { readOnly }, { signal, onProgress }) → { ok, report }: created, updated,
//     unchanged, failed (WriteFailure[]), remaining, interrupted. Run the same plan again after an interruption.
export * from './exportFormat';
export * from './exportTree';
export * from './importExecute';
export * from './importPlan';
