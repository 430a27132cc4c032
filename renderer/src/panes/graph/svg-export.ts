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

export function escapeXml(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F]/g, '').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');
}

/** Fits the positions into width × height (y grows downwards in SVG, upwards in the graph). */
export function toSvg(nodes: readonly SvgNode[], edges: readonly SvgEdge[], options: { width: number; height: number; background: string; labelColour: string; title: string }): string {
  const { width, height } = options;
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
  const scale = Math.min((width - 2 * pad) / Math.max(1e-9, maxX - minX), (height - 2 * pad) / Math.max(1e-9, maxY - minY));
  const s = Number.isFinite(scale) && scale > 0 ? scale : 1;
  const ox = (width - (maxX - minX) * s) / 2;
  const oy = (height - (maxY - minY) * s) / 2;
  const px = (x: number) => (ox + (x - minX) * s).toFixed(1);
  const py = (y: number) => (height - oy - (y - minY) * s).toFixed(1);
  const out: string[] = [];
  out.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">`);
  out.push(`<title>${escapeXml(options.title)}</title>`);
  out.push(`<rect width="100%" height="100%" fill="${escapeXml(options.background)}"/>`);
  out.push('<g stroke-linecap="round" stroke-opacity="0.7">');
  for (const e of edges) out.push(`<line x1="${px(e.x1)}" y1="${py(e.y1)}" x2="${px(e.x2)}" y2="${py(e.y2)}" stroke="${escapeXml(e.colour)}" stroke-width="${e.width.toFixed(2)}"/>`);
  out.push('</g><g>');
  for (const n of nodes) {
    const ring = n.ring ? ` stroke="${escapeXml(n.ring)}" stroke-width="2"` : '';
    out.push(`<circle cx="${px(n.x)}" cy="${py(n.y)}" r="${n.size.toFixed(1)}" fill="${escapeXml(n.colour)}"${ring}><title>${escapeXml(n.label ?? n.id)}</title></circle>`);
  }
  out.push(`</g><g font-family="system-ui, sans-serif" font-size="11" fill="${escapeXml(options.labelColour)}">`);
  for (const n of nodes) if (n.label) out.push(`<text x="${(Number(px(n.x)) + n.size + 3).toFixed(1)}" y="${(Number(py(n.y)) + 4).toFixed(1)}">${escapeXml(n.label)}</text>`);
  out.push('</g></svg>');
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
    return await new Promise<Blob>((resolve, reject) => canvas.toBlob((b) => (b ? resolve(b) : reject(new Error('The PNG could not be written.'))), 'image/png'));
  } finally {
    URL.revokeObjectURL(url);
  }
}
