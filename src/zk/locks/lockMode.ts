// What kind of lock an attempt asks for: a leaf both the conventions (which role each mode plays in a library's
// queue) and the attempt's reports (types.ts) read.
/**
 * exclusive: one holder. read/write: readers share, a writer excludes everyone. election: fair leader election
 * (sequential nodes, each candidate watches its predecessor; the lowest leads). unfairElection: one ephemeral node
 * at the path itself; whoever creates it leads, everyone else watches it.
 */
export type LockMode = 'exclusive' | 'read' | 'write' | 'election' | 'unfairElection';
