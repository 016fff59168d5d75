/**
 * CRC-32C (Castagnoli), as used by iSCSI, ext4, and MongoDB's OP_MSG checksum.
 *
 * Reflected polynomial 0x82F63B78, initial value 0xFFFFFFFF, final XOR 0xFFFFFFFF.
 * The implementation is "slicing-by-8": eight 256-entry tables let the inner loop
 * consume eight bytes per iteration, which matters because every journal and
 * snapshot record (potentially hundreds of MB during recovery) is checksummed.
 */

const POLYNOMIAL = 0x82f63b78;

/** TABLES[k * 256 + b] is the CRC contribution of byte b followed by k zero bytes. */
const TABLES: Uint32Array = buildTables();

function buildTables(): Uint32Array {
  const tables = new Uint32Array(8 * 256);
  for (let byte = 0; byte < 256; byte++) {
    let crc = byte;
    for (let bit = 0; bit < 8; bit++) {
      crc = crc & 1 ? (crc >>> 1) ^ POLYNOMIAL : crc >>> 1;
    }
    tables[byte] = crc >>> 0;
  }
  for (let k = 1; k < 8; k++) {
    for (let byte = 0; byte < 256; byte++) {
      const previous = tables[(k - 1) * 256 + byte];
      tables[k * 256 + byte] = ((previous >>> 8) ^ tables[previous & 0xff]) >>> 0;
    }
  }
  return tables;
}

/**
 * Computes the CRC-32C of `data`.
 *
 * `initial` is a previously returned CRC, so a checksum can be computed
 * incrementally: `crc32c(b, crc32c(a))` equals `crc32c(concat(a, b))`. The
 * default of 0 is the CRC of the empty input.
 *
 * @returns an unsigned 32-bit integer.
 */
export function crc32c(data: Uint8Array, initial = 0): number {
  const t = TABLES;
  // Undo the final XOR of the previous result to recover the running register.
  let crc = ~initial >>> 0;
  let i = 0;
  const length = data.length;
  const end8 = length - (length % 8);

  while (i < end8) {
    const low = crc ^ (data[i] | (data[i + 1] << 8) | (data[i + 2] << 16) | (data[i + 3] << 24));
    crc =
      t[1792 + (low & 0xff)] ^
      t[1536 + ((low >>> 8) & 0xff)] ^
      t[1280 + ((low >>> 16) & 0xff)] ^
      t[1024 + (low >>> 24)] ^
      t[768 + data[i + 4]] ^
      t[512 + data[i + 5]] ^
      t[256 + data[i + 6]] ^
      t[data[i + 7]];
    i += 8;
  }
  while (i < length) {
    crc = t[(crc ^ data[i]) & 0xff] ^ (crc >>> 8);
    i++;
  }
  return ~crc >>> 0;
}
