// The graph's papers and edges drawn with plain, non-instanced WebGL draws: a sigma custom layer
// program (sigma.addCustomLayerProgram) under sigma's own nodes and labels.
//
// Why: sigma 4 draws every node and edge as one instance of an instanced draw. With software WebGL
// (SwiftShader, what Chromium uses without a GPU) each instance costs about 35 µs however few pixels
// it covers, so 55,000 items took seconds per frame. Here all papers are one draw of points and all
// edges one draw of triangles (two per edge), whose cost is the pixels they cover.
//
// Edges are still the bulk of the pixels: 50,000 long edges take about half a second to rasterise in
// software. Above DIRECT_EDGES edges (or DIRECT_NODES papers) the scene is therefore drawn into an
// offscreen texture, a slice of CHUNK_EDGES edges per frame (so no frame waits long for the
// rasteriser), then the papers, and the texture is what is shown. While the camera moves the view
// moves a copy of the last sharp frame with a CSS transform and this layer draws nothing (`copied`);
// without that copy it shows the texture moved and scaled with the camera. Once the camera has been
// still for SETTLE_MS the scene is drawn again for the new view, slice by slice, the previous frame
// (moved) and the papers standing in until it is complete.
import type { RenderParams } from 'sigma/types';
import type { Scene } from './scene';

/** Up to this many edges and papers are drawn every frame; above, through the texture. */
export const DIRECT_EDGES = 2_000;
const DIRECT_NODES = 1_500;
/** Edges drawn into the texture per frame. */
const CHUNK_EDGES = 2_000;
/** The camera must have been still this long before the edges are drawn again for the new view. */
export const SETTLE_MS = 120;

const NODE_VS = `#version 300 es
in vec2 a_xy;
in float a_size;
in vec4 a_colour;
uniform mat3 u_matrix;
uniform float u_radiusScale;
uniform float u_maxPoint;
out vec4 v_colour;
out float v_radius;
void main() {
  gl_Position = vec4((u_matrix * vec3(a_xy, 1.0)).xy, 0.0, 1.0);
  float r = a_size * u_radiusScale;
  v_radius = min(r, u_maxPoint * 0.5 - 0.5);
  gl_PointSize = 2.0 * v_radius + 1.0;
  v_colour = a_colour;
}`;

const NODE_FS = `#version 300 es
precision mediump float;
in vec4 v_colour;
in float v_radius;
out vec4 fragColor;
void main() {
  vec2 p = (gl_PointCoord * 2.0 - 1.0) * (v_radius + 0.5);
  float a = clamp(v_radius + 0.5 - length(p), 0.0, 1.0) * v_colour.a;
  if (a <= 0.0) discard;
  fragColor = vec4(v_colour.rgb * a, a);
}`;

const EDGE_VS = `#version 300 es
in vec4 a_ends;
in vec2 a_corner;
in float a_width;
in vec4 a_colour;
uniform mat3 u_matrix;
uniform vec2 u_half;
uniform float u_pixelRatio;
out vec4 v_colour;
out float v_across;
out float v_halfWidth;
void main() {
  vec2 s0 = (u_matrix * vec3(a_ends.xy, 1.0)).xy * u_half;
  vec2 s1 = (u_matrix * vec3(a_ends.zw, 1.0)).xy * u_half;
  vec2 d = s1 - s0;
  float len = length(d);
  vec2 dir = len > 0.0001 ? d / len : vec2(1.0, 0.0);
  vec2 normal = vec2(-dir.y, dir.x);
  float halfWidth = max(a_width, 1.0) * u_pixelRatio * 0.5;
  // Just wide enough for the antialiasing ramp (alpha reaches 0 half a pixel out): fill is the cost.
  float reach = halfWidth + 0.5;
  vec2 s = mix(s0, s1, a_corner.x) + normal * a_corner.y * reach;
  gl_Position = vec4(s / u_half, 0.0, 1.0);
  v_across = a_corner.y * reach;
  v_halfWidth = halfWidth;
  v_colour = a_colour;
}`;

const EDGE_FS = `#version 300 es
precision mediump float;
in vec4 v_colour;
in float v_across;
in float v_halfWidth;
out vec4 fragColor;
void main() {
  float a = clamp(v_halfWidth + 0.5 - abs(v_across), 0.0, 1.0) * v_colour.a;
  if (a <= 0.0) discard;
  fragColor = vec4(v_colour.rgb * a, a);
}`;

