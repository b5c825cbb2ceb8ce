/**
 * The number of rows an Arrow IPC file holds, read from its footer and each
 * record batch's header without touching the batches' bodies. Lance writes
 * its deletion files compressed, which apache-arrow's JavaScript reader
 * refuses at the header already ("Record batch compression not
 * implemented"), so the few flatbuffer fields needed are read here
 * (format/File.fbs: Footer.recordBatches, struct Block; format/Message.fbs:
 * Message.header, RecordBatch.length).
 */

const MAGIC = "ARROW1";
/** The file ends in the footer's length (int32) and the magic. */
const TRAILER_BYTES = 4 + MAGIC.length;
const BLOCK_BYTES = 24;
const CONTINUATION = 0xffffffff;
const RECORD_BATCH_HEADER = 3;
const FIELD = { footerRecordBatches: 3, messageHeaderType: 1, messageHeader: 2, recordBatchLength: 0 };

class NotArrow extends Error {}

/** A flatbuffer table: its fields by index, through its vtable. */
class FlatTable {
  constructor(
    private readonly view: DataView,
    readonly at: number,
  ) {}

  static root(view: DataView, start: number): FlatTable {
    return new FlatTable(view, start + u32(view, start));
  }

  /** The field's position in the buffer, or null when the table leaves it out. */
  private field(index: number): number | null {
    const vtable = this.at - i32(this.view, this.at);
    const entry = 4 + index * 2;
    if (entry >= u16(this.view, vtable)) return null;
    const offset = u16(this.view, vtable + entry);
    return offset ? this.at + offset : null;
  }

  scalar(index: number, read: (view: DataView, at: number) => number): number | null {
    const at = this.field(index);
    return at === null ? null : read(this.view, at);
  }

  table(index: number): FlatTable | null {
    const at = this.field(index);
    return at === null ? null : new FlatTable(this.view, at + u32(this.view, at));
  }

  /** A vector's element count and where its first element lies. */
  vector(index: number): { length: number; start: number } | null {
    const at = this.field(index);
    if (at === null) return null;
    const vector = at + u32(this.view, at);
    return { length: u32(this.view, vector), start: vector + 4 };
  }
}

// DataView throws a RangeError for a read past its end: a file cut short.
const u16 = (view: DataView, at: number) => view.getUint16(at, true);
const u32 = (view: DataView, at: number) => view.getUint32(at, true);
const i32 = (view: DataView, at: number) => view.getInt32(at, true);
const u8 = (view: DataView, at: number) => view.getUint8(at);
const i64 = (view: DataView, at: number) => Number(view.getBigInt64(at, true));

/** Rows in the Arrow IPC file's record batches, or null when the bytes are not such a file (cut short, overwritten). */
export function arrowFileRows(bytes: Uint8Array): number | null {
  try {
    return rows(bytes);
  } catch (error) {
    if (error instanceof NotArrow || error instanceof RangeError) return null;
    throw error;
  }
}

function rows(bytes: Uint8Array): number {
  const text = (from: number, to: number) => new TextDecoder().decode(bytes.subarray(from, to));
  if (bytes.length < MAGIC.length * 2 + 4 || text(0, MAGIC.length) !== MAGIC || text(bytes.length - MAGIC.length, bytes.length) !== MAGIC) throw new NotArrow();
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const footerLength = i32(view, bytes.length - TRAILER_BYTES);
  const footerStart = bytes.length - TRAILER_BYTES - footerLength;
  if (footerLength <= 0 || footerStart < MAGIC.length) throw new NotArrow();
  const blocks = FlatTable.root(view, footerStart).vector(FIELD.footerRecordBatches);
  let total = 0;
  for (let i = 0; i < (blocks?.length ?? 0); i++) total += batchRows(view, i64(view, blocks!.start + i * BLOCK_BYTES));
  return total;
}

/** The row count in the header of the record batch message at `offset`. */
function batchRows(view: DataView, offset: number): number {
  // A message opens with the continuation marker and its metadata's length (or, in files before 0.15, the length alone).
  const start = u32(view, offset) === CONTINUATION ? offset + 8 : offset + 4;
  const message = FlatTable.root(view, start);
  if (message.scalar(FIELD.messageHeaderType, u8) !== RECORD_BATCH_HEADER) throw new NotArrow();
  const header = message.table(FIELD.messageHeader);
  if (!header) throw new NotArrow();
  // A flatbuffer leaves out a field at its default: a batch of no rows has no length.
  const length = header.scalar(FIELD.recordBatchLength, i64) ?? 0;
  if (length < 0) throw new NotArrow();
  return length;
}
