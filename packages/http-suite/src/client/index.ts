// The clients, apart from the contract suite: scripts outside vitest (the soak, host processes) use them.
export { concurrentCreates, inFlight, seededShuffle } from './concurrent-creates';
export type { CreateAttempt, ExactPlant } from './concurrent-creates';
export { plantBody } from './plant-body';
export type { PlantFields } from './plant-body';
export { openRawConnection } from './raw-connection';
export type { RawAnswer, RawConnection } from './raw-connection';
export { parseResponses, sendRaw } from './raw-exchange';
export type { RawExchange, RawOptions, RawResponse } from './raw-exchange';
export { chunk, chunked, framingLine, rawHead } from './raw-request';
export type { RawHeadOptions, RawTarget } from './raw-request';
export { keepAliveClient, postPlant, send } from './send';
export type { ClientTls, KeepAliveClient, Outgoing, Reply } from './send';
export { sendHugeBody, statusLineOf } from './huge-body';
export type { HugeBodyOutcome } from './huge-body';
export { sendOnAfterAnswer, STILL_SENDING_LENGTH } from './still-sending';
export type { StillSendingOutcome } from './still-sending';
export { startServerProcess, stopServerProcess } from './server-process';
export type { ServerProcess } from './server-process';
