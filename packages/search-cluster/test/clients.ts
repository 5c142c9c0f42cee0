import { Client as ElasticsearchClient8 } from '@elastic/elasticsearch';
import { Client as OpenSearchClient3 } from '@opensearch-project/opensearch';
import { Client as ElasticsearchClient9 } from 'elasticsearch-client-9';
import { Client as OpenSearchClient2 } from 'opensearch-client-2';
import type { SearchClusterClient, SearchClusterFlavor } from '../src/index.js';

// Typing these four constructors as `OfficialClient` is the type test that every official client (two majors each) is
// assignable to the structural `SearchClusterClient`: `pnpm --filter @factkit/search-cluster typecheck` fails otherwise.
export type OfficialClient = SearchClusterClient & { close(): Promise<void> };

/** The official clients the protocol tests drive: both majors of each (devDependencies, aliased for the older/newer one). */
export interface ClientUnderTest {
  readonly label: string;
  readonly flavor: SearchClusterFlavor;
  /** A real client pointed at `url`, with no retries of its own, so scripted failures reach factkit. */
  create(url: string): OfficialClient;
}

export const CLIENTS: readonly ClientUnderTest[] = [
  { label: '@opensearch-project/opensearch 3.x', flavor: 'opensearch', create: (url) => new OpenSearchClient3({ node: url, maxRetries: 0 }) },
  { label: '@opensearch-project/opensearch 2.x', flavor: 'opensearch', create: (url) => new OpenSearchClient2({ node: url, maxRetries: 0 }) },
  { label: '@elastic/elasticsearch 8.x', flavor: 'elasticsearch', create: (url) => new ElasticsearchClient8({ node: url, maxRetries: 0 }) },
  { label: '@elastic/elasticsearch 9.x', flavor: 'elasticsearch', create: (url) => new ElasticsearchClient9({ node: url, maxRetries: 0 }) },
];

/** The current major of each flavor's client. */
export function createOfficialClient(flavor: SearchClusterFlavor, url: string): OfficialClient {
  return (CLIENTS.find((client) => client.flavor === flavor) as ClientUnderTest).create(url);
}

export const FLAVORS: readonly SearchClusterFlavor[] = ['opensearch', 'elasticsearch'];
