// The citation graph as GraphML (yEd, Cytoscape, networkx) and GEXF 1.3 (Gephi). Every text value is
// escaped for XML and stripped of the characters XML 1.0 cannot carry, so a title from the service can
// never break the document. Edges are citing → cited pairs with their statement counts by type.
import { edgeType, plainTitle, type GraphEdge, type GraphNode } from '../../../shared/model/graph';

export interface GraphExportInput {
  nodes: readonly GraphNode[];
  edges: readonly GraphEdge[];
  /** Layout positions by DOI, when the renderer has them. */
  positions?: Readonly<Record<string, { x: number; y: number }>> | undefined;
  /** For the document's metadata. */
  title?: string | undefined;
  now?: Date | undefined;
}

// XML 1.0 allows tab, LF, CR and everything from U+0020 except the surrogates (unpaired ones) and U+FFFE/U+FFFF.
/* eslint-disable no-control-regex -- control characters are what XML cannot hold */
const INVALID_XML =
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
/* eslint-enable no-control-regex */

/** Text for an XML attribute or element: escaped, and without characters XML cannot hold. */
export function xmlText(value: string): string {
  return value
    .replace(INVALID_XML, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

function counts(e: GraphEdge): {
  supporting: number;
  contrasting: number;
  mentioning: number;
  selfCite: boolean;
  sections: string;
} {
  let supporting = 0;
  let contrasting = 0;
  let mentioning = 0;
  let selfCite = false;
  const sections = new Set<string>();
  for (const s of e.statements) {
    if (s.type === 'supporting') supporting++;
    else if (s.type === 'contrasting') contrasting++;
    else mentioning++;
    if (s.selfCite) selfCite = true;
    if (s.section) sections.add(s.section);
  }
  return { supporting, contrasting, mentioning, selfCite, sections: [...sections].sort().join(';') };
}

const NODE_FIELDS = [
  ['label', 'string', (n: GraphNode) => plainTitle(n.title) || n.doi],
  ['doi', 'string', (n: GraphNode) => n.doi],
  ['year', 'int', (n: GraphNode) => n.year],
  ['journal', 'string', (n: GraphNode) => n.journal],
  ['authors', 'string', (n: GraphNode) => n.authors],
  ['citingPublications', 'int', (n: GraphNode) => n.citingPublications],
  ['statements', 'int', (n: GraphNode) => n.tally],
  ['retracted', 'boolean', (n: GraphNode) => n.retracted],
  ['inLibrary', 'boolean', (n: GraphNode) => n.itemId !== null],
] as const;

const EDGE_FIELDS = [
  ['type', 'string', (e: GraphEdge) => edgeType(e) ?? 'mentioning'],
  ['supporting', 'int', (e: GraphEdge) => counts(e).supporting],
  ['contrasting', 'int', (e: GraphEdge) => counts(e).contrasting],
  ['mentioning', 'int', (e: GraphEdge) => counts(e).mentioning],
  ['sections', 'string', (e: GraphEdge) => counts(e).sections],
  ['selfCitation', 'boolean', (e: GraphEdge) => counts(e).selfCite],
] as const;

function value(v: string | number | boolean | null): string | null {
  if (v === null || v === '') return null;
  return xmlText(String(v));
}

export function toGraphml(input: GraphExportInput): string {
  const out: string[] = [];
  out.push('<?xml version="1.0" encoding="UTF-8"?>');
  out.push(
    '<graphml xmlns="http://graphml.graphdrawing.org/xmlns" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="http://graphml.graphdrawing.org/xmlns http://graphml.graphdrawing.org/xmlns/1.0/graphml.xsd">',
  );
  for (const [name, type] of NODE_FIELDS)
    out.push(`  <key id="n_${name}" for="node" attr.name="${name}" attr.type="${type}"/>`);
  if (input.positions)
    for (const axis of ['x', 'y'])
      out.push(`  <key id="n_${axis}" for="node" attr.name="${axis}" attr.type="double"/>`);
  for (const [name, type] of EDGE_FIELDS)
    out.push(`  <key id="e_${name}" for="edge" attr.name="${name}" attr.type="${type}"/>`);
  out.push(`  <graph id="${xmlText(input.title ?? 'citations')}" edgedefault="directed">`);
  for (const n of input.nodes) {
    out.push(`    <node id="${xmlText(n.doi)}">`);
    for (const [name, , get] of NODE_FIELDS) {
      const v = value(get(n));
      if (v !== null) out.push(`      <data key="n_${name}">${v}</data>`);
    }
    const p = input.positions?.[n.doi];
    if (p) out.push(`      <data key="n_x">${p.x}</data>`, `      <data key="n_y">${p.y}</data>`);
    out.push('    </node>');
  }
  input.edges.forEach((e, i) => {
    out.push(`    <edge id="e${i}" source="${xmlText(e.source)}" target="${xmlText(e.target)}">`);
    for (const [name, , get] of EDGE_FIELDS) {
      const v = value(get(e));
      if (v !== null) out.push(`      <data key="e_${name}">${v}</data>`);
    }
    out.push('    </edge>');
  });
  out.push('  </graph>', '</graphml>', '');
  return out.join('\n');
}

const GEXF_TYPE = { string: 'string', int: 'integer', boolean: 'boolean' } as const;

export function toGexf(input: GraphExportInput): string {
  const out: string[] = [];
  const date = (input.now ?? new Date()).toISOString().slice(0, 10);
  out.push('<?xml version="1.0" encoding="UTF-8"?>');
  out.push('<gexf xmlns="http://gexf.net/1.3" xmlns:viz="http://gexf.net/1.3/viz" version="1.3">');
  out.push(
    `  <meta lastmodifieddate="${date}">`,
    '    <creator>Citewise</creator>',
    `    <description>${xmlText(input.title ?? 'Citation graph')}</description>`,
    '  </meta>',
  );
  out.push('  <graph defaultedgetype="directed" mode="static">');
  out.push('    <attributes class="node">');
  // label is the node's own attribute in GEXF.
  const nodeFields = NODE_FIELDS.filter(([name]) => name !== 'label');
  nodeFields.forEach(([name, type], i) =>
    out.push(`      <attribute id="${i}" title="${name}" type="${GEXF_TYPE[type]}"/>`),
  );
  out.push('    </attributes>', '    <attributes class="edge">');
  EDGE_FIELDS.forEach(([name, type], i) =>
    out.push(`      <attribute id="${i}" title="${name}" type="${GEXF_TYPE[type]}"/>`),
  );
  out.push('    </attributes>', '    <nodes>');
  for (const n of input.nodes) {
    out.push(
      `      <node id="${xmlText(n.doi)}" label="${xmlText(plainTitle(n.title) || n.doi)}">`,
      '        <attvalues>',
    );
    nodeFields.forEach(([, , get], i) => {
      const v = value(get(n));
      if (v !== null) out.push(`          <attvalue for="${i}" value="${v}"/>`);
    });
    out.push('        </attvalues>');
    const p = input.positions?.[n.doi];
    if (p) out.push(`        <viz:position x="${p.x}" y="${p.y}" z="0"/>`);
    out.push('      </node>');
  }
  out.push('    </nodes>', '    <edges>');
  input.edges.forEach((e, i) => {
    out.push(
      `      <edge id="${i}" source="${xmlText(e.source)}" target="${xmlText(e.target)}" weight="${Math.max(1, e.statements.length)}">`,
      '        <attvalues>',
    );
    EDGE_FIELDS.forEach(([, , get], j) => {
      const v = value(get(e));
      if (v !== null) out.push(`          <attvalue for="${j}" value="${v}"/>`);
    });
    out.push('        </attvalues>', '      </edge>');
  });
  out.push('    </edges>', '  </graph>', '</gexf>', '');
  return out.join('\n');
}