const BLIT_VS = `#version 300 es
in vec2 a_corner;
uniform mat3 u_transform;
out vec2 v_uv;
void main() {
  gl_Position = vec4((u_transform * vec3(a_corner, 1.0)).xy, 0.0, 1.0);
  v_uv = a_corner * 0.5 + 0.5;
}`;

const BLIT_FS = `#version 300 es
precision mediump float;
uniform sampler2D u_texture;
in vec2 v_uv;
out vec4 fragColor;
void main() {
  fragColor = texture(u_texture, v_uv);
}`;

/** The six corners of an edge's quad: (along, side). */
const EDGE_CORNERS = [0, -1, 1, -1, 0, 1, 0, 1, 1, -1, 1, 1];
/** The texture unit the edge texture is bound to: clear of sigma's data textures (1–4) and its atlases (0). */
const UNIT = 7;

interface Program {
  program: WebGLProgram;
  vao: WebGLVertexArrayObject;
  uniforms: Record<string, WebGLUniformLocation | null>;
}

interface Target {
  texture: WebGLTexture;
  framebuffer: WebGLFramebuffer;
  width: number;
  height: number;
  /** The view (sigma's matrix) and the data version the texture holds. */
  matrix: Float32Array;
  version: number;
  /** Edges drawn so far; complete when equal to the scene's edge count. */
  drawn: number;
}

function compile(
  gl: WebGL2RenderingContext,
  vs: string,
  fs: string,
  uniforms: string[],
): { program: WebGLProgram; uniforms: Record<string, WebGLUniformLocation | null> } {
  const program = gl.createProgram();
  for (const [type, source] of [
    [gl.VERTEX_SHADER, vs],
    [gl.FRAGMENT_SHADER, fs],
  ] as const) {
    const shader = gl.createShader(type)!;
    gl.shaderSource(shader, source);
    gl.compileShader(shader);
    gl.attachShader(program, shader);
    gl.deleteShader(shader);
  }
  gl.linkProgram(program);
  if (!gl.getProgramParameter(program, gl.LINK_STATUS))
    throw new Error(`bulk layer: ${gl.getProgramInfoLog(program) ?? 'link failed'}`);
  return { program, uniforms: Object.fromEntries(uniforms.map((u) => [u, gl.getUniformLocation(program, u)])) };
}

/** a · b for sigma's 3×3 column-major matrices. */
function multiply(a: Float32Array, b: Float32Array): Float32Array {
  const out = new Float32Array(9);
  for (let c = 0; c < 3; c++)
    for (let r = 0; r < 3; r++)
      out[c * 3 + r] = a[r]! * b[c * 3]! + a[3 + r]! * b[c * 3 + 1]! + a[6 + r]! * b[c * 3 + 2]!;
  return out;
}

function same(a: Float32Array, b: Float32Array): boolean {
  for (let i = 0; i < 9; i++) if (Math.abs(a[i]! - b[i]!) > 1e-7 * Math.max(1, Math.abs(a[i]!))) return false;
  return true;
}

function invert(m: Float32Array): Float32Array {
  const [a, b, c, d, e, f, g, h, i] = m as unknown as number[];
  const A = e! * i! - f! * h!;
  const B = -(d! * i! - f! * g!);
  const C = d! * h! - e! * g!;
  const det = a! * A + b! * B + c! * C;
  const k = det === 0 ? 0 : 1 / det;
  return new Float32Array([
    A * k,
    -(b! * i! - c! * h!) * k,
    (b! * f! - c! * e!) * k,
    B * k,
    (a! * i! - c! * g!) * k,
    -(a! * f! - c! * d!) * k,
    C * k,
    -(a! * h! - b! * g!) * k,
    (a! * e! - b! * d!) * k,
  ]);
}

const IDENTITY = new Float32Array([1, 0, 0, 0, 1, 0, 0, 0, 1]);

