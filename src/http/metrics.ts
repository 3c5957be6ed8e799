/** Prometheus text exposition (format 0.0.4) of Hearth's counters, written by hand: a few lines, no dependency. */
import type { Services } from '../services.js';
import type { BridgeStats } from '../lib/bridge-stats.js';

const esc = (v: string) => v.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');

export function renderMetrics(
  s: Services,
  extra: {
    mqtt?: {
      bridge?: BridgeStats;
      connected?: boolean;
      offline_queue?: { messages: number; bytes: number };
      throttled?: number;
    };
  },
): string {
  const lines: string[] = [];
  const metric = (
    name: string,
    type: 'counter' | 'gauge',
    help: string,
    samples: [Record<string, string>, number][],
  ) => {
    lines.push(`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`);
    for (const [labels, value] of samples) {
      const l = Object.entries(labels)
        .map(([k, v]) => `${k}="${esc(v)}"`)
        .join(',');
      lines.push(`${name}${l ? `{${l}}` : ''} ${Number.isFinite(value) ? value : 0}`);
    }
  };
  const snap = s.status.snapshot();
  metric('hearth_entities', 'gauge', 'Entities known', [[{}, snap.entities]]);
  metric(
    'hearth_memories',
    'gauge',
    'Memories by status',
    Object.entries(snap.memories.by_status).map(([status, n]) => [{ status }, n]),
  );
  metric('hearth_memories_pending_embedding', 'gauge', 'Memories waiting for a vector', [[{}, snap.pending_embedding]]);
  metric('hearth_series', 'gauge', 'Time series (entity, metric) known', [[{}, snap.series]]);
  const ingest = s.timeseries.writer.stats;
  metric('hearth_ingest_readings_total', 'counter', 'Readings offered to the ingest writer, by result', [
    [{ result: 'accepted' }, ingest.accepted],
    [{ result: 'rejected' }, ingest.rejected],
    [{ result: 'skipped_duplicate' }, ingest.skipped],
  ]);
  metric(
    'hearth_ingest_source_readings_total',
    'counter',
    'Readings by source and result',
    Object.entries(ingest.by_source).flatMap(
      ([source, c]) =>
        [
          [{ source, result: 'accepted' }, c.accepted],
          [{ source, result: 'rejected' }, c.rejected],
        ] as [Record<string, string>, number][],
    ),
  );
  metric('hearth_ingest_batches_total', 'counter', 'Committed ingest transactions', [[{}, ingest.batches]]);
  const cache = snap.rollup_cache;
  metric(
    'hearth_rollup_cache_bytes',
    'gauge',
    'Memory held for the latest hour, day and week of each series (bounded)',
    [[{}, cache.bytes]],
  );
  metric('hearth_rollup_cache_series', 'gauge', 'Series whose latest hour, day and week are held in memory', [
    [{}, cache.series],
  ]);
  const b = extra.mqtt?.bridge;
  if (b) {
    metric(
      'hearth_mqtt_messages_total',
      'counter',
      'MQTT messages seen by the bridge, by outcome',
      (['received', 'ingested', 'ignored', 'unparseable', 'rejected'] as const).map((k) => [{ outcome: k }, b[k]]),
    );
    metric(
      'hearth_mqtt_topic_errors_total',
      'counter',
      'Unparseable or rejected MQTT messages per topic',
      Object.entries(b.errors_by_topic).map(([topic, n]) => [{ topic }, n]),
    );
    metric('hearth_mqtt_connected', 'gauge', '1 when the broker or external connection is up', [
      [{}, extra.mqtt?.connected ? 1 : 0],
    ]);
  }
  const q = extra.mqtt?.offline_queue;
  if (q) {
    metric(
      'hearth_mqtt_offline_queue_messages',
      'gauge',
      'QoS 1/2 messages held for persistent sessions whose client is away (capped: mqtt.offline_queue_max_*)',
      [[{}, q.messages]],
    );
    metric('hearth_mqtt_offline_queue_bytes', 'gauge', 'Topic and payload bytes of those messages', [[{}, q.bytes]]);
  }
  const throttled = extra.mqtt?.throttled;
  if (throttled !== undefined) {
    metric(
      'hearth_mqtt_throttled_total',
      'counter',
      'Messages held back (slowed, not dropped) by the per-client throttle mqtt.max_msgs_per_sec',
      [[{}, throttled]],
    );
  }
  const mem = process.memoryUsage();
  metric('process_resident_memory_bytes', 'gauge', 'Resident memory size in bytes', [[{}, mem.rss]]);
  metric('nodejs_heap_used_bytes', 'gauge', 'V8 heap in use', [[{}, mem.heapUsed]]);
  metric('nodejs_heap_total_bytes', 'gauge', 'V8 heap reserved', [[{}, mem.heapTotal]]);
  metric('nodejs_array_buffers_bytes', 'gauge', 'Memory held by ArrayBuffers and Buffers', [[{}, mem.arrayBuffers]]);
  metric('nodejs_external_memory_bytes', 'gauge', 'Memory held by native objects (SQLite statements, buffers)', [
    [{}, mem.external],
  ]);
  metric('process_uptime_seconds', 'gauge', 'Seconds since the hub started', [[{}, Math.round(process.uptime())]]);
  return lines.join('\n') + '\n';
}
