import type { WikiElement } from '@sportello/contracts';

export interface WikiFolder {
  id: number;
  name: string;
  elements: WikiElement[];
}

/** Elements grouped by folder, in the server's order, keeping only elements whose name matches. */
export function groupByFolder(elements: WikiElement[], match: (name: string) => boolean): WikiFolder[] {
  const folders = new Map<number, WikiFolder>();
  for (const e of elements) {
    if (!match(e.name)) continue;
    let f = folders.get(e.wikiFolderId);
    if (!f) folders.set(e.wikiFolderId, (f = { id: e.wikiFolderId, name: e.folderName, elements: [] }));
    f.elements.push(e);
  }
  return [...folders.values()];
}