export class BulkLayer {
  readonly #gl: WebGL2RenderingContext;
  readonly #requestFrame: () => void;
  readonly #nodes: Program;
  readonly #edges: Program;
  readonly #blit: Program;
  readonly #nodeBuffers: WebGLBuffer[];
  readonly #edgeBuffers: WebGLBuffer[];
  readonly #quad: WebGLBuffer;
  readonly #maxPoint: number;
  #params: RenderParams | null = null;
  #nodeCount = 0;
  #edgeCount = 0;
  #version = 0;
  #shown: Target | null = null;
  #drawing: Target | null = null;
  #lastMatrix = new Float32Array(9);
  #lastMove = 0;
  #settleTimer: ReturnType<typeof setTimeout> | null = null;
  /**
   * Set by the view when it holds a copy of the last sharp frame for these data, which it moves
   * with a CSS transform (compositor only) while the camera moves: the layer then draws nothing.
   */
  copied = false;
  /** Whether the last frame drawn shows the current data whole (for the view to copy). */
  sharp = false;

  constructor(gl: WebGL2RenderingContext, requestFrame: () => void) {
    this.#gl = gl;
    this.#requestFrame = requestFrame;
    const range = gl.getParameter(gl.ALIASED_POINT_SIZE_RANGE) as Float32Array | null;
    this.#maxPoint = range ? range[1]! : 64;

    const n = compile(gl, NODE_VS, NODE_FS, ['u_matrix', 'u_radiusScale', 'u_maxPoint']);
    const nodeVao = gl.createVertexArray();
    gl.bindVertexArray(nodeVao);
    this.#nodeBuffers = [
      this.#attribute(n.program, 'a_xy', 2, gl.FLOAT, false, 0),
      this.#attribute(n.program, 'a_size', 1, gl.FLOAT, false, 0),
      this.#attribute(n.program, 'a_colour', 4, gl.UNSIGNED_BYTE, true, 0),
    ];
    this.#nodes = { ...n, vao: nodeVao };

