/** Messages and bytes held, per key (an account, a client id) and in all; a key at 0 messages is forgotten. */
export function createTally() {
  const byKey = new Map<string, { messages: number; bytes: number }>();
  const total = { messages: 0, bytes: 0 };
  return {
    total,
    of: (key: string) => byKey.get(key) ?? { messages: 0, bytes: 0 },
    adjust(key: string, messages: number, bytes: number) {
      const c = byKey.get(key) ?? { messages: 0, bytes: 0 };
      c.messages += messages;
      c.bytes += bytes;
      total.messages += messages;
      total.bytes += bytes;
      if (c.messages <= 0) byKey.delete(key);
      else byKey.set(key, c);
    },
  };
}
