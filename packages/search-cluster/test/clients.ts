import { Client as ElasticsearchClient } from '@elastic/elasticsearch';
import { Client as OpenSearchClient } from '@opensearch-project/opensearch';
import type { SearchClusterClient, SearchClusterFlavor } from '../src/index.js';

/** A real official client of the given flavor pointed at `url` (no retries of its own, so scripted failures reach us). */
export function createOfficialClient(flavor: SearchClusterFlavor, url: string): SearchClusterClient & { close(): Promise<void> } {
  if (flavor === 'elasticsearch') return new ElasticsearchClient({ node: url, maxRetries: 0 });
  return new OpenSearchClient({ node: url, maxRetries: 0 });
}

export const FLAVORS: readonly SearchClusterFlavor[] = ['opensearch', 'elasticsearch'];
