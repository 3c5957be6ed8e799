/**
 * Baseline processes of the `--pi` profile, run under the same constraints as the hub (pinned to
 * its core, 256 MB heap), so a ratio compares like with like:
 *   node pi-child.js broker <port>          a bare aedes broker (QoS 1 PUBACKs with nothing behind them)
 *   node pi-child.js knn <dataDir> <n>      raw sqlite-vec KNN (k = 10) p95 over the store's vectors
 *   node pi-child.js scan <dataDir>         one plain scan of the readings table
 *   node pi-child.js commit <dataDir>       mean ms of a one-row commit (WAL, synchronous=FULL: one fsync)
 * Prints one JSON line (broker: `{"listening":port}`) and, except for the broker, exits.
 */
import { createServer } from 'node:net';
import { Aedes } from 'aedes';
import { createLocalEmbedder } from '../../src/ai/local-embedder.js';
import { openDatabase } from '../../src/db/open.js';
import { exactKnn, prng, summarize, since } from './common.js';
import { entities, queries } from './household.js';
import { scanMs } from './patterns.js';

const [mode, arg, n] = process.argv.slice(2);
if (mode === 'broker') {
  const broker = await Aedes.createBroker();
  const server = createServer(broker.handle as never);
  server.listen(Number(arg), '127.0.0.1', () => console.log(JSON.stringify({ listening: Number(arg) })));
  process.on('SIGTERM', () => process.exit(0));
} else if (mode === 'knn') {
  const db = openDatabase({ dataDir: arg });
  const qs = queries(prng(Number(n)), entities(prng(20_260_101)), 300);
  const vectors = await createLocalEmbedder().embed(qs.map((q) => q.query));
  const knn = exactKnn(db);
  for (const v of vectors.slice(0, 10)) knn(v, 10);
  const lat = vectors.map((v) => {
    const t0 = performance.now();
    knn(v, 10);
    return since(t0);
  });
  db.close();
  console.log(JSON.stringify(summarize(lat)));
} else if (mode === 'scan') {
  const db = openDatabase({ dataDir: arg });
  scanMs(db); // warm the page cache as the hub's run would find it
  console.log(JSON.stringify({ ms: scanMs(db) }));
  db.close();
} else if (mode === 'commit') {
  const db = openDatabase({ dataDir: arg });
  db.exec('CREATE TABLE bench_commit (x INTEGER)');
  const ins = db.prepare('INSERT INTO bench_commit VALUES (?)');
  for (let i = 0; i < 20; i++) ins.run(i);
  const t0 = performance.now();
  for (let i = 0; i < 200; i++) ins.run(i);
  console.log(JSON.stringify({ ms: since(t0) / 200 }));
  db.close();
} else {
  console.error('usage: pi-child.js broker <port> | knn <dataDir> <size> | scan <dataDir> | commit <dataDir>');
  process.exit(2);
}
