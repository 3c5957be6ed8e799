/**
 * InfluxDB write endpoints, so Telegraf and Home Assistant's InfluxDB integration can point at
 * Hearth unchanged: `POST /write?db=&precision=` (v1) and `POST /api/v2/write?bucket=&org=&precision=`.
 * Success is 204 like InfluxDB; a partial write is 400 (the valid lines are kept, as InfluxDB does).
 * Body is line protocol as text, optionally gzip-encoded. The mapping to readings is documented in
 * src/tiers/timeseries/line-protocol.ts.
 */
import { gunzipSync } from 'node:zlib';
import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import type { Services } from '../../services.js';
import { HubError } from '../../lib/errors.js';
import { MAX_BYTES } from '../../tiers/timeseries/line-protocol.js';
import { humanBytes } from '../client-errors.js';

// Lenient on purpose (unlike the tools' strict schemas): InfluxDB clients send query parameters
// Hearth has no use for (`rp`, `consistency`, Telegraf's own), and refusing them would break Telegraf.
const V1 = z.object({
  db: z.string().max(200).optional(),
  precision: z.enum(['n', 'ns', 'u', 'us', 'ms', 's']).default('n'),
  u: z.string().optional(),
  p: z.string().optional(),
});
const V2 = z.object({
  bucket: z.string().max(200).optional(),
  org: z.string().max(200).optional(),
  precision: z.enum(['ns', 'us', 'ms', 's']).default('ns'),
});

export const influxRoutes =
  (s: Services): FastifyPluginAsync =>
  async (app) => {
    // Line protocol arrives as text/plain, octet-stream or with no type at all: read every body as a Buffer here.
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: MAX_BYTES }, (_req, body, done) => done(null, body));

    const write = async (body: unknown, encoding: string | undefined, precision: z.infer<typeof V1>['precision']) => {
      let buf = Buffer.isBuffer(body) ? body : Buffer.from(typeof body === 'string' ? body : '');
      if (encoding === 'gzip') {
        try {
          buf = gunzipSync(buf, { maxOutputLength: MAX_BYTES });
        } catch (e) {
          // Over the limit is 413 like a plain body over it (Telegraf splits and retries a 413 batch; a 400 it drops).
          if ((e as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE')
            throw new HubError(
              'too_large',
              `body: larger than ${humanBytes(MAX_BYTES)} uncompressed; nothing was stored`,
            );
          throw new HubError('invalid', 'body: not valid gzip');
        }
      }
      const { written, problems } = await s.timeseries.writeLines(buf.toString('utf8'), precision);
      if (problems.length) {
        throw new HubError(
          'invalid',
          `body: partial write, ${written} readings stored; ${problems.slice(0, 5).join('; ')}${problems.length > 5 ? `; and ${problems.length - 5} more` : ''}`,
        );
      }
    };
    const opts = {
      bodyLimit: MAX_BYTES,
      schema: { tags: ['timeseries'], summary: 'InfluxDB line protocol → readings' },
    };
    app.post('/write', { ...opts, schema: { ...opts.schema, querystring: V1 } }, async (req, reply) => {
      const q = req.query as z.infer<typeof V1>;
      await write(req.body, req.headers['content-encoding'], q.precision);
      return reply.code(204).send();
    });
    app.post('/api/v2/write', { ...opts, schema: { ...opts.schema, querystring: V2 } }, async (req, reply) => {
      const q = req.query as z.infer<typeof V2>;
      await write(req.body, req.headers['content-encoding'], q.precision);
      return reply.code(204).send();
    });
  };
