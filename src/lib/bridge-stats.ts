/**
 * The MQTT bridge's message counters: kept by the bridge (src/mqtt/bridge.ts), read by /health,
 * /metrics and the admin UI. Here so a reader need not import the MQTT door for its shape.
 */
export interface BridgeStats {
  received: number;
  ingested: number;
  ignored: number;
  unparseable: number;
  rejected: number;
  /** unparseable/rejected messages per topic (bounded to the most recent topics) */
  errors_by_topic: Record<string, number>;
}
