// The API of @plantstore/mysql as issue 37 specifies it, which is built on another branch: the MySQL
// snippets type-check against it until that package is here. Delete this file when it is.
declare module '@plantstore/mysql' {
  import type { PlantStore } from '@plantstore/core';

  export interface MysqlStore extends PlantStore {
    ensureSchema(): Promise<void>;
    close(): Promise<void>;
  }

  export function mysqlStore(options: { client: object; table?: string }): MysqlStore;
}
