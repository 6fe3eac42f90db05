import type { AppContext } from '../../platform/context';

export type ImportCounts = Record<string, number>;

export interface ImportOptions {
  /** Directory that `path` file references are relative to; only the command line sets it. */
  baseDir?: string;
}

/**
 * Imports one document of fixture-format.md in one transaction. Throws AppError 400 `import_invalid`
 * with `details` = [{path, message}] listing every problem; nothing is changed then.
 */
export async function importDocument(
  ctx: AppContext,
  doc: unknown,
  opts: ImportOptions = {},
): Promise<ImportCounts> {
  void ctx;
  void doc;
  void opts;
  throw new Error('not implemented yet');
}
