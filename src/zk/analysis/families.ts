// The client libraries (and bare conventions) a queue's node names are told apart by (recipes.ts parses them).
export type Family = 'curator' | 'go-zookeeper' | 'kazoo' | 'zk-write-lock' | 'zk-leader-election' | 'solr' | 'plain' | 'unknown';
