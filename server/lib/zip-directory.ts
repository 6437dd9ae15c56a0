import zlib from 'node:zlib';

/**
 * Just enough of the ZIP format (APPNOTE 6.3) to look inside an .xlsx before a spreadsheet library
 * unpacks it: the central directory (names and declared sizes) and one entry's data, inflated with
 * a ceiling so a zip bomb stops at the ceiling instead of filling memory. No zip reader is
 * installed, and this is the part that needs to be strict: anything unusual (ZIP64, several disks,
 * encryption, a method other than stored/deflate, offsets outside the file) is refused, which no
 * spreadsheet program's output needs.
 */
type ZipEntryInfo = {
  name: string;
  method: number;
  flags: number;
  compressedSize: number;
  declaredSize: number;
  localHeaderOffset: number;
};

/** The file is not a plain zip we are willing to open. */
export class ZipRefused extends Error {}
/** An entry inflates to more than it is allowed to. */
export class ZipTooLarge extends Error {}

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;

export const isZip = (buf: Buffer) => buf.length >= 4 && buf.readUInt32LE(0) === LOCAL;

/** The entries of the central directory, at most `maxEntries` of them. */
export function readZipDirectory(buf: Buffer, maxEntries: number): ZipEntryInfo[] {
  // The end-of-central-directory record: 22 bytes plus a comment of up to 65,535, at the very end.
  let eocd = -1;
  for (let i = buf.length - 22; i >= Math.max(0, buf.length - 22 - 0xffff); i--) {
    if (buf.readUInt32LE(i) === EOCD) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new ZipRefused('no central directory (the file is cut short or not a zip)');
  const count = buf.readUInt16LE(eocd + 10);
  const size = buf.readUInt32LE(eocd + 12);
  const offset = buf.readUInt32LE(eocd + 16);
  if (buf.readUInt16LE(eocd + 4) !== 0 || buf.readUInt16LE(eocd + 6) !== 0 || buf.readUInt16LE(eocd + 8) !== count)
    throw new ZipRefused('a zip split over several disks');
  if (count === 0xffff || size === 0xffffffff || offset === 0xffffffff) throw new ZipRefused('a ZIP64 archive');
  if (count > maxEntries) throw new ZipRefused(`more than ${maxEntries} files inside`);
  if (offset + size > eocd) throw new ZipRefused('a central directory outside the file');

  const entries: ZipEntryInfo[] = [];
  let p = offset;
  for (let i = 0; i < count; i++) {
    if (p + 46 > offset + size || buf.readUInt32LE(p) !== CENTRAL) throw new ZipRefused('a damaged central directory');
    const flags = buf.readUInt16LE(p + 8);
    const nameLength = buf.readUInt16LE(p + 28);
    const next = p + 46 + nameLength + buf.readUInt16LE(p + 30) + buf.readUInt16LE(p + 32);
    if (next > offset + size) throw new ZipRefused('a damaged central directory');
    const entry: ZipEntryInfo = {
      name: buf.toString(flags & 0x800 ? 'utf8' : 'latin1', p + 46, p + 46 + nameLength),
      method: buf.readUInt16LE(p + 10),
      flags,
      compressedSize: buf.readUInt32LE(p + 20),
      declaredSize: buf.readUInt32LE(p + 24),
      localHeaderOffset: buf.readUInt32LE(p + 42),
    };
    if (entry.compressedSize === 0xffffffff || entry.declaredSize === 0xffffffff || entry.localHeaderOffset === 0xffffffff)
      throw new ZipRefused('a ZIP64 archive');
    entries.push(entry);
    p = next;
  }
  return entries;
}

/**
 * One entry's data, inflated; throws ZipTooLarge as soon as it would pass `maxBytes`, whatever
 * size the directory declared (zlib stops at the ceiling; the output never grows past it).
 */
export function inflateZipEntry(buf: Buffer, entry: ZipEntryInfo, maxBytes: number): Buffer {
  if (entry.flags & 0x1) throw new ZipRefused('an encrypted file inside');
  const p = entry.localHeaderOffset;
  if (p + 30 > buf.length || buf.readUInt32LE(p) !== LOCAL) throw new ZipRefused('a damaged file header');
  const start = p + 30 + buf.readUInt16LE(p + 26) + buf.readUInt16LE(p + 28);
  const end = start + entry.compressedSize;
  if (end > buf.length) throw new ZipRefused('a file that runs past the end of the archive');
  const data = buf.subarray(start, end);
  if (entry.method === 0) {
    if (data.length > maxBytes) throw new ZipTooLarge(entry.name);
    return data;
  }
  if (entry.method !== 8) throw new ZipRefused(`an unsupported compression method (${entry.method})`);
  try {
    return zlib.inflateRawSync(data, { maxOutputLength: Math.max(1, maxBytes) });
  } catch (err) {
    if ((err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') throw new ZipTooLarge(entry.name);
    throw new ZipRefused(`damaged compressed data in ${entry.name}`);
  }
}
