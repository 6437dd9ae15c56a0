import zlib from 'node:zlib';

/**
 * Test files built by hand: zip archives (to make an .xlsx whose parts unpack to far more than the
 * file's size, or whose directory lies about sizes) and raw BIFF record streams. Parts are given
 * as chunk generators and deflated as a stream, so a 150 MB part never sits in the test's memory.
 */
type ZipPart = { name: string; data: Buffer | (() => Iterable<Buffer>); declaredSize?: number };

async function deflate(chunks: Iterable<Buffer>): Promise<{ compressed: Buffer; size: number; crc: number }> {
  const d = zlib.createDeflateRaw({ level: 9 });
  const out: Buffer[] = [];
  d.on('data', (c: Buffer) => out.push(c));
  const ended = new Promise((resolve) => d.on('end', resolve));
  let size = 0;
  let crc = 0;
  for (const c of chunks) {
    size += c.length;
    crc = zlib.crc32(c, crc);
    if (!d.write(c)) await new Promise((resolve) => d.once('drain', resolve));
  }
  d.end();
  await ended;
  return { compressed: Buffer.concat(out), size, crc };
}

/** A zip (deflate) of the parts; `declaredSize` overrides the size written in the headers. */
async function zipArchive(parts: ZipPart[]): Promise<Buffer> {
  const locals: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const part of parts) {
    const { compressed, size, crc } = await deflate(typeof part.data === 'function' ? part.data() : [part.data]);
    const name = Buffer.from(part.name);
    const declared = part.declaredSize ?? size;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(crc >>> 0, 14);
    local.writeUInt32LE(compressed.length, 18);
    local.writeUInt32LE(declared, 22);
    local.writeUInt16LE(name.length, 26);
    const header = Buffer.alloc(46);
    header.writeUInt32LE(0x02014b50, 0);
    header.writeUInt16LE(20, 4);
    header.writeUInt16LE(20, 6);
    header.writeUInt16LE(8, 10);
    header.writeUInt32LE(crc >>> 0, 16);
    header.writeUInt32LE(compressed.length, 20);
    header.writeUInt32LE(declared, 24);
    header.writeUInt16LE(name.length, 28);
    header.writeUInt32LE(offset, 42);
    locals.push(local, name, compressed);
    central.push(header, name);
    offset += local.length + name.length + compressed.length;
  }
  const directory = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(parts.length, 8);
  end.writeUInt16LE(parts.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

const MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const PKG = 'http://schemas.openxmlformats.org/package/2006/relationships';

/** A minimal .xlsx with one sheet whose XML comes from `sheet` (see `sheetXml`). */
export function xlsxFile(sheet: () => Iterable<Buffer>, opts: { declaredSheetSize?: number } = {}): Promise<Buffer> {
  return zipArchive([
    {
      name: '[Content_Types].xml',
      data: Buffer.from(
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
          '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>' +
          '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>' +
          '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>',
      ),
    },
    {
      name: '_rels/.rels',
      data: Buffer.from(`<Relationships xmlns="${PKG}"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>`),
    },
    {
      name: 'xl/workbook.xml',
      data: Buffer.from(`<workbook xmlns="${MAIN}" xmlns:r="${REL}"><sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>`),
    },
    {
      name: 'xl/_rels/workbook.xml.rels',
      data: Buffer.from(`<Relationships xmlns="${PKG}"><Relationship Id="rId1" Type="${REL}/worksheet" Target="worksheets/sheet1.xml"/></Relationships>`),
    },
    { name: 'xl/worksheets/sheet1.xml', data: sheet, declaredSize: opts.declaredSheetSize },
  ]);
}

/** Sheet XML: a header row, then `rows` identical rows of `row` (inner XML of <row>), in 1,000-row chunks. */
export function* sheetXml(header: string[], rows: number, row: string): Iterable<Buffer> {
  const cell = (v: string) => `<c t="inlineStr"><is><t>${v}</t></is></c>`;
  yield Buffer.from(`<worksheet xmlns="${MAIN}"><sheetData><row>${header.map(cell).join('')}</row>`);
  const one = Buffer.from(`<row>${row}</row>`);
  const thousand = Buffer.concat(Array.from({ length: 1000 }, () => one));
  for (let i = 0; i < Math.floor(rows / 1000); i++) yield thousand;
  for (let i = 0; i < rows % 1000; i++) yield one;
  yield Buffer.from('</sheetData></worksheet>');
}

/** A raw BIFF8 record stream: BOF, then `records` MULRK records of `perRecord` numbers each, then EOF. */
export function biffMulrk(records: number, perRecord: number): Buffer {
  const rec = (type: number, body: Buffer) => {
    const head = Buffer.alloc(4);
    head.writeUInt16LE(type, 0);
    head.writeUInt16LE(body.length, 2);
    return Buffer.concat([head, body]);
  };
  const bof = rec(0x0809, Buffer.from([0x00, 0x06, 0x10, 0x00, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]));
  const out: Buffer[] = [bof];
  for (let r = 0; r < records; r++) {
    const body = Buffer.alloc(6 + perRecord * 6);
    body.writeUInt16LE(r % 60000, 0);
    body.writeUInt16LE(0, 2);
    body.writeUInt16LE(perRecord - 1, 4 + perRecord * 6);
    out.push(rec(0x00bd, body));
  }
  out.push(rec(0x000a, Buffer.alloc(0)));
  return Buffer.concat(out);
}
