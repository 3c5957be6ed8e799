/**
 * Issue #35 item 11: a zip bomb in the admin Markdown upload. A 478 KB zip with two 240 MB `.md`
 * entries took the hub to 1.1 GB resident before it answered 400. The notes of a zip are inflated as
 * a stream (src/io/markdown/zip.ts) and refused (413) once one passes 4 MiB or all pass 64 MiB,
 * counting the bytes that really come out — a zip that declares small sizes is no exception. The
 * bombs are built here with zlib, deflating zeros in 1 MiB steps (a 240 MB note is ~230 KB zipped).
 */
import { crc32, createDeflateRaw, constants as z } from 'node:zlib';
import { strToU8, zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_NOTE_BYTES, MAX_ZIP_BYTES, notesOfZip } from '../../src/io/markdown/zip.js';
import { buildTestHub, type TestHub } from '../helpers/hub.js';
import { form, login, TOKEN } from '../http/admin/helpers.js';

const MiB = 1024 * 1024;

/** `mib` MiB of zeros, raw-deflated one MiB at a time (the whole is never held), and its CRC-32. */
async function zeros(mib: number): Promise<{ data: Buffer; crc: number }> {
  const zero = Buffer.alloc(MiB);
  const deflate = createDeflateRaw({ level: z.Z_BEST_COMPRESSION });
  const out: Buffer[] = [];
  deflate.on('data', (c: Buffer) => out.push(c));
  let crc = 0;
  for (let i = 0; i < mib; i++) {
    crc = crc32(zero, crc);
    if (!deflate.write(zero)) await new Promise((r) => deflate.once('drain', r));
  }
  const ended = new Promise((r) => deflate.once('end', r));
  deflate.end();
  await ended;
  return { data: Buffer.concat(out), crc };
}

/** A zip of deflated entries; each entry `{name, mib}` is that many MiB of zeros, declared as `declared` bytes if given. */
async function bomb(entries: { name: string; mib: number; declared?: number }[]): Promise<Buffer> {
  const locals: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const { data, crc } = await zeros(e.mib);
    const size = e.declared ?? e.mib * MiB;
    const name = Buffer.from(e.name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8); // deflate
    local.writeUInt32LE(crc >>> 0, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    const dir = Buffer.alloc(46);
    dir.writeUInt32LE(0x02014b50, 0);
    dir.writeUInt16LE(20, 4);
    dir.writeUInt16LE(20, 6);
    dir.writeUInt16LE(8, 10);
    dir.writeUInt32LE(crc >>> 0, 16);
    dir.writeUInt32LE(data.length, 20);
    dir.writeUInt32LE(size, 24);
    dir.writeUInt16LE(name.length, 28);
    dir.writeUInt32LE(offset, 42);
    locals.push(local, name, data);
    central.push(dir, name);
    offset += 30 + name.length + data.length;
  }
  const cd = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, end]);
}

describe('the Markdown zip upload under a zip bomb (issue #35 item 11)', () => {
  let hub: TestHub;
  let cookie: string;
  let csrf: string;
  beforeAll(async () => {
    hub = await buildTestHub({ config: { http: { token: TOKEN } } });
    ({ cookie, csrf } = await login(hub));
  }, 60_000);
  afterAll(async () => hub?.close());
  const upload = (zip: Buffer) =>
    form(hub, '/admin/markdown/import', { _csrf: csrf, zip: zip.toString('base64') }, { cookie });

  it("refuses the issue's bomb (two 240 MB notes in a few hundred KB) with 413 naming the cap, importing nothing", async () => {
    const zip = await bomb([
      { name: 'Brian.md', mib: 240 },
      { name: 'Anna.md', mib: 240 },
    ]);
    expect(zip.length).toBeLessThan(1024 * 1024);
    const res = await upload(zip);
    expect(res.statusCode).toBe(413);
    expect(res.body).toMatch(/too large to import: Brian\.md inflates to more than 4 MiB; nothing was imported/);
    expect(hub.services.entities.find('Brian')).toBeUndefined();
  }, 60_000);

  it('counts what the notes really inflate to, not the sizes the zip declares', async () => {
    const lying = await bomb([{ name: 'Brian.md', mib: 8, declared: 100 }]);
    expect(() => notesOfZip(lying)).toThrow(/Brian\.md inflates to more than 4 MiB/);
  });

  it('caps all the notes together: many notes each under the cap', async () => {
    const each = MAX_NOTE_BYTES / MiB - 1;
    const count = Math.ceil(MAX_ZIP_BYTES / MiB / each) + 1;
    const zip = await bomb(Array.from({ length: count }, (_, i) => ({ name: `n${i}.md`, mib: each })));
    expect(() => notesOfZip(zip)).toThrow(/inflate to more than 64 MiB in all/);
  }, 60_000);

  it('still reads an export and a hand-made vault zip, skipping what is no note', async () => {
    const zip = zipSync({
      'Brian.md': strToU8('# Brian\n\n## Memories\n- Brian bakes bread on Sundays\n'),
      'vault/Anna.md': [strToU8('# Anna\n'), { level: 0 }],
      '.obsidian/x.md': strToU8('no'),
      '__MACOSX/Brian.md': strToU8('no'),
      'image.png': strToU8('no'),
    });
    expect(notesOfZip(zip).map((n) => n.path)).toEqual(['Brian.md', 'vault/Anna.md']);
    expect(() => notesOfZip(strToU8('not a zip at all'))).toThrow(/not a readable zip/);
    const res = await upload(Buffer.from(zip));
    expect(res.statusCode).toBe(200);
    expect(hub.services.entities.find('Brian')).toBeDefined();
  });
});
