// What each role's components connect to. One declaration read twice: the service starts a
// component only when a role it runs declares it (app/service.ts), and test/k8s.test.ts renders
// the NetworkPolicies and fails when a role's declared component has no egress rule for its
// destination. A component that starts calling something new is declared here first, so the
// cluster's policies cannot silently lag behind the code.
import type { Role } from './config.ts';

/** Systems outside the process, each named by the setting that points at it. */
export const DESTINATIONS = {
  postgres: { setting: 'DATABASE_URL', what: 'PostgreSQL (the edge through the pooler)' },
  bus: { setting: 'KAFKA_BROKERS', what: 'the Kafka brokers' },
  opensearch: { setting: 'OPENSEARCH_URL', what: 'OpenSearch' },
  smtp: { setting: 'SMTP_URL', what: 'the SMTP server or relay' },
  'object-storage': { setting: 'STORAGE_URL', what: 'the S3-compatible object store' },
  'video-api': { setting: 'VIDEO_API_URL', what: 'the video platform\'s API' },
  'microblog-mirror': { setting: 'MICROBLOG_MIRROR_URL', what: 'the microblog mirror front end (Chromium)' },
  'map-api': { setting: 'MAP_API_URL', what: 'the map platform\'s keyword search' },
} as const;
export type Destination = keyof typeof DESTINATIONS;

/** Each component the service starts, and the destinations it opens connections to. */
export const COMPONENTS = {
  /** The connection pool every role opens, and the migrations at start. */
  database: ['postgres'],
  /** The bus client (Kafka producer; the PostgreSQL bus when KAFKA_BROKERS is unset). */
  bus: ['bus'],
  /** The search index (OpenSearch when OPENSEARCH_URL is set, else tables in PostgreSQL). */
  'search-index': ['opensearch'],
  /** File storage (S3 when STORAGE_URL is set, else DATA_DIR). */
  storage: ['object-storage'],
  /** Sends queued mails: verification and password reset. */
  'mail-delivery': ['smtp'],
  /** The API routes, including the map place search. */
  'api-routes': ['postgres', 'object-storage', 'map-api'],
  /** The live calendar's change feed and fan-out. */
  'live-edge': ['postgres'],
  /** Drops cached months when another replica writes. */
  'cache-invalidation': ['bus'],
  /** Publishes the outbox to the bus. */
  'outbox-relay': ['postgres', 'bus'],
  /** Writes what the bots collected. */
  'schedule-writer': ['postgres', 'bus'],
  /** Keeps OpenSearch in step with the writes. */
  'search-indexer': ['postgres', 'bus', 'opensearch'],
  /** Deletes stored files no row refers to. */
  'orphan-sweeper': ['postgres', 'object-storage'],
  /** Prunes the view counters, saved searches and the live change log. */
  pruning: ['postgres'],
  /** The collection bots: the video API and the microblog mirror, posters into storage. */
  'bot-runner': ['postgres', 'video-api', 'microblog-mirror', 'object-storage'],
} as const satisfies Record<string, readonly Destination[]>;
export type Component = keyof typeof COMPONENTS;

/** The components each role runs (ARCHITECTURE.md, "Roles and processes"). */
export const ROLE_COMPONENTS: Record<Role, readonly Component[]> = {
  edge: ['database', 'bus', 'search-index', 'storage', 'mail-delivery', 'api-routes', 'live-edge', 'cache-invalidation'],
  // Actors claim mails from the shared queue too: without SMTP a claimed mail waits out its retry.
  actors: ['database', 'bus', 'search-index', 'storage', 'mail-delivery', 'outbox-relay', 'schedule-writer', 'search-indexer', 'orphan-sweeper', 'pruning'],
  bots: ['database', 'bus', 'search-index', 'storage', 'bot-runner'],
};

/** The destinations a role's components connect to. */
export function roleEgress(role: Role): Set<Destination> {
  return new Set(ROLE_COMPONENTS[role].flatMap((component) => COMPONENTS[component]));
}

/** Which components a process with these roles starts. */
export interface ComponentPlan {
  /** True when one of the roles declares the component. */
  runs(component: Component): boolean;
  /** Throws unless one of the roles declares the component (a process without a role, such as the demo seed, serves nothing and passes). */
  require(component: Component): void;
}

export function componentPlan(roles: ReadonlySet<Role>): ComponentPlan {
  const declared = new Set([...roles].flatMap((role) => ROLE_COMPONENTS[role]));
  return {
    runs: (component) => declared.has(component),
    require(component) {
      if (roles.size > 0 && !declared.has(component)) {
        throw new Error(`component ${component} is started but not declared for roles ${[...roles].join(', ')} in shared/runtime/egress.ts`);
      }
    },
  };
}
