/** What the parent hands the child that runs the blocks. */
export interface RunManifest {
  /** Each block's module file, in order, with where it comes from (`packages/redis/README.md:12`). */
  readonly blocks: readonly { readonly where: string; readonly file: string }[];
  /** The published packages' specifiers, each to the file URL of its source entry. */
  readonly sources: Readonly<Record<string, string>>;
}

/** How one block ran: `error` is `Name: message` of what it threw, `undefined` when it ran through. */
export interface BlockRun {
  readonly where: string;
  error: string | undefined;
}