    const e = compile(gl, EDGE_VS, EDGE_FS, ['u_matrix', 'u_half', 'u_pixelRatio']);
    const edgeVao = gl.createVertexArray();
    gl.bindVertexArray(edgeVao);
    this.#edgeBuffers = [
      this.#attribute(e.program, 'a_ends', 4, gl.FLOAT, false, 0),
      this.#attribute(e.program, 'a_corner', 2, gl.FLOAT, false, 0),
      this.#attribute(e.program, 'a_width', 1, gl.FLOAT, false, 0),
      this.#attribute(e.program, 'a_colour', 4, gl.UNSIGNED_BYTE, true, 0),
    ];
    this.#edges = { ...e, vao: edgeVao };

    const b = compile(gl, BLIT_VS, BLIT_FS, ['u_transform', 'u_texture']);
    const blitVao = gl.createVertexArray();
    gl.bindVertexArray(blitVao);
    const quad = this.#attribute(b.program, 'a_corner', 2, gl.FLOAT, false, 0);
    this.#quad = quad;
    gl.bindBuffer(gl.ARRAY_BUFFER, quad);
    gl.bufferData(gl.ARRAY_BUFFER, new Float32Array([-1, -1, 1, -1, -1, 1, 1, 1]), gl.STATIC_DRAW);
    this.#blit = { ...b, vao: blitVao };
    gl.bindVertexArray(null);
    gl.bindBuffer(gl.ARRAY_BUFFER, null);
    this.#warmUp();
  }

  /**
   * One invisible paper and edge drawn now: software WebGL compiles a program's pipeline at its first
   * draw (tens of milliseconds), which would otherwise land in the frame that first shows edges.
   */
  #warmUp(): void {
    const gl = this.#gl;
    this.setScene({
      nodeIds: ['·'],
      nodeXY: new Float32Array(2),
      nodeSize: new Float32Array(1),
      nodeColour: new Uint8Array(4),
      edgeIds: ['·'],
      edgeXY: new Float32Array(4),
      edgeWidth: new Float32Array(1),
      edgeColour: new Uint8Array(4),
      extent: { x: [0, 1], y: [0, 1] },
    });
    gl.enable(gl.BLEND);
    gl.blendFunc(gl.ONE, gl.ONE_MINUS_SRC_ALPHA);
    const params = {
      matrix: IDENTITY,
      width: 1,
      height: 1,
      pixelRatio: 1,
      correctionRatio: 1,
      sizeRatio: 1,
    } as RenderParams;
    this.#drawEdges(params, 0, 1);
    this.#drawNodes(params);
    gl.bindVertexArray(null);
    this.setScene({
      nodeIds: [],
      nodeXY: new Float32Array(0),
      nodeSize: new Float32Array(0),
      nodeColour: new Uint8Array(0),
      edgeIds: [],
      edgeXY: new Float32Array(0),
      edgeWidth: new Float32Array(0),
      edgeColour: new Uint8Array(0),
      extent: { x: [0, 1], y: [0, 1] },
    });
  }

  #attribute(
    program: WebGLProgram,
    name: string,
    size: number,
    type: number,
    normalised: boolean,
    divisor: number,
  ): WebGLBuffer {
    const gl = this.#gl;
    const buffer = gl.createBuffer();
    const location = gl.getAttribLocation(program, name);
    gl.bindBuffer(gl.ARRAY_BUFFER, buffer);
    if (location >= 0) {
      gl.enableVertexAttribArray(location);
      gl.vertexAttribPointer(location, size, type, normalised, 0, 0);
      gl.vertexAttribDivisor(location, divisor);
    }
    return buffer;
  }

  /** New data: uploaded once, drawn until the next. */
  setScene(scene: Scene): void {
    const gl = this.#gl;
    this.copied = false;
    this.#nodeCount = scene.nodeIds.length;
    this.#edgeCount = scene.edgeIds.length;
    const [xy, size, colour] = this.#nodeBuffers;
    for (const [buffer, data] of [
      [xy, scene.nodeXY],
      [size, scene.nodeSize],
      [colour, scene.nodeColour],
    ] as const) {
      gl.bindBuffer(gl.ARRAY_BUFFER, buffer!);
      gl.bufferData(gl.ARRAY_BUFFER, data, gl.DYNAMIC_DRAW);
    }
    // Six vertices per edge, each carrying the edge's ends, width and colour.
    const m = this.#edgeCount;
    const ends = new Float32Array(m * 24);
    const corners = new Float32Array(m * 12);
    const widths = new Float32Array(m * 6);
    const colours = new Uint8Array(m * 24);
    const c32 = new Uint32Array(colours.buffer);
    const src32 = new Uint32Array(scene.edgeColour.buffer, scene.edgeColour.byteOffset, m);
    for (let j = 0; j < m; j++) {
      const x0 = scene.edgeXY[j * 4]!;
      const y0 = scene.edgeXY[j * 4 + 1]!;
      const x1 = scene.edgeXY[j * 4 + 2]!;
      const y1 = scene.edgeXY[j * 4 + 3]!;
      const w = scene.edgeWidth[j]!;
      const c = src32[j]!;
      for (let v = 0; v < 6; v++) {
        const k = j * 6 + v;
        ends[k * 4] = x0;
        ends[k * 4 + 1] = y0;
        ends[k * 4 + 2] = x1;
        ends[k * 4 + 3] = y1;
        corners[k * 2] = EDGE_CORNERS[v * 2]!;
        corners[k * 2 + 1] = EDGE_CORNERS[v * 2 + 1]!;
        widths[k] = w;
        c32[k] = c;
      }
    }
    const [eEnds, eCorners, eWidths, eColours] = this.#edgeBuffers;
    for (const [buffer, data] of [
      [eEnds, ends],
      [eCorners, corners],
      [eWidths, widths],
      [eColours, colours],
    ] as const) {
      gl.bindBuffer(gl.ARRAY_BUFFER, buffer!);
      gl.bufferData(gl.ARRAY_BUFFER, data, gl.DYNAMIC_DRAW);
    }
    gl.bindBuffer(gl.ARRAY_BUFFER, null);
    this.#version++;
  }

  /** The camera moved within the last SETTLE_MS: a textured scene shows its last frame moved meanwhile. */
  get moving(): boolean {
    return performance.now() - this.#lastMove < SETTLE_MS;
  }

  /** Whether the scene is drawn through the texture (and so only moved and scaled while the camera moves). */
  get textured(): boolean {
    return this.#edgeCount > DIRECT_EDGES || this.#nodeCount > DIRECT_NODES;
  }

  /** A paper's radius in framed graph units at the last frame's zoom (as sigma's node shader sizes it). */
  radius(size: number): number {
    const p = this.#params;
    return p ? ((size * p.correctionRatio) / p.sizeRatio) * 2 : 0;
  }

  render(params: RenderParams): void {
    const gl = this.#gl;
    this.#params = params;
    this.sharp = false;
    const now = performance.now();
    if (!same(params.matrix, this.#lastMatrix)) {
      this.#lastMatrix = new Float32Array(params.matrix);
      this.#lastMove = now;
    }
    const width = params.width * params.pixelRatio;
    const height = params.height * params.pixelRatio;
    gl.enable(gl.BLEND);
    gl.blendFunc(gl.ONE, gl.ONE_MINUS_SRC_ALPHA);

    if (!this.textured) {
      if (this.#edgeCount > 0) this.#drawEdges(params, 0, this.#edgeCount);
      this.#drawNodes(params);
    } else if (!this.#textured(params, width, height, now)) {
      this.#drawNodes(params);
    }
    gl.bindVertexArray(null);
  }

  #drawNodes(params: RenderParams, matrix: Float32Array = params.matrix): void {
    if (this.#nodeCount === 0) return;
    const gl = this.#gl;
    const p = this.#nodes;
    gl.useProgram(p.program);
    gl.bindVertexArray(p.vao);
    gl.uniformMatrix3fv(p.uniforms.u_matrix!, false, matrix);
    // sigma's node shader: radius (framed units) = size × correctionRatio / sizeRatio × 2, then the
    // matrix's scale and half the viewport in pixels.
    const scale = Math.hypot(matrix[0]!, matrix[3]!);
    gl.uniform1f(
      p.uniforms.u_radiusScale!,
      ((params.correctionRatio / params.sizeRatio) * 2 * scale * params.width * params.pixelRatio) / 2,
    );
    gl.uniform1f(p.uniforms.u_maxPoint!, this.#maxPoint);
    gl.drawArrays(gl.POINTS, 0, this.#nodeCount);
  }

  #drawEdges(params: RenderParams, from: number, count: number, matrix: Float32Array = params.matrix): void {
    const gl = this.#gl;
    const p = this.#edges;
    gl.useProgram(p.program);
    gl.bindVertexArray(p.vao);
    gl.uniformMatrix3fv(p.uniforms.u_matrix!, false, matrix);
    gl.uniform2f(p.uniforms.u_half!, (params.width * params.pixelRatio) / 2, (params.height * params.pixelRatio) / 2);
    gl.uniform1f(p.uniforms.u_pixelRatio!, params.pixelRatio);
    gl.drawArrays(gl.TRIANGLES, from * 6, count * 6);
  }

  /**
   * Draws the texture (or its next slice) and shows it. True when what is shown holds the current
   * papers where they are now, false while the texture is being drawn again (the caller then draws
   * the papers directly).
   */
  #textured(params: RenderParams, width: number, height: number, now: number): boolean {
    const shown = this.#shown;
    const fresh = shown !== null && shown.version === this.#version && shown.width === width && shown.height === height;
    if (fresh && same(shown.matrix, params.matrix)) {
      this.#composite(shown, IDENTITY);
      this.sharp = true;
      return true;
    }
    const still = now - this.#lastMove >= SETTLE_MS;
    if (!still) {
      // Moving: the view moves its copy of the last whole frame; without one, the last texture moved
      // with the camera, or (its data changed since: the redraw waits for the camera to stop) the
      // papers alone, drawn by the caller. Either is a whole frame the view can copy for what follows.
      this.#drawing = null;
      this.#settleTimer ??= setTimeout(() => {
        this.#settleTimer = null;
        this.#requestFrame();
      }, SETTLE_MS + 10);
      if (this.copied) return true;
      this.sharp = true;
      if (!fresh) return false;
      this.#composite(shown, multiply(params.matrix, invert(shown.matrix)));
      return true;
    }
    const gl = this.#gl;
    let target = this.#drawing;
    if (
      !target ||
      target.version !== this.#version ||
      target.width !== width ||
      target.height !== height ||
      !same(target.matrix, params.matrix)
    ) {
      target = this.#target(target && target !== shown ? target : null, width, height);
      target.matrix = new Float32Array(params.matrix);
      target.version = this.#version;
      target.drawn = 0;
      this.#drawing = target;
      gl.bindFramebuffer(gl.FRAMEBUFFER, target.framebuffer);
      gl.viewport(0, 0, width, height);
      gl.clearColor(0, 0, 0, 0);
      gl.clear(gl.COLOR_BUFFER_BIT);
    }
    gl.bindFramebuffer(gl.FRAMEBUFFER, target.framebuffer);
    gl.viewport(0, 0, width, height);
    // Slices of edges, then the papers over them.
    if (target.drawn < this.#edgeCount) {
      const count = Math.min(CHUNK_EDGES, this.#edgeCount - target.drawn);
      this.#drawEdges(params, target.drawn, count, target.matrix);
      target.drawn += count;
    } else {
      this.#drawNodes(params, target.matrix);
      target.drawn += 1;
    }
    gl.bindFramebuffer(gl.FRAMEBUFFER, null);
    gl.viewport(0, 0, width, height);
    if (target.drawn > this.#edgeCount) {
      // Complete: it replaces the texture shown (whose storage the next redraw reuses).
      this.#drawing = shown;
      if (shown) shown.version = -1;
      this.#shown = target;
      this.#composite(target, IDENTITY);
      this.sharp = true;
      return true;
    }
    this.#requestFrame();
    // Until then: the previous frame moved to this view if it holds these data (where it does not reach
    // there are no edges yet), else the edges drawn so far; the papers drawn directly over either.
    if (fresh) this.#composite(shown, multiply(params.matrix, invert(shown.matrix)));
    else this.#composite(target, IDENTITY);
    return false;
  }

  #target(reuse: Target | null, width: number, height: number): Target {
    const gl = this.#gl;
    if (reuse && reuse.width === width && reuse.height === height) return reuse;
    if (reuse) this.#free(reuse);
    const texture = gl.createTexture();
    gl.activeTexture(gl.TEXTURE0 + UNIT);
    gl.bindTexture(gl.TEXTURE_2D, texture);
    gl.texImage2D(gl.TEXTURE_2D, 0, gl.RGBA, width, height, 0, gl.RGBA, gl.UNSIGNED_BYTE, null);
    // Nearest: exact when the view has not moved, and a third cheaper than linear in software while it moves.
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.NEAREST);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.NEAREST);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_S, gl.CLAMP_TO_EDGE);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_T, gl.CLAMP_TO_EDGE);
    const framebuffer = gl.createFramebuffer();
    gl.bindFramebuffer(gl.FRAMEBUFFER, framebuffer);
    gl.framebufferTexture2D(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT0, gl.TEXTURE_2D, texture, 0);
    gl.bindFramebuffer(gl.FRAMEBUFFER, null);
    gl.activeTexture(gl.TEXTURE0);
    return { texture, framebuffer, width, height, matrix: new Float32Array(9), version: -1, drawn: 0 };
  }

  #free(target: Target): void {
    this.#gl.deleteFramebuffer(target.framebuffer);
    this.#gl.deleteTexture(target.texture);
  }

  /** The texture's frame drawn through `transform` (clip space of its view → clip space now). */
  #composite(target: Target, transform: Float32Array): void {
    const gl = this.#gl;
    const p = this.#blit;
    gl.useProgram(p.program);
    gl.bindVertexArray(p.vao);
    gl.activeTexture(gl.TEXTURE0 + UNIT);
    gl.bindTexture(gl.TEXTURE_2D, target.texture);
    gl.uniform1i(p.uniforms.u_texture!, UNIT);
    gl.uniformMatrix3fv(p.uniforms.u_transform!, false, transform);
    // The first thing drawn over a cleared frame: copied, not blended (a third cheaper in software).
    gl.disable(gl.BLEND);
    gl.drawArrays(gl.TRIANGLE_STRIP, 0, 4);
    gl.enable(gl.BLEND);
    gl.bindTexture(gl.TEXTURE_2D, null);
    gl.activeTexture(gl.TEXTURE0);
  }

  kill(): void {
    const gl = this.#gl;
    if (this.#settleTimer) clearTimeout(this.#settleTimer);
    for (const t of new Set([this.#shown, this.#drawing])) if (t) this.#free(t);
    for (const b of [...this.#nodeBuffers, ...this.#edgeBuffers, this.#quad]) gl.deleteBuffer(b);
    for (const p of [this.#nodes, this.#edges, this.#blit]) {
      gl.deleteVertexArray(p.vao);
      gl.deleteProgram(p.program);
    }
  }
}
