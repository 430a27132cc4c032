// A PDF's outline (its bookmarks), flattened with each entry's depth for a plain keyboard-reachable list.

export interface OutlineNode {
  title: string;
  dest: string | unknown[] | null;
  items: OutlineNode[];
}

export interface OutlineEntry {
  title: string;
  dest: string | unknown[] | null;
  depth: number;
}

/** Depth-first, at most `max` entries (a generated outline can list thousands). */
export function flattenOutline(nodes: readonly OutlineNode[], max = 2000): OutlineEntry[] {
  const out: OutlineEntry[] = [];
  const walk = (list: readonly OutlineNode[], depth: number): void => {
    for (const n of list) {
      if (out.length >= max) return;
      out.push({ title: n.title.trim() || '(untitled)', dest: n.dest, depth });
      walk(n.items ?? [], depth + 1);
    }
  };
  walk(nodes, 0);
  return out;
}
