/**
 * "Saved: …" after an action: a short message in a signed cookie that lives a minute and is read
 * once by the next page (so a reload does not repeat it, and no link can make the UI say something
 * the hub did not). The text is escaped like any other value when shown.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { parseCookies } from './session.js';
import type { AdminKeys } from './secret.js';

export const FLASH_COOKIE = 'hearth_flash';
const TTL_S = 60;
const MAX_CHARS = 300;

const cookie = (req: FastifyRequest, value: string, maxAge: number) =>
  `${FLASH_COOKIE}=${value}; Max-Age=${maxAge}; Path=/; HttpOnly; SameSite=Strict${req.protocol === 'https' ? '; Secure' : ''}`;

export function createFlash(keys: AdminKeys, now: () => number = () => Date.now() / 1000) {
  return {
    set(req: FastifyRequest, reply: FastifyReply, text: string): void {
      const short = text.length > MAX_CHARS ? `${text.slice(0, MAX_CHARS - 1)}…` : text;
      reply.header('set-cookie', cookie(req, keys.seal('flash', Buffer.from(short).toString('base64url'), Math.floor(now()) + TTL_S), TTL_S));
    },
    /** The message a request carries, if genuine and fresh; clears the cookie either way. */
    take(req: FastifyRequest, reply: FastifyReply): string | undefined {
      const raw = parseCookies(req.headers.cookie)[FLASH_COOKIE];
      if (raw === undefined) return undefined;
      reply.header('set-cookie', cookie(req, '', 0));
      const sealed = keys.unseal('flash', raw, now());
      return sealed && Buffer.from(sealed.value, 'base64url').toString('utf8');
    },
  };
}
export type Flash = ReturnType<typeof createFlash>;
