import { describe, expect, test } from "bun:test";
import { Table, tableFromArrays, tableToIPC } from "apache-arrow";
import { arrowFileRows } from "../../src/store/arrow-file-rows.ts";
import { emptyDeletionFile } from "../../src/store/deletion-files.ts";

// Lance's own (compressed) deletion files are read in deletion-files.test.ts.
describe("the rows of an Arrow IPC file", () => {
  test("are read from its batches' headers, over two batches as apache-arrow writes them; a stream or a file without batches' messages is not one", () => {
    const table = tableFromArrays({ row_id: Uint32Array.from([1, 5, 9]) });
    const twoBatches = new Table([...table.batches, ...tableFromArrays({ row_id: Uint32Array.from([2, 3]) }).batches]);
    expect(arrowFileRows(tableToIPC(twoBatches, "file"))).toBe(5);
    expect(arrowFileRows(emptyDeletionFile({ path: "0-1-2.arrow", bitmap: false, rows: null }))).toBe(0);
    expect(arrowFileRows(tableToIPC(table, "stream"))).toBeNull();
    expect(arrowFileRows(new TextEncoder().encode("ARROW1 but nothing else ARROW1"))).toBeNull();
  });

});
