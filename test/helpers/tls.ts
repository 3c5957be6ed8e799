/** A throwaway self-signed certificate for the TLS tests (needs `openssl` on PATH). */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { tempDir } from './hub.js';

/** Writes a one-day RSA certificate for CN=localhost and its key to a fresh temp dir; returns their paths. */
export function selfSignedCert(): { cert: string; key: string } {
  const dir = tempDir();
  const cert = join(dir, 'cert.pem');
  const key = join(dir, 'key.pem');
  const args = 'req -x509 -newkey rsa:2048 -nodes -days 1 -subj /CN=localhost'.split(' ');
  execFileSync('openssl', [...args, '-keyout', key, '-out', cert], { stdio: 'ignore' });
  return { cert, key };
}
