/**
 * The `.md` notes of an uploaded zip, inflated as a stream under caps (issue #35 item 11): a 478 KB
 * zip declaring two 240 MB notes took the hub to 1.1 GB resident when inflated whole. Here the zip is
 * fed to fflate's streaming `Unzip` a few KiB at a time, so no one inflated chunk can pass ~4 MB
 * (deflate expands at most ~1,032:1), and the bytes each note really inflates to are counted as they
 * come — the sizes a zip declares are never trusted. Past `MAX_NOTE_BYTES` for one note or
 * `MAX_ZIP_BYTES` for all, inflating stops and the upload is refused (413) naming the cap.
 */
import { Unzip, UnzipInflate } from 'fflate';
import { HubError, invalid } from '../../lib/errors.js';

/** One note: its content is at most 1,000,000 characters (markdown.schemas.ts), 4 bytes each at most in UTF-8. */
export const MAX_NOTE_BYTES = 4 * 1024 * 1024;
/** All notes of one zip, inflated. */
export const MAX_ZIP_BYTES = 64 * 1024 * 1024;
/** Notes in one zip (as many as one import takes). */
export const MAX_ZIP_NOTES = 5000;
/** Compressed bytes handed to the inflater at a time. */
const SLICE = 4 * 1024;

const MiB = (n: number) => `${n / 1024 / 1024} MiB`;
const tooLarge = (message: string) => new HubError('too_large', `zip: ${message}; nothing was imported`);

/** Whether a zip entry is a note (not a dot-file, not macOS's `__MACOSX` copies). */
const isNote = (name: string) =>
  /\.md$/i.test(name) && !name.split('/').some((p) => p.startsWith('.') || p === '__MACOSX');

/** The notes of `zip` as text, sorted by path; throws `invalid` for what is no zip, `too_large` past a cap. */
export function notesOfZip(
  zip: Uint8Array,
  caps = { note: MAX_NOTE_BYTES, total: MAX_ZIP_BYTES, notes: MAX_ZIP_NOTES },
): { path: string; content: string }[] {
  // Local file header, or the end record of an empty zip: anything else is no zip (the streaming
  // reader would skip it silently).
  const sig = zip.length >= 4 ? Buffer.from(zip.subarray(0, 4)).readUInt32LE(0) : 0;
  if (sig !== 0x04034b50 && sig !== 0x06054b50) throw invalid('zip: not a readable zip file');
  const notes: { path: string; chunks: Uint8Array[]; done: boolean; bytes: number }[] = [];
  let total = 0;
  /** Why reading stopped (fflate hands an error thrown in `ondata` back to `ondata`, so it is kept here). */
  let refused: HubError | undefined;
  const unzip = new Unzip((file) => {
    if (refused || !isNote(file.name)) return;
    if (notes.length >= caps.notes) {
      refused = tooLarge(`more than ${caps.notes} notes`);
      return;
    }
    const note = { path: file.name, chunks: [] as Uint8Array[], done: false, bytes: 0 };
    notes.push(note);
    file.ondata = (err, chunk, final) => {
      if (refused) return;
      if (err) {
        refused = invalid(`zip: ${file.name} cannot be inflated (${err.message})`);
        return;
      }
      note.bytes += chunk.length;
      total += chunk.length;
      if (note.bytes > caps.note) refused = tooLarge(`${file.name} inflates to more than ${MiB(caps.note)}`);
      else if (total > caps.total) refused = tooLarge(`the notes inflate to more than ${MiB(caps.total)} in all`);
      if (refused) return file.terminate();
      note.chunks.push(chunk);
      note.done = final;
    };
    file.start();
  });
  unzip.register(UnzipInflate);
  try {
    for (let at = 0; at < zip.length && !refused; at += SLICE)
      unzip.push(zip.subarray(at, at + SLICE), at + SLICE >= zip.length);
  } catch {
    refused ??= invalid('zip: not a readable zip file');
  }
  if (refused) throw refused;
  if (notes.some((n) => !n.done)) throw invalid('zip: not a readable zip file (a note is cut short)');
  const dec = new TextDecoder('utf-8');
  return notes
    .map((n) => ({ path: n.path, content: dec.decode(Buffer.concat(n.chunks)) }))
    .sort((a, b) => a.path.localeCompare(b.path));
}
