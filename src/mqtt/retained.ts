/**
 * Caps on retained messages. aedes keeps every retained message in memory (aedes-persistence), one
 * per topic, for as long as the broker runs, so without a cap one account could hold any amount of
 * memory. A retained publish over a cap is still delivered to current subscribers, only not
 * retained; an empty retained payload (which deletes) always passes. Bytes count topic + payload.
 */
export interface RetainedLimits {
  maxMessages: number;
  maxBytes: number;
  maxMessagesPerAccount: number;
  maxBytesPerAccount: number;
}

import { createTally } from './tally.js';

interface Entry {
  owner: string;
  bytes: number;
}

export function createRetainedLedger(limits: RetainedLimits) {
  const byTopic = new Map<string, Entry>();
  const { total, of, adjust } = createTally();

  return {
    total,
    /**
     * Records a retained publish by `owner` if it fits, replacing the topic's previous message.
     * Returns why it may not be retained, or null.
     */
    admit(owner: string, topic: string, payloadBytes: number): string | null {
      const old = byTopic.get(topic);
      if (payloadBytes === 0) {
        if (old) adjust(old.owner, -1, -old.bytes);
        byTopic.delete(topic);
        return null;
      }
      const bytes = Buffer.byteLength(topic) + payloadBytes;
      const mine = of(owner);
      const sameOwner = old?.owner === owner;
      const ownMessages = mine.messages + (sameOwner ? 0 : 1);
      const ownBytes = mine.bytes + bytes - (sameOwner ? old.bytes : 0);
      const allMessages = total.messages + (old ? 0 : 1);
      const allBytes = total.bytes + bytes - (old?.bytes ?? 0);
      if (ownMessages > limits.maxMessagesPerAccount)
        return `more than ${limits.maxMessagesPerAccount} retained messages for this account (mqtt.retained_max_messages_per_account)`;
      if (ownBytes > limits.maxBytesPerAccount)
        return `more than ${limits.maxBytesPerAccount} retained bytes for this account (mqtt.retained_max_bytes_per_account)`;
      if (allMessages > limits.maxMessages)
        return `more than ${limits.maxMessages} retained messages (mqtt.retained_max_messages)`;
      if (allBytes > limits.maxBytes) return `more than ${limits.maxBytes} retained bytes (mqtt.retained_max_bytes)`;
      if (old) adjust(old.owner, -1, -old.bytes);
      adjust(owner, 1, bytes);
      byTopic.set(topic, { owner, bytes });
      return null;
    },
  };
}
export type RetainedLedger = ReturnType<typeof createRetainedLedger>;
