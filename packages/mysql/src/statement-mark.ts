import { randomBytes } from 'node:crypto';

// Random per process, counted per statement: no other statement, of this process or another, on
// this server or another, carries the same mark.
const PROCESS_MARK = randomBytes(6).toString('hex');
let counted = 0;

/**
 * A mark for one statement, put in its text as a comment, by which the connection that sends
 * `KILL QUERY` recognises the statement as the store's own on the server it reached (see
 * `killQuery`): a connection id alone names a thread on whichever server the kill lands on.
 *
 * @returns a closed SQL comment holding `plantstore.<12 hex digits>.<a count>`: no quote, no
 *   backslash, no colon or question mark (which mysql2's `namedPlaceholders` would read as a
 *   placeholder, even in a comment), and no mark is found inside another
 */
export function newMark(): string {
  counted += 1;
  return `/* plantstore.${PROCESS_MARK}.${counted.toString(36)} */`;
}

/**
 * The statement with its mark after it, a comment the server keeps in the process list's `INFO`
 * and ignores otherwise.
 *
 * @param sql - the statement
 * @param mark - its mark, from {@link newMark}
 * @returns the text to send
 */
export function markedSql(sql: string, mark: string): string {
  return `${sql} ${mark}`;
}
