/**
 * A Map whose changes can be undone to a mark. The ingest writer's id caches live in these: an item
 * that fails (its savepoint rolled back) or a batch that fails (its transaction rolled back) undoes
 * exactly the entries it added or changed, so no cache ever holds an id the database does not.
 */
export class TxCache<K, V> {
  private readonly map = new Map<K, V>();
  private readonly log: [K, V | undefined][] = [];

  get(key: K): V | undefined {
    return this.map.get(key);
  }

  set(key: K, value: V): V {
    this.log.push([key, this.map.get(key)]);
    this.map.set(key, value);
    return value;
  }

  /** A point to undo back to (see `undo`). */
  mark(): number {
    return this.log.length;
  }

  /** Reverts every change made since `mark`. */
  undo(mark = 0): void {
    while (this.log.length > mark) {
      const [key, old] = this.log.pop()!;
      if (old === undefined) this.map.delete(key);
      else this.map.set(key, old);
    }
  }

  /** The transaction committed: its changes stay. */
  commit(): void {
    this.log.length = 0;
  }

  clear(): void {
    this.map.clear();
    this.log.length = 0;
  }

  get size(): number {
    return this.map.size;
  }
}
