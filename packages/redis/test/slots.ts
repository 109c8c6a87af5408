/** CRC16-XMODEM, the hash of Redis Cluster's key slots (the cluster spec's `crc16`). */
function crc16(text: string): number {
  let crc = 0;
  for (const byte of Buffer.from(text, 'utf8')) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit += 1) {
      crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
    }
  }
  return crc;
}

/** The slot of a plant's key: the stores hash-tag the id, so the slot is that of its decimal text. */
export const slotOfPlant = (id: bigint): number => crc16(String(id)) % 16_384;

/** Whether `slot` is in a node's slot list as `CLUSTER NODES` prints it (`0-5460 5461`). */
export function holdsSlot(slots: string, slot: number): boolean {
  return slots.split(' ').some((range) => {
    const [from, to = from] = range.split('-').map(Number);
    return from !== undefined && to !== undefined && slot >= from && slot <= to;
  });
}
