// The graph as an SVG picture of what is on screen (positions, colours, sizes; labels for the papers
// in the library, the selected ones and search matches), and from it a PNG. Built as text with every
// value escaped, so a title can never become markup.

export interface SvgNode {
  id: string;
  x: number;
  y: number;
  size: number;
  colour: string;
  label: string | null;
  ring: string | null;
}

export interface SvgEdge {
  x1: number;
  y1: number;
  x2: number;
  y2: number;
  colour: string;
  width: number;
}

/** The legend under the picture: swatches (a line for an edge type, a dot for papers) and lines of text. */
export interface SvgLegend {
  items: { colour: string; text: string; line: boolean }[];
  notes: string[];
}

const LEGEND_ITEM_WIDTH = 220;
const LEGEND_ROW = 20;

function legendColumns(width: number): number {
  return Math.max(1, Math.floor((width - 40) / LEGEND_ITEM_WIDTH));
}

/** The height the legend adds below the graph (0 without one). */
export function legendHeight(legend: SvgLegend | null | undefined, width: number): number {
  if (!legend || legend.items.length + legend.notes.length === 0) return 0;
  return 24 + Math.ceil(legend.items.length / legendColumns(width)) * LEGEND_ROW + legend.notes.length * LEGEND_ROW;
}

/* eslint-disable-next-line no-control-regex -- control characters are what XML cannot hold */
const XML_CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F]/g;

export function escapeXml(text: string): string {
  return text
    .replace(XML_CONTROL, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

/**
 * Fits the positions into width × height (y grows downwards in SVG, upwards in the graph); a legend
 * goes in a band below, making the picture legendHeight() taller.
 */
export function toSvg(
  nodes: readonly SvgNode[],
  edges: readonly SvgEdge[],
  options: {
    width: number;
    height: number;
    background: string;
    labelColour: string;
    title: string;
    legend?: SvgLegend | null;
  },
): string {
  const { width, height } = options;
  const band = legendHeight(options.legend, width);
  const pad = 40;
  let minX = Infinity;
  let maxX = -Infinity;
  let minY = Infinity;
  let maxY = -Infinity;
  for (const n of nodes) {
    minX = Math.min(minX, n.x);
    maxX = Math.max(maxX, n.x);
    minY = Math.min(minY, n.y);
    maxY = Math.max(maxY, n.y);
  }
  if (!Number.isFinite(minX)) minX = maxX = minY = maxY = 0;
  const scale = Math.min(
    (width - 2 * pad) / Math.max(1e-9, maxX - minX),
    (height - 2 * pad) / Math.max(1e-9, maxY - minY),
  );
  const s = Number.isFinite(scale) && scale > 0 ? scale : 1;
  const ox = (width - (maxX - minX) * s) / 2;
  const oy = (height - (maxY - minY) * s) / 2;
  const px = (x: number) => (ox + (x - minX) * s).toFixed(1);
  const py = (y: number) => (height - oy - (y - minY) * s).toFixed(1);
  const out: string[] = [];
  out.push(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height + band}" viewBox="0 0 ${width} ${height + band}">`,
  );
  out.push(`<title>${escapeXml(options.title)}</title>`);
  out.push(`<rect width="100%" height="100%" fill="${escapeXml(options.background)}"/>`);
  out.push('<g stroke-linecap="round" stroke-opacity="0.7">');
  for (const e of edges)
    out.push(
      `<line x1="${px(e.x1)}" y1="${py(e.y1)}" x2="${px(e.x2)}" y2="${py(e.y2)}" stroke="${escapeXml(e.colour)}" stroke-width="${e.width.toFixed(2)}"/>`,
    );
  out.push('</g><g>');
  for (const n of nodes) {
    const ring = n.ring ? ` stroke="${escapeXml(n.ring)}" stroke-width="2"` : '';
    out.push(
      `<circle cx="${px(n.x)}" cy="${py(n.y)}" r="${n.size.toFixed(1)}" fill="${escapeXml(n.colour)}"${ring}><title>${escapeXml(n.label ?? n.id)}</title></circle>`,
    );
  }
  out.push(`</g><g font-family="system-ui, sans-serif" font-size="11" fill="${escapeXml(options.labelColour)}">`);
  for (const n of nodes)
    if (n.label)
      out.push(
        `<text x="${(Number(px(n.x)) + n.size + 3).toFixed(1)}" y="${(Number(py(n.y)) + 4).toFixed(1)}">${escapeXml(n.label)}</text>`,
      );
  out.push('</g>');
  if (options.legend && band > 0) {
    const { items, notes } = options.legend;
    const columns = legendColumns(width);
    const top = height + 12;
    out.push(
      `<g font-family="system-ui, sans-serif" font-size="13" fill="${escapeXml(options.labelColour)}" data-legend="">`,
    );
    out.push(
      `<line x1="20" y1="${height}" x2="${width - 20}" y2="${height}" stroke="${escapeXml(options.labelColour)}" stroke-opacity="0.25"/>`,
    );
    items.forEach((item, i) => {
      const x = 20 + (i % columns) * LEGEND_ITEM_WIDTH;
      const y = top + Math.floor(i / columns) * LEGEND_ROW + LEGEND_ROW / 2;
      const colour = escapeXml(item.colour);
      out.push(
        item.line
          ? `<rect x="${x}" y="${y - 2}" width="16" height="4" rx="2" fill="${colour}"/>`
          : `<circle cx="${x + 8}" cy="${y}" r="6" fill="${colour}"/>`,
      );
      out.push(`<text x="${x + 24}" y="${y + 4}">${escapeXml(item.text)}</text>`);
    });
    const notesTop = top + Math.ceil(items.length / columns) * LEGEND_ROW;
    notes.forEach((note, i) =>
      out.push(`<text x="20" y="${notesTop + i * LEGEND_ROW + 14}" fill-opacity="0.8">${escapeXml(note)}</text>`),
    );
    out.push('</g>');
  }
  out.push('</svg>');
  return out.join('\n');
}

/** Renders SVG text to a PNG (through an image and a canvas: no foreign content, so nothing taints it). */
export async function svgToPng(svg: string, width: number, height: number, scale = 2): Promise<Blob> {
  const url = URL.createObjectURL(new Blob([svg], { type: 'image/svg+xml' }));
  try {
    const img = new Image();
    img.src = url;
    await img.decode();
    const canvas = document.createElement('canvas');
    canvas.width = width * scale;
    canvas.height = height * scale;
    const ctx = canvas.getContext('2d');
    if (!ctx) throw new Error('This browser cannot draw the picture (no 2D canvas).');
    ctx.scale(scale, scale);
    ctx.drawImage(img, 0, 0, width, height);
    return await new Promise<Blob>((resolve, reject) =>
      canvas.toBlob((b) => (b ? resolve(b) : reject(new Error('The PNG could not be written.'))), 'image/png'),
    );
  } finally {
    URL.revokeObjectURL(url);
  }
}
