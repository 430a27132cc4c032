// The iteration step of graphology-layout-forceatlas2 (CommonJS, untyped): one pass over the node and
// edge matrices the layout worker builds (10 floats per node, 3 per edge), moving the nodes in place.
declare module 'graphology-layout-forceatlas2/iterate.js' {
  export default function iterate(
    settings: Record<string, number | boolean>,
    nodes: Float32Array,
    edges: Float32Array,
  ): void;
}
