import { collectDefaultMetrics, Counter, Histogram, Registry } from 'prom-client';

/** What one webhook delivery attempt came to; a fixed set, so the label stays bounded. */
export const webhookDeliveryOutcomes = ['success', 'http_error', 'timeout', 'network_error', 'refused'] as const;
export type WebhookDeliveryOutcome = (typeof webhookDeliveryOutcomes)[number];

/** Label of a request that matched no route: one value for every unknown URL. */
export const UNMATCHED_ROUTE = 'unmatched';

/**
 * The Prometheus metrics of one server instance, in its own registry: tests run several servers in
 * one process, and the global default registry would mix (and refuse to re-register) their
 * metrics. What is counted as it happens lives here; what is read on scrape (the fleet, OTA jobs,
 * event lag, the ingest's counters) is added by `registerCollectors`.
 */
export interface Metrics {
  readonly registry: Registry;
  /** One webhook delivery attempt finished (the webhooks feature calls this). */
  countWebhookDelivery(outcome: WebhookDeliveryOutcome): void;
  /** One ingest flush (a transaction of up to thousands of messages) took this long. */
  observeIngestBatch(seconds: number): void;
  /** One HTTP request answered: `route` is the route template (never the raw URL). */
  observeHttp(method: string, route: string, status: number, seconds: number): void;
  /** The port of the separate metrics listener while it runs (METRICS_PORT), else null. */
  listenerPort: number | null;
}

export function createMetrics(): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });

  const webhookDeliveries = new Counter({
    name: 'mowerline_webhook_deliveries_total',
    help: 'Webhook delivery attempts by outcome',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  for (const outcome of webhookDeliveryOutcomes) webhookDeliveries.inc({ outcome }, 0);

  // A flush writes up to 10,000 rows; on PGlite a large one takes seconds.
  const ingestBatch = new Histogram({
    name: 'mowerline_ingest_batch_seconds',
    help: 'Duration of one ingest flush (one database transaction of device messages, retries and splits included)',
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [registry],
  });

  const httpDuration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request duration by method, route template and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });

  return {
    registry,
    countWebhookDelivery: (outcome) => webhookDeliveries.inc({ outcome }),
    observeIngestBatch: (seconds) => ingestBatch.observe(seconds),
    observeHttp: (method, route, status, seconds) => httpDuration.observe({ method, route, status: String(status) }, seconds),
    listenerPort: null,
  };
}
